// `bench histogram` (one point, a table), `sweep histogram` (bins or sizes, to JSON, CSV and
// a plot) and `verify histogram` (random cases against the serial reference).
//
// Rows: scankit's GPU algorithms, CUB's DeviceHistogram (same process, same input, same
// device buffers), the read-once kernel (the bandwidth floor: a histogram must read every
// sample once and writes next to nothing), a device-to-device copy of the samples (reported
// in the header), and the CPU's serial loop and parallel oneTBB histogram.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

#include "common/report.hpp"
#include "common/system.hpp"
#include "common/timing.hpp"
#include "common/util.hpp"
#include "histogram/commands.hpp"
#include "histogram/data.hpp"
#include "scankit/cpu/histogram.hpp"
#include "scankit/scankit.hpp"

#ifdef SCANKIT_HAS_CUDA
#include "common/baselines.hpp"
#include "common/built_baselines.hpp"
#include "histogram/baselines.hpp"
#include "scankit/cuda/histogram.hpp"
#endif

namespace scankit::tools {

namespace {

struct hrow {
  hrow(std::string n, std::string g) : name(std::move(n)), group(std::move(g)) {}
  std::string name, group;  // group: gpu | baseline | cpu
  std::string plan;         // what the GPU algorithm ran
  std::string status = "n/a";  // PASS, FAIL (an error too) or n/a
  std::string note;
  std::vector<double> samples_ms;
  double ms = NAN;
};

struct hpoint {
  std::int64_t n = 0, bins = 0;
  std::size_t bytes = 0;
  double read_ms = NAN, copy_ms = NAN, cub_ms = NAN, serial_ms = NAN;
  std::vector<hrow> rows;
  bool ok() const {
    for (const auto& r : rows)
      if (r.status == "FAIL") return false;
    return true;
  }
};

struct spec {
  htype type = htype::u8;
  bool u64 = false;
  std::int64_t bins = 256;
  std::string dist = "uniform";
  bool range = false;  // histogram_range over evenly spread edges
  int reps = 10;
  int block_size = 0;
  std::uint64_t seed = 0;
  std::vector<std::string> algos;    // rows: GPU algorithm names, cpu-serial, cpu-parallel
  std::vector<std::string> compare;  // cub, read, copy
};

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

/// Holds one generated input (host and device) and measures points on prefixes of it.
template <class T, class C>
class runner {
 public:
  runner(const spec& sp, std::int64_t n_max, bool gpu) : sp_(sp), gpu_(gpu) {
    range_ = bench_range<T>();
    host_ = make_samples<T>(n_max, sp.dist, sp.bins, range_, sp.seed);
#ifdef SCANKIT_HAS_CUDA
    if (gpu_) {
      d_in_.reserve(std::max<std::size_t>(host_.size() * sizeof(T), 16));
      if (!host_.empty())
        SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(d_in_.data(), host_.data(), host_.size() * sizeof(T), cudaMemcpyHostToDevice));
      flusher_ = std::make_unique<l2_flusher>();
      d_sink_.reserve(16);
    }
#endif
  }

  /// Regenerates the input for another bin count (the one-bin distribution depends on it).
  void rebin(std::int64_t bins) {
    if (sp_.dist == "one-bin" && bins != sp_.bins) {
      sp_.bins = bins;
      host_ = make_samples<T>(static_cast<std::int64_t>(host_.size()), sp_.dist, bins, range_, sp_.seed);
#ifdef SCANKIT_HAS_CUDA
      if (gpu_ && !host_.empty())
        SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(d_in_.data(), host_.data(), host_.size() * sizeof(T), cudaMemcpyHostToDevice));
#endif
    }
    sp_.bins = bins;
  }

