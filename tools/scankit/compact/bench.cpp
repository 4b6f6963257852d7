// `bench compact` (one point, a table), `sweep compact` (points over sizes: JSON, CSV, plot)
// and `verify compact` (random cases through every algorithm).
//
// Every row runs the same operation (with the predicate x != 0) on the same input and is
// checked against the CPU serial loop: scankit's GPU algorithms, CUB, a device-to-device copy
// of the input (the bandwidth floor), the three CPU algorithms, and the std:: algorithm.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/report.hpp"
#include "common/system.hpp"
#include "common/timing.hpp"
#include "common/util.hpp"
#include "compact/commands.hpp"
#include "scankit/cpu/compact.hpp"
#include "scankit/scankit.hpp"

#ifdef SCANKIT_HAS_CUDA
#include "common/baselines.hpp"
#include "common/built_baselines.hpp"
#include "compact/baselines.hpp"
#include "scankit/cuda/compact.hpp"
#endif

#ifndef SCANKIT_HAS_CUDA
namespace scankit::tools {
enum class compact_op { select_if, remove_if, select_flagged, partition, unique, unique_count, nonzero };
}
#endif

namespace scankit::tools {

namespace {

compact_op parse_op(const std::string& s) {
  for (int i = 0; compact_op_names()[i]; ++i)
    if (s == compact_op_names()[i]) return static_cast<compact_op>(i);
  throw invalid_argument("unknown --op " + s);
}

enum class row_kind { gpu, cub, copy, cpu, std_algo };

struct row_spec {
  row_kind kind;
  std::string name;
  int algo = 0;  // gpu: index into cuda::all_compact_algorithms; cpu: into cpu::all_compact_algorithms
  std::string tile = "auto";  // single-pass rows: the tile size
};

const char* group_of(row_kind k) {
  return k == row_kind::gpu ? "gpu" : (k == row_kind::cpu || k == row_kind::std_algo) ? "cpu" : "baseline";
}

std::vector<row_spec> select_rows(const std::string& algo, const std::string& compare, bool gpu,
                                  const std::string& tile = "auto") {
  const auto want = split_list(algo), cmp = split_list(compare);
  const bool all = std::find(want.begin(), want.end(), "all") != want.end();
  auto wanted = [&](std::string_view n) { return all || std::find(want.begin(), want.end(), n) != want.end(); };
  auto compared = [&](std::string_view n) { return std::find(cmp.begin(), cmp.end(), n) != cmp.end(); };
  std::vector<row_spec> rows;
#ifdef SCANKIT_HAS_CUDA
  if (gpu) {
    for (std::size_t i = 0; i < cuda::all_compact_algorithms.size(); ++i) {
      const auto nm = cuda::name(cuda::all_compact_algorithms[i]);
      if (!wanted(nm)) continue;
      if (cuda::all_compact_algorithms[i] == cuda::compact_algorithm::single_pass && tile == "all") {
        for (const char* t : {"small", "medium", "segmented", "specialized"})
          rows.push_back({row_kind::gpu, std::string(nm) + "/" + t, static_cast<int>(i), t});
      } else {
        rows.push_back({row_kind::gpu, std::string(nm), static_cast<int>(i), tile});
      }
    }
    if (compared("cub")) rows.push_back({row_kind::cub, "cub", 0});
    if (compared("copy")) rows.push_back({row_kind::copy, "copy", 0});
  }
#else
  (void)gpu, (void)compared, (void)tile;
#endif
  for (int i = 0; i < 3; ++i) {
    const auto nm = cpu::name(cpu::all_compact_algorithms[i]);
    if (wanted(nm)) rows.push_back({row_kind::cpu, std::string(nm), i});
  }
  if (wanted("std")) rows.push_back({row_kind::std_algo, "std", 0});
  return rows;
}

bool has_std_counterpart(compact_op op) {
  return op == compact_op::select_if || op == compact_op::remove_if || op == compact_op::unique ||
         op == compact_op::partition;
}

/// splitmix64: fast, good enough for benchmark inputs.
struct splitmix {
  std::uint64_t x;
  std::uint64_t operator()() {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

/// Values: without a selectivity, uniform in 0..3. With selectivity P, nonzero (1..3) with
/// probability P; for unique, a new run starts with probability P.
template <class T>
std::vector<T> make_values(std::int64_t n, compact_op op, std::optional<double> p, std::uint64_t seed) {
  std::vector<T> v(static_cast<std::size_t>(n));
  splitmix g{seed};
  const bool runs = op == compact_op::unique || op == compact_op::unique_count;
  const auto threshold = p ? static_cast<std::uint64_t>(std::ldexp(*p, 32)) : 0;
  int prev = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t r = g();
    int value;
    if (!p) value = static_cast<int>(r & 3);
    else if (runs) value = (i > 0 && (r >> 32) >= threshold) ? prev : (prev + 1 + static_cast<int>(r % 3)) % 4;
    else value = (r >> 32) < threshold ? 1 + static_cast<int>(r % 3) : 0;
    v[static_cast<std::size_t>(i)] = static_cast<T>(value);
    prev = value;
  }
  return v;
}

struct row_result : timed_row {
  row_spec spec;
  double vs_std = NAN;
};

struct point_result {
  std::int64_t n = 0;
  std::int64_t count = 0;      // reference count
  double moved_bytes = 0;      // bytes read + written by the operation
  double copy_ms = NAN, cpu_copy_ms = NAN;
  std::vector<double> copy_samples_ms, cpu_copy_samples_ms;
  std::size_t bytes = 0;       // n * sizeof(T)
  std::vector<row_result> rows;
  bool ok() const {
    return std::none_of(rows.begin(), rows.end(), [](const row_result& r) { return r.status == "FAIL"; });
  }
};

struct point_params {
  compact_op op;
  rejected_order order;
  std::optional<double> selectivity;
  int block_size = 0;
  std::string tile = "auto";
  int reps = 10, warmup = 1;
  bool with_copies = true;
  std::uint64_t seed = 0;
};

/// Device state reused across points.
struct device_ctx {
#ifdef SCANKIT_HAS_CUDA
  std::unique_ptr<cuda_stream> stream;
  std::unique_ptr<l2_flusher> flusher;
  device_buffer d_in, d_flags, d_out, d_idx, d_count, ws, cub_temp;
#endif
};

constexpr int poison_byte = 0xA5;

template <class T>
class point_runner {
 public:
  point_runner(const point_params& pp, std::int64_t n, device_ctx& ctx) : pp_(pp), n_(n), ctx_(ctx) {
    in_ = make_values<T>(n, pp.op, pp.selectivity, pp.seed);
    flags_.resize(in_.size());
    for (std::size_t i = 0; i < in_.size(); ++i) flags_[i] = in_[i] != T(0) ? 1 : 0;
    out_.resize(in_.size());
    idx_.resize(in_.size());
    ref_.resize(in_.size());
    ref_idx_.resize(in_.size());
    cpu::compact_config rc;
    rc.algorithm = cpu::compact_algorithm::serial_loop;
    ref_count_ = run_cpu(rc, ref_.data(), ref_idx_.data());
  }

