// `bench topk` (one size, a table), `sweep topk` (sizes, to JSON, CSV and a plot) and
// `verify topk` (random cases against the serial reference).
//
// Rows: scankit's GPU top-k (device pointers, values and indices left in device memory), the
// read-once kernel (the bandwidth floor: a top-k reads every item at least once and writes
// next to nothing), and the CPU's parallel top-k and its serial reference. With --rows the
// input is a row-major rows x cols matrix and every row is selected (topk_rows).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>

#include "common/key_types.hpp"
#include "common/report.hpp"
#include "common/system.hpp"
#include "common/timing.hpp"
#include "common/util.hpp"
#include "scankit/cpu/topk.hpp"
#include "topk/commands.hpp"

#ifdef SCANKIT_HAS_CUDA
#include "common/baselines.hpp"
#include "scankit/cuda/topk.hpp"
#endif

namespace scankit::tools {

namespace {

/// Items up to which the check's reference is the serial top-k (see run_point).
constexpr std::int64_t serial_reference_max = std::int64_t{1} << 24;

struct trow {
  trow(std::string n, std::string g) : name(std::move(n)), group(std::move(g)) {}
  std::string name, group;  // group: gpu | baseline | cpu
  std::string check = check_na, message;
  std::vector<double> samples_ms;
  double ms = NAN;
  std::string path;  // the GPU row: the path plan_topk chose
  std::size_t workspace_bytes = 0;
};

struct tpoint {
  std::int64_t n = 0;
  std::size_t bytes = 0;
  double read_ms = NAN;
  std::vector<trow> rows;
};

struct spec {
  std::vector<std::string> rows;  // scankit, cpu-parallel, cpu-serial
  bool read = false;
  int reps = 20;
  std::uint64_t seed = 0;
  std::int64_t k = 8;
  std::int64_t matrix_rows = 0;  // 0: one array
  bool largest = true;
  std::string path = "auto";
  std::string split = "auto";
  std::string pattern = "uniform";  // verify also draws "few" (ties) and "special" (extremes)
};

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

/// Floats uniform in [0, 1) (built from the top bits, so 1 is never produced); integers
/// uniform over their whole range (the low bits of the draw).
template <class T>
T uniform_item(std::mt19937_64& g) {
  if constexpr (std::is_same_v<T, float>) return static_cast<float>(g() >> 40) * 0x1p-24f;
  else if constexpr (std::is_same_v<T, double>) return static_cast<double>(g() >> 11) * 0x1p-53;
  else return static_cast<T>(g());
}

/// The values where an order can go wrong: the ends of the range, and for floats both zeros,
/// both infinities, NaNs of both signs (above +inf in the sorts' order) and a denormal.
template <class T>
std::vector<T> special_items() {
  using L = std::numeric_limits<T>;
  if constexpr (std::is_floating_point_v<T>)
    return {L::quiet_NaN(), -L::quiet_NaN(), L::infinity(), -L::infinity(), T(0), -T(0), L::denorm_min(),
            L::lowest(), L::max(), T(1)};
  else
    return {L::min(), L::max(), T(0), T(1), static_cast<T>(-1)};
}

/// n random items from the seed. pattern: uniform; few (eight distinct values, so most keys
/// tie and the positions decide); special (a quarter of the items from special_items).
template <class T>
std::vector<T> make_input(std::int64_t n, std::uint64_t seed, const std::string& pattern) {
  std::mt19937_64 g(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  if (pattern == "few") {
    T pool[8];
    for (auto& x : pool) x = uniform_item<T>(g);
    for (auto& x : v) x = pool[g() % 8];
  } else if (pattern == "special") {
    const auto sp = special_items<T>();
    for (auto& x : v) x = g() % 4 == 0 ? sp[g() % sp.size()] : uniform_item<T>(g);
  } else {
    for (auto& x : v) x = uniform_item<T>(g);
  }
  return v;
}

template <class T>
struct result {
  std::vector<T> values;
  std::vector<std::int64_t> indices;
  explicit result(std::size_t m) : values(m), indices(m) {}
};

/// "" when got equals the reference: every index equal and every value bitwise equal (NaNs
/// and -0 included), else where it first differs.
template <class T>
std::string compare(const result<T>& got, const result<T>& ref, std::int64_t k, bool by_rows) {
  for (std::size_t j = 0; j < ref.indices.size(); ++j) {
    const bool same_index = got.indices[j] == ref.indices[j];
    if (same_index && std::memcmp(&got.values[j], &ref.values[j], sizeof(T)) == 0) continue;
    const auto jj = static_cast<std::int64_t>(j);
    const std::string where = by_rows ? fmt::format("row {} rank {}", jj / k, jj % k) : fmt::format("rank {}", jj);
    if (!same_index) return fmt::format("{}: index {} instead of {}", where, got.indices[j], ref.indices[j]);
    return fmt::format("{}: the value's bits differ (index {})", where, ref.indices[j]);
  }
  return "";
}

void record(trow& r, const std::string& failure) {
  r.message = failure;
  r.check = failure.empty() ? check_pass : check_fail;
}

#ifdef SCANKIT_HAS_CUDA
cuda::topk_config gpu_config(const spec& sp) {
  cuda::topk_config cfg;
  for (auto p : cuda::all_topk_paths)
    if (cuda::name(p) == sp.path) cfg.path = p;
  for (auto c : cuda::all_topk_splits)
    if (cuda::name(c) == sp.split) cfg.split = c;
  return cfg;
}

/// The device workspace of one run (plan_topk and the workspace functions need a device).
std::size_t gpu_workspace_bytes(std::int64_t n, const spec& sp, std::size_t key_bytes) {
  const auto cfg = gpu_config(sp);
  return sp.matrix_rows > 0 ? cuda::topk_rows_workspace_bytes(sp.matrix_rows, n / sp.matrix_rows, sp.k, key_bytes, cfg)
                            : cuda::topk_workspace_bytes(n, sp.k, key_bytes, cfg);
}
#endif

template <class T>
tpoint measure(const spec& sp, std::int64_t n, [[maybe_unused]] bool gpu) {
  tpoint p;
  p.n = n;
  p.bytes = static_cast<std::size_t>(n) * sizeof(T);
  const std::int64_t rows = sp.matrix_rows, cols = rows > 0 ? n / rows : n, k = sp.k;
  const auto outputs = static_cast<std::size_t>((rows > 0 ? rows : 1) * k);
  const auto in = make_input<T>(n, sp.seed, sp.pattern);
  std::vector<std::int64_t> offsets;
  for (std::int64_t r = 0; rows > 0 && r <= rows; ++r) offsets.push_back(r * cols);
  const segment_bounds seg = rows > 0 ? segment_bounds(segment_offsets{offsets.data(), rows}) : segment_bounds{};
  const cpu::topk_options cpu_opts{sp.largest};
  auto serial = [&](result<T>& out) {
    if (rows > 0) cpu::segmented_topk_serial(in.data(), n, seg, k, out.values.data(), out.indices.data(), cpu_opts);
    else cpu::topk_serial(in.data(), n, k, out.values.data(), out.indices.data(), cpu_opts);
  };
  // The reference every row is checked against: the serial top-k (a stable sort of every
  // position), whose time is then the cpu-serial row's first sample; above serial_reference_max
  // items the parallel CPU top-k (checked against the serial one by the tests), so that a bench
  // of 2^28 items is not minutes of one thread sorting.
  result<T> ref(outputs);
  const bool serial_ref = n <= serial_reference_max;
  const std::vector<double> ref_ms = time_cpu_ms(0, 1, [&] {
    if (serial_ref) serial(ref);
    else if (rows > 0) cpu::topk_rows(in.data(), rows, cols, k, ref.values.data(), ref.indices.data(), cpu_opts);
    else cpu::topk(in.data(), n, k, ref.values.data(), ref.indices.data(), cpu_opts);
  });
#ifdef SCANKIT_HAS_CUDA
  if (gpu && (sp.read || has(sp.rows, "scankit"))) {
    cuda_stream stream;
    const cudaStream_t s = stream.get();
    device_buffer d_in(std::max<std::size_t>(p.bytes, 16)), d_values(std::max<std::size_t>(outputs * sizeof(T), 16));
    device_buffer d_indices(std::max<std::size_t>(outputs * 8, 16)), d_ws, d_sink(16);
    // On the bench's stream: a copy from pageable memory may return before it has landed, and
    // a non-blocking stream would not wait for it.
    if (n > 0) SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpyAsync(d_in.data(), in.data(), p.bytes, cudaMemcpyHostToDevice, s));
    l2_flusher flusher;
    auto flush = [&] { flusher.flush(s); };
    if (has(sp.rows, "scankit")) {
      trow r{"scankit", "gpu"};
      try {
        const cuda::topk_config cfg = gpu_config(sp);
        const cuda::topk_options opts{sp.largest};
        r.path = std::string(cuda::name(rows > 0 ? cuda::plan_topk_rows(rows, n / rows, k, sizeof(T), cfg)
                                                 : cuda::plan_topk(n, k, sizeof(T), 0, cfg)));
        const std::size_t ws = gpu_workspace_bytes(n, sp, sizeof(T));
        d_ws.reserve(ws);
        r.workspace_bytes = ws;
        // Poisoned outputs: a result the call never wrote cannot pass the check.
        SCANKIT_TOOLS_CUDA_CHECK(cudaMemsetAsync(d_values.data(), 0xA5, d_values.size(), s));
        SCANKIT_TOOLS_CUDA_CHECK(cudaMemsetAsync(d_indices.data(), 0xA5, d_indices.size(), s));
        auto call = [&] {
          if (rows > 0)
            cuda::topk_rows(d_in.as<T>(), rows, cols, k, d_values.as<T>(), d_indices.as<std::int64_t>(), d_ws.data(), ws,
                            s, opts, cfg);
          else
            cuda::topk(d_in.as<T>(), n, k, d_values.as<T>(), d_indices.as<std::int64_t>(), d_ws.data(), ws, s, opts, cfg);
        };
        r.samples_ms = time_gpu_ms(s, 2, sp.reps, call, flush);
        r.ms = median(r.samples_ms);
        result<T> got(outputs);
        if (outputs > 0) {
          SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(got.values.data(), d_values.data(), outputs * sizeof(T), cudaMemcpyDeviceToHost));
          SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(got.indices.data(), d_indices.data(), outputs * 8, cudaMemcpyDeviceToHost));
        }
        record(r, compare(got, ref, k, rows > 0));
      } catch (const std::exception& e) {
        record(r, std::string("error: ") + e.what());
      }
      p.rows.push_back(std::move(r));
    }
    if (sp.read) {
      p.read_ms = median(time_gpu_ms(s, 1, sp.reps, [&] { read_once(d_in.data(), p.bytes, d_sink.as<unsigned>(), s); }, flush));
      trow r{"read", "baseline"};  // nothing to check: check_na
      r.ms = p.read_ms;
      p.rows.push_back(std::move(r));
    }
  }
#endif
  // CPU rows: at most 5 timed runs of the parallel top-k and 3 of the serial one (a stable
  // sort of every position, the reference's run among them), so that a large bench is not
  // dominated by them. The serial row's later runs are checked against the first.
  auto cpu_row = [&](const char* name, int warmup, int reps, std::vector<double> samples, auto&& call) {
    trow r{name, "cpu"};
    try {
      // Poisoned positions, so that a result the call never wrote cannot pass; with no run of
      // its own the serial row's result is the reference's.
      result<T> got(outputs);
      std::fill(got.indices.begin(), got.indices.end(), std::int64_t{-1});
      if (warmup + reps == 0) got = ref;
      for (double ms : time_cpu_ms(warmup, reps, [&] { call(got); })) samples.push_back(ms);
      r.samples_ms = std::move(samples);
      r.ms = median(r.samples_ms);
      record(r, compare(got, ref, k, rows > 0));
    } catch (const std::exception& e) {
      record(r, std::string("error: ") + e.what());
    }
    p.rows.push_back(std::move(r));
  };
  if (has(sp.rows, "cpu-parallel"))
    cpu_row("cpu-parallel", 1, std::min(sp.reps, 5), {}, [&](result<T>& out) {
      if (rows > 0) cpu::topk_rows(in.data(), rows, cols, k, out.values.data(), out.indices.data(), cpu_opts);
      else cpu::topk(in.data(), n, k, out.values.data(), out.indices.data(), cpu_opts);
    });
  if (has(sp.rows, "cpu-serial")) {
    if (serial_ref) cpu_row("cpu-serial", 0, std::min(sp.reps, 3) - 1, ref_ms, serial);
    else cpu_row("cpu-serial", 0, 1, {}, serial);
  }
  return p;
}

