// `bench reduce` (one size, a table), `sweep reduce` (sizes, to JSON, CSV and a plot) and
// `verify reduce` (random cases against the serial loop).
//
// Rows: scankit's GPU reduction (device pointers, result left in device memory), CUB's
// DeviceReduce (same process, same input), the read-once kernel (the bandwidth floor: a
// reduction reads every item once and writes next to nothing), and the CPU's parallel and
// serial reductions.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>

#include "common/parallel.hpp"
#include "common/report.hpp"
#include "common/system.hpp"
#include "common/timing.hpp"
#include "common/util.hpp"
#include "reduce/commands.hpp"
#include "scankit/cpu/reduce.hpp"

#ifdef SCANKIT_HAS_CUDA
#include "common/baselines.hpp"
#include "common/built_baselines.hpp"
#include "reduce/baselines.hpp"
#include "scankit/cuda/reduce.hpp"
#endif

namespace scankit::tools {

namespace {

struct rrow {
  rrow(std::string n, std::string g) : name(std::move(n)), group(std::move(g)) {}
  std::string name, group;   // group: gpu | baseline | cpu
  std::string check = check_na, message;
  std::vector<double> samples_ms;
  double ms = NAN;
};

struct rpoint {
  std::int64_t n = 0;
  std::size_t bytes = 0;
  double read_ms = NAN, cub_ms = NAN;
  double cpu_read_ms = NAN;  // one parallel read of the input on the CPU (the CPU rows' floor)
  std::vector<rrow> rows;
};

struct spec {
  std::string op;
  std::vector<std::string> rows;  // scankit, cpu-parallel, cpu-serial
  bool cub = false, read = false, cpu_read = false;
  int reps = 20;
  std::uint64_t seed = 0;
};

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

/// Random items: small magnitudes for sums, near 1 for products, the full range for min/max
/// and the arg forms (with repeated values, so that ties occur).
template <class T>
std::vector<T> make_input(std::int64_t n, const std::string& op, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<double> d(op == "product" ? 0.999 : -1.0, op == "product" ? 1.001 : 1.0);
    for (auto& x : v) x = static_cast<T>(d(g));
  } else {
    for (auto& x : v) x = op == "product" ? static_cast<T>(2 * (g() % 1000) + 1) : op == "sum" ? static_cast<T>(static_cast<std::int64_t>(g() % 2001) - 1000) : static_cast<T>(g() % 100000);
  }
  return v;
}

/// Calls f(transform, monoid) for the operation.
template <class T, class F>
decltype(auto) with_op(const std::string& op, F&& f) {
  if (op == "sum") return f(as_value{}, sum<T>{});
  if (op == "product") return f(as_value{}, product<T>{});
  if (op == "min") return f(as_value{}, scankit::min<T>{});
  if (op == "max") return f(as_value{}, scankit::max<T>{});
  if (op == "argmin") return f(as_indexed{}, argmin_op<T>{});
  if (op == "argmax") return f(as_indexed{}, argmax_op<T>{});
  return f(as_min_max{}, min_max_op<T>{});
}

/// "" when got is the reduction ref (the serial loop's result) of `in`, else why not. Float
/// sums and products are compared with a long double reference within the tests' tolerance.
template <class T, class R>
std::string compare(const std::vector<T>& in, const std::string& op, const R& got, const R& ref) {
  if constexpr (std::is_same_v<R, T> && std::is_floating_point_v<T>) {
    if (op == "sum" || op == "product") {
      long double wide = op == "sum" ? 0.0L : 1.0L, abs_sum = 0;
      for (T x : in) {
        wide = op == "sum" ? wide + x : wide * x;
        abs_sum += std::abs(static_cast<long double>(x));
      }
      const double eps = std::numeric_limits<T>::epsilon(), n = static_cast<double>(in.size());
      const double tol = op == "sum" ? 8 * eps * static_cast<double>(std::abs(wide) + abs_sum) * std::log2(n + 2)
                                     : 8 * eps * static_cast<double>(std::abs(wide)) * (n + 2);
      if (std::abs(static_cast<long double>(got) - wide) <= tol) return "";
      return fmt::format("{} instead of {} (tolerance {})", static_cast<double>(got), static_cast<double>(wide), tol);
    }
  }
  if constexpr (std::is_same_v<R, indexed<T>>) {  // field by field: the struct has padding
    if (got.index == ref.index && std::memcmp(&got.value, &ref.value, sizeof(T)) == 0) return "";
    return fmt::format("index {} instead of {}", got.index, ref.index);
  } else {
    if (std::memcmp(&got, &ref, sizeof(R)) == 0) return "";
    return "differs from the serial loop";
  }
}

template <class T>
rpoint measure(const spec& sp, std::int64_t n, [[maybe_unused]] bool gpu) {
  rpoint p;
  p.n = n;
  p.bytes = static_cast<std::size_t>(n) * sizeof(T);
  const auto in = make_input<T>(n, sp.op, sp.seed);
  with_op<T>(sp.op, [&](auto f, auto op) {
    using R = value_t<decltype(op)>;
    const R ref = cpu::transform_reduce_serial(in.data(), n, f, op);
    auto cpu_row = [&](const char* name, auto&& call) {
      rrow r{name, "cpu"};
      R got{};
      r.samples_ms = time_cpu_ms(1, std::max(1, std::min(sp.reps, 5)), [&] { got = call(); });
      r.ms = median(r.samples_ms);
      r.message = compare(in, sp.op, got, ref);
      r.check = r.message.empty() ? check_pass : check_fail;
      p.rows.push_back(std::move(r));
    };
#ifdef SCANKIT_HAS_CUDA
    if (gpu) {
      cuda_stream stream;
      const cudaStream_t s = stream.get();
      device_buffer d_in(std::max<std::size_t>(p.bytes, 16)), d_out(64), d_ws, d_sink(16);
      if (n > 0) SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(d_in.data(), in.data(), p.bytes, cudaMemcpyHostToDevice));
      l2_flusher flusher;
      auto flush = [&] { flusher.flush(s); };
      if (sp.read) p.read_ms = median(time_gpu_ms(s, 1, sp.reps, [&] { read_once(d_in.data(), p.bytes, d_sink.as<unsigned>(), s); }, flush));
      if (has(sp.rows, "scankit")) {
        rrow r{"scankit", "gpu"};
        try {
          const std::size_t ws = cuda::reduce_workspace_bytes(sizeof(R));
          d_ws.reserve(ws);
          auto call = [&] { cuda::transform_reduce(d_in.as<T>(), n, f, op, d_out.as<R>(), d_ws.data(), ws, s); };
          r.samples_ms = time_gpu_ms(s, 2, sp.reps, call, flush);
          r.ms = median(r.samples_ms);
          R got{};
          SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(&got, d_out.data(), sizeof(R), cudaMemcpyDeviceToHost));
          r.message = compare(in, sp.op, got, ref);
          r.check = r.message.empty() ? check_pass : check_fail;
        } catch (const std::exception& e) {
          r.check = check_fail;
          r.message = std::string("error: ") + e.what();
        }
        p.rows.push_back(std::move(r));
      }
      if (sp.cub) {
        rrow r{"cub", "baseline"};
        if (!cub_has_reduce(sp.op)) {
          r.message = "CUB's DeviceReduce has no " + sp.op;
        } else if constexpr (!baseline_built<T>(cub_reduce_types)) {
          r.message = baseline_not_built("CUB", element_type_name<T>());
        } else {
          cub_reduce_args a{sp.op, d_in.data(), d_out.data(), d_out.as<std::int64_t>() + 1, n, nullptr, 0, s};
          cub_reduce<T>(a);
          device_buffer temp(std::max<std::size_t>(a.temp_bytes, 16));
          a.temp = temp.data();
          r.samples_ms = time_gpu_ms(s, 2, sp.reps, [&] { cub_reduce<T>(a); }, flush);
          r.ms = median(r.samples_ms);
          p.cub_ms = r.ms;
          R got{};
          if constexpr (std::is_same_v<R, indexed<T>>) {
            SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(&got.value, d_out.data(), sizeof(T), cudaMemcpyDeviceToHost));
            SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(&got.index, d_out.as<std::int64_t>() + 1, 8, cudaMemcpyDeviceToHost));
          } else {
            SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(&got, d_out.data(), sizeof(R), cudaMemcpyDeviceToHost));
          }
          r.message = compare(in, sp.op, got, ref);
          r.check = r.message.empty() ? check_pass : check_fail;
        }
        p.rows.push_back(std::move(r));
      }
    }