  point_result measure(const std::vector<row_spec>& rows) {
    point_result res;
    res.n = n_;
    res.count = ref_count_;
    res.bytes = in_.size() * sizeof(T);
    res.moved_bytes = moved_bytes();
    const bool any_cpu = std::any_of(rows.begin(), rows.end(), [](auto& r) { return r.kind == row_kind::cpu || r.kind == row_kind::std_algo; });
    const bool any_gpu = std::any_of(rows.begin(), rows.end(), [](auto& r) { return r.kind != row_kind::cpu && r.kind != row_kind::std_algo; });
    if (any_cpu) {
      res.cpu_copy_samples_ms = time_cpu_ms(pp_.warmup, pp_.reps, [&] {
        cpu::parallel_copy(out_.data(), in_.data(), static_cast<std::int64_t>(res.bytes));
      });
      res.cpu_copy_ms = median(res.cpu_copy_samples_ms);
    }
#ifdef SCANKIT_HAS_CUDA
    if (any_gpu) prepare_device(res);
#else
    (void)any_gpu;
#endif
    for (const auto& spec : rows) {
      row_result row;
      row.spec = spec;
      measure_row(row, [&] {
        switch (spec.kind) {
          case row_kind::cpu: run_cpu_row(row); break;
          case row_kind::std_algo: run_std_row(row); break;
#ifdef SCANKIT_HAS_CUDA
          default: run_gpu_row(row, res); break;
#else
          default: break;
#endif
        }
      });
      res.rows.push_back(std::move(row));
    }
    derive(res);
    return res;
  }

