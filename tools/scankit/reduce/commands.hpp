// `bench reduce`, `sweep reduce` and `verify reduce`: their options (filled by
// reduce/primitive.cpp) and their implementations (reduce/bench.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/commands.hpp"

namespace scankit::tools {

struct reduce_common_options {
  std::string type = "f32";     // i32 u32 i64 u64 f32 f64
  std::string op = "sum";       // sum product min max argmin argmax min_max
  std::string algo = "all";     // all, gpu, cpu, or a list of rows
  std::string compare = "cub,read";  // baselines: cub, read (a kernel that reads the input once)
  int reps = 20;
  std::optional<std::uint64_t> seed;
};

struct reduce_bench_options : reduce_common_options {
  std::string n;  // default 2^28 with a GPU, 2^26 without
  std::string json;
};

struct reduce_sweep_options : reduce_common_options {
  int min_log = 10, max_log = 28;
  std::string out;  // prefix; default sweep-reduce-<op>-<type>
  bool no_plot = false;
};

struct reduce_verify_options : verify_options {
  std::string algo = "all";
};

int run_reduce_bench(const reduce_bench_options& o);
int run_reduce_sweep(const reduce_sweep_options& o);
int run_reduce_verify(const reduce_verify_options& o);

/// Row names `--algo` accepts (reduce/names.cpp): the GPU row, then the CPU rows.
std::vector<std::string> reduce_row_names();
std::vector<std::string> reduce_gpu_row_names();
std::vector<std::string> reduce_cpu_row_names();
/// The operations of --op.
std::vector<std::string> reduce_op_names();

}  // namespace scankit::tools