#endif
    if (sp.cpu_read) {
      volatile std::uint64_t sink = 0;  // the folded words are stored, so the reads stay
      p.cpu_read_ms = median(time_cpu_ms(1, std::max(1, std::min(sp.reps, 5)),
                                         [&] { sink = sink ^ cpu_read_once(in.data(), p.bytes); }));
    }
    if (has(sp.rows, "cpu-parallel")) cpu_row("cpu-parallel", [&] { return cpu::transform_reduce(in.data(), n, f, op); });
    if (has(sp.rows, "cpu-serial")) cpu_row("cpu-serial", [&] { return cpu::transform_reduce_serial(in.data(), n, f, op); });
    return 0;
  });
  return p;
}

template <class F>
decltype(auto) with_type(const std::string& t, F&& f) {
  if (t == "i32") return f(std::int32_t{});
  if (t == "u32") return f(std::uint32_t{});
  if (t == "i64") return f(std::int64_t{});
  if (t == "u64") return f(std::uint64_t{});
  if (t == "f32") return f(float{});
  return f(double{});
}

spec make_spec(const reduce_common_options& o, bool gpu) {
  spec s;
  s.op = o.op;
  s.reps = o.reps;
  s.seed = pick_seed(o.seed);
  for (const auto& item : split_list(o.algo)) {
    if (item == "all" || item == "gpu")
      for (auto& r : reduce_gpu_row_names()) s.rows.push_back(r);
    if (item == "all" || item == "cpu")
      for (auto& r : reduce_cpu_row_names()) s.rows.push_back(r);
    if (item != "all" && item != "gpu" && item != "cpu") s.rows.push_back(item);
  }
  if (!gpu) std::erase_if(s.rows, [](const std::string& r) { return r == "scankit"; });
  const auto cmp = split_list(o.compare);
  s.cub = gpu && has(cmp, "cub");
  s.read = gpu && has(cmp, "read");
  s.cpu_read = has(cmp, "read") && (has(s.rows, "cpu-parallel") || has(s.rows, "cpu-serial"));
  return s;
}