 private:
  bool is_partition() const { return pp_.op == compact_op::partition; }
  bool writes_indices() const { return pp_.op == compact_op::nonzero || pp_.op == compact_op::unique_count; }

  double moved_bytes() const {
    const double n = static_cast<double>(n_), k = static_cast<double>(ref_count_), s = sizeof(T);
    switch (pp_.op) {
      case compact_op::select_flagged: return n * s + n + k * s;
      case compact_op::partition: return 2 * n * s;
      case compact_op::unique_count: return n * s + k * (s + 8);
      case compact_op::nonzero: return n * s + k * 8;
      default: return n * s + k * s;
    }
  }

  std::int64_t run_cpu(const cpu::compact_config& c, T* out, std::int64_t* idx) {
    const std::int64_t n = n_;
    const T* in = in_.data();
    switch (pp_.op) {
      case compact_op::select_if: return cpu::select_if(in, out, n, is_nonzero<T>{}, c);
      case compact_op::remove_if: return cpu::remove_if(in, out, n, is_nonzero<T>{}, c);
      case compact_op::select_flagged: return cpu::select_flagged(in, flags_.data(), out, n, c);
      case compact_op::partition: return cpu::partition(in, out, n, is_nonzero<T>{}, pp_.order, c);
      case compact_op::unique: return cpu::unique(in, out, n, equal_to<T>{}, c);
      case compact_op::unique_count: return cpu::unique_count(in, out, idx, n, equal_to<T>{}, c);
      case compact_op::nonzero: return cpu::nonzero(in, idx, n, c);
    }
    return 0;
  }

  /// Compares out_/idx_ (count items, or all n for a partition) with the reference.
  void check(row_result& row, std::int64_t count, const char* what = "") {
    std::string msg;
    if (count != ref_count_) {
      msg = fmt::format("count {} != {}", count, ref_count_);
    } else {
      const std::int64_t items = is_partition() ? n_ : (pp_.op == compact_op::nonzero ? 0 : count);
      for (std::int64_t i = 0; i < items && msg.empty(); ++i)
        if (std::memcmp(&out_[i], &ref_[i], sizeof(T)) != 0) msg = fmt::format("item {} differs", i);
      if (writes_indices())
        for (std::int64_t i = 0; i < count && msg.empty(); ++i)
          if (idx_[i] != ref_idx_[i]) msg = fmt::format("index/length {} differs", i);
    }
    record_check(row, msg.empty() ? msg : what + msg);
  }

  void run_cpu_row(row_result& row) {
    cpu::compact_config c;
    c.algorithm = cpu::all_compact_algorithms[row.spec.algo];
    std::int64_t count = 0;
    if (!out_.empty()) std::memset(static_cast<void*>(out_.data()), poison_byte, out_.size() * sizeof(T));
    row.samples_ms = time_cpu_ms(pp_.warmup, pp_.reps, [&] { count = run_cpu(c, out_.data(), idx_.data()); });
    row.device_ms = median(row.samples_ms);
    row.with_copies_samples_ms = row.samples_ms;
    row.with_copies_ms = row.device_ms;
    check(row, count);
  }

