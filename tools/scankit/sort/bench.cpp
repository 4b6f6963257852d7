// `bench sort` (one point, a table), `sweep sort` (sizes 2^a..2^b, to JSON and CSV) and
// `verify sort` (random cases against std::stable_sort; the segmented cases and
// `bench sort --segments` are sort/segmented_bench.cpp). Every GPU row runs on the same
// input in the same process as CUB and a device-to-device copy of the same bytes.
#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <cstring>
#include <execution>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "common/parallel.hpp"
#include "common/report.hpp"
#include "common/system.hpp"
#include "common/timing.hpp"
#include "common/util.hpp"
#include "scankit/cpu/scan.hpp"
#include "scankit/scankit.hpp"
#include "sort/commands.hpp"
#include "sort/keys.hpp"
#ifdef SCANKIT_HAS_CUDA
#include "common/built_baselines.hpp"
#include "sort/baselines.hpp"
#endif

namespace scankit::tools {

namespace {

const std::vector<std::string> gpu_rows = sort_gpu_row_names();
const std::vector<std::string> cpu_rows = sort_cpu_row_names();

using sort_input::index_vals;
using sort_input::random_keys;
using sort_input::same_bytes;
using sort_input::with_types;

struct row_result {
  std::string name;
  double ms = std::nan("");
  std::string check = "n/a";
  std::string message;  // why the row is n/a
  double ws_bytes_per_key = std::nan("");
  std::vector<double> samples;
};

struct point {
  std::int64_t n = 0;
  std::size_t bytes = 0;  // n * (key + value bytes)
  double copy_ms = std::nan("");
  std::vector<row_result> rows;
  double ms_of(const std::string& r) const {
    for (const auto& x : rows)
      if (x.name == r) return x.ms;
    return std::nan("");
  }
};

struct run_spec {
  std::string type;
  int value_bytes = 0;
  int bits = 0;
  bool pass_range = true;
  bool descending = false;
  int reps = 10;
  std::uint64_t seed = 0;
  std::vector<std::string> rows;
  bool check = true;
};

std::vector<std::string> resolve_rows(const std::string& algo, bool gpu, bool no_cub, bool pairs, std::int64_t n) {
  std::vector<std::string> out;
  auto add = [&](const std::string& r) {
    const bool is_gpu = std::find(gpu_rows.begin(), gpu_rows.end(), r) != gpu_rows.end();
    if (is_gpu && !gpu) return;
    if (r == "cub" && no_cub) return;
    if (pairs && (r == "cpu-std-sort-par" || r == "cpu-tbb-sort")) return;
    if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  };
  for (const auto& item : split_list(algo)) {
    if (item == "all" || item == "gpu")
      for (const auto& r : gpu_rows) add(r);
    if (item == "all" || item == "cpu")
      for (const auto& r : cpu_rows)
        if (r != "cpu-serial" || n <= (std::int64_t{1} << 24) || item == "cpu") add(r);
    if (item != "all" && item != "gpu" && item != "cpu") add(item);
  }
  if (!no_cub && gpu && std::find(out.begin(), out.end(), "cub") == out.end() &&
      std::any_of(out.begin(), out.end(), [](const std::string& r) { return r == "onesweep" || r == "lsd-reduce-then-scan" || r == "split-1bit"; }))
    out.push_back("cub");
  return out;
}

template <class K, class V>
point measure(const run_spec& s, std::int64_t n) {
  constexpr bool pairs = !std::is_same_v<V, char>;
  constexpr std::size_t vb = pairs ? sizeof(V) : 0;
  const int width = static_cast<int>(sizeof(K) * 8);
  const sort_options opts{s.descending, 0, (s.bits && s.pass_range) ? s.bits : -1};
  point pt;
  pt.n = n;
  pt.bytes = static_cast<std::size_t>(n) * (sizeof(K) + vb);
  const auto keys = random_keys<K>(n, s.seed, s.bits);
  const auto vals = pairs ? index_vals<V>(n) : std::vector<V>{};

  std::vector<K> ref_k;
  std::vector<V> ref_v;
  if (s.check) {
    ref_k = keys;
    ref_v = vals;
    if constexpr (pairs) cpu::sort_pairs_parallel(ref_k.data(), ref_v.data(), n, opts);
    else cpu::sort_keys_parallel(ref_k.data(), n, opts);
  }
  auto verdict = [&](const std::vector<K>& k, const std::vector<V>& v) {
    if (!s.check) return std::string("n/a");
    return same_bytes(k, ref_k) && (!pairs || same_bytes(v, ref_v)) ? std::string("PASS") : std::string("FAIL");
  };

  const bool any_gpu = std::any_of(s.rows.begin(), s.rows.end(), [](const std::string& r) {
    return std::find(gpu_rows.begin(), gpu_rows.end(), r) != gpu_rows.end();
  });
#ifdef SCANKIT_HAS_CUDA
  if (any_gpu) {
    pt.copy_ms = measure_device_copy_ms(std::max<std::size_t>(pt.bytes, 1), s.reps);
    cuda_stream stream;
    l2_flusher l2;
    device_buffer kin(sizeof(K) * n + 1), kout(sizeof(K) * n + 1), vin(vb * n + 1), vout(vb * n + 1);
    SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(kin.data(), keys.data(), sizeof(K) * n, cudaMemcpyHostToDevice));
    if (pairs) SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(vin.data(), vals.data(), vb * n, cudaMemcpyHostToDevice));
    device_buffer ws;
    for (const auto& r : s.rows) {
      if (std::find(gpu_rows.begin(), gpu_rows.end(), r) == gpu_rows.end()) continue;
      row_result rr;
      rr.name = r;
      std::function<void()> f;
      if (r == "cub") {
        if constexpr (baseline_built<K>(cub_sort_types)) {
          cub_sort_args a;
          a.keys_in = kin.data(), a.keys_out = kout.data(), a.values_in = vin.data(), a.values_out = vout.data();
          a.value_bytes = vb, a.n = n, a.begin_bit = 0, a.end_bit = opts.end_bit < 0 ? width : opts.end_bit;
          a.descending = s.descending, a.stream = stream.get();
          cub_sort<K>(a);  // size query
          ws.reserve(std::max<std::size_t>(a.temp_bytes, 1));
          rr.ws_bytes_per_key = static_cast<double>(a.temp_bytes) / static_cast<double>(std::max<std::int64_t>(n, 1));
          f = [&, a]() mutable {
            a.temp = ws.data();
            cub_sort<K>(a);
          };
        } else {
          rr.message = baseline_not_built("CUB", s.type);
          pt.rows.push_back(rr);
          continue;
        }
      } else {
        const cuda::sort_config cfg{*cuda::parse_sort_algorithm(r)};
        const std::size_t wb = cuda::sort_workspace_bytes(n, sizeof(K), vb, cfg);
        ws.reserve(std::max<std::size_t>(wb, 1));
        rr.ws_bytes_per_key = static_cast<double>(wb) / static_cast<double>(std::max<std::int64_t>(n, 1));
        f = [&, cfg, wb] {
          if constexpr (pairs)
            cuda::sort_pairs(kin.as<K>(), kout.as<K>(), vin.as<V>(), vout.as<V>(), n, ws.data(), wb, stream.get(), opts, cfg);
          else
            cuda::sort_keys(kin.as<K>(), kout.as<K>(), n, ws.data(), wb, stream.get(), opts, cfg);
        };
      }
      SCANKIT_TOOLS_CUDA_CHECK(cudaMemsetAsync(kout.data(), 0, sizeof(K) * n + 1, stream.get()));
      const int reps = (r == "split-1bit" && n >= (std::int64_t{1} << 26)) ? std::min(s.reps, 3) : s.reps;
      rr.samples = time_gpu_ms(stream.get(), 1, reps, f, [&] { l2.flush(stream.get()); });
      rr.ms = median(rr.samples);
      std::vector<K> got_k(static_cast<std::size_t>(n));
      std::vector<V> got_v(pairs ? static_cast<std::size_t>(n) : 0);
      SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(got_k.data(), kout.data(), sizeof(K) * n, cudaMemcpyDeviceToHost));
      if (pairs) SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(got_v.data(), vout.data(), vb * n, cudaMemcpyDeviceToHost));
      rr.check = verdict(got_k, got_v);
      pt.rows.push_back(rr);
    }
  }