  hpoint measure(std::int64_t n) {
    hpoint p;
    p.n = n;
    p.bins = sp_.bins;
    p.bytes = static_cast<std::size_t>(n) * sizeof(T);
    const std::int64_t bins = sp_.bins;
    const auto e = sp_.range ? make_edges<T>(bins, range_) : std::vector<histogram_level_t<T>>{};
    // The reference: the serial loop (timed when the cpu-serial row is asked for).
    std::vector<C> ref(static_cast<std::size_t>(bins));
    auto serial = [&] {
      if (sp_.range) cpu::histogram_range_serial(host_.data(), n, ref.data(), e.data(), bins + 1);
      else cpu::histogram_even_serial(host_.data(), n, ref.data(), bins, range_.lower, range_.upper);
    };
    if (has(sp_.algos, "cpu-serial")) {
      hrow r{"cpu-serial", "cpu"};
      r.samples_ms = time_cpu_ms(0, std::max(1, std::min(sp_.reps, 3)), serial);
      r.ms = median(r.samples_ms);
      r.status = "PASS";  // the reference itself
      p.serial_ms = r.ms;
      p.rows.push_back(std::move(r));
    } else {
      serial();
    }
    std::vector<C> got(static_cast<std::size_t>(bins));
    auto check = [&](hrow& r) {
      if (got == ref) {
        r.status = "PASS";
        return;
      }
      std::size_t i = 0;
      while (got[i] == ref[i]) ++i;
      r.status = "FAIL";
      r.note = fmt::format("bin {}: {} instead of {}", i, got[i], ref[i]);
    };

#ifdef SCANKIT_HAS_CUDA
    if (gpu_) {
      cuda_stream stream;
      const cudaStream_t s = stream.get();
      device_buffer d_counts(static_cast<std::size_t>(bins) * sizeof(C)), d_edges;
      if (sp_.range) {
        d_edges.reserve(e.size() * sizeof(e[0]));
        SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(d_edges.data(), e.data(), e.size() * sizeof(e[0]), cudaMemcpyHostToDevice));
      }
      const T* d_in = d_in_.as<T>();
      C* d_c = d_counts.as<C>();
      const auto* d_e = d_edges.as<histogram_level_t<T>>();
      auto flush = [&] { flusher_->flush(s); };
      auto fetch = [&] {
        SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(got.data(), d_c, got.size() * sizeof(C), cudaMemcpyDeviceToHost));
      };
      if (has(sp_.compare, "read")) {
        p.read_ms = median(time_gpu_ms(s, 1, sp_.reps, [&] { read_once(d_in, p.bytes, d_sink_.as<unsigned>(), s); }, flush));
      }
      if (has(sp_.compare, "copy")) {
        copy_buf_.reserve(std::max<std::size_t>(p.bytes, 16));
        p.copy_ms = median(time_gpu_ms(s, 1, sp_.reps, [&] { device_copy(copy_buf_.data(), d_in, p.bytes, s); }, flush));
      }
      for (auto a : cuda::all_histogram_algorithms) {
        if (!has(sp_.algos, std::string(cuda::name(a)))) continue;
        hrow r{std::string(cuda::name(a)), "gpu"};
        const cuda::histogram_options o{a, sp_.block_size};
        try {
          r.plan = cuda::plan_histogram(bins, sizeof(T), o).describe();
        } catch (const invalid_argument& ex) {
          r.status = "n/a";
          r.note = "cannot hold this many bins";
          p.rows.push_back(std::move(r));
          continue;
        }
        try {
          SCANKIT_TOOLS_CUDA_CHECK(cudaMemsetAsync(d_c, 0xA5, got.size() * sizeof(C), s));
          r.samples_ms = time_gpu_ms(s, 1, sp_.reps, [&] {
            if (sp_.range) cuda::histogram_range(d_in, n, d_c, d_e, bins + 1, s, o);
            else cuda::histogram_even(d_in, n, d_c, bins, range_.lower, range_.upper, s, o);
          }, flush);
          r.ms = median(r.samples_ms);
          fetch();
          check(r);
        } catch (const std::exception& ex) {
          r.status = "FAIL";
          r.note = std::string("error: ") + ex.what();
          (void)cudaGetLastError();
        }
        p.rows.push_back(std::move(r));
      }
      if (has(sp_.compare, "cub")) {
        hrow r{"cub", "baseline"};
        if constexpr (baseline_built<T>(cub_histogram_types)) {
          r.plan = sp_.range ? "DeviceHistogram::HistogramRange" : "DeviceHistogram::HistogramEven";
          try {
            const std::size_t temp = sp_.range ? cub_histogram_range_temp_bytes<T, C>(n, bins + 1)
                                               : cub_histogram_even_temp_bytes<T, C>(n, bins, range_.lower, range_.upper);
            cub_temp_.reserve(std::max<std::size_t>(temp, 16));
            SCANKIT_TOOLS_CUDA_CHECK(cudaMemsetAsync(d_c, 0, got.size() * sizeof(C), s));
            // CUB's histogram overwrites the counts (no accumulate): nothing to reset between runs.
            r.samples_ms = time_gpu_ms(s, 1, sp_.reps, [&] {
              if (sp_.range) cub_histogram_range<T, C>(d_in, n, d_c, d_e, bins + 1, cub_temp_.data(), temp, s);
              else cub_histogram_even<T, C>(d_in, n, d_c, bins, range_.lower, range_.upper, cub_temp_.data(), temp, s);
            }, flush);
            r.ms = median(r.samples_ms);
            fetch();
            check(r);
            if (r.status == "FAIL") {  // CUB's own bin formula, not ours: not a failure of scankit's
              r.status = "n/a";
              r.note = "CUB's bin formula differs on this range: " + r.note;
            }
            p.cub_ms = r.ms;
          } catch (const std::exception& ex) {
            r.status = "FAIL";
            r.note = std::string("error: ") + ex.what();
            (void)cudaGetLastError();
          }
        } else {
          r.note = baseline_not_built("CUB", name(sp_.type));
        }
        p.rows.push_back(std::move(r));
      }
    }
