// `bench histogram`, `sweep histogram`, `verify histogram` and `scankit histogram FILE`:
// their options (filled by histogram/primitive.cpp) and implementations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "common/commands.hpp"

namespace scankit::tools {

/// Options every histogram measurement shares.
struct histogram_common_options {
  std::string type = "u8";            // u8 u16 i32 u32 i64 f32 f64
  std::string counter = "u32";        // u32 | u64
  std::int64_t bins = 256;
  std::string distribution = "uniform";  // uniform | one-bin | normal
  std::string bins_kind = "even";     // even | range (sorted edges)
  std::string algo = "all";           // "all" or a comma-separated list of rows
  std::string compare = "cub,read,copy";
  int reps = 10;
  int block_size = 0;                 // 0: each algorithm's default
  std::optional<std::uint64_t> seed;
};

struct histogram_bench_options : histogram_common_options {
  std::string n;  // empty: 1 GiB of samples with a GPU, 2^26 bytes' worth without
  std::string json;
};

struct histogram_sweep_options : histogram_common_options {
  std::string over = "bins";  // bins | size
  int min_log = 0, max_log = 20;  // log2 of the bins or of the size
  std::string n;                  // bins sweep: the size (default 2^28 bytes' worth)
  std::string out;
  bool no_plot = false;
};

struct histogram_verify_options : verify_options {
  std::string algo = "all";
};

struct histogram_file_options {
  std::string file;
  std::int64_t bins = 256;
  std::string plot;
  bool cpu = false;
  int width = 50;
};

/// The sample type names (u8 ...) and the row names --algo accepts (besides "all").
std::vector<std::string> histogram_type_names();
std::vector<std::string> histogram_algo_names();

int run_histogram_bench(const histogram_bench_options& o);
int run_histogram_sweep(const histogram_sweep_options& o);
int run_histogram_verify(const histogram_verify_options& o);
int run_histogram_file(const histogram_file_options& o);

/// Reads `in` to its end in chunks of `chunk` bytes and adds the histogram of its bytes (`bins`
/// even bins over [0, 256)) to `counts`, on the GPU when `use_gpu`. Returns the bytes read;
/// throws scankit::error naming `name` and the reason (strerror) when reading fails.
/// `on_chunk(bytes so far)` runs after each chunk.
std::uint64_t read_byte_histogram(std::istream& in, const std::string& name, std::int64_t bins, bool use_gpu,
                                  std::vector<std::uint64_t>& counts,
                                  const std::function<void(std::uint64_t)>& on_chunk = {},
                                  std::size_t chunk = std::size_t{256} << 20);

}  // namespace scankit::tools