std::size_t item_bytes(const std::string& type) { return std::stoul(type.substr(1)) / 8; }

spec make_spec(const topk_common_options& o, bool gpu) {
  spec s;
  s.reps = o.reps;
  s.seed = pick_seed(o.seed);
  s.k = o.k;
  s.matrix_rows = o.rows;
  s.largest = !o.smallest;
  s.path = o.path;
  s.split = o.split;
  for (const auto& item : split_list(o.algo)) {
    if (item == "all" || item == "gpu")
      for (auto& r : topk_gpu_row_names()) s.rows.push_back(r);
    if (item == "all" || item == "cpu")
      for (auto& r : topk_cpu_row_names()) s.rows.push_back(r);
    if (item != "all" && item != "gpu" && item != "cpu") s.rows.push_back(item);
  }
  if (!gpu) std::erase_if(s.rows, [](const std::string& r) { return r == "scankit"; });
  s.read = gpu && has(split_list(o.compare), "read");
  return s;
}

/// "" when n items can be cut into s.matrix_rows rows of at least k items, else why not.
std::string shape_problem(std::int64_t n, const spec& s) {
  if (s.matrix_rows > 0 && n % s.matrix_rows != 0)
    return fmt::format("n = {} is not a multiple of --rows {}", n, s.matrix_rows);
  const std::int64_t len = s.matrix_rows > 0 ? n / s.matrix_rows : n;
  if (s.k > len) return fmt::format("--k {} exceeds the {} {}", s.k, s.matrix_rows > 0 ? "row length" : "size", len);
  return "";
}