#endif
    if (has(sp_.algos, "cpu-parallel")) {
      hrow r{"cpu-parallel", "cpu"};
      r.plan = "oneTBB, per-thread private histograms";
      r.samples_ms = time_cpu_ms(1, sp_.reps, [&] {
        if (sp_.range) cpu::histogram_range_parallel(host_.data(), n, got.data(), e.data(), bins + 1);
        else cpu::histogram_even_parallel(host_.data(), n, got.data(), bins, range_.lower, range_.upper);
      });
      r.ms = median(r.samples_ms);
      check(r);
      p.rows.push_back(std::move(r));
    }
    // Keep the table order: GPU rows, baselines, CPU rows.
    std::stable_sort(p.rows.begin(), p.rows.end(), [](const hrow& a, const hrow& b) {
      auto rank = [](const std::string& g) { return g == "gpu" ? 0 : g == "baseline" ? 1 : 2; };
      return rank(a.group) < rank(b.group);
    });
    return p;
  }

  level_range<T> range() const { return range_; }

 private:
  spec sp_;
  bool gpu_;
  level_range<T> range_{};
  std::vector<T> host_;
#ifdef SCANKIT_HAS_CUDA
  device_buffer d_in_, d_sink_, cub_temp_, copy_buf_;
  std::unique_ptr<l2_flusher> flusher_;
#endif
};

std::string table(const hpoint& p) {
  text_table t({"algorithm", "ms", "G samples/s", "GB/s", "% of read", "vs CUB", "vs serial", "check", "plan"},
               {false, true, true, true, true, true, true, false, false});
  for (const auto& r : p.rows) {
    const double gs = static_cast<double>(p.n) / (r.ms * 1e6);
    const double gb = static_cast<double>(p.bytes) / (r.ms * 1e6);
    std::string check = r.status;
    if (!r.note.empty()) check += " (" + r.note + ")";
    t.add_row({r.name, format_ms(r.ms), format_gbps(gs), format_gbps(gb),
               r.group == "cpu" ? "-" : format_pct(p.read_ms / r.ms * 100.0),
               r.group == "cpu" ? "-" : format_ratio(p.cub_ms / r.ms),
               format_ratio(p.serial_ms / r.ms), check, r.plan});
  }
  return t.str();
}