std::vector<report_row> report_rows(const rpoint& p, const std::string& type, std::int64_t x) {
  std::vector<report_row> out;
  for (const auto& h : p.rows) {
    report_row r;
    r.algorithm = h.name, r.group = h.group, r.x = x, r.n = p.n, r.type = type;
    r.ms = h.ms, r.samples_ms = h.samples_ms, r.check = h.check, r.message = h.message;
    r.gbps = static_cast<double>(p.bytes) / (h.ms * 1e6);
    if (h.group != "cpu") r.vs_cub = p.cub_ms / h.ms;
    const double floor_ms = h.group == "cpu" ? p.cpu_read_ms : p.read_ms;
    r.extra["read_ms"] = json_number(floor_ms);
    r.extra["pct_of_read"] = json_number(floor_ms / h.ms * 100);
    out.push_back(std::move(r));
  }
  return out;
}

nlohmann::json params_json(const reduce_common_options& o, const spec& s) {
  return {{"type", o.type}, {"op", o.op}, {"algo", o.algo}, {"compare", o.compare}, {"rows", s.rows},
          {"reps", o.reps}, {"seed", s.seed}, {"gbps", "n * sizeof(T) / ms"}};
}

}  // namespace

int run_reduce_bench(const reduce_bench_options& o) {
  const system_info sys = query_bench_system();
  const bool gpu = sys.gpu.has_value();
  const std::int64_t n = !o.n.empty() ? *parse_count(o.n) : gpu ? (std::int64_t{1} << 28) : (std::int64_t{1} << 26);
  const spec s = make_spec(o, gpu);
  if (s.rows.empty()) throw error("nothing to run: the selected rows need a GPU (--algo " + o.algo + ")");
  const double item = static_cast<double>(std::stoul(o.type.substr(1)) / 8);
  check_memory(sys, fmt::format("-n {} of {}", n, o.type), 1.2 * item * static_cast<double>(n),
               gpu ? 1.2 * item * static_cast<double>(n) : 0.0);
  std::cout << fmt::format("scankit bench reduce | {} | {} | n = {} | {} {} | seed {}\n", device_line(sys), iso_date_now(),
                           describe_count(n), o.op, o.type, s.seed);
  const rpoint p = with_type(o.type, [&](auto t) { return measure<decltype(t)>(s, n, gpu); });
  if (!std::isnan(p.read_ms))
    std::cout << fmt::format("read: one read of {}: {} ms = {} GB/s\n", format_bytes(static_cast<double>(p.bytes)),
                             format_ms(p.read_ms), format_gbps(p.bytes / (p.read_ms * 1e6)));
  if (!std::isnan(p.cpu_read_ms))
    std::cout << fmt::format("CPU read: one parallel read of {}: {} ms = {} GB/s (the CPU rows' % of read)\n",
                             format_bytes(static_cast<double>(p.bytes)), format_ms(p.cpu_read_ms),
                             format_gbps(p.bytes / (p.cpu_read_ms * 1e6)));
  text_table t({"algorithm", "ms", "GB/s", "% of read", "vs CUB", "check"});
  for (const auto& r : p.rows)
    t.add_row({r.name, format_ms(r.ms), format_gbps(p.bytes / (r.ms * 1e6)),
               format_pct((r.group == "cpu" ? p.cpu_read_ms : p.read_ms) / r.ms * 100),
               r.group == "cpu" ? "-" : format_ratio(p.cub_ms / r.ms),
               check_cell(r.check, r.message)});
  std::cout << t.str();
  return finish_bench(o.json, "reduce", sys, params_json(o, s), n, report_rows(p, o.type, n));
}

