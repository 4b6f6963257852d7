#include "scan/measure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "common/timing.hpp"
#include "common/util.hpp"
#include "scan/data.hpp"
#include "scankit/cpu/scan.hpp"

#ifdef SCANKIT_HAS_CUDA
#include "common/baselines.hpp"
#include "common/built_baselines.hpp"
#include "scan/baselines.hpp"
#include "scankit/cuda/scan.hpp"
#endif

namespace scankit::tools {

namespace {

/// Byte written over outputs before each run, so an item a scan forgets to write cannot
/// pass by holding the previous run's value (0xA5...: no input family produces it).
constexpr int poison_byte = 0xA5;

bool is_cpu(row_kind k) {
  return k == row_kind::cpu_serial || k == row_kind::cpu_parallel || k == row_kind::cpu_tbb;
}

}  // namespace

const char* group_name(row_kind k) {
  switch (k) {
    case row_kind::gpu: return "gpu";
    case row_kind::cub:
    case row_kind::thrust:
    case row_kind::copy: return "baseline";
    default: return "cpu";
  }
}

std::vector<row_spec> select_rows(const std::vector<std::string>& algos,
                                  const std::vector<std::string>& compare, bool gpu) {
  const bool all = std::find(algos.begin(), algos.end(), "all") != algos.end();
  auto wanted = [&](std::string_view name) {
    return all || std::find(algos.begin(), algos.end(), name) != algos.end();
  };
  auto compared = [&](std::string_view name) {
    return std::find(compare.begin(), compare.end(), name) != compare.end();
  };
  std::vector<row_spec> rows;
#ifdef SCANKIT_HAS_CUDA
  if (gpu) {
    for (std::size_t i = 0; i < cuda::all_scan_algorithms.size(); ++i) {
      const auto name = cuda::name(cuda::all_scan_algorithms[i]);
      if (wanted(name)) rows.push_back({row_kind::gpu, std::string(name), static_cast<int>(i)});
    }
    if (compared("cub")) rows.push_back({row_kind::cub, "cub", -1});
    if (compared("thrust")) rows.push_back({row_kind::thrust, "thrust", -1});
    if (compared("copy")) rows.push_back({row_kind::copy, "copy", -1});
  }
#else
  (void)compared;
  (void)gpu;
#endif
  for (const auto& c : cpu_rows)
    if (wanted(c.name)) rows.push_back({c.kind, c.name, -1});
  return rows;
}

bool point_result::ok() const {
  return std::none_of(rows.begin(), rows.end(),
                      [](const row_result& r) { return r.status == "FAIL" || r.status == "ERROR"; });
}

// ---------------------------------------------------------------------------------------

struct typed_base {
  virtual ~typed_base() = default;
  virtual point_result measure(scan_runner::impl& ctx, const point_options& opts,
                               const std::vector<row_spec>& rows,
                               const std::function<void(const std::string&)>& progress) = 0;
};

struct scan_runner::impl {
  bool gpu = false;
#ifdef SCANKIT_HAS_CUDA
  std::unique_ptr<cuda_stream> stream;
  std::unique_ptr<l2_flusher> flusher;
  std::unique_ptr<thrust_scratch> thrust;
  device_buffer d_in, d_out, workspace, cub_temp;
#endif
  std::unique_ptr<typed_base> data;
};

namespace {

template <class Op>
class typed_runner final : public typed_base {
 public:
  using T = value_t<Op>;

  typed_runner(dtype type, op_kind op, scan_kind kind, std::int64_t n_max, std::uint64_t seed)
      : type_(type), op_(op), kind_(kind), in_(static_cast<std::size_t>(n_max)),
        out_(static_cast<std::size_t>(n_max)) {
    fill_input(in_.data(), n_max, op, seed);
    ref_.emplace(in_.data(), n_max, op, kind, Op::identity());
  }

