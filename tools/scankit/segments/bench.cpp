// `bench segments` (one size, a table per mean segment length), `sweep segments` (sizes or
// means, to JSON, CSV and a plot) and `verify segments` (random cases against the serial
// loop). The measurement of a point is segments/measure.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "common/report.hpp"
#include "common/system.hpp"
#include "common/util.hpp"
#include "scankit/error.hpp"
#include "segments/commands.hpp"
#include "segments/cpu_rows.hpp"
#include "segments/measure.hpp"

namespace scankit::tools {

namespace {

seg_spec make_spec(const segments_common_options& o, bool gpu) {
  seg_spec s;
  s.op = o.op;
  s.dist = o.dist;
  s.reps = o.reps;
  s.seed = pick_seed(o.seed);
  auto add = [&](const std::string& r) {
    if (std::find(s.rows.begin(), s.rows.end(), r) == s.rows.end()) s.rows.push_back(r);
  };
  for (const auto& item : split_list(o.algo)) {
    if (item == "all" || item == "gpu")
      for (auto& r : segments_gpu_row_names())
        if (!segments_row_reduce_only(r) || o.op == "reduce") add(r);  // the others have no such algorithm
    if (item == "all")
      for (auto& r : segments_cpu_row_names()) add(r);
    if (item != "all" && item != "gpu") add(item);
  }
  if (!gpu) {
    const auto g = segments_gpu_row_names();
    std::erase_if(s.rows, [&](const std::string& r) { return std::find(g.begin(), g.end(), r) != g.end(); });
  }
  const auto cmp = split_list(o.compare);
  auto asked = [&](const char* b) { return std::find(cmp.begin(), cmp.end(), b) != cmp.end(); };
  s.cub = gpu && asked("cub");
  s.read = gpu && asked("read");
  s.copy = gpu && asked("copy");
  return s;
}

std::size_t item_bytes(const std::string& type) { return std::stoul(type.substr(1)) / 8; }

/// Host and device bytes a point of n items with segments of `mean` items on average needs
/// (values, results, offsets, keys, flags; the serial check's copies).
std::pair<double, double> memory_need(const std::string& type, std::int64_t n, std::int64_t mean) {
  const double item = static_cast<double>(item_bytes(type)), dn = static_cast<double>(n);
  const double offsets = 8.0 / static_cast<double>(std::max<std::int64_t>(mean, 1));
  return {dn * (3 * item + 5 + 2 * offsets) + 64e6, 1.1 * dn * (2 * item + 9 + offsets) + 64e6};
}

/// The mean lengths of a bench: --mean's list, or the one length single and ones have.
std::vector<std::int64_t> bench_means(const segments_bench_options& o, std::int64_t n) {
  if (o.dist == "single") return {std::max<std::int64_t>(n, 1)};
  if (o.dist == "ones") return {1};
  std::vector<std::int64_t> means;
  for (const auto& item : split_list(o.mean)) means.push_back(*parse_count(item));
  return means;
}

std::string gbps_formula(const std::string& op) {
  if (op == "reduce") return "(n * sizeof(T) + (segments + 1) * 8 + segments * sizeof(T)) / ms";
  if (op == "scan") return "(2 * n * sizeof(T) + (segments + 1) * 8) / ms";
  if (op == "scan-flags") return "(2 * n * sizeof(T) + n) / ms";
  if (op == "scan-by-key") return "(2 * n * sizeof(T) + 4 * n) / ms";
  return "(n * (4 + sizeof(T)) + runs * (4 + sizeof(T)) + 8) / ms";
}

double gbps(const seg_point& p, double ms) { return static_cast<double>(p.bytes) / (ms * 1e6); }
double pct_of_floor(const seg_point& p, const seg_row& r) { return r.group == "cpu" ? NAN : p.floor_ms / r.ms * 100; }
double vs_cub(const seg_point& p, const seg_row& r) { return r.group == "cpu" ? NAN : p.cub_ms / r.ms; }

std::vector<report_row> report_rows(const seg_point& p, const seg_spec& sp, const std::string& type, std::int64_t x) {
  std::vector<report_row> out;
  for (const auto& h : p.rows) {
    report_row r;
    r.algorithm = h.name, r.group = h.group, r.x = x, r.n = p.n, r.type = type;
    r.ms = h.ms, r.samples_ms = h.samples_ms, r.check = h.check, r.message = h.message;
    r.gbps = gbps(p, h.ms);
    r.vs_cub = vs_cub(p, h);
    if (p.floor == "copy") {
      if (h.group != "cpu") r.copy_ms = p.floor_ms;
      r.pct_of_copy = pct_of_floor(p, h);
    } else {
      r.extra["read_ms"] = json_number(p.floor_ms);
      r.extra["pct_of_read"] = json_number(pct_of_floor(p, h));
    }
    r.extra["op"] = sp.op;
    r.extra["dist"] = sp.dist;
    r.extra["mean"] = p.mean;
    r.extra["segments"] = p.count;
    r.extra["workspace_bytes"] = h.workspace_bytes;
    out.push_back(std::move(r));
  }
  return out;
}

nlohmann::json params_json(const segments_common_options& o, const seg_spec& s) {
  return {{"type", o.type},   {"op", o.op},     {"dist", o.dist}, {"algo", o.algo},
          {"compare", o.compare}, {"rows", s.rows}, {"reps", o.reps}, {"seed", s.seed}, {"gbps", gbps_formula(o.op)}};
}

/// "<what>: <floor>: M ms = G GB/s" under a point's header, when the floor was timed.
void print_floor(const seg_point& p) {
  if (std::isnan(p.floor_ms)) return;
  const char* what = p.floor == "read" ? "one read of the input" : "a copy of the values and a read of the segments";
  std::cout << fmt::format("{}: {}: {} ms\n", p.floor, what, format_ms(p.floor_ms));
}

void check_rows_can_run(const seg_spec& s, const std::string& algo, const char* what) {
  if (s.rows.empty()) throw error(std::string(what) + ": the selected rows need a GPU (--algo " + algo + ")");
}

}  // namespace

int run_segments_bench(const segments_bench_options& o) {
  const system_info sys = query_bench_system();
  const bool gpu = sys.gpu.has_value();
  const std::int64_t n = !o.n.empty() ? *parse_count(o.n) : gpu ? (std::int64_t{1} << 28) : (std::int64_t{1} << 24);
  const seg_spec s = make_spec(o, gpu);
  check_rows_can_run(s, o.algo, "nothing to run");
  const auto means = bench_means(o, n);
  const auto [host, device] = memory_need(o.type, n, *std::min_element(means.begin(), means.end()));
  check_memory(sys, fmt::format("-n {} of {}", n, o.type), host, gpu ? device : 0.0);
  std::cout << fmt::format("scankit bench segments | {} | {} | n = {} | {} {} {} | seed {}\n", device_line(sys),
                           iso_date_now(), describe_count(n), o.op, o.dist, o.type, s.seed);
  if ((o.dist == "single" || o.dist == "ones") && o.mean != segments_bench_options{}.mean)
    std::cout << fmt::format("--dist {} has no mean: --mean is ignored\n", o.dist);
  std::vector<report_row> all_rows;
  progress_line progress(means.size());
  for (const std::int64_t mean : means) {
    progress.step(fmt::format("mean {}", mean));
    const seg_point p = measure_segments(s, o.type, n, mean, gpu);
    progress.clear();
    std::cout << fmt::format("\nmean {}: {} segments, {} non-empty\n", mean, p.count, p.runs);
    print_floor(p);
    text_table t({"algorithm", "ms", "GB/s", p.floor == "read" ? "% of read" : "% of copy", "vs CUB", "check"});
    for (const auto& r : p.rows)
      t.add_row({r.name, format_ms(r.ms), format_gbps(gbps(p, r.ms)), r.group == "cpu" ? "-" : format_pct(pct_of_floor(p, r)),
                 r.group == "cpu" ? "-" : format_ratio(vs_cub(p, r)), check_cell(r.check, r.message)});
    std::cout << t.str() << std::flush;  // each mean as it is done: a long run shows its progress
    for (auto& r : report_rows(p, s, o.type, n)) all_rows.push_back(std::move(r));
  }
  nlohmann::json params = params_json(o, s);
  params["means"] = means;
  return finish_bench(o.json, "segments", sys, params, n, all_rows);
}

int run_segments_sweep(const segments_sweep_options& o) {
  const system_info sys = query_bench_system();
  const bool gpu = sys.gpu.has_value();
  const seg_spec s = make_spec(o, gpu);
  check_rows_can_run(s, o.algo, "nothing to run");
  const bool by_mean = o.over == "mean";
  const int min_log = o.min_log.value_or(by_mean ? 0 : 10), max_log = o.max_log.value_or(by_mean ? 16 : 28);
  const std::int64_t fixed_n =
      !o.n.empty() ? *parse_count(o.n) : gpu ? (std::int64_t{1} << 24) : (std::int64_t{1} << 20);
  const std::int64_t fixed_mean = o.dist == "single" || o.dist == "ones" ? 1 : *parse_count(split_list(o.mean).at(0));
  std::cout << fmt::format("scankit sweep segments | {} | {} | {} 2^{}..2^{} | {} {} {} | {} | seed {}\n",
                           device_line(sys), iso_date_now(), by_mean ? "mean" : "n", min_log, max_log, o.op, o.dist,
                           o.type, by_mean ? "n = " + describe_count(fixed_n) : "mean " + describe_count(fixed_mean),
                           s.seed);
  std::vector<report_row> all_rows;
  std::string csv = "x,n,mean,segments,row,ms,gbps,pct_of_floor,vs_cub,check\n";
  text_table t({by_mean ? "mean" : "n", "segments", "row", "ms", "GB/s", "% of floor", "vs CUB", "check"});
  progress_line progress(static_cast<std::size_t>(max_log - min_log + 1));
  for (int lg = min_log; lg <= max_log; ++lg) {
    const std::int64_t x = std::int64_t{1} << lg;
    const std::int64_t n = by_mean ? fixed_n : x, mean = by_mean ? x : fixed_mean;
    const auto [host, device] = memory_need(o.type, n, mean);
    if ((gpu && device > 0.9 * static_cast<double>(sys.gpu->free_memory)) ||
        host > 0.5 * static_cast<double>(sys.host_memory_available)) {
      progress.clear();
      std::cout << fmt::format("2^{}: skipped (needs ~{} of memory)\n", lg, format_bytes(host));
      continue;
    }
    progress.step(fmt::format("{}=2^{}", by_mean ? "mean" : "n", lg));
    const seg_point p = measure_segments(s, o.type, n, mean, gpu);
    for (auto& r : report_rows(p, s, o.type, x)) all_rows.push_back(std::move(r));
    for (const auto& r : p.rows) {
      const double pct = pct_of_floor(p, r), vs = vs_cub(p, r);
      csv += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", x, n, mean, p.count, r.name, r.ms, gbps(p, r.ms), pct, vs,
                         r.check);
      t.add_row({describe_count(x), std::to_string(p.count), r.name, format_ms(r.ms), format_gbps(gbps(p, r.ms)),
                 format_pct(pct), format_ratio(vs), r.check});
    }
  }
  progress.clear();
  std::cout << t.str();
  nlohmann::json params = params_json(o, s);
  params["over"] = o.over, params["min_log"] = min_log, params["max_log"] = max_log;
  if (by_mean) params["n"] = fixed_n;
  else params["mean"] = fixed_mean;
  const std::string prefix = o.out.empty() ? "sweep-segments-" + o.op + "-" + o.dist + "-" + o.type : o.out;
  return finish_sweep(prefix, "segments", o.over, sys, params, all_rows, csv, o.no_plot, "check");
}