  void run_std_row(row_result& row) {
    if (!has_std_counterpart(pp_.op)) {
      row.status = check_na;
      row.message = "no std:: counterpart";
      return;
    }
    const T* in = in_.data();
    const T* end = in + n_;
    T* out = out_.data();
    std::int64_t count = 0;
    auto nz = [](const T& x) { return x != T(0); };
    auto run = [&] {
      switch (pp_.op) {
        case compact_op::select_if: count = std::copy_if(in, end, out, nz) - out; break;
        case compact_op::remove_if: count = std::remove_copy_if(in, end, out, nz) - out; break;
        case compact_op::unique: count = std::unique_copy(in, end, out) - out; break;
        case compact_op::partition: {
          // std::partition_copy writes the rejected items in order to a second range.
          std::vector<T>& rej = scratch_;
          rej.resize(static_cast<std::size_t>(n_));
          auto [a, b] = std::partition_copy(in, end, out, rej.data(), nz);
          count = a - out;
          if (pp_.order == rejected_order::original) std::copy(rej.data(), b, a);
          else std::reverse_copy(rej.data(), b, a);
          break;
        }
        default: break;  // has_std_counterpart
      }
    };
    row.samples_ms = time_cpu_ms(pp_.warmup, pp_.reps, run);
    row.device_ms = median(row.samples_ms);
    row.with_copies_samples_ms = row.samples_ms;
    row.with_copies_ms = row.device_ms;
    check(row, count);
  }

#ifdef SCANKIT_HAS_CUDA
  void prepare_device(point_result& res) {
    auto& c = ctx_;
    const cudaStream_t s = c.stream->get();
    c.d_in.reserve(std::max<std::size_t>(res.bytes, 16));
    c.d_out.reserve(std::max<std::size_t>(res.bytes, 16));
    c.d_flags.reserve(std::max<std::size_t>(in_.size(), 16));
    c.d_idx.reserve(std::max<std::size_t>(in_.size() * 8, 16));
    c.d_count.reserve(16);
    if (res.bytes) {
      SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(c.d_in.data(), in_.data(), res.bytes, cudaMemcpyHostToDevice));
      SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(c.d_flags.data(), flags_.data(), in_.size(), cudaMemcpyHostToDevice));
    }
    res.copy_samples_ms = time_gpu_ms(
        s, pp_.warmup, pp_.reps, [&] { device_copy(c.d_out.data(), c.d_in.data(), res.bytes, s); },
        [&] { c.flusher->flush(s); });
    res.copy_ms = median(res.copy_samples_ms);
  }

