// `bench sort --segments DIST` (one input, a table) and the segmented cases of `verify sort`.
//
// The input: n keys of --type (sort/keys.hpp: the flat bench's keys for the same seed), cut into
// segments whose lengths follow DIST with mean M (segments/data.hpp: the layouts of
// `bench segments`), as int64 CSR offsets; with --pairs, u32 values that number the items, so
// that the check also checks stability. Rows: scankit's segmented sort (device pointers,
// workspace preallocated), CUB's segmented radix sort and segmented merge sort (the same
// buffers), scankit's flat sort of all n keys as one array (the time "% of flat" compares with),
// and the CPU's parallel segmented sort and its serial reference. Every row's output is compared
// bitwise with the serial reference, computed once (the flat row's with the CPU radix sort of
// all n keys).
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <span>

#include "common/report.hpp"
#include "common/system.hpp"
#include "common/timing.hpp"
#include "common/util.hpp"
#include "scankit/cpu/segmented_sort.hpp"
#include "scankit/scankit.hpp"
#include "segments/commands.hpp"
#include "segments/data.hpp"
#include "sort/commands.hpp"
#include "sort/keys.hpp"
#ifdef SCANKIT_HAS_CUDA
#include "common/built_baselines.hpp"
#include "scankit/cuda/segmented_sort.hpp"
#include "sort/segmented_baselines.hpp"
#endif