  point_result measure([[maybe_unused]] scan_runner::impl& ctx, const point_options& opts,
                       const std::vector<row_spec>& rows,
                       const std::function<void(const std::string&)>& progress) override {
    if (opts.n < 0 || opts.n > ref_->size())
      throw invalid_argument("scan point of " + std::to_string(opts.n) + " items exceeds the " +
                             std::to_string(ref_->size()) + " prepared");
    point_result res;
    res.type = type_;
    res.op = op_;
    res.kind = kind_;
    res.opts = opts;
    res.bytes = static_cast<std::size_t>(opts.n) * sizeof(T);
    const bool any_cpu = std::any_of(rows.begin(), rows.end(), [](auto& r) { return is_cpu(r.kind); });
    const bool any_gpu = std::any_of(rows.begin(), rows.end(), [](auto& r) { return !is_cpu(r.kind); });
#ifdef SCANKIT_HAS_CUDA
    if (any_gpu) prepare_device(ctx, res);
#else
    (void)any_gpu;
#endif
    if (any_cpu) {
      res.cpu_copy_samples_ms = time_cpu_ms(opts.warmup, opts.reps, [&] {
        cpu::parallel_copy(out_.data(), in_.data(), static_cast<std::int64_t>(res.bytes));
      });
      res.cpu_copy_ms = median(res.cpu_copy_samples_ms);
    }
    for (const auto& spec : rows) {
      if (progress) progress(spec.name);
      row_result row;
      row.spec = spec;
      measure_row(row, [&] {
        if (is_cpu(spec.kind)) run_cpu(row, opts);
#ifdef SCANKIT_HAS_CUDA
        else run_gpu(ctx, row, res);
#endif
      });
      res.rows.push_back(std::move(row));
    }
    derive(res);
    return res;
  }

 private:
  void record(row_result& row, const check_outcome& c, const char* what = "") {
    record_check(row, c.ok ? std::string() : what + c.message);
  }

  void run_cpu(row_result& row, const point_options& opts) {
    const std::int64_t n = opts.n;
    const Op op{};
    const T init = Op::identity();
    if (n > 0) std::memset(static_cast<void*>(out_.data()), poison_byte, static_cast<std::size_t>(n) * sizeof(T));
    auto run = [&] {
      switch (row.spec.kind) {
        case row_kind::cpu_serial: cpu::scan_serial(in_.data(), out_.data(), n, op, kind_, init); break;
        case row_kind::cpu_parallel: cpu::scan_parallel(in_.data(), out_.data(), n, op, kind_, init); break;
        default: cpu::tbb_parallel_scan(in_.data(), out_.data(), n, op, kind_, init); break;
      }
    };
    row.samples_ms = time_cpu_ms(opts.warmup, opts.reps, run);
    row.device_ms = median(row.samples_ms);
    row.with_copies_samples_ms = row.samples_ms;
    row.with_copies_ms = row.device_ms;
    record(row, ref_->check(out_.data(), n));
  }

#ifdef SCANKIT_HAS_CUDA
  void prepare_device(scan_runner::impl& ctx, point_result& res) {
    const std::size_t bytes = res.bytes;
    const cudaStream_t s = ctx.stream->get();
    ctx.d_in.reserve(bytes);
    ctx.d_out.reserve(bytes);
    if (bytes) SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(ctx.d_in.data(), in_.data(), bytes, cudaMemcpyHostToDevice));
    res.copy_samples_ms = time_gpu_ms(
        s, res.opts.warmup, res.opts.reps,
        [&] { device_copy(ctx.d_out.data(), ctx.d_in.data(), bytes, s); },
        [&] { ctx.flusher->flush(s); });
    res.copy_ms = median(res.copy_samples_ms);
  }