#else
  (void)any_gpu;
#endif
  // CPU rows: each timed call sorts a fresh copy of the input (the copy is not timed).
  for (const auto& r : s.rows) {
    if (std::find(cpu_rows.begin(), cpu_rows.end(), r) == cpu_rows.end()) continue;
    row_result rr;
    rr.name = r;
    std::vector<K> k;
    std::vector<V> v;
    auto reset = [&] {
      k = keys;
      v = vals;
    };
    const auto [b, e] = scankit::detail::sort_bit_range(opts, width, "bench");
    auto less = [b = b, e = e, d = s.descending](K x, K y) {
      return scankit::detail::sort_rank_bits(x, b, e, d) < scankit::detail::sort_rank_bits(y, b, e, d);
    };
    std::function<void()> f;
    // The radix sort keeps its scratch memory in a workspace across the calls, as the GPU rows
    // keep theirs (the untimed warm-up call grows it); the bytes per key are what it holds.
    cpu::sort_workspace ws;
    if (r == "cpu-radix") {
      f = [&] {
        if constexpr (pairs) cpu::sort_pairs_parallel(k.data(), v.data(), n, ws, opts);
        else cpu::sort_keys_parallel(k.data(), n, ws, opts);
      };
    } else if (r == "cpu-serial") {
      f = [&] {
        if constexpr (pairs) cpu::sort_pairs_serial(k.data(), v.data(), n, opts);
        else cpu::sort_keys_serial(k.data(), n, opts);
      };
    } else if (r == "cpu-std-sort-par" || r == "cpu-tbb-sort") {
      // The plain comparators where they give the same order (the bench has no NaNs), as a
      // user would call them; the ordered-bits comparator for bit ranges.
      const bool natural = !(s.bits && s.pass_range);
      const bool par = r == "cpu-std-sort-par";
      f = [&, natural, par, less] {
        if (natural && !s.descending) {
          if (par) std::sort(std::execution::par, k.begin(), k.end());
          else tbb::parallel_sort(k.begin(), k.end());
        } else if (natural) {
          if (par) std::sort(std::execution::par, k.begin(), k.end(), std::greater<K>());
          else tbb::parallel_sort(k.begin(), k.end(), std::greater<K>());
        } else {
          if (par) std::sort(std::execution::par, k.begin(), k.end(), less);
          else tbb::parallel_sort(k.begin(), k.end(), less);
        }
      };
    } else {
      continue;
    }
    const int reps = r == "cpu-serial" ? std::min(s.reps, 3) : s.reps;
    rr.samples = time_cpu_ms(r == "cpu-serial" ? 0 : 1, reps, f, reset);
    rr.ms = median(rr.samples);
    if (r == "cpu-radix")
      rr.ws_bytes_per_key = static_cast<double>(ws.bytes()) / static_cast<double>(std::max<std::int64_t>(n, 1));
    // Unstable sorts (std::sort, tbb::parallel_sort) of keys alone still give equal bits,
    // except that equal-ranking keys of different bits (bit ranges) may be permuted.
    if (s.check && (r == "cpu-radix" || r == "cpu-serial" || !(s.bits && s.pass_range)))
      rr.check = verdict(k, v);
    pt.rows.push_back(rr);
  }
  return pt;
}