std::vector<report_row> report_rows(const hpoint& p, std::string_view type, std::int64_t x) {
  std::vector<report_row> out;
  for (const auto& h : p.rows) {
    report_row r;
    const bool cpu = h.group == "cpu";
    r.algorithm = h.name;
    r.group = h.group;
    r.x = x;
    r.n = p.n;
    r.type = std::string(type);
    r.ms = h.ms;
    r.samples_ms = h.samples_ms;
    r.gbps = static_cast<double>(p.bytes) / (h.ms * 1e6);
    if (!cpu) {
      r.copy_ms = p.copy_ms;
      r.pct_of_copy = r.gbps / (2.0 * static_cast<double>(p.bytes) / (p.copy_ms * 1e6)) * 100.0;
      r.vs_cub = p.cub_ms / h.ms;
    }
    r.check = h.status;
    r.message = h.note;
    r.extra = {{"bins", p.bins},
               {"plan", h.plan},
               {"gsamples_per_s", json_number(static_cast<double>(p.n) / (h.ms * 1e6))},
               {"read_ms", json_number(p.read_ms)},
               {"pct_of_read", json_number(cpu ? NAN : p.read_ms / h.ms * 100.0)},
               {"vs_cpu_serial", json_number(p.serial_ms / h.ms)}};
    out.push_back(std::move(r));
  }
  return out;
}

spec resolve(const histogram_common_options& o, bool gpu) {
  spec sp;
  sp.type = *parse_htype(o.type);
  sp.u64 = o.counter == "u64";
  sp.bins = o.bins;
  sp.dist = o.distribution;
  sp.range = o.bins_kind == "range";
  sp.reps = o.reps;
  sp.block_size = o.block_size;
  sp.seed = pick_seed(o.seed);
  for (const auto& a : split_list(o.algo)) {
    if (a == "all") {
      for (const auto& n : histogram_algo_names())
        if (!has(sp.algos, n)) sp.algos.push_back(n);
    } else if (!has(sp.algos, a)) {
      sp.algos.push_back(a);
    }
  }
  for (const auto& c : split_list(o.compare))
    if (c != "none" && gpu) sp.compare.push_back(c);
  if (!gpu) std::erase_if(sp.algos, [](const std::string& a) { return a.rfind("cpu-", 0) != 0; });
  if (sp.algos.empty()) throw error("nothing to run: the selected algorithms need a GPU");
  return sp;
}

/// Runs f(runner<T, C>&) for the spec's sample and counter types.
template <class F>
void with_runner(const spec& sp, std::int64_t n_max, bool gpu, F&& f) {
  dispatch(sp.type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (sp.u64) {
      runner<T, std::uint64_t> r(sp, n_max, gpu);
      f(r);
    } else {
      runner<T, std::uint32_t> r(sp, n_max, gpu);
      f(r);
    }
  });
}

std::string range_text(const spec& sp) {
  return dispatch(sp.type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto r = bench_range<T>();
    return fmt::format("[{}, {})", r.lower, r.upper);
  });
}

nlohmann::json params_json(const histogram_common_options& o, const spec& sp) {
  return {{"type", std::string(name(sp.type))}, {"counter", sp.u64 ? "u64" : "u32"},
          {"bins", sp.bins}, {"bins_kind", sp.range ? "range" : "even"},
          {"range", range_text(sp)}, {"distribution", sp.dist}, {"reps", sp.reps},
          {"block_size", sp.block_size}, {"algo", o.algo}, {"compare", o.compare}, {"rows", sp.algos},
          {"seed", sp.seed}, {"gbps", "n * sizeof(T) / ms (the samples read)"}};
}

}  // namespace