  void fetch(std::int64_t& count, const char* what, row_result& row) {
    auto& c = ctx_;
    SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(&count, c.d_count.data(), 8, cudaMemcpyDeviceToHost));
    if (count >= 0 && count <= n_) {
      const std::int64_t items = is_partition() ? n_ : count;
      if (pp_.op != compact_op::nonzero && items > 0)
        SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(out_.data(), c.d_out.data(), static_cast<std::size_t>(items) * sizeof(T),
                                            cudaMemcpyDeviceToHost));
      if (writes_indices() && count > 0)
        SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(idx_.data(), c.d_idx.data(), static_cast<std::size_t>(count) * 8,
                                            cudaMemcpyDeviceToHost));
    }
    check(row, count, what);
  }

  void run_gpu_row(row_result& row, point_result& res) {
    auto& c = ctx_;
    const cudaStream_t s = c.stream->get();
    const std::int64_t n = n_;
    const T* d_in = c.d_in.as<T>();
    T* d_out = c.d_out.as<T>();
    auto* d_idx = c.d_idx.as<std::int64_t>();
    auto* d_count = c.d_count.as<std::int64_t>();
    const auto* d_flags = c.d_flags.as<std::uint8_t>();
    auto poison = [&] {
      if (res.bytes) SCANKIT_TOOLS_CUDA_CHECK(cudaMemsetAsync(d_out, poison_byte, res.bytes, s));
      SCANKIT_TOOLS_CUDA_CHECK(cudaMemsetAsync(d_count, 0xff, 8, s));
      c.flusher->flush(s);
    };
    std::int64_t count = 0;
    if (row.spec.kind == row_kind::copy) {
      row.samples_ms = res.copy_samples_ms;
      row.device_ms = res.copy_ms;
      row.status = check_na;  // nothing to check
      return;
    }
    if (row.spec.kind == row_kind::cub) {
      if constexpr (baseline_built<T>(cub_compact_types)) {
        if (pp_.op == compact_op::partition && pp_.order == rejected_order::original)
          throw error("CUB's DevicePartition::If puts the rejected items in reverse order (use --order reversed)");
        const std::size_t temp = cub_compact_temp_bytes<T>(pp_.op, n);
        c.cub_temp.reserve(std::max<std::size_t>(temp, 16));
        row.workspace_bytes = temp;
        row.samples_ms = time_gpu_ms(s, pp_.warmup, pp_.reps, [&] {
          cub_compact<T>(pp_.op, d_in, d_flags, d_out, d_idx, d_count, n, c.cub_temp.data(), temp, s);
        }, poison);
        row.device_ms = median(row.samples_ms);
        fetch(count, "", row);
      } else {
        row.status = check_na;
        row.message = baseline_not_built("CUB", element_type_name<T>());
      }
      return;
    }
    cuda::compact_config cfg;
    cfg.algorithm = cuda::all_compact_algorithms[static_cast<std::size_t>(row.spec.algo)];
    cfg.block_size = pp_.block_size;
    for (auto t : cuda::all_compact_tiles)
      if (cuda::name(t) == row.spec.tile) cfg.tile = t;
    const std::size_t ws = cuda::compact_workspace_bytes(n, sizeof(T), cfg);
    c.ws.reserve(std::max<std::size_t>(ws, 16));
    row.workspace_bytes = ws;
    void* w = c.ws.data();
    auto call = [&] {
      switch (pp_.op) {
        case compact_op::select_if: cuda::select_if(d_in, d_out, n, is_nonzero<T>{}, d_count, w, ws, s, cfg); break;
        case compact_op::remove_if: cuda::remove_if(d_in, d_out, n, is_nonzero<T>{}, d_count, w, ws, s, cfg); break;
        case compact_op::select_flagged: cuda::select_flagged(d_in, d_flags, d_out, n, d_count, w, ws, s, cfg); break;
        case compact_op::partition: cuda::partition(d_in, d_out, n, is_nonzero<T>{}, pp_.order, d_count, w, ws, s, cfg); break;
        case compact_op::unique: cuda::unique(d_in, d_out, n, equal_to<T>{}, d_count, w, ws, s, cfg); break;
        case compact_op::unique_count: cuda::unique_count(d_in, d_out, d_idx, n, equal_to<T>{}, d_count, w, ws, s, cfg); break;
        case compact_op::nonzero: cuda::nonzero(d_in, d_idx, n, d_count, w, ws, s, cfg); break;
      }
    };
    row.samples_ms = time_gpu_ms(s, pp_.warmup, pp_.reps, call, poison);
    row.device_ms = median(row.samples_ms);
    fetch(count, "", row);
    if (!pp_.with_copies) return;
    // The host-container API from pageable memory: allocation, copies in, compaction, copies out.
    if (!out_.empty()) std::memset(static_cast<void*>(out_.data()), poison_byte, out_.size() * sizeof(T));
    const std::span<const T> in(in_);
    const std::span<T> out(out_);
    auto host_call = [&] {
      switch (pp_.op) {
        case compact_op::select_if: count = cuda::select_if(in, out, is_nonzero<T>{}, cfg); break;
        case compact_op::remove_if: count = cuda::remove_if(in, out, is_nonzero<T>{}, cfg); break;
        case compact_op::select_flagged:
          count = cuda::select_flagged(in, std::span<const std::uint8_t>(flags_), out, cfg);
          break;
        case compact_op::partition: count = cuda::partition(in, out, is_nonzero<T>{}, pp_.order, cfg); break;
        case compact_op::unique: count = cuda::unique(in, out, equal_to<T>{}, cfg); break;
        case compact_op::unique_count:
          count = cuda::unique_count(in, out, std::span<std::int64_t>(idx_), equal_to<T>{}, cfg);
          break;
        case compact_op::nonzero: count = cuda::nonzero(in, std::span<std::int64_t>(idx_), cfg); break;
      }
    };
    row.with_copies_samples_ms = time_cpu_ms(pp_.warmup, pp_.reps, host_call);
    row.with_copies_ms = median(row.with_copies_samples_ms);
    check(row, count, "host API: ");
  }
#endif

  void derive(point_result& res) const {
    auto time_of = [&](row_kind k) {
      for (const auto& r : res.rows)
        if (r.spec.kind == k && r.status == "PASS") return r.device_ms;
      return static_cast<double>(NAN);
    };
    const double cub = time_of(row_kind::cub), std_ms = time_of(row_kind::std_algo);
    const double copy_gbps = 2.0 * static_cast<double>(res.bytes) / (res.copy_ms * 1e6);
    const double cpu_copy_gbps = 2.0 * static_cast<double>(res.bytes) / (res.cpu_copy_ms * 1e6);
    for (auto& r : res.rows) {
      if (!std::isfinite(r.device_ms) || r.device_ms <= 0) continue;
      const bool cpu_row = r.spec.kind == row_kind::cpu || r.spec.kind == row_kind::std_algo;
      r.gbps = r.spec.kind == row_kind::copy ? copy_gbps : res.moved_bytes / (r.device_ms * 1e6);
      r.pct_of_copy = r.gbps / (cpu_row ? cpu_copy_gbps : copy_gbps) * 100.0;
      if (!cpu_row) r.vs_cub = cub / r.device_ms;
      else r.vs_std = std_ms / r.device_ms;
    }
  }

  point_params pp_;
  std::int64_t n_;
  device_ctx& ctx_;
  std::vector<T> in_, out_, ref_, scratch_;
  std::vector<std::uint8_t> flags_;
  std::vector<std::int64_t> idx_, ref_idx_;
  std::int64_t ref_count_ = 0;
};