std::string describe(const sort_common_options& o) {
  std::string s = fmt::format("keys = {}", o.type);
  if (o.pairs) s += fmt::format(" | values = {} bytes", o.value_bytes);
  if (o.bits) s += fmt::format(" | bits = {}{}", o.bits, o.no_range ? " (range not passed)" : "");
  s += o.descending ? " | descending" : " | ascending";
  return s;
}

run_spec make_spec(const sort_common_options& o, const std::vector<std::string>& rows) {
  run_spec s;
  s.type = o.type;
  s.value_bytes = o.pairs ? o.value_bytes : 0;
  s.bits = o.bits;
  s.pass_range = !o.no_range;
  s.descending = o.descending;
  s.reps = o.reps;
  s.seed = pick_seed(o.seed);
  s.rows = rows;
  return s;
}

point measure_any(const run_spec& s, std::int64_t n) {
  return with_types(s.type, s.value_bytes, [&](auto k, auto v) { return measure<decltype(k), decltype(v)>(s, n); });
}

bool is_gpu_row(const std::string& r) { return std::find(gpu_rows.begin(), gpu_rows.end(), r) != gpu_rows.end(); }

std::vector<report_row> report_rows(const point& p, const run_spec& s) {
  std::vector<report_row> out;
  const double cub = p.ms_of("cub");
  for (const auto& x : p.rows) {
    report_row r;
    const bool gpu = is_gpu_row(x.name);
    r.algorithm = x.name;
    r.group = x.name == "cub" ? "baseline" : gpu ? "gpu" : "cpu";
    r.x = p.n;
    r.n = p.n;
    r.type = s.type;
    r.ms = x.ms;
    r.samples_ms = x.samples;
    r.gbps = 2.0 * static_cast<double>(p.bytes) / (x.ms * 1e6);
    if (gpu) {
      r.copy_ms = p.copy_ms;
      r.pct_of_copy = p.copy_ms / x.ms * 100.0;
      r.vs_cub = cub / x.ms;
    }
    r.check = x.check;
    r.message = x.message;
    r.extra = {{"value_bytes", s.value_bytes},
               {"bits", s.bits},
               {"descending", s.descending},
               {"gkeys_per_s", json_number(static_cast<double>(p.n) / (x.ms * 1e6))},
               {"workspace_bytes_per_key", json_number(x.ws_bytes_per_key)}};
    out.push_back(std::move(r));
  }
  return out;
}

