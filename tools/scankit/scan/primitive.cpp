// The scan primitive's subcommands and options: bench scan, sweep scan, verify scan.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/commands.hpp"
#include "common/dist.hpp"
#include "common/primitive.hpp"
#include "common/report.hpp"
#include "common/util.hpp"
#include "scan/commands.hpp"
#include "scan/data.hpp"
#include "scan/measure.hpp"
#include "scankit/types.hpp"

namespace scankit::tools {

namespace {

std::string check_algo_list(const std::string& s) {
  const auto names = algo_names();
  const auto items = split_list(s);
  if (items.empty()) return "--algo needs 'all' or algorithm names";
  for (const auto& item : items) {
    if (item == "all") continue;
    if (std::find(names.begin(), names.end(), item) == names.end()) {
      std::string msg = "unknown algorithm '" + item + "' (known: all, " + join(names) + ")";
#ifndef SCANKIT_HAS_CUDA
      msg += "; this scankit was built without CUDA";
#endif
      return msg;
    }
  }
  return {};
}

std::string check_compare_list(const std::string& s) {
  for (const auto& item : split_list(s))
    if (item != "cub" && item != "thrust" && item != "copy" && item != "none")
      return "unknown baseline '" + item + "' (known: cub, thrust, copy, none)";
  return {};
}

std::string check_block_size(const std::string& s) {
  int b = 0;
  try {
    std::size_t used = 0;
    b = std::stoi(s, &used);
    if (used != s.size()) return "block size must be a number";
  } catch (const std::exception&) {
    return "block size must be a number";
  }
  if (b == 0 || (b >= 32 && b <= 1024 && (b & (b - 1)) == 0)) return {};
  return "block size must be 0 (each algorithm's default) or a power of two in [32, 1024]";
}

/// Throws CLI::ValidationError (exit status 2) for a bitwise operator on a float type.
void check_type_op(const std::string& type, const std::string& op) {
  const auto t = parse_dtype(type);
  const auto o = parse_op(op);
  if (t && o && !supported(*t, *o))
    throw CLI::ValidationError("--op", "operator '" + op + "' needs an integer --type, not " + type);
}

void add_common(CLI::App& app, scan_common_options& o, bool block_option) {
  app.add_option("--type", o.type, "Element type")
      ->check(CLI::IsMember(names_of(all_dtypes)))
      ->capture_default_str();
  app.add_option("--op", o.op, "Operator (and/or/xor need an integer type)")
      ->check(CLI::IsMember(names_of(all_op_kinds)))
      ->capture_default_str();
  app.add_flag("--exclusive", o.exclusive, "Exclusive scan (default: inclusive)");
  app.add_option("--algo", o.algo,
                 "Rows to run: all, or a comma-separated list of: " + join(algo_names()))
      ->check(check_algo_list)
      ->capture_default_str();
  app.add_option("--compare", o.compare,
                 "Baselines on the GPU: comma-separated cub, thrust, copy, or none")
      ->check(check_compare_list)
      ->capture_default_str();
  if (block_option)
    app.add_option("--block-size", o.block_size,
                   "Threads per block for scankit's GPU algorithms (0: each one's default; "
                   "else a power of two in [32, 1024])")
        ->check(check_block_size)
        ->capture_default_str();
  app.add_option("--reps", o.reps, "Timed repetitions per row (the median is reported)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the random input (default: random, printed)")->check(check_seed);
  app.add_flag("--device-only", o.device_only,
               "Skip the 'with copies' timing of the host-container API (scan_host)");
}

const char* check_footer() {
  static const std::string text = std::string("Checks: ") + float_tolerance_text + ".";
  return text.c_str();
}

class scan_primitive final : public primitive_with_options<scan_bench_options, scan_sweep_options, scan_verify_options> {
 public:
  std::string_view name() const override { return "scan"; }
  std::string_view description() const override {
    return "Prefix scan (inclusive/exclusive) with every algorithm, CUB, Thrust and the CPU";
  }