/// Host bytes of a run: the input, the serial reference's positions and its stable sort's
/// buffer, and three sets of outputs. Device bytes: the input, the workspace, the outputs.
std::pair<double, double> memory_need(std::int64_t n, const spec& s, std::size_t item, [[maybe_unused]] bool gpu) {
  const double outputs = static_cast<double>((s.matrix_rows > 0 ? s.matrix_rows : 1) * s.k) * static_cast<double>(item + 8);
  const double host = static_cast<double>(n) * static_cast<double>(item + 16) + 3 * outputs;
  double device = 0;
#ifdef SCANKIT_HAS_CUDA
  if (gpu) device = static_cast<double>(n) * static_cast<double>(item) + static_cast<double>(gpu_workspace_bytes(n, s, item)) + outputs;
#endif
  return {host, device};
}

/// "k = 8 largest", and with rows "k = 8 largest per row of 1000 x 1000" (n < 0: a sweep,
/// whose row length changes: "per row of 1000 rows").
std::string describe_shape(std::int64_t n, const spec& s) {
  const std::string order = fmt::format("k = {} {}", s.k, s.largest ? "largest" : "smallest");
  if (s.matrix_rows == 0) return order;
  if (n < 0) return fmt::format("{} per row of {} rows", order, s.matrix_rows);
  return fmt::format("{} per row of {} x {}", order, s.matrix_rows, n / s.matrix_rows);
}

