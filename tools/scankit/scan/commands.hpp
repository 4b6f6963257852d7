// `bench scan`, `sweep scan` and `verify scan`: their options (filled by scan/primitive.cpp
// from the command line) and their implementations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/commands.hpp"

namespace scankit::tools {

/// Options every scan command shares.
struct scan_common_options {
  std::string type = "i32";
  std::string op = "sum";
  bool exclusive = false;
  std::string algo = "all";                // "all" or a comma-separated list of rows
  std::string compare = "cub,thrust,copy";  // baselines, or "none"
  int block_size = 0;                      // 0: each algorithm's default
  int reps = 10;
  std::optional<std::uint64_t> seed;       // random (and printed) when absent
  bool device_only = false;                // skip the with-copies (scan_host) timing
};

struct scan_bench_options : scan_common_options {
  std::string n;  // empty: 123123123 with a GPU, 2^26 without
  std::string json;
};

struct scan_sweep_options : scan_common_options {
  std::string over = "size";  // size | block-size
  int min_log = 10, max_log = 30;
  std::string n;  // block-size sweep: the size (default 2^24)
  std::string out;  // prefix; default sweep-scan-<over>
  bool no_plot = false;
};

struct scan_verify_options : verify_options {
  std::string algo = "all";
};

int run_scan_bench(const scan_bench_options& o);
int run_scan_sweep(const scan_sweep_options& o);
int run_scan_verify(const scan_verify_options& o);

}  // namespace scankit::tools
