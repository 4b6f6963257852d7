// `bench segments`, `sweep segments` and `verify segments`: their options (filled by
// segments/primitive.cpp) and their implementations (segments/bench.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/commands.hpp"

namespace scankit::tools {

struct segments_common_options {
  std::string type = "f32";          // i32 u32 i64 u64 f32 f64
  std::string op = "reduce";         // reduce scan scan-flags scan-by-key reduce-by-key
  std::string dist = "uniform";      // uniform powerlaw single ones empty
  std::string algo = "all";          // all, gpu, cpu, or a list of rows
  std::string compare = "cub,read,copy";  // baselines: cub, read (reduce ops), copy (scan ops)
  int reps = 20;
  std::optional<std::uint64_t> seed;
};

struct segments_bench_options : segments_common_options {
  std::string n;                              // default 2^28 with a GPU, 2^24 without
  std::string mean = "1,8,32,256,65536";      // mean segment lengths, one table each
  std::string json;
};

struct segments_sweep_options : segments_common_options {
  std::string over = "size";  // size (n = 2^k at one --mean) or mean (mean = 2^k at one -n)
  std::optional<int> min_log, max_log;  // size: 10..28; mean: 0..16
  std::string n;                        // --over mean: default 2^24 with a GPU, 2^20 without
  std::string mean = "32";              // --over size: one mean
  std::string out;                      // prefix; default sweep-segments-<op>-<dist>-<type>
  bool no_plot = false;
};

struct segments_verify_options : verify_options {
  std::string algo = "all";
};

int run_segments_bench(const segments_bench_options& o);
int run_segments_sweep(const segments_sweep_options& o);
int run_segments_verify(const segments_verify_options& o);

/// Row names `--algo` accepts (segments/names.cpp): the GPU rows, then the CPU rows.
std::vector<std::string> segments_row_names();
/// Whether a GPU row computes segmented reductions only (--op reduce).
bool segments_row_reduce_only(const std::string& row);
std::vector<std::string> segments_gpu_row_names();
std::vector<std::string> segments_cpu_row_names();
/// The operations of --op and the segment-length distributions of --dist.
std::vector<std::string> segments_op_names();
std::vector<std::string> segments_dist_names();

}  // namespace scankit::tools