namespace scankit::tools {

namespace {

using sort_input::index_vals;
using sort_input::random_keys;
using sort_input::same_bytes;
using sort_input::with_key_type;
using segments_data::layout;

struct srow {
  srow(std::string n, std::string g) : name(std::move(n)), group(std::move(g)) {}
  std::string name, group;  // group: gpu | baseline | cpu
  std::string check = check_na, message;
  std::vector<double> samples_ms;
  double ms = NAN;
  double ws_bytes_per_key = NAN;  // GPU and CUB rows: their workspace / n
};

struct spoint {
  std::int64_t n = 0, segments = 0, mean = 0;
  std::size_t bytes = 0;  // n * (key + value bytes)
  std::vector<srow> rows;
  double ms_of(const std::string& r) const {
    for (const auto& x : rows)
      if (x.name == r) return x.ms;
    return NAN;
  }
  /// The faster CUB row's time (NaN without one that ran).
  double cub_ms() const {
    double best = NAN;
    for (const auto& x : rows)
      if (x.group == "baseline" && !std::isnan(x.ms) && !(x.ms >= best)) best = x.ms;
    return best;
  }
};

struct sspec {
  std::string type, dist;
  std::int64_t mean = 256;
  int value_bytes = 0;  // 0 or 4
  bool descending = false;
  int reps = 10;
  std::uint64_t seed = 0;
  std::vector<std::string> rows;  // in the order of sort_segmented_row_names
};

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

std::vector<std::string> resolve_rows(const std::string& algo, bool gpu, bool no_cub) {
  const auto gpu_rows = sort_segmented_gpu_row_names(), cpu_rows = sort_segmented_cpu_row_names();
  std::vector<std::string> asked;
  for (const auto& item : split_list(algo)) {
    if (item == "all" || item == "gpu") asked.insert(asked.end(), gpu_rows.begin(), gpu_rows.end());
    if (item == "all" || item == "cpu") asked.insert(asked.end(), cpu_rows.begin(), cpu_rows.end());
    if (item != "all" && item != "gpu" && item != "cpu") asked.push_back(item);
  }
  std::vector<std::string> out;
  for (const auto& r : sort_segmented_row_names()) {
    if (!has(asked, r) || (!gpu && has(gpu_rows, r)) || (no_cub && r.starts_with("cub"))) continue;
    out.push_back(r);
  }
  return out;
}

/// "" when the keys (and values) equal the reference's bit for bit, else the first item that
/// differs and its segment.
template <class K, class V>
std::string compare(const std::vector<K>& k, const std::vector<V>& v, const std::vector<K>& ref_k,
                    const std::vector<V>& ref_v, const layout* lay) {
  if (same_bytes(k, ref_k) && same_bytes(v, ref_v)) return "";
  if (k.size() != ref_k.size() || v.size() != ref_v.size()) return "the result has the wrong size";
  for (std::size_t i = 0; i < k.size(); ++i) {
    const bool key_differs = std::memcmp(&k[i], &ref_k[i], sizeof(K)) != 0;
    if (!key_differs && (v.empty() || std::memcmp(&v[i], &ref_v[i], sizeof(V)) == 0)) continue;
    std::string where = fmt::format("item {}", i);
    if (lay) {
      const auto it = std::upper_bound(lay->offsets.begin(), lay->offsets.end(), static_cast<std::int64_t>(i));
      where += fmt::format(" (segment {})", it - lay->offsets.begin() - 1);
    }
    return where + (key_differs ? ": the key's bits differ" : ": the value differs (an unstable order?)");
  }
  return "";
}

#ifdef SCANKIT_HAS_CUDA
/// The GPU segmented sort's config of a row: scankit (the automatic path), scankit-merge (the
/// merge path without radix passes for long segments) or scankit-two-sort.
cuda::segmented_sort_config gpu_config(const std::string& row) {
  if (row == "scankit-merge") return {cuda::segmented_sort_path::merge, -1};
  return {row == "scankit-two-sort" ? cuda::segmented_sort_path::two_sort : cuda::segmented_sort_path::automatic};
}
bool scankit_row(const std::string& row) {
  return row == "scankit" || row == "scankit-merge" || row == "scankit-two-sort";
}
#endif

void record(srow& r, const std::string& failure) {
  r.message = failure;
  r.check = failure.empty() ? check_pass : check_fail;
}

template <class K, class V>
spoint measure(const sspec& s, std::int64_t n, const layout& lay, [[maybe_unused]] bool gpu) {
  constexpr bool pairs = !std::is_same_v<V, char>;
  constexpr std::size_t vb = pairs ? sizeof(V) : 0;
  const sort_options opts{s.descending};
  const segment_bounds seg = segment_offsets{lay.offsets.data(), lay.count()};
  spoint p;
  p.n = n, p.segments = lay.count(), p.mean = s.mean;
  p.bytes = static_cast<std::size_t>(n) * (sizeof(K) + vb);
  const auto keys = random_keys<K>(n, s.seed, 0);
  const auto vals = pairs ? index_vals<V>(n) : std::vector<V>{};
  auto serial = [&](std::vector<K>& k, std::vector<V>& v) {
    if constexpr (pairs) cpu::segmented_sort_pairs_serial(k.data(), v.data(), n, seg, opts);
    else cpu::segmented_sort_keys_serial(k.data(), n, seg, opts);
  };
  // The reference every segmented row is checked against; its time is cpu-serial's first sample.
  std::vector<K> ref_k = keys;
  std::vector<V> ref_v = vals;
  const std::vector<double> ref_ms = time_cpu_ms(0, 1, [&] { serial(ref_k, ref_v); });
#ifdef SCANKIT_HAS_CUDA
  const auto gpu_names = sort_segmented_gpu_row_names();
  if (gpu && std::any_of(gpu_names.begin(), gpu_names.end(), [&](const std::string& r) { return has(s.rows, r); })) {
    cuda_stream stream;
    const cudaStream_t st = stream.get();
    l2_flusher l2;
    const std::int64_t count = lay.count();
    device_buffer kin(sizeof(K) * n + 1), kout(sizeof(K) * n + 1), vin(vb * n + 1), vout(vb * n + 1);
    device_buffer d_offsets(sizeof(std::int64_t) * static_cast<std::size_t>(count + 1)), ws;
    // On the bench's stream: a copy from pageable memory may return before it has landed, and
    // a non-blocking stream would not wait for it.
    SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpyAsync(kin.data(), keys.data(), sizeof(K) * n, cudaMemcpyHostToDevice, st));
    if (pairs) SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpyAsync(vin.data(), vals.data(), vb * n, cudaMemcpyHostToDevice, st));
    SCANKIT_TOOLS_CUDA_CHECK(
        cudaMemcpyAsync(d_offsets.data(), lay.offsets.data(), d_offsets.size(), cudaMemcpyHostToDevice, st));
    const segment_bounds d_seg = segment_offsets{d_offsets.as<const std::int64_t>(), count};
    for (const auto& r : gpu_names) {
      if (!has(s.rows, r)) continue;
      srow row{r, r.starts_with("cub") ? "baseline" : "gpu"};
      try {
        std::function<void()> call;
        std::size_t wb = 0;
        if (scankit_row(r)) {
          const cuda::segmented_sort_config cfg = gpu_config(r);
          wb = cuda::segmented_sort_workspace_bytes(n, count, sizeof(K), vb, cfg);
          ws.reserve(std::max<std::size_t>(wb, 1));
          call = [&, wb, cfg] {
            if constexpr (pairs)
              cuda::segmented_sort_pairs(kin.as<K>(), kout.as<K>(), vin.as<V>(), vout.as<V>(), n, d_seg, ws.data(), wb,
                                         st, opts, cfg);
            else
              cuda::segmented_sort_keys(kin.as<K>(), kout.as<K>(), n, d_seg, ws.data(), wb, st, opts, cfg);
          };
        } else if (r == "flat") {
          wb = cuda::sort_workspace_bytes(n, sizeof(K), vb);
          ws.reserve(std::max<std::size_t>(wb, 1));
          call = [&, wb] {
            if constexpr (pairs)
              cuda::sort_pairs(kin.as<K>(), kout.as<K>(), vin.as<V>(), vout.as<V>(), n, ws.data(), wb, st, opts);
            else
              cuda::sort_keys(kin.as<K>(), kout.as<K>(), n, ws.data(), wb, st, opts);
          };
        } else if constexpr (baseline_built<K>(cub_sort_segmented_types)) {
          if (n > INT_MAX || count > INT_MAX) {
            row.message = "CUB's segmented sorts take an int count of items and segments";
            p.rows.push_back(std::move(row));
            continue;
          }
          cub_segmented_sort_args a;
          a.radix = r == "cub-segmented-radix";
          a.keys_in = kin.data(), a.keys_out = kout.data();
          if constexpr (pairs) a.values_in = vin.as<const std::uint32_t>(), a.values_out = vout.as<std::uint32_t>();
          a.n = static_cast<int>(n), a.segments = static_cast<int>(count), a.offsets = d_offsets.as<const std::int64_t>();
          a.descending = s.descending, a.stream = st;
          cub_segmented_sort<K>(a);  // the size query
          wb = a.temp_bytes;
          ws.reserve(std::max<std::size_t>(wb, 1));
          call = [&ws, a]() mutable {
            a.temp = ws.data();
            cub_segmented_sort<K>(a);
          };
        } else {
          row.message = baseline_not_built("CUB", s.type);
          p.rows.push_back(std::move(row));
          continue;
        }
        row.ws_bytes_per_key = static_cast<double>(wb) / static_cast<double>(std::max<std::int64_t>(n, 1));
        // Poisoned outputs: a result the call never wrote cannot pass the check.
        SCANKIT_TOOLS_CUDA_CHECK(cudaMemsetAsync(kout.data(), 0xA5, kout.size(), st));
        SCANKIT_TOOLS_CUDA_CHECK(cudaMemsetAsync(vout.data(), 0xA5, vout.size(), st));
        row.samples_ms = time_gpu_ms(st, 1, s.reps, call, [&] { l2.flush(st); });
        row.ms = median(row.samples_ms);
        std::vector<K> got_k(static_cast<std::size_t>(n));
        std::vector<V> got_v(pairs ? static_cast<std::size_t>(n) : 0);
        SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(got_k.data(), kout.data(), sizeof(K) * n, cudaMemcpyDeviceToHost));
        if (pairs) SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(got_v.data(), vout.data(), vb * n, cudaMemcpyDeviceToHost));
        if (r == "flat") {  // the flat sort's own reference: the CPU radix sort of all n keys
          std::vector<K> flat_k = keys;
          std::vector<V> flat_v = vals;
          if constexpr (pairs) cpu::sort_pairs_parallel(flat_k.data(), flat_v.data(), n, opts);
          else cpu::sort_keys_parallel(flat_k.data(), n, opts);
          record(row, compare(got_k, got_v, flat_k, flat_v, nullptr));
        } else {
          record(row, compare(got_k, got_v, ref_k, ref_v, &lay));
        }
      } catch (const std::exception& e) {
        record(row, std::string("error: ") + e.what());
      }
      p.rows.push_back(std::move(row));
    }
  }