int run_reduce_sweep(const reduce_sweep_options& o) {
  const system_info sys = query_bench_system();
  const bool gpu = sys.gpu.has_value();
  const spec s = make_spec(o, gpu);
  if (s.rows.empty()) throw error("nothing to run (--algo " + o.algo + ")");
  std::cout << fmt::format("scankit sweep reduce | {} | {} | 2^{}..2^{} | {} {} | seed {}\n", device_line(sys),
                           iso_date_now(), o.min_log, o.max_log, o.op, o.type, s.seed);
  const double item = static_cast<double>(std::stoul(o.type.substr(1)) / 8);
  std::vector<report_row> all_rows;
  std::string csv = "n,row,ms,gbps,pct_of_read,vs_cub,check\n";
  text_table t({"n", "row", "ms", "GB/s", "% of read", "vs CUB", "check"});
  progress_line progress(static_cast<std::size_t>(o.max_log - o.min_log + 1));
  for (int lg = o.min_log; lg <= o.max_log; ++lg) {
    const std::int64_t n = std::int64_t{1} << lg;
    const double need = 1.2 * item * static_cast<double>(n);
    if ((gpu && need > 0.9 * static_cast<double>(sys.gpu->free_memory)) || need > 0.5 * static_cast<double>(sys.host_memory_available)) {
      progress.clear();
      std::cout << fmt::format("2^{}: skipped (needs ~{} of memory)\n", lg, format_bytes(need));
      continue;
    }
    progress.step(fmt::format("n=2^{}", lg));
    const rpoint p = with_type(o.type, [&](auto tag) { return measure<decltype(tag)>(s, n, gpu); });
    for (auto& r : report_rows(p, o.type, n)) all_rows.push_back(std::move(r));
    for (const auto& r : p.rows) {
      const double pct = (r.group == "cpu" ? p.cpu_read_ms : p.read_ms) / r.ms * 100;
      const double vs = r.group == "cpu" ? NAN : p.cub_ms / r.ms;
      csv += fmt::format("{},{},{},{},{},{},{}\n", n, r.name, r.ms, p.bytes / (r.ms * 1e6), pct, vs, r.check);
      t.add_row({describe_count(n), r.name, format_ms(r.ms), format_gbps(p.bytes / (r.ms * 1e6)), format_pct(pct),
                 format_ratio(vs), r.check});
    }
  }
  progress.clear();
  std::cout << t.str();
  nlohmann::json params = params_json(o, s);
  params["over"] = "size", params["min_log"] = o.min_log, params["max_log"] = o.max_log;
  return finish_sweep(o.out.empty() ? "sweep-reduce-" + o.op + "-" + o.type : o.out, "reduce", "size", sys, params,
                      all_rows, csv, o.no_plot, "check");
}