template <class F>
decltype(auto) visit_type(const std::string& t, F&& f) {
  const auto d = parse_dtype(t);
  if (!d) throw invalid_argument("unknown type " + t);
  return visit_dtype(*d, f);
}

point_result measure_point(const std::string& type, const point_params& pp, std::int64_t n,
                           const std::vector<row_spec>& rows, device_ctx& ctx) {
  return visit_type(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    point_runner<T> r(pp, n, ctx);
    return r.measure(rows);
  });
}

std::string table(const point_result& r) {
  text_table t({"algorithm", "with copies ms", "device ms", "GB/s", "% of copy", "vs CUB", "vs std", "check"},
               {false, true, true, true, true, true, true, false});
  for (const auto& row : r.rows) {
    const bool baseline = row.spec.kind == row_kind::cub || row.spec.kind == row_kind::copy;
    t.add_row({row.spec.name, baseline ? "-" : format_ms(row.with_copies_ms), format_ms(row.device_ms),
               format_gbps(row.gbps), format_pct(row.pct_of_copy), format_ratio(row.vs_cub), format_ratio(row.vs_std),
               check_cell(row.status, row.message)});
  }
  return t.str();
}

std::vector<report_row> report_rows(const point_result& res, const std::string& type, const point_params& pp,
                                    std::int64_t x) {
  std::vector<report_row> out;
  for (const auto& row : res.rows) {
    const bool cpu = row.spec.kind == row_kind::cpu || row.spec.kind == row_kind::std_algo;
    report_row r =
        to_report_row(row, row.spec.name, group_of(row.spec.kind), x, res.n, type, cpu ? res.cpu_copy_ms : res.copy_ms);
    r.extra.update(nlohmann::json::object({{"op", compact_op_names()[static_cast<int>(pp.op)]},
                                           {"count", res.count},
                                           {"moved_bytes", res.moved_bytes},
                                           {"block_size", pp.block_size},
                                           {"vs_std", json_number(row.vs_std)}}));
    if (row.spec.kind == row_kind::gpu) r.extra["tile"] = row.spec.tile;
    out.push_back(std::move(r));
  }
  return out;
}

nlohmann::json params_json(const compact_common_options& o, std::uint64_t seed) {
  return {{"op", o.op},
          {"type", o.type},
          {"selectivity", o.selectivity ? nlohmann::json(*o.selectivity) : nlohmann::json(nullptr)},
          {"order", o.order},
          {"algo", o.algo},
          {"compare", o.compare},
          {"block_size", o.block_size},
          {"tile", o.tile},
          {"reps", o.reps},
          {"seed", seed},
          {"with_copies", !o.device_only},
          {"predicate", "x != 0"},
          {"gbps", "(bytes read + bytes written) / ms: the input, the flags, the items and indices written"}};
}

point_params params_of(const compact_common_options& o, std::uint64_t seed) {
  point_params pp;
  pp.op = parse_op(o.op);
  pp.order = o.order == "original" ? rejected_order::original : rejected_order::reversed;
  pp.selectivity = o.selectivity;
  pp.block_size = o.block_size;
  pp.tile = o.tile;
  pp.reps = o.reps;
  pp.with_copies = !o.device_only;
  pp.seed = seed;
  return pp;
}

std::string selectivity_text(const std::optional<double>& p) {
  return p ? fmt::format("{}", *p) : std::string("random values in 0..3");
}

void init_ctx(device_ctx& ctx, bool gpu) {
#ifdef SCANKIT_HAS_CUDA
  if (gpu) {
    ctx.stream = std::make_unique<cuda_stream>();
    ctx.flusher = std::make_unique<l2_flusher>();
  }
#else
  (void)ctx, (void)gpu;
#endif
}

}  // namespace