#endif
  // CPU rows: each timed call sorts a fresh copy of the input (the copy is not timed); at most 3
  // runs of the serial sort, the reference's own among them.
  auto cpu_row = [&](const char* name, int warmup, int reps, std::vector<double> samples, auto&& run) {
    srow row{name, "cpu"};
    try {
      // With no run of its own the serial row's result is the reference's.
      std::vector<K> k = ref_k;
      std::vector<V> v = ref_v;
      auto reset = [&] {
        k = keys;
        v = vals;
      };
      for (double ms : time_cpu_ms(warmup, reps, [&] { run(k, v); }, reset)) samples.push_back(ms);
      row.samples_ms = std::move(samples);
      row.ms = median(row.samples_ms);
      record(row, compare(k, v, ref_k, ref_v, &lay));
    } catch (const std::exception& e) {
      record(row, std::string("error: ") + e.what());
    }
    p.rows.push_back(std::move(row));
  };
  if (has(s.rows, "cpu-parallel"))
    cpu_row("cpu-parallel", 1, s.reps, {}, [&](std::vector<K>& k, std::vector<V>& v) {
      if constexpr (pairs) cpu::segmented_sort_pairs(k.data(), v.data(), n, seg, opts);
      else cpu::segmented_sort_keys(k.data(), n, seg, opts);
    });
  if (has(s.rows, "cpu-serial")) cpu_row("cpu-serial", 0, std::min(s.reps, 3) - 1, ref_ms, serial);
  return p;
}