nlohmann::json params_json(const sort_common_options& o, const run_spec& s) {
  return {{"type", o.type},
          {"pairs", o.pairs},
          {"value_bytes", s.value_bytes},
          {"bits", o.bits},
          {"pass_range", s.pass_range},
          {"descending", o.descending},
          {"algo", o.algo},
          {"rows", s.rows},
          {"reps", o.reps},
          {"seed", s.seed},
          {"gbps", "2 * n * (key bytes + value bytes) / ms"}};
}

}  // namespace

int run_sort_bench(const sort_bench_options& o) {
  if (!o.segments.empty()) return run_sort_segmented_bench(o);
  const system_info sys = query_bench_system();
  const bool gpu = sys.gpu.has_value();
  const std::int64_t n = !o.n.empty() ? *parse_count(o.n) : gpu ? (std::int64_t{1} << 28) : (std::int64_t{1} << 26);
  const auto rows = resolve_rows(o.algo, gpu, o.no_cub, o.pairs, n);
  if (rows.empty()) throw error("nothing to run: the selected rows need a GPU (--algo " + o.algo + ")");
  {
    // Host: keys and values, the reference, a working copy and a fetched result; device: in,
    // out and a workspace of about one more copy.
    const double kv = static_cast<double>(std::stoul(o.type.substr(1)) / 8 + (o.pairs ? o.value_bytes : 0));
    check_memory(sys, fmt::format("-n {} of {}{}", n, o.type, o.pairs ? " pairs" : ""), 5.0 * kv * static_cast<double>(n),
                 (gpu ? 6.0 : 0.0) * kv * static_cast<double>(n));
  }
  const run_spec s = make_spec(o, rows);
  std::cout << fmt::format("scankit bench sort | {} | {} | n = {} | {} | seed {}\n", device_line(sys),
                           iso_date_now(), describe_count(n), describe(o), s.seed);
#ifdef SCANKIT_HAS_CUDA
  if (gpu && std::find(rows.begin(), rows.end(), "onesweep") != rows.end())
    std::cout << cuda::sort_tuning_description(std::stoul(o.type.substr(1)) / 8,
                                               o.pairs ? static_cast<std::size_t>(o.value_bytes) : 0)
              << "\n";
#endif
  const point p = measure_any(s, n);
  if (!std::isnan(p.copy_ms))
    std::cout << fmt::format("copy: device-to-device cudaMemcpyAsync of {}: {} ms = {} GB/s (read + write)\n",
                             format_bytes(static_cast<double>(p.bytes)), format_ms(p.copy_ms),
                             format_gbps(2.0 * p.bytes / (p.copy_ms * 1e6)));
  text_table t({"algorithm", "ms", "Gkeys/s", "GB/s", "% of copy", "vs CUB", "ws B/key", "check"});
  const double cub = p.ms_of("cub");
  for (const auto& r : p.rows) {
    const bool is_gpu = std::find(gpu_rows.begin(), gpu_rows.end(), r.name) != gpu_rows.end();
    t.add_row({r.name, format_ms(r.ms), format_gbps(n / (r.ms * 1e6)), format_gbps(2.0 * p.bytes / (r.ms * 1e6)),
               is_gpu ? format_pct(p.copy_ms / r.ms * 100) : "-", is_gpu ? format_ratio(cub / r.ms) : "-",
               std::isnan(r.ws_bytes_per_key) ? "-" : fmt::format("{:.2f}", r.ws_bytes_per_key),
               check_cell(r.check, r.message)});
  }
  std::cout << t.str();
  for (const auto& r : p.rows)
    if (r.name == "cpu-radix") {
      for (const auto& other : {"cpu-std-sort-par", "cpu-tbb-sort", "cpu-serial"})
        if (!std::isnan(p.ms_of(other)))
          std::cout << fmt::format("cpu-radix vs {}: {}\n", other, format_ratio(p.ms_of(other) / r.ms));
    }
  return finish_bench(o.json, "sort", sys, params_json(o, s), n, report_rows(p, s));
}