std::vector<report_row> report_rows(const tpoint& p, const spec& s, const std::string& type, std::int64_t x) {
  std::vector<report_row> out;
  for (const auto& h : p.rows) {
    report_row r;
    r.algorithm = h.name, r.group = h.group, r.x = x, r.n = p.n, r.type = type;
    r.ms = h.ms, r.samples_ms = h.samples_ms, r.check = h.check, r.message = h.message;
    r.gbps = static_cast<double>(p.bytes) / (h.ms * 1e6);
    r.extra["k"] = s.k;
    r.extra["matrix_rows"] = s.matrix_rows;
    r.extra["largest"] = s.largest;
    r.extra["path"] = h.path;
    r.extra["workspace_bytes"] = h.workspace_bytes;
    r.extra["read_ms"] = json_number(p.read_ms);
    r.extra["pct_of_read"] = json_number(h.group == "cpu" ? NAN : p.read_ms / h.ms * 100);
    out.push_back(std::move(r));
  }
  return out;
}

nlohmann::json params_json(const topk_common_options& o, const spec& s) {
  return {{"type", o.type},   {"k", o.k},          {"matrix_rows", o.rows}, {"largest", s.largest},
          {"path", o.path},   {"split", o.split},  {"algo", o.algo},    {"compare", o.compare},  {"rows", s.rows},
          {"reps", o.reps},   {"seed", s.seed},    {"gbps", "n * sizeof(T) / ms"}};
}