/// The mean segment length a distribution has: n for single, 1 for ones, else --mean.
std::int64_t effective_mean(const std::string& dist, std::int64_t n, std::int64_t mean) {
  return dist == "single" ? std::max<std::int64_t>(n, 1) : dist == "ones" ? 1 : mean;
}

/// Host and device bytes of a run, before the layout is drawn: keys and values (input,
/// reference, working copy, fetched result, the flat row's reference, the serial pairs sort's
/// copy of a segment), its positions, and the offsets (uniform and empty draw about n / mean segments, powerlaw
/// exactly that; ones n). Device: input, output, offsets and a workspace of about three copies.
std::pair<double, double> memory_need(const sspec& s, std::int64_t n) {
  const double dn = static_cast<double>(n);
  const double kv = static_cast<double>(std::stoul(s.type.substr(1)) / 8 + static_cast<unsigned>(s.value_bytes));
  const double segments = s.dist == "ones" ? dn : s.dist == "single" ? 1.0 : 2.0 * dn / static_cast<double>(s.mean) + 2;
  const double offsets = 8.0 * (segments + 1);
  return {dn * (6 * kv + 8) + offsets + 64e6, dn * 5 * kv + 2 * offsets + 64e6};
}

std::string describe(const sort_bench_options& o) {
  std::string s = fmt::format("keys = {}", o.type);
  if (o.pairs) s += fmt::format(" | values = {} bytes", o.value_bytes);
  s += o.descending ? " | descending" : " | ascending";
  return s;
}

/// G keys per second, with two significant digits below 0.1 (the CPU rows of small runs).
std::string format_gkeys(double gkeys) {
  return std::isfinite(gkeys) && gkeys < 0.1 ? fmt::format("{:.2g}", gkeys) : format_gbps(gkeys);
}

double pct_of_flat(const spoint& p, const srow& r) { return r.group == "cpu" ? NAN : p.ms_of("flat") / r.ms * 100; }
double vs_serial(const spoint& p, const srow& r) { return r.group == "cpu" ? p.ms_of("cpu-serial") / r.ms : NAN; }
double vs_cub(const spoint& p, const srow& r) { return r.group == "cpu" ? NAN : p.cub_ms() / r.ms; }