int run_segments_verify(const segments_verify_options& o) {
  const system_info sys = query_system();
  const bool gpu = sys.gpu.has_value();
  segments_common_options common;
  common.algo = o.algo;
  common.compare = "none";
  common.reps = 1;
  seg_spec s = make_spec(common, gpu);
  if (!gpu) std::cout << "no GPU found: verifying the CPU rows only\n";
  if (s.rows.empty())
    throw error("nothing to verify with --algo " + o.algo);
  const std::uint64_t seed = pick_seed(o.seed);
  std::cout << fmt::format("scankit verify segments | {} | {} cases | rows: {} | seed {}\n", device_line(sys), o.cases,
                           join(s.rows), seed);
  std::mt19937_64 g(seed);
  const std::vector<std::string> types{"i32", "u32", "i64", "u64", "f32", "f64"};
  const auto ops = segments_op_names();
  const auto dists = segments_dist_names();
  const auto all_rows = s.rows;
  int passed = 0, failed = 0;
  progress_line progress(static_cast<std::size_t>(o.cases));
  for (int c = 0; c < o.cases; ++c) {
    progress.step("case " + std::to_string(c));
    const std::string t = types[g() % types.size()];
    s.op = ops[g() % ops.size()];
    s.dist = dists[g() % dists.size()];
    s.seed = g();
    s.rows = all_rows;
    if (s.op != "reduce") std::erase_if(s.rows, [](const std::string& r) { return segments_row_reduce_only(r); });
    // Sizes from 0 to a few million, most of them small, so that tile edges come up often;
    // mean lengths from 1 to 2^14.
    const std::int64_t n = (g() % 4 == 0) ? static_cast<std::int64_t>(g() % 4'000'000) : static_cast<std::int64_t>(g() % 70'000);
    const std::int64_t mean = std::int64_t{1} << (g() % 15);
    try {
      const seg_point p = measure_segments(s, t, n, mean, gpu);
      for (const auto& r : p.rows) {
        if (r.check == check_pass) {
          ++passed;
        } else if (r.check == check_na) {
          continue;
        } else {
          ++failed;
          progress.clear();
          std::cout << fmt::format("FAIL case {}: {} {} {} n={} mean={} ({} segments) row {} | {}\n", c, s.op, s.dist, t,
                                   n, mean, p.count, r.name, r.message);
        }
      }
    } catch (const std::exception& e) {
      ++failed;
      progress.clear();
      std::cout << fmt::format("FAIL case {}: {} {} {} n={} mean={} | error: {}\n", c, s.op, s.dist, t, n, mean, e.what());
    }
  }
  progress.clear();
  return finish_verify(passed, failed);
}

}  // namespace scankit::tools