int run_sort_sweep(const sort_sweep_options& o) {
  const system_info sys = query_bench_system();
  const bool gpu = sys.gpu.has_value();
  auto rows = resolve_rows(o.algo, gpu, o.no_cub, o.pairs, std::int64_t{1} << o.max_log);
  // The default rows are the GPU ones: without a GPU the CPU rows stand in, as in the other sweeps.
  if (!gpu && rows.empty()) rows = resolve_rows("all", false, true, o.pairs, std::int64_t{1} << o.max_log);
  if (rows.empty()) throw error("nothing to run (--algo " + o.algo + ")");
  run_spec s = make_spec(o, rows);
  std::cout << fmt::format("scankit sweep sort | {} | {} | 2^{}..2^{} | {} | seed {}\n", device_line(sys),
                           iso_date_now(), o.min_log, o.max_log, describe(o), s.seed);
  const std::size_t kb = std::stoul(o.type.substr(1)) / 8, vb = o.pairs ? static_cast<std::size_t>(o.value_bytes) : 0;
  std::vector<report_row> all_rows;
  std::string csv = "n,row,ms,gkeys_per_s,vs_cub,workspace_bytes_per_key,check\n";
  text_table t({"n", "row", "ms", "Gkeys/s", "vs CUB", "check"});
  progress_line progress(static_cast<std::size_t>(o.max_log - o.min_log + 1));
  for (int lg = o.min_log; lg <= o.max_log; ++lg) {
    const std::int64_t n = std::int64_t{1} << lg;
    progress.step(fmt::format("n=2^{}", lg));
    // Inputs, outputs, the largest workspace (~ one more copy) and the copy baseline's two buffers.
    const double need = 6.0 * static_cast<double>(n) * static_cast<double>(kb + vb);
    if (gpu && need > 0.9 * static_cast<double>(sys.gpu->free_memory)) {
      progress.clear();
      std::cout << fmt::format("2^{}: skipped (needs ~{} of GPU memory)\n", lg, format_bytes(need));
      continue;
    }
    if (need > 0.9 * static_cast<double>(sys.host_memory_available)) {
      progress.clear();
      std::cout << fmt::format("2^{}: skipped (needs ~{} of host memory)\n", lg, format_bytes(need));
      continue;
    }
    const point p = measure_any(s, n);
    for (auto& r : report_rows(p, s)) all_rows.push_back(std::move(r));
    const double cub = p.ms_of("cub");
    for (const auto& r : p.rows) {
      csv += fmt::format("{},{},{},{},{},{},{}\n", n, r.name, r.ms, n / (r.ms * 1e6), cub / r.ms, r.ws_bytes_per_key, r.check);
      t.add_row({describe_count(n), r.name, format_ms(r.ms), format_gbps(n / (r.ms * 1e6)), format_ratio(cub / r.ms), r.check});
    }
  }
  progress.clear();
  std::cout << t.str();
  const std::string prefix = o.out.empty() ? "sweep-sort-" + o.type : o.out;
  nlohmann::json params = params_json(o, s);
  params["over"] = "size";
  params["min_log"] = o.min_log;
  params["max_log"] = o.max_log;
  return finish_sweep(prefix, "sort", "size", sys, std::move(params), all_rows, csv, o.no_plot, {});
}

