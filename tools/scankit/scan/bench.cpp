// `bench scan` (one point, printed as a table) and `sweep scan` (many points, to JSON, CSV and
// a plot).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/report.hpp"
#include "common/system.hpp"
#include "common/timing.hpp"
#include "common/util.hpp"
#include "scan/commands.hpp"
#include "scan/data.hpp"
#include "scan/measure.hpp"
#include "scankit/scankit.hpp"

namespace scankit::tools {

namespace {

struct resolved {
  dtype type;
  op_kind op;
  scan_kind kind;
  std::uint64_t seed;
  std::vector<row_spec> rows;
};

resolved resolve(const scan_common_options& o, bool gpu) {
  resolved r{*parse_dtype(o.type), *parse_op(o.op),
             o.exclusive ? scan_kind::exclusive : scan_kind::inclusive, pick_seed(o.seed), {}};
  r.rows = select_rows(split_list(o.algo), split_list(o.compare), gpu);
  return r;
}

const char* kind_name(scan_kind k) { return k == scan_kind::inclusive ? "inclusive" : "exclusive"; }

std::string copy_lines(const point_result& r, int cpu_threads) {
  std::string s;
  const double bytes = static_cast<double>(r.bytes);
  if (!r.copy_samples_ms.empty())
    s += fmt::format("copy: device-to-device cudaMemcpyAsync of {}: {} ms = {} GB/s (read + write)\n",
                     format_bytes(bytes), format_ms(r.copy_ms), format_gbps(2 * bytes / (r.copy_ms * 1e6)));
  if (!r.cpu_copy_samples_ms.empty())
    s += fmt::format("cpu copy: cpu::parallel_copy of {}: {} ms = {} GB/s (read + write, {} threads)\n",
                     format_bytes(bytes), format_ms(r.cpu_copy_ms),
                     format_gbps(2 * bytes / (r.cpu_copy_ms * 1e6)), cpu_threads);
  return s;
}

/// The point's rows in the JSON schema of docs/CLI.md; x is the swept value.
std::vector<report_row> report_rows(const point_result& res, std::int64_t x) {
  std::vector<report_row> out;
  for (const auto& row : res.rows) {
    const std::string group = group_name(row.spec.kind);
    report_row r = to_report_row(row, row.spec.name, group, x, res.opts.n, std::string(name(res.type)),
                                 group == "cpu" ? res.cpu_copy_ms : res.copy_ms);
    r.extra.update(nlohmann::json::object({{"block_size", res.opts.block_size},
                                           {"with_copies_pinned_ms", json_number(row.pinned_ms)},
                                           {"with_copies_pinned_samples_ms", row.pinned_samples_ms},
                                           {"vs_cpu_serial", json_number(row.vs_serial)}}));
    out.push_back(std::move(r));
  }
  return out;
}

nlohmann::json params_json(const scan_common_options& o, const resolved& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : r.rows) rows.push_back(row.name);
  return {{"type", std::string(name(r.type))},
          {"op", std::string(name(r.op))},
          {"scan_kind", kind_name(r.kind)},
          {"check", float_tolerance_text},
          {"gbps", "2 * n * sizeof(T) / ms"},
          {"reps", o.reps},
          {"block_size", o.block_size},
          {"seed", r.seed},
          {"algo", o.algo},
          {"compare", o.compare},
          {"with_copies", !o.device_only},
          {"rows", rows}};
}

/// Progress for long runs: one overwritten line on a terminal, nothing otherwise.
std::function<void(const std::string&)> terminal_progress(std::size_t total) {
  if (!isatty(STDERR_FILENO)) return {};
  auto count = std::make_shared<std::size_t>(0);
  return [count, total](const std::string& row) {
    std::fprintf(stderr, "\r\033[K[%zu/%zu] %s ...", ++*count, total, row.c_str());
    std::fflush(stderr);
  };
}

void clear_progress() {
  if (isatty(STDERR_FILENO)) std::fprintf(stderr, "\r\033[K");
}

}  // namespace