int run_histogram_bench(const histogram_bench_options& o) {
  const system_info sys = query_bench_system();
  const bool gpu = sys.gpu.has_value();
  const spec sp = resolve(o, gpu);
  const std::size_t item = size_of(sp.type);
  const std::int64_t n = !o.n.empty() ? *parse_count(o.n)
                                      : static_cast<std::int64_t>((gpu ? std::size_t{1} << 30 : std::size_t{1} << 26) / item);
  check_memory(sys, fmt::format("-n {} of {}", n, name(sp.type)), static_cast<double>(n) * static_cast<double>(item) * 1.05,
               static_cast<double>(n) * static_cast<double>(item) * 2.05);
  std::cout << fmt::format("scankit bench histogram | {} | {} | n = {} ({}) | type = {} | bins = {} {} over {} | "
                           "distribution = {} | counters = {}\n",
                           device_line(sys), iso_date_now(), describe_count(n),
                           format_bytes(static_cast<double>(n) * static_cast<double>(item)), name(sp.type), sp.bins,
                           sp.range ? "range (sorted edges)" : "even", range_text(sp), sp.dist, sp.u64 ? "u64" : "u32");
  std::cout << fmt::format("reps = {} (median; cpu-serial at most 3), seed = {}{}\n", sp.reps, sp.seed,
                           gpu ? ", L2 flushed before each timed GPU run" : "");
  std::cout.flush();
  hpoint p;
  with_runner(sp, n, gpu, [&](auto& r) { p = r.measure(n); });
  if (std::isfinite(p.read_ms))
    std::cout << fmt::format("read: read-once kernel over {}: {} ms = {} GB/s\n", format_bytes(static_cast<double>(p.bytes)),
                             format_ms(p.read_ms), format_gbps(static_cast<double>(p.bytes) / (p.read_ms * 1e6)));
  if (std::isfinite(p.copy_ms))
    std::cout << fmt::format("copy: device-to-device cudaMemcpyAsync of {}: {} ms = {} GB/s (read + write)\n",
                             format_bytes(static_cast<double>(p.bytes)), format_ms(p.copy_ms),
                             format_gbps(2.0 * static_cast<double>(p.bytes) / (p.copy_ms * 1e6)));
  std::cout << "\n" << table(p);
  if (!p.ok()) std::cout << "\nsome rows failed (FAIL)\n";
  return finish_bench(o.json, "histogram", sys, params_json(o, sp), n, report_rows(p, name(sp.type), n));
}

int run_histogram_sweep(const histogram_sweep_options& o) {
  const system_info sys = query_bench_system();
  const bool gpu = sys.gpu.has_value();
  spec sp = resolve(o, gpu);
  const std::size_t item = size_of(sp.type);
  const bool by_bins = o.over == "bins";
  std::vector<std::int64_t> xs;
  for (int k = o.min_log; k <= o.max_log; ++k) xs.push_back(std::int64_t{1} << k);
  std::int64_t n_max = 0;
  if (by_bins) {
    n_max = !o.n.empty() ? *parse_count(o.n) : static_cast<std::int64_t>((gpu ? std::size_t{1} << 28 : std::size_t{1} << 24) / item);
    std::erase_if(xs, [](std::int64_t b) { return b > max_histogram_bins; });
  } else {
    const double limit = 0.3 * static_cast<double>(gpu ? std::min(sys.gpu->free_memory, sys.host_memory_available)
                                                       : sys.host_memory_available) / static_cast<double>(item);
    while (!xs.empty() && static_cast<double>(xs.back()) > limit) xs.pop_back();
    if (xs.empty()) throw error("no sweep size fits in memory");
    n_max = xs.back();
  }
  const std::string prefix = !o.out.empty() ? o.out : "sweep-histogram-" + o.over;
  std::cout << fmt::format("scankit sweep histogram over {} | {} | {} | type = {} | {} | distribution = {} | reps = {} | seed = {}\n",
                           o.over, device_line(sys), iso_date_now(), name(sp.type),
                           by_bins ? "n = " + describe_count(n_max) : "bins = " + std::to_string(sp.bins), sp.dist,
                           sp.reps, sp.seed);
  std::vector<report_row> all_rows;
  progress_line progress(xs.size());
  std::string csv = "x,n,bins,algorithm,status,ms,gsamples_per_s,gbps,pct_of_read,vs_cub\n";
  if (by_bins) sp.bins = xs.front();
  with_runner(sp, n_max, gpu, [&](auto& r) {
    for (std::int64_t x : xs) {
      progress.step(fmt::format("{} = {}", by_bins ? "bins" : "n", describe_count(x)));
      if (by_bins) r.rebin(x);
      const hpoint p = r.measure(by_bins ? n_max : x);
      progress.clear();
      std::cout << fmt::format("{} = {}:", by_bins ? "bins" : "n", describe_count(x));
      for (const auto& row : p.rows) std::cout << fmt::format("  {} {} ms", row.name, format_ms(row.ms));
      std::cout << "\n";
      std::cout.flush();
      for (const auto& row : p.rows)
        csv += fmt::format("{},{},{},{},{},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g}\n", x, p.n, p.bins, row.name, row.status,
                           row.ms, static_cast<double>(p.n) / (row.ms * 1e6),
                           static_cast<double>(p.bytes) / (row.ms * 1e6), p.read_ms / row.ms * 100.0, p.cub_ms / row.ms);
      for (auto& row : report_rows(p, name(sp.type), x)) all_rows.push_back(std::move(row));
    }
  });
  progress.clear();
  nlohmann::json params = params_json(o, sp);
  params["over"] = o.over;
  params["min_log"] = o.min_log;
  params["max_log"] = o.max_log;
  if (by_bins) params["n"] = n_max;
  return finish_sweep(prefix, "histogram", o.over, sys, std::move(params), all_rows, csv, o.no_plot);
}