int run_compact_bench(const compact_bench_options& o) {
  const system_info sys = query_bench_system();
  const bool gpu = sys.gpu.has_value();
  const auto rows = select_rows(o.algo, o.compare, gpu, o.tile);
  if (rows.empty()) throw error("nothing to run with --algo " + o.algo);
  const std::int64_t n = !o.n.empty() ? *parse_count(o.n) : gpu ? (std::int64_t{1} << 28) : (std::int64_t{1} << 26);
  {
    const double item = static_cast<double>(size_of(*parse_dtype(o.type))), items = static_cast<double>(n);
    check_memory(sys, fmt::format("-n {} of {}", n, o.type), items * (4 * item + 17), items * (2.2 * item + 9));
  }
  const std::uint64_t seed = pick_seed(o.seed);
  const point_params pp = params_of(o, seed);
  std::cout << fmt::format("scankit bench compact | {} | {} | op = {}{} | n = {} | type = {} | selectivity = {}\n",
                           device_line(sys), iso_date_now(), o.op, pp.op == compact_op::partition ? " (" + o.order + ")" : "",
                           n, o.type, selectivity_text(o.selectivity));
  std::cout << fmt::format("predicate x != 0 | reps = {} (median), warm-up = 1, block size = {}, tile = {}, seed = {}{}\n",
                           o.reps, o.block_size ? std::to_string(o.block_size) : "default", o.tile, seed,
                           gpu ? ", L2 flushed before each timed GPU run" : "");
  std::cout.flush();
  device_ctx ctx;
  init_ctx(ctx, gpu);
  const point_result res = measure_point(o.type, pp, n, rows, ctx);
  if (std::isfinite(res.copy_ms))
    std::cout << fmt::format("copy: device-to-device cudaMemcpyAsync of {}: {} ms = {} GB/s (read + write)\n",
                             format_bytes(static_cast<double>(res.bytes)), format_ms(res.copy_ms),
                             format_gbps(2.0 * static_cast<double>(res.bytes) / (res.copy_ms * 1e6)));
  if (std::isfinite(res.cpu_copy_ms))
    std::cout << fmt::format("cpu copy: cpu::parallel_copy of {}: {} ms = {} GB/s ({} threads)\n",
                             format_bytes(static_cast<double>(res.bytes)), format_ms(res.cpu_copy_ms),
                             format_gbps(2.0 * static_cast<double>(res.bytes) / (res.cpu_copy_ms * 1e6)), sys.cpu_threads);
  std::cout << fmt::format("selected: {} of {} ({:.2f}%); bytes moved per call: {}\n\n", res.count, n,
                           n ? 100.0 * static_cast<double>(res.count) / static_cast<double>(n) : 0.0,
                           format_bytes(res.moved_bytes));
  std::cout << table(res);
  if (!res.ok()) std::cout << "\nsome rows failed (FAIL)\n";
  return finish_bench(o.json, "compact", sys, params_json(o, seed), n, report_rows(res, o.type, pp, n));
}