  void run_gpu(scan_runner::impl& ctx, row_result& row, point_result& res) {
    const point_options& opts = res.opts;
    const std::int64_t n = opts.n;
    const std::size_t bytes = res.bytes;
    const cudaStream_t s = ctx.stream->get();
    const Op op{};
    const T init = Op::identity();
    const T* d_in = ctx.d_in.as<T>();
    T* d_out = ctx.d_out.as<T>();
    auto poison = [&] {
      if (bytes) SCANKIT_TOOLS_CUDA_CHECK(cudaMemsetAsync(d_out, poison_byte, bytes, s));
      ctx.flusher->flush(s);
    };
    auto fetch_and_check = [&](const char* what) {
      if (bytes) SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(out_.data(), d_out, bytes, cudaMemcpyDeviceToHost));
      record(row, ref_->check(out_.data(), n), what);
    };
    switch (row.spec.kind) {
      case row_kind::copy:
        row.samples_ms = res.copy_samples_ms;
        row.device_ms = res.copy_ms;
        row.status = check_na;  // nothing to check
        return;
      case row_kind::cub:
      case row_kind::thrust:
        if constexpr (baseline_built<T>(cub_scan_types)) {
          if (row.spec.kind == row_kind::cub) {
            const std::size_t temp = cub_scan_temp_bytes<Op>(n, kind_);
            ctx.cub_temp.reserve(temp);
            row.workspace_bytes = temp;
            row.samples_ms = time_gpu_ms(
                s, opts.warmup, opts.reps,
                [&] { cub_scan<Op>(d_in, d_out, n, kind_, ctx.cub_temp.data(), temp, s); }, poison);
          } else {
            row.samples_ms = time_gpu_ms(
                s, opts.warmup, opts.reps, [&] { thrust_scan<Op>(d_in, d_out, n, kind_, *ctx.thrust, s); },
                poison);
          }
          row.device_ms = median(row.samples_ms);
          fetch_and_check("");
        } else {
          row.status = check_na;
          row.message = baseline_not_built(row.spec.kind == row_kind::cub ? "CUB" : "Thrust", name(type_));
        }
        return;
      default: break;
    }
    // scankit's GPU algorithm: workspace allocated before timing; only scan() is timed.
    const cuda::scan_config cfg{cuda::all_scan_algorithms[static_cast<std::size_t>(row.spec.gpu_algo)],
                                opts.block_size};
    const std::size_t ws = cuda::scan_workspace_bytes(n, sizeof(T), cfg);
    ctx.workspace.reserve(ws);
    row.workspace_bytes = ws;
    row.samples_ms = time_gpu_ms(
        s, opts.warmup, opts.reps,
        [&] { cuda::scan(d_in, d_out, n, op, kind_, init, ctx.workspace.data(), ws, s, cfg); }, poison);
    row.device_ms = median(row.samples_ms);
    fetch_and_check("");
    if (!opts.with_copies) return;
    // The host-container API from ordinary pageable memory: copies in, scan, copies out.
    cuda::host_scan_options host_opts;
    host_opts.config = cfg;
    if (bytes) std::memset(static_cast<void*>(out_.data()), poison_byte, bytes);
    row.with_copies_samples_ms = time_cpu_ms(opts.warmup, opts.reps, [&] {
      cuda::scan_host(in_.data(), out_.data(), n, op, kind_, init, host_opts);
    });
    row.with_copies_ms = median(row.with_copies_samples_ms);
    record(row, ref_->check(out_.data(), n), "scan_host: ");
    if (cfg.algorithm != cuda::default_scan_algorithm || n == 0) return;
    // And from pinned memory, where the copies run at full PCIe speed with no staging.
    if (pinned_items_ < n) {
      pinned_in_.reset();
      pinned_out_.reset();
      void* a = nullptr;
      void* b = nullptr;
      SCANKIT_TOOLS_CUDA_CHECK(cudaMallocHost(&a, bytes));
      pinned_in_.reset(static_cast<T*>(a));
      SCANKIT_TOOLS_CUDA_CHECK(cudaMallocHost(&b, bytes));
      pinned_out_.reset(static_cast<T*>(b));
      pinned_items_ = n;
    }
    cpu::parallel_copy(pinned_in_.get(), in_.data(), static_cast<std::int64_t>(bytes));
    std::memset(static_cast<void*>(pinned_out_.get()), poison_byte, bytes);
    row.pinned_samples_ms = time_cpu_ms(opts.warmup, opts.reps, [&] {
      cuda::scan_host(pinned_in_.get(), pinned_out_.get(), n, op, kind_, init, host_opts);
    });
    row.pinned_ms = median(row.pinned_samples_ms);
    record(row, ref_->check(pinned_out_.get(), n), "scan_host (pinned): ");
  }
#endif