// ---------------------------------------------------------------------------------------

namespace {

struct verify_tally {
  int pass = 0, fail = 0, na = 0;
};

/// One random case through every selected algorithm; returns the rows' statuses.
template <class T, class C>
void verify_case(std::mt19937_64& g, int case_no, std::string_view tname, const std::vector<std::string>& algos, bool gpu,
                 std::map<std::string, verify_tally>& tally, bool& ok) {
  std::uniform_int_distribution<int> log_bins(0, 20), log_n(0, 22), pick(0, 9);
  const std::int64_t bins = std::max<std::int64_t>(1, (std::int64_t{1} << log_bins(g)) - (pick(g) < 3 ? pick(g) : 0));
  const std::int64_t n = std::uniform_int_distribution<std::int64_t>(0, std::int64_t{1} << log_n(g))(g);
  const int mode = pick(g) % 3;  // 0 even (bench range), 1 even (odd range), 2 range bins
  const std::string dist = pick(g) < 6 ? "uniform" : pick(g) < 5 ? "normal" : "one-bin";
  const bool accumulate = pick(g) < 3;
  const std::size_t offset = pick(g) < 3 ? static_cast<std::size_t>(pick(g)) : 0;
  auto r = bench_range<T>();
  if (mode == 1) {
    if constexpr (std::is_floating_point_v<T>) r = {T(-3.5), T(17.25)};
    else r = {r.lower + 3, r.upper - 1};
  }
  std::vector<histogram_level_t<T>> edges;
  if (mode == 2) {
    try {
      edges = make_edges<T>(bins, r);
    } catch (const invalid_argument&) {
      return;  // more bins than values of this type's range
    }
  }
  const auto host = make_samples<T>(n + static_cast<std::int64_t>(offset), dist, bins, r, g());
  const T* in = host.data() + offset;
  std::vector<C> start(static_cast<std::size_t>(bins), 0);
  if (accumulate)
    for (auto& c : start) c = static_cast<C>(g() % 1000);
  std::vector<C> ref = start;
  if (mode == 2) cpu::histogram_range_serial(in, n, ref.data(), edges.data(), bins + 1, accumulate);
  else cpu::histogram_even_serial(in, n, ref.data(), bins, r.lower, r.upper, accumulate);
  auto record = [&](const std::string& algo, const std::vector<C>& got, const std::string& err) {
    auto& t = tally[algo];
    if (err.empty() && got == ref) {
      ++t.pass;
      return;
    }
    ++t.fail;
    ok = false;
    std::cout << fmt::format("FAIL case {} {}: type {} n {} bins {} mode {} dist {} accumulate {} offset {}{}\n",
                             case_no, algo, tname, n, bins, mode, dist, accumulate, offset,
                             err.empty() ? "" : ": " + err);
  };
  if (has(algos, "cpu-parallel")) {
    std::vector<C> got = start;
    if (mode == 2) cpu::histogram_range_parallel(in, n, got.data(), edges.data(), bins + 1, accumulate);
    else cpu::histogram_even_parallel(in, n, got.data(), bins, r.lower, r.upper, accumulate);
    record("cpu-parallel", got, "");
  }
#ifdef SCANKIT_HAS_CUDA
  if (!gpu) return;
  device_buffer d_in(host.size() * sizeof(T) + 16), d_c(start.size() * sizeof(C)), d_e(edges.size() * sizeof(edges[0]) + 8);
  if (!host.empty())
    SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(d_in.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  if (!edges.empty())
    SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(d_e.data(), edges.data(), edges.size() * sizeof(edges[0]), cudaMemcpyHostToDevice));
  for (auto a : cuda::all_histogram_algorithms) {
    const std::string an(cuda::name(a));
    if (!has(algos, an)) continue;
    cuda::histogram_options o{a, 0, accumulate};
    try {
      cuda::plan_histogram(bins, sizeof(T), o);
    } catch (const invalid_argument&) {
      ++tally[an].na;
      continue;
    }
    std::vector<C> got = start;
    std::string err;
    try {
      SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(d_c.data(), got.data(), got.size() * sizeof(C), cudaMemcpyHostToDevice));
      const T* d = d_in.as<T>() + offset;
      if (mode == 2) cuda::histogram_range(d, n, d_c.as<C>(), d_e.as<histogram_level_t<T>>(), bins + 1, nullptr, o);
      else cuda::histogram_even(d, n, d_c.as<C>(), bins, r.lower, r.upper, nullptr, o);
      SCANKIT_TOOLS_CUDA_CHECK(cudaDeviceSynchronize());
      SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(got.data(), d_c.data(), got.size() * sizeof(C), cudaMemcpyDeviceToHost));
    } catch (const std::exception& ex) {
      err = ex.what();
      (void)cudaGetLastError();
    }
    record(an, got, err);
  }
