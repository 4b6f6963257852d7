// `bench compact`, `sweep compact` and `verify compact`: their options (filled by
// compact/primitive.cpp from the command line) and their implementations (compact/bench.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/commands.hpp"

namespace scankit::tools {

struct compact_common_options {
  std::string op = "select_if";  // select_if | remove_if | select_flagged | partition | unique | unique_count | nonzero
  std::string type = "u32";
  std::optional<double> selectivity;  // fraction of items selected; absent: random values in 0..3
  std::string order = "reversed";     // partition's rejected order
  std::string algo = "all";
  std::string compare = "cub,copy";
  int block_size = 0;
  std::string tile = "auto";  // single-pass tile size: auto | small | medium | segmented | all
  int reps = 10;
  std::optional<std::uint64_t> seed;
  bool device_only = false;
};

struct compact_bench_options : compact_common_options {
  std::string n;  // empty: 2^28 with a GPU, 2^26 without
  std::string json;
};

struct compact_sweep_options : compact_common_options {
  int min_log = 10, max_log = 30;
  std::string out;
  bool no_plot = false;
};

using compact_verify_options = verify_options;

int run_compact_bench(const compact_bench_options& o);
int run_compact_sweep(const compact_sweep_options& o);
int run_compact_verify(const compact_verify_options& o);

/// Names accepted by --op and --algo.
const char* const* compact_op_names();
std::string compact_algo_names();
std::string check_compact_algo_list(const std::string& s);

}  // namespace scankit::tools