int run_reduce_verify(const reduce_verify_options& o) {
  const system_info sys = query_system();
  const bool gpu = sys.gpu.has_value();
  reduce_common_options common;
  common.algo = o.algo;
  common.compare = "none";
  common.reps = 1;
  spec s = make_spec(common, gpu);
  std::erase_if(s.rows, [](const std::string& r) { return r == "cpu-serial"; });  // the reference itself
  if (!gpu) std::cout << "no GPU found: verifying the CPU reduction only\n";
  if (s.rows.empty()) throw error("nothing to verify with --algo " + o.algo);
  const std::uint64_t seed = pick_seed(o.seed);
  std::cout << fmt::format("scankit verify reduce | {} | {} cases | rows: {} | seed {}\n", device_line(sys), o.cases,
                           join(s.rows), seed);
  std::mt19937_64 g(seed);
  const std::vector<std::string> types{"i32", "u32", "i64", "u64", "f32", "f64"};
  const auto ops = reduce_op_names();
  int passed = 0, failed = 0;
  progress_line progress(static_cast<std::size_t>(o.cases));
  for (int c = 0; c < o.cases; ++c) {
    progress.step("case " + std::to_string(c));
    const std::string t = types[g() % types.size()];
    s.op = ops[g() % ops.size()];
    s.seed = g();
    // Sizes from 0 to a few million, most of them small, so tile edges come up often.
    const std::int64_t n = (g() % 4 == 0) ? static_cast<std::int64_t>(g() % 4'000'000) : static_cast<std::int64_t>(g() % 70'000);
    if ((s.op == "argmin" || s.op == "argmax") && n == 0) continue;
    try {
      const rpoint p = with_type(t, [&](auto tag) { return measure<decltype(tag)>(s, n, gpu); });
      for (const auto& r : p.rows) {
        if (r.check == check_pass) ++passed;
        else {
          ++failed;
          progress.clear();
          std::cout << fmt::format("FAIL case {}: {} {} n={} row {} | {}\n", c, s.op, t, n, r.name, r.message);
        }
      }
    } catch (const std::exception& e) {
      ++failed;
      progress.clear();
      std::cout << fmt::format("FAIL case {}: {} {} n={} | error: {}\n", c, s.op, t, n, e.what());
    }
  }
  progress.clear();
  return finish_verify(passed, failed);
}

}  // namespace scankit::tools