int run_compact_sweep(const compact_sweep_options& o) {
  const system_info sys = query_bench_system();
  const bool gpu = sys.gpu.has_value();
  const auto rows = select_rows(o.algo, o.compare, gpu, o.tile);
  if (rows.empty()) throw error("nothing to run with --algo " + o.algo);
  const std::size_t item = size_of(*parse_dtype(o.type));
  // Host: input, output, reference, flags, indices; device: the same minus the reference.
  double limit = 0.4 * static_cast<double>(sys.host_memory_available) / (3.0 * static_cast<double>(item) + 17.0);
  if (sys.gpu) limit = std::min(limit, 0.4 * static_cast<double>(sys.gpu->free_memory) / (2.0 * static_cast<double>(item) + 9.0));
  int max_log = o.max_log;
  while (max_log > o.min_log && std::ldexp(1.0, max_log) > limit) --max_log;
  if (max_log < o.max_log) std::cerr << fmt::format("note: --max-log {} clipped to {}\n", o.max_log, max_log);
  const std::uint64_t seed = pick_seed(o.seed);
  const point_params pp = params_of(o, seed);
  const std::string prefix = !o.out.empty() ? o.out : "sweep-compact-" + o.op;
  std::cout << fmt::format("scankit sweep compact over size | {} | {} | op = {} | type = {} | selectivity = {} | "
                           "reps = {} | seed = {}\n",
                           device_line(sys), iso_date_now(), o.op, o.type, selectivity_text(o.selectivity), o.reps, seed);
  device_ctx ctx;
  init_ctx(ctx, gpu);
  nlohmann::json params = params_json(o, seed);
  params["over"] = "size";
  params["min_log"] = o.min_log;
  params["max_log"] = max_log;
  std::vector<report_row> all_rows;
  progress_line progress(static_cast<std::size_t>(std::max(0, max_log - o.min_log + 1)));
  std::ostringstream csv;
  csv << "n,log2_n,op,type,algorithm,group,status,device_ms,with_copies_ms,gbps,pct_of_copy,vs_cub,vs_std,copy_ms\n";
  for (int k = o.min_log; k <= max_log; ++k) {
    const std::int64_t n = std::int64_t{1} << k;
    progress.step(fmt::format("n=2^{}", k));
    const point_result res = measure_point(o.type, pp, n, rows, ctx);
    for (auto& row : report_rows(res, o.type, pp, n)) all_rows.push_back(std::move(row));
    auto c = [](double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : std::string(); };
    for (const auto& row : res.rows)
      csv << n << ',' << k << ',' << o.op << ',' << o.type << ',' << row.spec.name << ',' << group_of(row.spec.kind)
          << ',' << row.status << ',' << c(row.device_ms) << ',' << c(row.with_copies_ms) << ',' << c(row.gbps) << ','
          << c(row.pct_of_copy) << ',' << c(row.vs_cub) << ',' << c(row.vs_std) << ',' << c(res.copy_ms) << '\n';
  }
  progress.clear();
  return finish_sweep(prefix, "compact", "size", sys, std::move(params), all_rows, csv.str(), o.no_plot);
}

int run_compact_verify(const compact_verify_options& o) {
  const system_info sys = query_system();
  const bool gpu = sys.gpu.has_value();
  const std::uint64_t seed = pick_seed(o.seed);
  std::cout << fmt::format("scankit verify compact | {} | {} cases | seed = {}\n", device_line(sys), o.cases, seed);
  std::mt19937_64 g(seed);
  const char* types[] = {"i32", "u32", "i64", "u64", "f32", "f64"};
  device_ctx ctx;
  init_ctx(ctx, gpu);
  std::vector<row_spec> rows = select_rows("all", "cub", gpu, "all");
  std::erase_if(rows, [](const row_spec& r) { return r.kind == row_kind::std_algo; });
  int passed = 0, failed = 0;
  progress_line progress(static_cast<std::size_t>(o.cases));
  for (int c = 0; c < o.cases; ++c) {
    progress.step("case " + std::to_string(c));
    point_params pp;
    pp.op = static_cast<compact_op>(g() % 7);
    pp.order = g() % 2 ? rejected_order::original : rejected_order::reversed;
    const double p[] = {0.0, 0.01, 0.5, 0.99, 1.0};
    if (g() % 3) pp.selectivity = p[g() % 5];
    const int blocks[] = {0, 64, 128, 256};
    pp.block_size = blocks[g() % 4];
    pp.reps = 1, pp.warmup = 0, pp.with_copies = g() % 4 == 0;
    pp.seed = g();
    const std::int64_t n = static_cast<std::int64_t>(std::exp2(std::uniform_real_distribution<double>(0, 22)(g)));
    const std::string type = types[g() % 6];
    auto case_rows = rows;
    if (pp.op == compact_op::partition && pp.order == rejected_order::original)
      std::erase_if(case_rows, [](const row_spec& r) { return r.kind == row_kind::cub; });
    const point_result res = measure_point(type, pp, n, case_rows, ctx);
    for (const auto& row : res.rows) {
      if (row.status == "PASS") ++passed;
      if (row.status == "FAIL") {
        ++failed;
        progress.clear();
        std::cout << fmt::format("FAIL case {}: op {} type {} n {} selectivity {} block {}: {}: {} {}\n", c,
                                 compact_op_names()[static_cast<int>(pp.op)], type, n, selectivity_text(pp.selectivity),
                                 pp.block_size, row.spec.name, row.status, row.message);
      }
    }
  }
  progress.clear();
  return finish_verify(passed, failed);
}

}  // namespace scankit::tools