  void add_bench(CLI::App& bench, action_fn& action) override {
    auto* app = add_bench_command(
        bench, *this, bench_.n,
        "Number of items (e.g. 123123123, 2^22, 1e6; default 123123123 with a GPU, 2^26 without)",
        [this](CLI::App& a) { add_common(a, bench_, true); }, bench_.json,
        "Also write every number (and all samples) to FILE (docs/CLI.md)");
    app->footer(std::string(
                    "Columns: with copies ms = host->device->host time of scan_host from pageable "
                    "memory (CPU rows: the device time); device ms = median of R runs timed with "
                    "CUDA events around the device-pointer call, workspace preallocated (CPU "
                    "rows: median wall time); GB/s = 2*n*sizeof(T)/time; % of copy = "
                    "device-to-device copy time / time * 100 (CPU rows: cpu::parallel_copy); vs "
                    "CUB = CUB time / time (>1: faster than CUB); vs cpu-serial = cpu-serial "
                    "time / time.\n") +
                check_footer());
    add_dist_options(*app, dist_, false);
    app->callback([this, app, &action] {
      check_type_op(bench_.type, bench_.op);
      if (!dist_.gpus.empty()) {
        dist_bench_options d;
        d.gpus = check_dist_options(*app, dist_, {"--exclusive", "--algo", "--compare", "--block-size", "--device-only"});
        check_dist_value("--type", bench_.type, {"i32"});
        check_dist_value("--op", bench_.op, {"sum"});
        d.primitive = "scan", d.n = bench_.n, d.type = bench_.type, d.reps = bench_.reps, d.seed = bench_.seed;
        d.json = bench_.json;
        action = [d] { return run_dist_bench(d); };
        return;
      }
      action = [this] { return run_scan_bench(bench_); };
    });
  }

  void add_sweep(CLI::App& sweep, action_fn& action) override {
    auto* app = sweep.add_subcommand("scan", std::string(description()));
    sweep_.reps = 5;
    app->add_option("--over", sweep_.over, "What to sweep: size (2^min-log..2^max-log) or block-size (32..1024)")
        ->check(CLI::IsMember({"size", "block-size"}))
        ->capture_default_str();
    app->add_option("--min-log", sweep_.min_log, "Smallest size, log2")
        ->check(CLI::Range(0, 40))
        ->capture_default_str();
    app->add_option("--max-log", sweep_.max_log,
                    "Largest size, log2 (clipped to ~40% of free GPU and host memory)")
        ->check(CLI::Range(0, 40))
        ->capture_default_str();
    app->add_option("-n,--n", sweep_.n, "Size of a block-size sweep (default 2^24)")
        ->check(check_count)
        ->type_name("N");
    add_common(*app, sweep_, true);
    app->add_option("--out", sweep_.out,
                    "Output prefix: writes PREFIX.json, PREFIX.csv and (via tools/plot_sweep.py) "
                    "PREFIX.png, PREFIX.svg (default sweep-scan-<over>)")
        ->type_name("PREFIX");
    app->add_flag("--no-plot", sweep_.no_plot, "Do not run the plot script");
    app->footer(check_footer());
    app->callback([this, &action] {
      check_type_op(sweep_.type, sweep_.op);
      check_sweep_options(sweep_.min_log, sweep_.max_log, sweep_.out.empty() ? "sweep-scan-" + sweep_.over : sweep_.out);
      action = [this] { return run_scan_sweep(sweep_); };
    });
  }

  void add_verify(CLI::App& verify, action_fn& action) override {
    auto* app = add_verify_command(verify, *this,
                                   "Random scan cases (sizes, types, operators, kinds, carry-ins, block sizes) "
                                   "against the serial reference",
                                   verify_);
    app->add_option("--algo", verify_.algo,
                    "Algorithms to verify: all (every GPU algorithm, cpu-parallel, cpu-tbb) or a "
                    "comma-separated list of: " + join(algo_names()))
        ->check(check_algo_list)
        ->capture_default_str();
    app->footer(check_footer());
    app->callback([this, &action] { action = [this] { return run_scan_verify(verify_); }; });
  }
};

}  // namespace

std::unique_ptr<primitive> make_scan_primitive() { return std::make_unique<scan_primitive>(); }

}  // namespace scankit::tools