  static void derive(point_result& res) {
    const double bytes = static_cast<double>(res.bytes);
    auto time_of = [&](row_kind k) {
      for (const auto& r : res.rows)
        if (r.spec.kind == k && r.status == "PASS") return r.device_ms;
      return static_cast<double>(NAN);
    };
    const double cub_ms = time_of(row_kind::cub), serial_ms = time_of(row_kind::cpu_serial);
    for (auto& r : res.rows) {
      if (!std::isfinite(r.device_ms) || r.device_ms <= 0) continue;
      r.gbps = 2.0 * bytes / (r.device_ms * 1e6);
      const double floor = is_cpu(r.spec.kind) ? res.cpu_copy_ms : res.copy_ms;
      r.pct_of_copy = floor / r.device_ms * 100.0;
      r.vs_cub = cub_ms / r.device_ms;
      r.vs_serial = serial_ms / r.device_ms;
    }
  }

  dtype type_;
  op_kind op_;
  scan_kind kind_;
  std::vector<T> in_;
  std::vector<T> out_;
  std::optional<scan_reference<Op>> ref_;
#ifdef SCANKIT_HAS_CUDA
  struct free_host {
    void operator()(T* p) const { cudaFreeHost(p); }
  };
  std::unique_ptr<T, free_host> pinned_in_, pinned_out_;  // allocated on first use
  std::int64_t pinned_items_ = 0;
#endif
};

}  // namespace

scan_runner::scan_runner(bool gpu) : p_(std::make_unique<impl>()) {
  p_->gpu = gpu;
#ifdef SCANKIT_HAS_CUDA
  if (gpu) {
    p_->stream = std::make_unique<cuda_stream>();
    p_->flusher = std::make_unique<l2_flusher>();
    p_->thrust = std::make_unique<thrust_scratch>();
  }
#endif
}

scan_runner::~scan_runner() = default;

void scan_runner::prepare(dtype type, op_kind op, scan_kind kind, std::int64_t n_max,
                          std::uint64_t seed) {
  p_->data.reset();
  p_->data = visit(type, op, [&](auto monoid) -> std::unique_ptr<typed_base> {
    return std::make_unique<typed_runner<decltype(monoid)>>(type, op, kind, n_max, seed);
  });
}

point_result scan_runner::measure(const point_options& opts, const std::vector<row_spec>& rows,
                                  const std::function<void(const std::string&)>& progress) {
  if (!p_->data) throw error("scan_runner::measure before prepare");
  return p_->data->measure(*p_, opts, rows, progress);
}

// ---------------------------------------------------------------------------------------

std::string format_table(const point_result& r) {
  text_table t({"algorithm", "with copies ms", "device ms", "GB/s", "% of copy", "vs CUB",
                "vs cpu-serial", "check"},
               {false, true, true, true, true, true, true, false});
  for (const auto& row : r.rows) {
    const bool baseline = row.spec.kind == row_kind::cub || row.spec.kind == row_kind::thrust ||
                          row.spec.kind == row_kind::copy;
    t.add_row({row.spec.name, baseline ? "-" : format_ms(row.with_copies_ms), format_ms(row.device_ms),
               format_gbps(row.gbps), format_pct(row.pct_of_copy), format_ratio(row.vs_cub),
               format_ratio(row.vs_serial), check_cell(row.status, row.message)});
  }
  return t.str();
}

}  // namespace scankit::tools