std::vector<report_row> report_rows(const spoint& p, const sspec& s) {
  std::vector<report_row> out;
  for (const auto& h : p.rows) {
    report_row r;
    r.algorithm = h.name, r.group = h.group, r.x = p.n, r.n = p.n, r.type = s.type;
    r.ms = h.ms, r.samples_ms = h.samples_ms, r.check = h.check, r.message = h.message;
    r.gbps = 2.0 * static_cast<double>(p.bytes) / (h.ms * 1e6);
    r.vs_cub = vs_cub(p, h);
    r.extra = {{"value_bytes", s.value_bytes},
               {"descending", s.descending},
               {"gkeys_per_s", json_number(static_cast<double>(p.n) / (h.ms * 1e6))},
               {"workspace_bytes_per_key", json_number(h.ws_bytes_per_key)},
               {"dist", s.dist},
               {"mean", p.mean},
               {"segments", p.segments},
               {"flat_ms", json_number(p.ms_of("flat"))},
               {"pct_of_flat", json_number(pct_of_flat(p, h))},
               {"vs_cpu_serial", json_number(vs_serial(p, h))}};
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

int run_sort_segmented_bench(const sort_bench_options& o) {
  const system_info sys = query_bench_system();
  const bool gpu = sys.gpu.has_value();
  const std::int64_t n = !o.n.empty() ? *parse_count(o.n) : gpu ? (std::int64_t{1} << 26) : (std::int64_t{1} << 22);
  sspec s;
  s.type = o.type, s.dist = o.segments, s.mean = effective_mean(o.segments, n, *parse_count(o.mean));
  s.value_bytes = o.pairs ? o.value_bytes : 0, s.descending = o.descending, s.reps = o.reps;
  s.seed = pick_seed(o.seed);
  s.rows = resolve_rows(o.algo, gpu, o.no_cub);
  if (s.rows.empty()) throw error("nothing to run: the selected rows need a GPU (--algo " + o.algo + ")");
  const auto [host, device] = memory_need(s, n);
  check_memory(sys, fmt::format("-n {} of {}{} in segments", n, o.type, o.pairs ? " pairs" : ""), host,
               gpu ? device : 0.0);
  std::cout << fmt::format("scankit bench sort | {} | {} | n = {} | {} | segments = {}, mean {} | seed {}\n",
                           device_line(sys), iso_date_now(), describe_count(n), describe(o), s.dist,
                           describe_count(s.mean), s.seed);
  if ((s.dist == "single" || s.dist == "ones") && o.mean != sort_bench_options{}.mean)
    std::cout << fmt::format("--segments {} has no mean: --mean is ignored\n", s.dist);
  const layout lay = segments_data::make_layout(s.dist, n, s.mean, s.seed);
  std::int64_t longest = 0;
  for (std::int64_t q = 0; q < lay.count(); ++q) longest = std::max(longest, lay.offsets[q + 1] - lay.offsets[q]);
  std::cout << fmt::format("{} segments ({} empty), the longest {} keys\n", lay.count(), lay.count() - lay.non_empty(),
                           longest);
  const spoint p = with_key_type(o.type, [&](auto k) {
    using K = decltype(k);
    return s.value_bytes == 4 ? measure<K, std::uint32_t>(s, n, lay, gpu) : measure<K, char>(s, n, lay, gpu);
  });
  text_table t({"algorithm", "ms", "Gkeys/s", "% of flat", "x serial", "vs CUB", "ws B/key", "check"});
  for (const auto& r : p.rows)
    t.add_row({r.name, format_ms(r.ms), format_gkeys(static_cast<double>(n) / (r.ms * 1e6)),
               format_pct(pct_of_flat(p, r)), format_ratio(vs_serial(p, r)), format_ratio(vs_cub(p, r)),
               std::isnan(r.ws_bytes_per_key) ? "-" : fmt::format("{:.2f}", r.ws_bytes_per_key),
               check_cell(r.check, r.message)});
  std::cout << t.str();
  const nlohmann::json params = {{"type", o.type},
                                 {"pairs", o.pairs},
                                 {"value_bytes", s.value_bytes},
                                 {"descending", o.descending},
                                 {"dist", s.dist},
                                 {"mean", s.mean},
                                 {"segments", lay.count()},
                                 {"algo", o.algo},
                                 {"rows", s.rows},
                                 {"reps", o.reps},
                                 {"seed", s.seed},
                                 {"gbps", "2 * n * (key bytes + value bytes) / ms"}};
  return finish_bench(o.json, "sort", sys, params, n, report_rows(p, s));
}

namespace {

/// One segmented case of keys K (values V: char for none), drawn from g.
template <class K, class V>
void verify_typed(std::mt19937_64& g, const std::string& type, const std::vector<std::string>& rows, int& passed,
                  std::vector<std::string>& failures) {
  constexpr bool pairs = !std::is_same_v<V, char>;
  constexpr int width = static_cast<int>(sizeof(K) * 8);
  const auto dists = segments_dist_names();
  const std::string dist = dists[g() % dists.size()];
  const int lg = std::uniform_int_distribution<int>(0, 18)(g);
  const std::int64_t n = std::uniform_int_distribution<std::int64_t>(0, std::int64_t{1} << lg)(g);
  const std::int64_t mean = std::int64_t{1} << std::uniform_int_distribution<int>(0, 12)(g);
  sort_options opts;
  opts.descending = g() % 2;
  if (g() % 4 == 0) {
    opts.begin_bit = std::uniform_int_distribution<int>(0, width)(g);
    opts.end_bit = std::uniform_int_distribution<int>(opts.begin_bit, width)(g);
  }
  // Narrow keys a quarter of the time (many ties: the order of equal keys is checked), else
  // every bit random (floats: NaNs, infinities and both zeros too).
  const int bits = g() % 4 == 0 ? std::uniform_int_distribution<int>(1, width)(g) : 0;
  using U = typename radix_traits<K>::bits_t;
  std::vector<K> keys(static_cast<std::size_t>(n));
  for (auto& k : keys) {
    U b = static_cast<U>(g());
    if (bits && bits < width) b = static_cast<U>(b & ((U{1} << bits) - 1));
    k = radix_traits<K>::key_of(b);
  }
  const layout lay = segments_data::make_layout(dist, n, mean, g());
  const segment_bounds seg = segment_offsets{lay.offsets.data(), lay.count()};
  const auto vals = pairs ? index_vals<V>(n) : std::vector<V>{};
  auto ref_k = keys;
  auto ref_v = vals;
  if constexpr (pairs) cpu::segmented_sort_pairs_serial(ref_k.data(), ref_v.data(), n, seg, opts);
  else cpu::segmented_sort_keys_serial(ref_k.data(), n, seg, opts);
  const std::string params = fmt::format(
      "keys {} | segmented, n = {}, {} segments ({}, mean {}), value bytes {}, {}, bits [{}, {}), narrowed to {} bits",
      type, n, lay.count(), dist, mean, pairs ? sizeof(V) : 0, opts.descending ? "descending" : "ascending",
      opts.begin_bit, opts.end_bit, bits);
  for (const auto& r : rows) {
    auto k = keys;
    auto v = vals;
    try {
      if (r == "cpu-parallel") {
        if constexpr (pairs) cpu::segmented_sort_pairs(k.data(), v.data(), n, seg, opts);
        else cpu::segmented_sort_keys(k.data(), n, seg, opts);
      } else if (scankit_row(r)) {
#ifdef SCANKIT_HAS_CUDA
        const cuda::segmented_sort_config cfg = gpu_config(r);
        if constexpr (pairs) cuda::segmented_sort_pairs<K, V>(std::span<K>(k), std::span<V>(v), seg, opts, cfg);
        else cuda::segmented_sort_keys<K>(std::span<K>(k), seg, opts, cfg);
#endif
      } else {
        continue;
      }
      if (auto e = compare(k, v, ref_k, ref_v, &lay); !e.empty()) failures.push_back(r + ": " + params + " | " + e);
      else ++passed;
    } catch (const std::exception& e) {  // a failed call: say which case, then go on
      failures.push_back(r + ": " + params + fmt::format(" | error: {}", e.what()));
    }
  }
}

}  // namespace

void verify_sort_segmented_case(std::uint64_t seed, const std::vector<std::string>& rows, int& passed,
                                std::vector<std::string>& failures) {
  std::mt19937_64 g(seed);
  const std::vector<std::string> types{"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64"};
  const std::string t = types[g() % types.size()];
  const bool pairs = g() % 2 == 0;
  with_key_type(t, [&](auto k) {
    using K = decltype(k);
    if (pairs) verify_typed<K, std::uint32_t>(g, t, rows, passed, failures);
    else verify_typed<K, char>(g, t, rows, passed, failures);
  });
}

}  // namespace scankit::tools
