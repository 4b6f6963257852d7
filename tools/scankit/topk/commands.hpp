// `bench topk`, `sweep topk` and `verify topk`: their options (filled by topk/primitive.cpp)
// and their implementations (topk/bench.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/commands.hpp"

namespace scankit::tools {

struct topk_common_options {
  std::string type = "f32";     // u8 u16 u32 u64 i8 i16 i32 i64 f32 f64
  std::int64_t k = 8;
  std::int64_t rows = 0;        // 0: one array; else rows x (n / rows), topk_rows
  bool smallest = false;        // the k smallest (ascending) instead of the k largest
  std::string algo = "all";     // all, gpu, cpu, or a list of rows
  std::string path = "auto";    // the GPU path forced: auto sampled radix block sort
  std::string split = "auto";   // long rows split into chunks: auto, always, never
  std::string compare = "read";  // baselines: read (a kernel that reads the input once), none
  int reps = 20;
  std::optional<std::uint64_t> seed;
};

struct topk_bench_options : topk_common_options {
  std::string n;  // default 2^28 with a GPU, 2^24 without
  std::string json;
};

struct topk_sweep_options : topk_common_options {
  int min_log = 10, max_log = 28;
  std::string out;  // prefix; default sweep-topk-<type>-k<k>
  bool no_plot = false;
};

struct topk_verify_options : verify_options {
  std::string algo = "all";
};

int run_topk_bench(const topk_bench_options& o);
int run_topk_sweep(const topk_sweep_options& o);
int run_topk_verify(const topk_verify_options& o);

/// Row names `--algo` accepts (topk/names.cpp): the GPU row, then the CPU rows.
std::vector<std::string> topk_row_names();
std::vector<std::string> topk_gpu_row_names();
std::vector<std::string> topk_cpu_row_names();
/// The words of --path: name(cuda::topk_path) of each path, spelled here so that a build
/// without CUDA parses the same command lines.
std::vector<std::string> topk_path_names();
/// The words of --split: name(cuda::topk_split) of each choice.
std::vector<std::string> topk_split_names();
/// The key types of --type (every key type of the radix sorts).
std::vector<std::string> topk_type_names();

}  // namespace scankit::tools