std::string pct_cell(const tpoint& p, const trow& r) { return r.group == "cpu" ? "-" : format_pct(p.read_ms / r.ms * 100); }

}  // namespace

int run_topk_bench(const topk_bench_options& o) {
  const system_info sys = query_bench_system();
  const bool gpu = sys.gpu.has_value();
  const std::int64_t n = !o.n.empty() ? *parse_count(o.n) : gpu ? (std::int64_t{1} << 28) : (std::int64_t{1} << 24);
  const spec s = make_spec(o, gpu);
  if (s.rows.empty()) throw error("nothing to run: the selected rows need a GPU (--algo " + o.algo + ")");
  if (auto why = shape_problem(n, s); !why.empty()) throw error(why);
  const auto [host, device] = memory_need(n, s, item_bytes(o.type), gpu);
  check_memory(sys, fmt::format("-n {} of {}", n, o.type), host, device);
  std::cout << fmt::format("scankit bench topk | {} | {} | n = {} | {} | {} | seed {}\n", device_line(sys), iso_date_now(),
                           describe_count(n), describe_shape(n, s), o.type, s.seed);
  const tpoint p = with_key_type(o.type, [&](auto t) { return measure<decltype(t)>(s, n, gpu); });
  text_table t({"algorithm", "ms", "GB/s", "% of read", "path", "check"});
  for (const auto& r : p.rows)
    t.add_row({r.name, format_ms(r.ms), format_gbps(p.bytes / (r.ms * 1e6)), pct_cell(p, r), r.path.empty() ? "-" : r.path,
               check_cell(r.check, r.message)});
  std::cout << t.str();
  return finish_bench(o.json, "topk", sys, params_json(o, s), n, report_rows(p, s, o.type, n));
}

int run_topk_sweep(const topk_sweep_options& o) {
  const system_info sys = query_bench_system();
  const bool gpu = sys.gpu.has_value();
  const spec s = make_spec(o, gpu);
  if (s.rows.empty()) throw error("nothing to run (--algo " + o.algo + ")");
  std::cout << fmt::format("scankit sweep topk | {} | {} | 2^{}..2^{} | {} | {} | seed {}\n", device_line(sys),
                           iso_date_now(), o.min_log, o.max_log, describe_shape(-1, s),
                           o.type, s.seed);
  std::vector<report_row> all_rows;
  std::string csv = "n,row,ms,gbps,pct_of_read,path,check\n";
  text_table t({"n", "row", "ms", "GB/s", "% of read", "path", "check"});
  progress_line progress(static_cast<std::size_t>(o.max_log - o.min_log + 1));
  for (int lg = o.min_log; lg <= o.max_log; ++lg) {
    const std::int64_t n = std::int64_t{1} << lg;
    if (auto why = shape_problem(n, s); !why.empty()) {
      progress.clear();
      std::cout << fmt::format("2^{}: skipped ({})\n", lg, why);
      continue;
    }
    const auto [host, device] = memory_need(n, s, item_bytes(o.type), gpu);
    if ((gpu && device > 0.9 * static_cast<double>(sys.gpu->free_memory)) || host > 0.5 * static_cast<double>(sys.host_memory_available)) {
      progress.clear();
      std::cout << fmt::format("2^{}: skipped (needs ~{} of memory)\n", lg, format_bytes(std::max(host, device)));
      continue;
    }
    progress.step(fmt::format("n=2^{}", lg));
    const tpoint p = with_key_type(o.type, [&](auto tag) { return measure<decltype(tag)>(s, n, gpu); });
    for (auto& r : report_rows(p, s, o.type, n)) all_rows.push_back(std::move(r));
    for (const auto& r : p.rows) {
      const double pct = r.group == "cpu" ? NAN : p.read_ms / r.ms * 100;
      csv += fmt::format("{},{},{},{},{},{},{}\n", n, r.name, r.ms, p.bytes / (r.ms * 1e6), pct, r.path, r.check);
      t.add_row({describe_count(n), r.name, format_ms(r.ms), format_gbps(p.bytes / (r.ms * 1e6)), format_pct(pct),
                 r.path.empty() ? "-" : r.path, r.check});
    }
  }
  progress.clear();
  std::cout << t.str();
  nlohmann::json params = params_json(o, s);
  params["over"] = "size", params["min_log"] = o.min_log, params["max_log"] = o.max_log;
  return finish_sweep(o.out.empty() ? "sweep-topk-" + o.type + "-k" + std::to_string(o.k) : o.out, "topk", "size", sys,
                      params, all_rows, csv, o.no_plot, "check");
}