namespace {

/// One random case through every row; counts a check per row into passed or failed and
/// returns the failing rows' descriptions.
template <class K, class V>
bool verify_case(std::mt19937_64& g, const std::vector<std::string>& rows, std::string& what, int& passed,
                 std::vector<std::string>& failures) {
  constexpr bool pairs = !std::is_same_v<V, char>;
  constexpr int width = static_cast<int>(sizeof(K) * 8);
  const int lg = std::uniform_int_distribution<int>(0, 22)(g);
  const std::int64_t n = std::uniform_int_distribution<std::int64_t>(0, std::int64_t{1} << lg)(g);
  sort_options opts;
  opts.descending = g() % 2;
  if (g() % 4 == 0) {
    opts.begin_bit = std::uniform_int_distribution<int>(0, width)(g);
    opts.end_bit = std::uniform_int_distribution<int>(opts.begin_bit, width)(g);
  }
  // Narrow keys a quarter of the time (constant digits), else every bit random (floats: NaNs too).
  const int bits = g() % 4 == 0 ? std::uniform_int_distribution<int>(1, width)(g) : 0;
  std::vector<K> keys(static_cast<std::size_t>(n));
  using U = typename radix_traits<K>::bits_t;
  for (auto& k : keys) {
    U o = static_cast<U>(g());
    if (bits && bits < width) o = static_cast<U>(o & ((U{1} << bits) - 1));
    k = radix_traits<K>::key_of(o);
  }
  const auto vals = pairs ? index_vals<V>(n) : std::vector<V>{};
  auto ref_k = keys;
  auto ref_v = vals;
  if constexpr (pairs) cpu::sort_pairs_serial(ref_k.data(), ref_v.data(), n, opts);
  else cpu::sort_keys_serial(ref_k.data(), n, opts);
  const std::string params = fmt::format("n = {}, value bytes {}, {}, bits [{}, {}), narrowed to {} bits", n,
                                         pairs ? sizeof(V) : 0, opts.descending ? "descending" : "ascending",
                                         opts.begin_bit, opts.end_bit, bits);
  for (const auto& r : rows) {
    what = r + ": " + params;  // named before the call, so that a call that throws names its case
    auto k = keys;
    std::vector<V> v;
    if constexpr (pairs) v = vals;
    if (r == "cpu-radix") {
      if constexpr (pairs) cpu::sort_pairs_parallel(k.data(), v.data(), n, opts);
      else cpu::sort_keys_parallel(k.data(), n, opts);
    } else if (r != "cub" && std::find(gpu_rows.begin(), gpu_rows.end(), r) != gpu_rows.end()) {
#ifdef SCANKIT_HAS_CUDA
      const cuda::sort_config cfg{*cuda::parse_sort_algorithm(r)};
      if constexpr (pairs) cuda::sort_pairs<K, V>(std::span<K>(k), std::span<V>(v), opts, cfg);
      else cuda::sort_keys<K>(std::span<K>(k), opts, cfg);
#endif
    } else {
      continue;
    }
    if (!same_bytes(k, ref_k) || (pairs && !same_bytes(v, ref_v))) failures.push_back(what);
    else ++passed;
  }
  return failures.empty();
}

}  // namespace

