// `bench <primitive> --gpus N`: the distributed benchmark of the NCCL primitives
// (scankit/dist/nccl.cuh), in one process driving N GPUs or, under an MPI launcher, one process
// per GPU. Each primitive's bench adds --gpus (and the sort --keys) with add_dist_options; with
// --gpus its callback hands a dist_bench_options to run_dist_bench (dist/bench.cu) instead of
// running the one-GPU bench. Builds without NCCL reject --gpus while parsing (exit status 2).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace scankit::tools {

/// What --gpus and --keys fill while the command line is parsed.
struct dist_cli_options {
  std::string gpus;              // empty: the one-GPU bench
  std::string keys = "uniform";  // sort: uniform | equal | zipf | sorted | all
  std::string split = "automatic";  // sort: automatic | radix | samples
  int exchange_parts = 0;           // sort: scankit::dist::sort_config::exchange_parts
};

/// Everything the distributed bench runs.
struct dist_bench_options {
  std::string primitive;  // scan | compact | histogram | sort
  int gpus = 1;           // GPUs of this process (1 under an MPI launcher)
  std::string n;          // scan, compact, histogram: items per GPU; sort: keys in all
  std::string type;
  int value_bytes = 0;    // sort: 0 keys only, else 4 or 8 (u32 or u64 values)
  std::string keys = "uniform";
  std::string split = "automatic";  // sort: scankit::dist::sort_config::split
  int exchange_parts = 0;           // sort: scankit::dist::sort_config::exchange_parts
  double selectivity = 0.5;  // compact
  int reps = 10;
  std::optional<std::uint64_t> seed;
  std::string json;
};

/// For CLI11's check(): "" when `s` is a whole number of GPUs (1 or more), else the reason.
std::string check_gpu_count(const std::string& s);

/// Adds --gpus N (and, for the sort, --keys and --split) to a bench command.
void add_dist_options(CLI::App& app, dist_cli_options& d, bool sort);

/// For a bench callback with --gpus: throws CLI::ValidationError (exit status 2) when this
/// scankit has no NCCL, when one of `unsupported` was given, or when `value` (the option
/// `option`) is not one of `allowed`; returns the GPU count.
int check_dist_options(const CLI::App& app, const dist_cli_options& d, std::initializer_list<const char*> unsupported);
void check_dist_value(const std::string& option, const std::string& value, std::initializer_list<const char*> allowed);

/// Runs the distributed bench; returns the exit status (docs/CLI.md).
int run_dist_bench(const dist_bench_options& o);

}  // namespace scankit::tools