int run_scan_bench(const scan_bench_options& o) {
  const system_info sys = query_bench_system();
  const bool gpu = sys.gpu.has_value();
  const resolved r = resolve(o, gpu);
  if (r.rows.empty()) throw error("nothing to run: the selected algorithms need a GPU (--algo " + o.algo + ")");
  const std::int64_t n = !o.n.empty() ? *parse_count(o.n) : gpu ? 123123123 : std::int64_t{1} << 26;
  {
    // Host: input, output, reference (and pinned copies with a GPU); device: input, output and
    // the largest workspace.
    const double bytes = static_cast<double>(n) * static_cast<double>(size_of(r.type));
    check_memory(sys, fmt::format("-n {} of {}", n, name(r.type)), bytes * (gpu ? 5.0 : 3.0), bytes * 2.2);
  }

  std::cout << fmt::format("scankit bench scan | {} | {} | n = {} | type = {} | op = {} | kind = {}\n",
                           device_line(sys), iso_date_now(), n, name(r.type), name(r.op),
                           kind_name(r.kind));
  std::cout << fmt::format("reps = {} (median), warm-up = 1, block size = {}, seed = {}{}\n", o.reps,
                           o.block_size ? std::to_string(o.block_size) : "default", r.seed,
                           gpu ? ", L2 flushed before each timed GPU run" : "");
#ifdef SCANKIT_HAS_CUDA
  if (gpu)
    std::cout << "decoupled-lookback tuning, "
              << cuda::scan_tuning_description(size_of(r.type)) << "\n";
#endif
  std::cout.flush();

  scan_runner runner(gpu);
  runner.prepare(r.type, r.op, r.kind, n, r.seed);
  point_options po;
  po.n = n;
  po.block_size = o.block_size;
  po.reps = o.reps;
  po.with_copies = !o.device_only;
  const point_result res = runner.measure(po, r.rows, terminal_progress(r.rows.size()));
  clear_progress();

  std::cout << copy_lines(res, sys.cpu_threads) << "\n" << format_table(res);
  for (const auto& row : res.rows)
    if (std::isfinite(row.pinned_ms))
      std::cout << fmt::format("with copies from pinned host memory ({}, scan_host): {} ms "
                               "(from pageable memory: {} ms)\n",
                               row.spec.name, format_ms(row.pinned_ms), format_ms(row.with_copies_ms));
  if (!res.ok()) std::cout << "\nsome rows failed (FAIL)\n";

  return finish_bench(o.json, "scan", sys, params_json(o, r), n, report_rows(res, n));
}

// ---------------------------------------------------------------------------------------

namespace {

std::string csv_number(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : ""; }

}  // namespace