#else
  (void)gpu;
#endif
}

}  // namespace

int run_histogram_verify(const histogram_verify_options& o) {
  const system_info sys = query_system();
  const bool gpu = sys.gpu.has_value();
  const std::uint64_t seed = pick_seed(o.seed);
  std::vector<std::string> algos;
  for (const auto& a : split_list(o.algo)) {
    if (a == "all") {
      for (const auto& n : histogram_algo_names())
        if (n != "cpu-serial" && !has(algos, n)) algos.push_back(n);
    } else if (!has(algos, a)) {
      algos.push_back(a);
    }
  }
  if (!gpu) {
    std::cout << "no GPU found: verifying the CPU algorithms only\n";
    std::erase_if(algos, [](const std::string& a) { return a.rfind("cpu-", 0) != 0; });
  }
  // cpu-serial is the reference itself.
  std::erase(algos, std::string("cpu-serial"));
  if (algos.empty())
    throw error("nothing to verify: the selected algorithms need a GPU (--algo " + o.algo +
                "; cpu-serial is the reference)");
  std::cout << fmt::format("scankit verify histogram | {} | {} | cases = {} | seed = {}\n", device_line(sys), iso_date_now(),
                           o.cases, seed);
  std::cout << "each case: a random sample type and counter type, 1..2^20 bins, 0..2^22 samples, even bins over the "
               "bench range or an odd range, or range bins; uniform, normal or one-bin samples; an offset start; "
               "accumulating or not; checked exactly against the serial reference\n";
  std::mt19937_64 g(seed);
  std::map<std::string, verify_tally> tally;
  bool ok = true;
  progress_line progress(static_cast<std::size_t>(o.cases));
  for (int c = 0; c < o.cases; ++c) {
    progress.step("case " + std::to_string(c));
    const auto t = all_htypes[g() % all_htypes.size()];
    const bool u64 = g() % 2;
    dispatch(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if (u64) verify_case<T, std::uint64_t>(g, c, name(t), algos, gpu, tally, ok);
      else verify_case<T, std::uint32_t>(g, c, name(t), algos, gpu, tally, ok);
    });
  }
  progress.clear();
  text_table t({"algorithm", "passed", "failed", "n/a"}, {false, true, true, true});
  int passed = 0, failed = 0;
  for (const auto& a : algos) {
    const auto& v = tally[a];
    t.add_row({a, std::to_string(v.pass), std::to_string(v.fail), std::to_string(v.na)});
    passed += v.pass;
    failed += v.fail;
  }
  (void)ok;
  std::cout << "\n" << t.str() << "\n";
  return finish_verify(passed, failed);
}

}  // namespace scankit::tools