int run_topk_verify(const topk_verify_options& o) {
  const system_info sys = query_system();
  const bool gpu = sys.gpu.has_value();
  topk_common_options common;
  common.algo = o.algo;
  common.compare = "none";
  common.reps = 1;
  spec s = make_spec(common, gpu);
  std::erase_if(s.rows, [](const std::string& r) { return r == "cpu-serial"; });  // the reference itself
  if (!gpu) std::cout << "no GPU found: verifying the CPU top-k only\n";
  if (s.rows.empty()) throw error("nothing to verify with --algo " + o.algo);
  const std::uint64_t seed = pick_seed(o.seed);
  std::cout << fmt::format("scankit verify topk | {} | {} cases | rows: {} | seed {}\n", device_line(sys), o.cases,
                           join(s.rows), seed);
  std::mt19937_64 g(seed);
  const auto types = topk_type_names();
  const std::vector<std::string> patterns{"uniform", "few", "special"};
  const std::vector<std::string> array_paths{"auto", "sampled", "radix"}, row_paths{"auto", "block", "sort"};
  const auto splits = topk_split_names();
  // k in [1, len]: mostly small (the common use), some up to a few thousand (past the block
  // path's limit), some anywhere up to len.
  auto pick_k = [&](std::int64_t len) {
    const std::uint64_t kind = g() % 3;
    const std::int64_t top = kind == 0 ? std::min<std::int64_t>(len, 16) : kind == 1 ? std::min<std::int64_t>(len, 2048) : len;
    return 1 + static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(top));
  };
  int passed = 0, failed = 0;
  progress_line progress(static_cast<std::size_t>(o.cases));
  for (int c = 0; c < o.cases; ++c) {
    progress.step("case " + std::to_string(c));
    const std::string t = types[g() % types.size()];
    s.seed = g();
    s.largest = g() % 2 == 0;
    s.pattern = patterns[g() % patterns.size()];
    std::int64_t n = 0;
    if (g() % 3 != 0) {  // one array: sizes from 1 to 2^20, most of them small, so tile edges come up often
      n = 1 + static_cast<std::int64_t>(g() % 4 == 0 ? g() % (1 << 20) : g() % 70'000);
      s.matrix_rows = 0;
      s.k = pick_k(n);
      s.path = array_paths[g() % array_paths.size()];
    } else {  // rows: many short ones or a few long ones, up to 2^20 items in all
      const bool many = g() % 2 == 0;
      s.matrix_rows = 1 + static_cast<std::int64_t>(g() % (many ? 4096 : 64));
      const std::int64_t cols = 1 + static_cast<std::int64_t>(g() % (many ? 256 : 16384));
      n = s.matrix_rows * cols;
      s.k = pick_k(cols);
      s.path = row_paths[g() % row_paths.size()];
    }
    s.split = splits[g() % splits.size()];
    const std::string what =
        fmt::format("{} n={} {} {} --path {} --split {}", t, n, describe_shape(n, s), s.pattern, s.path, s.split);
    try {
      const tpoint p = with_key_type(t, [&](auto tag) { return measure<decltype(tag)>(s, n, gpu); });
      for (const auto& r : p.rows) {
        if (r.check == check_pass) ++passed;
        else {
          ++failed;
          progress.clear();
          std::cout << fmt::format("FAIL case {}: {} row {}{} | {}\n", c, what, r.name,
                                   r.path.empty() ? "" : " (ran " + r.path + ")", r.message);
        }
      }
    } catch (const std::exception& e) {
      ++failed;
      progress.clear();
      std::cout << fmt::format("FAIL case {}: {} | error: {}\n", c, what, e.what());
    }
  }
  progress.clear();
  return finish_verify(passed, failed);
}

}  // namespace scankit::tools