int run_sort_verify(const sort_verify_options& o) {
  const system_info sys = query_system();
  const bool gpu = sys.gpu.has_value();
  std::vector<std::string> rows;
  for (const auto& r : resolve_rows(o.algo, gpu, true, false, 0))
    if (r == "cpu-radix" || (r != "cub" && std::find(gpu_rows.begin(), gpu_rows.end(), r) != gpu_rows.end()))
      rows.push_back(r);
  // The segmented sorts' rows: cpu-parallel with the CPU rows, scankit with the GPU ones.
  std::vector<std::string> seg_rows;
  const auto items = split_list(o.algo);
  auto asked = [&](std::initializer_list<const char*> words) {
    return std::any_of(items.begin(), items.end(), [&](const std::string& i) {
      return std::find(words.begin(), words.end(), i) != words.end();
    });
  };
  if (asked({"all", "cpu", "cpu-parallel"})) seg_rows.push_back("cpu-parallel");
  if (gpu && asked({"all", "gpu", "scankit"})) seg_rows.push_back("scankit");
  if (gpu && asked({"all", "gpu", "scankit-merge"})) seg_rows.push_back("scankit-merge");
  if (gpu && asked({"all", "gpu", "scankit-two-sort"})) seg_rows.push_back("scankit-two-sort");
  if (!gpu) std::cout << "no GPU found: verifying the CPU algorithms only\n";
  if (rows.empty() && seg_rows.empty())
    throw error("nothing to verify with --algo " + o.algo +
                ": verify checks cpu-radix, cpu-parallel (segmented) and scankit's GPU sorts, and the GPU sorts "
                "need a GPU");
  const std::uint64_t seed = pick_seed(o.seed);
  std::cout << fmt::format("scankit verify sort | {} | {} cases | rows: {}{} | seed {}\n", device_line(sys), o.cases,
                           rows.empty() ? "-" : join(rows),
                           seg_rows.empty() ? "" : " | segmented: " + join(seg_rows), seed);
  std::mt19937_64 g(seed);
  // The segmented cases draw from a generator of their own, so that a seed replays the same
  // flat cases with or without them.
  std::mt19937_64 seg_g(seed ^ 0x5E65E65E65E65E6ull);
  const std::vector<std::string> types{"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64"};
  int passed = 0, failed = 0;
  progress_line progress(static_cast<std::size_t>(o.cases));
  for (int c = 0; c < o.cases; ++c) {
    progress.step("case " + std::to_string(c));
    const std::string t = types[g() % types.size()];
    const int vb = std::array{0, 4, 8, 16}[g() % 4];
    std::string what;
    std::vector<std::string> failures;
    try {
      if (!rows.empty())
        with_types(t, vb, [&](auto k, auto v) { return verify_case<decltype(k), decltype(v)>(g, rows, what, passed, failures); });
    } catch (const std::exception& e) {  // a failed call: say which case, then go on
      failures.push_back(what + fmt::format(" | error: {}", e.what()));
    }
    for (auto& f : failures) f = "keys " + t + " | " + f;
    const std::uint64_t seg_seed = seg_g();
    if (!seg_rows.empty()) verify_sort_segmented_case(seg_seed, seg_rows, passed, failures);
    if (!failures.empty()) progress.clear();
    for (const auto& f : failures) {
      ++failed;
      std::cout << fmt::format("FAIL case {}: {}\n", c, f);
    }
  }
  progress.clear();
  return finish_verify(passed, failed);
}

}  // namespace scankit::tools