int run_scan_sweep(const scan_sweep_options& o) {
  const system_info sys = query_system();
  const bool gpu = sys.gpu.has_value();
  const bool by_size = o.over == "size";
  if (!by_size && !gpu)
    throw error(sys.built_with_cuda ? "a block-size sweep needs a GPU, and none was found"
                                    : "a block-size sweep needs a GPU (this scankit was built without CUDA)");
  if (!gpu) std::cout << "no GPU found: running the CPU rows only\n";
  resolved r = resolve(o, gpu);
  if (!by_size)  // the CPU rows and the baselines do not depend on the block size
    std::erase_if(r.rows, [](const row_spec& s) { return group_name(s.kind) == std::string("cpu"); });
  if (r.rows.empty()) throw error("nothing to run with --algo " + o.algo);
  const std::size_t item = size_of(r.type);

  // The points.
  std::vector<std::int64_t> sizes;
  std::vector<int> blocks;
  std::int64_t n_max = 0;
  if (by_size) {
    // Clip: inputs and outputs within ~40% of free GPU memory (in + out) and of available
    // host memory (input, output, reference).
    double limit = 0.4 * static_cast<double>(sys.host_memory_available) / (3.0 * static_cast<double>(item));
    if (sys.gpu)
      limit = std::min(limit, 0.4 * static_cast<double>(sys.gpu->free_memory) / (2.0 * static_cast<double>(item)));
    int max_log = o.max_log;
    while (max_log > o.min_log && std::ldexp(1.0, max_log) > limit) --max_log;
    if (std::ldexp(1.0, max_log) > limit)
      throw error(fmt::format("2^{} items of {} do not fit in ~40% of free memory", max_log, name(r.type)));
    if (max_log < o.max_log)
      std::cerr << fmt::format("note: --max-log {} clipped to {} (~40% of free GPU/host memory)\n",
                               o.max_log, max_log);
    for (int k = o.min_log; k <= max_log; ++k) sizes.push_back(std::int64_t{1} << k);
    n_max = sizes.back();
  } else {
    n_max = !o.n.empty() ? *parse_count(o.n) : std::int64_t{1} << 24;
    for (int b = 32; b <= 1024; b *= 2) blocks.push_back(b);
  }
  const std::size_t points = by_size ? sizes.size() : blocks.size();
  const std::string prefix = !o.out.empty() ? o.out : "sweep-scan-" + o.over;

  std::cout << fmt::format("scankit sweep scan over {} | {} | {} | type = {} | op = {} | kind = {} | "
                           "reps = {} | seed = {}\n",
                           o.over, device_line(sys), iso_date_now(), name(r.type), name(r.op),
                           kind_name(r.kind), o.reps, r.seed);
  std::cout.flush();

  scan_runner runner(gpu);
  runner.prepare(r.type, r.op, r.kind, n_max, r.seed);

  nlohmann::json params = params_json(o, r);
  params["over"] = o.over;
  params["min_log"] = o.min_log;
  params["max_log"] = by_size ? static_cast<int>(std::log2(static_cast<double>(n_max))) : o.max_log;
  if (!by_size) params["n"] = n_max;
  std::vector<report_row> all_rows;
  progress_line progress(points);
  std::ostringstream csv;
  csv << "over,n,log2_n,block_size,type,op,kind,algorithm,group,status,device_ms,with_copies_ms,"
         "gbps,pct_of_copy,vs_cub,vs_cpu_serial,copy_ms,cpu_copy_ms\n";

  for (std::size_t i = 0; i < points; ++i) {
    point_options po;
    po.n = by_size ? sizes[i] : n_max;
    po.block_size = by_size ? o.block_size : blocks[i];
    po.reps = o.reps;
    po.with_copies = !o.device_only;
    const std::string label = by_size ? "n=" + describe_count(po.n)
                                      : fmt::format("block={} (n={})", po.block_size, describe_count(po.n));
    progress.step(label);
    const point_result res = runner.measure(po, r.rows);
    for (auto& row : report_rows(res, by_size ? po.n : po.block_size)) all_rows.push_back(std::move(row));
    for (const auto& row : res.rows) {
      csv << o.over << ',' << po.n << ',' << csv_number(std::log2(static_cast<double>(po.n))) << ','
          << po.block_size << ',' << name(r.type) << ',' << name(r.op) << ',' << kind_name(r.kind) << ','
          << row.spec.name << ',' << group_name(row.spec.kind) << ',' << row.status << ','
          << csv_number(row.device_ms) << ',' << csv_number(row.with_copies_ms) << ','
          << csv_number(row.gbps) << ',' << csv_number(row.pct_of_copy) << ','
          << csv_number(row.vs_cub) << ',' << csv_number(row.vs_serial) << ','
          << csv_number(res.copy_ms) << ',' << csv_number(res.cpu_copy_ms) << '\n';
    }
  }
  progress.clear();
  return finish_sweep(prefix, "scan", o.over, sys, std::move(params), all_rows, csv.str(), o.no_plot);
}

}  // namespace scankit::tools
