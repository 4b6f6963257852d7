// One scan measurement point: every selected row (scankit's GPU algorithms, CUB, Thrust, the
// copy floor, the CPU scans) timed and checked on one input. `bench scan` prints one point,
// `sweep scan` collects many.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/report.hpp"
#include "scankit/ops.hpp"
#include "scankit/types.hpp"

namespace scankit::tools {

enum class row_kind { gpu, cub, thrust, copy, cpu_serial, cpu_parallel, cpu_tbb };

struct row_spec {
  row_kind kind;
  std::string name;
  int gpu_algo = -1;  // index into scankit::cuda::all_scan_algorithms for row_kind::gpu
};

/// The CPU rows, in table order.
struct cpu_row {
  row_kind kind;
  const char* name;
};
inline constexpr cpu_row cpu_rows[] = {{row_kind::cpu_serial, "cpu-serial"},
                                       {row_kind::cpu_parallel, "cpu-parallel"},
                                       {row_kind::cpu_tbb, "cpu-tbb"}};

/// "gpu" (scankit's), "baseline" (CUB, Thrust, copy) or "cpu".
const char* group_name(row_kind k);

/// Names --algo accepts (besides "all"): the GPU algorithms of a CUDA build, then the CPU rows.
std::vector<std::string> algo_names();
/// Names --compare accepts (besides "none"); empty in a CPU-only build.
std::vector<std::string> compare_names();

/// The rows to run, in table order: GPU algorithms (all_scan_algorithms order), CUB, Thrust,
/// copy, cpu-serial, cpu-parallel, cpu-tbb. GPU and baseline rows only when `gpu`.
/// `algos`: {"all"} or names from algo_names(); `compare`: names from compare_names().
std::vector<row_spec> select_rows(const std::vector<std::string>& algos,
                                  const std::vector<std::string>& compare, bool gpu);

struct point_options {
  std::int64_t n = 0;  // a prefix of the prepared input
  int block_size = 0;  // 0: each algorithm's default
  int reps = 10;
  int warmup = 1;
  bool with_copies = true;  // also time scan_host from pageable memory (GPU algorithms)
};

/// One row: with copies = host->device->host time of scan_host from pageable memory; gbps =
/// 2 * n * sizeof(T) / device time; pct_of_copy = copy time / device time * 100 (GPU copy, or
/// cpu::parallel_copy).
struct row_result : timed_row {
  row_spec spec;
  std::vector<double> pinned_samples_ms;
  double pinned_ms = NAN;   // scan_host from pinned (page-locked) host memory; default algorithm only
  double vs_serial = NAN;   // cpu-serial time / device time
};

struct point_result {
  dtype type{};
  op_kind op{};
  scan_kind kind{};
  point_options opts;
  std::size_t bytes = 0;  // n * sizeof(T)
  std::vector<double> copy_samples_ms;  // device-to-device cudaMemcpyAsync of `bytes`
  double copy_ms = NAN;
  std::vector<double> cpu_copy_samples_ms;  // cpu::parallel_copy of `bytes`
  double cpu_copy_ms = NAN;
  std::vector<row_result> rows;
  /// No row FAILed.
  bool ok() const;
};

/// Owns a prepared input (with its reference) and the device resources reused from point to
/// point, so a sweep generates its input once and allocates only when a point needs more.
class scan_runner {
 public:
  explicit scan_runner(bool gpu);
  ~scan_runner();
  scan_runner(const scan_runner&) = delete;
  scan_runner& operator=(const scan_runner&) = delete;

  /// Generates n_max random items for (type, op) from `seed` and the serial reference of the
  /// (op, kind) scan of them, from op's identity.
  void prepare(dtype type, op_kind op, scan_kind kind, std::int64_t n_max, std::uint64_t seed);

  /// Times and checks every row on the first opts.n (<= n_max) prepared items. A row that
  /// throws is reported as FAIL; the others still run. `progress` (may be empty) is called
  /// with each row's name before it runs.
  point_result measure(const point_options& opts, const std::vector<row_spec>& rows,
                       const std::function<void(const std::string&)>& progress = {});

  struct impl;

 private:
  std::unique_ptr<impl> p_;
};

/// The bench table of one point (one row per row_result).
std::string format_table(const point_result& r);

}  // namespace scankit::tools
