// `bench sort`, `sweep sort` and `verify sort`: their options (filled by sort/primitive.cpp)
// and their implementations (sort/bench.cpp; with --segments, sort/segmented_bench.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/commands.hpp"

namespace scankit::tools {

struct sort_common_options {
  std::string type = "u32";        // key type: u8 u16 u32 u64 i8 i16 i32 i64 f32 f64
  bool pairs = false;               // key-value pairs (values: --value-bytes)
  int value_bytes = 4;              // 4, 8 or 16 (with --pairs)
  int bits = 0;                     // 0: full width; else keys vary in the low B ordered bits
  bool no_range = false;            // with --bits: do not pass the bit range to the sorts
  bool descending = false;
  std::string algo = "all";         // all, or a list of rows
  bool no_cub = false;
  int reps = 10;
  std::optional<std::uint64_t> seed;
};

struct sort_bench_options : sort_common_options {
  std::string n;  // default 2^28 with a GPU, 2^26 without (with --segments: 2^26, 2^22)
  std::string json;
  std::string segments;      // empty: the flat sort; else a segment-length distribution (segments_dist_names)
  std::string mean = "256";  // --segments: the mean segment length (a count >= 1)
};

struct sort_sweep_options : sort_common_options {
  int min_log = 10, max_log = 30;
  std::string out;  // prefix; default sweep-sort-<type>
  bool no_plot = false;  // skip tools/plot_sort.py
};

struct sort_verify_options : verify_options {
  std::string algo = "all";
};

int run_sort_bench(const sort_bench_options& o);  // with --segments: run_sort_segmented_bench
int run_sort_sweep(const sort_sweep_options& o);
int run_sort_verify(const sort_verify_options& o);

/// `bench sort --segments DIST` (sort/segmented_bench.cpp).
int run_sort_segmented_bench(const sort_bench_options& o);

/// One random segmented case of `verify sort` (sort/segmented_bench.cpp), drawn from `seed`:
/// through each of `rows` (cpu-parallel, scankit) against the serial reference, bitwise. A
/// passing row adds one to `passed`; a failing one (or an error) appends its description.
void verify_sort_segmented_case(std::uint64_t seed, const std::vector<std::string>& rows, int& passed,
                                std::vector<std::string>& failures);

/// Row names `--algo` accepts: the GPU rows, then the CPU rows (sort/names.cpp).
std::vector<std::string> sort_row_names();
std::vector<std::string> sort_gpu_row_names();
std::vector<std::string> sort_cpu_row_names();
/// The rows of `bench sort --segments`: the GPU rows (scankit's segmented sort, the two CUB
/// segmented sorts, scankit's flat sort of the same keys), then the CPU rows.
std::vector<std::string> sort_segmented_row_names();
std::vector<std::string> sort_segmented_gpu_row_names();
std::vector<std::string> sort_segmented_cpu_row_names();

}  // namespace scankit::tools
