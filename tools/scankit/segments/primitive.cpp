// The segments primitive's subcommands and options: bench segments, sweep segments, verify
// segments (segmented reduce and scans, scan_by_key, reduce_by_key).
#include <CLI/CLI.hpp>

#include "common/commands.hpp"
#include "common/primitive.hpp"
#include "common/report.hpp"
#include "common/util.hpp"
#include "segments/commands.hpp"

namespace scankit::tools {

namespace {

const std::vector<std::string> value_types{"i32", "u32", "i64", "u64", "f32", "f64"};

// "cpu" is a row (the parallel CPU functions), not a group as in the other primitives.
std::string check_rows(const std::string& s) { return check_name_list(s, segments_row_names(), {"all", "gpu"}, "row"); }
std::string check_compare(const std::string& s) {
  if (s.empty() || s == "none") return "";
  return check_name_list(s, {"cub", "read", "copy"}, {}, "baseline");
}
/// A comma-separated list of mean segment lengths, each a count >= 1 ("1,8,2^16").
std::string check_means(const std::string& s) {
  const auto items = split_list(s);
  if (items.empty()) return "needs at least one mean segment length";
  for (const auto& item : items) {
    const auto v = parse_count(item);
    if (!v) return "mean segment length '" + item + "' is not a whole number (1, 8, 2^16, 1e3)";
    if (*v < 1) return "mean segment length '" + item + "' must be at least 1";
  }
  return "";
}

void add_common(CLI::App& app, segments_common_options& o) {
  app.add_option("--type", o.type, "Value type")->check(CLI::IsMember(value_types))->capture_default_str();
  app.add_option("--op", o.op,
                 "Operation (all sums): reduce (segmented reduce over CSR offsets), scan (inclusive segmented scan "
                 "by offsets), scan-flags (by head flags), scan-by-key, reduce-by-key")
      ->check(CLI::IsMember(segments_op_names()))
      ->capture_default_str();
  app.add_option("--dist", o.dist,
                 "Segment lengths: uniform (1..2*mean-1), powerlaw (Zipf-like, a few giant segments), single (one "
                 "segment of n), ones (n segments of 1), empty (uniform, half the segments empty)")
      ->check(CLI::IsMember(segments_dist_names()))
      ->capture_default_str();
  app.add_option("--algo", o.algo, "Rows: all, gpu (scankit's GPU rows), or a comma-separated list of: " + join(segments_row_names()))
      ->check(check_rows)
      ->capture_default_str();
  app.add_option("--compare", o.compare,
                 "Baselines beside the GPU rows: cub, read (a kernel that reads the input once: reduce ops), copy (a "
                 "copy of the values plus a read of the offsets, flags or keys: scan ops), none")
      ->check(check_compare)
      ->capture_default_str();
  app.add_option("--reps", o.reps, "Timed repetitions per row (the median is reported)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the random input (default: random, printed)")->check(check_seed);
}

constexpr const char* columns_footer =
    "Columns: ms = median of R runs (GPU: CUDA events around the device-pointer call, results left in device "
    "memory, workspace preallocated, L2 flushed before each; CPU: wall time); GB/s = the bytes the operation must "
    "move / time (reduce: values + offsets read, one result per segment written; scans: values read and written "
    "+ offsets, flags or keys read; reduce-by-key: keys and values read, one key and result per run written); "
    "% of read / % of copy = the floor's time / time * 100 (read: one read of the same input; copy: a "
    "device-to-device copy of the values and a read of the offsets, flags or keys); vs CUB = CUB time / time "
    "(DeviceSegmentedReduce::Sum, DeviceScan::InclusiveSumByKey, DeviceReduce::ReduceByKey; keys: u32 segment "
    "ids); check = integers equal to the serial loop, floats within 8 * eps * (sum of |x| so far) * log2(length + "
    "2) of a long double serial sum.";

class segments_primitive final
    : public primitive_with_options<segments_bench_options, segments_sweep_options, segments_verify_options> {
 public:
  std::string_view name() const override { return "segments"; }
  std::string_view description() const override {
    return "Segmented reduce and scans, scan_by_key, reduce_by_key on the GPU, beside CUB, and the CPU";
  }

  void add_bench(CLI::App& bench, action_fn& action) override {
    auto* app = add_bench_command(
        bench, *this, bench_.n, "Number of items (default 2^28 with a GPU, 2^24 without)",
        [this](CLI::App& a) {
          add_common(a, bench_);
          a.add_option("--mean", bench_.mean,
                       "Mean segment lengths, comma-separated: one table per mean (ignored by --dist single and ones)")
              ->check(check_means)
              ->capture_default_str();
        },
        bench_.json, "Also write every number to FILE (docs/CLI.md)");
    app->footer(columns_footer);
    app->callback([this, &action] { action = [this] { return run_segments_bench(bench_); }; });
  }

  void add_sweep(CLI::App& sweep, action_fn& action) override {
    auto* app = sweep.add_subcommand("segments", std::string(description()));
    app->add_option("--over", sweep_.over, "What to sweep: size (n = 2^min-log..2^max-log) or mean (segment length)")
        ->check(CLI::IsMember({"size", "mean"}))
        ->capture_default_str();
    app->add_option("--min-log", sweep_.min_log, "Smallest size or mean, log2 (default: size 10, mean 0)")
        ->check(CLI::Range(0, 34));
    app->add_option("--max-log", sweep_.max_log,
                    "Largest size or mean, log2 (default: size 28, mean 16; sizes that do not fit are skipped)")
        ->check(CLI::Range(0, 34));
    app->add_option("-n,--n", sweep_.n, "Items of a mean sweep (default 2^24 with a GPU, 2^20 without)")
        ->check(check_count)
        ->type_name("N");
    app->add_option("--mean", sweep_.mean, "Mean segment length of a size sweep")->check(check_means)->capture_default_str();
    add_common(*app, sweep_);
    app->add_option("--out", sweep_.out,
                    "Output prefix: PREFIX.json, PREFIX.csv and (via tools/plot_sweep.py) PREFIX.png and PREFIX.svg "
                    "(default sweep-segments-<op>-<dist>-<type>)")
        ->type_name("PREFIX");
    app->add_flag("--no-plot", sweep_.no_plot, "Do not run tools/plot_sweep.py");
    app->footer(columns_footer);
    app->callback([this, app, &action] {
      const bool by_mean = sweep_.over == "mean";
      if (!sweep_.min_log) sweep_.min_log = by_mean ? 0 : 10;
      if (!sweep_.max_log) sweep_.max_log = by_mean ? 16 : 28;
      if (split_list(sweep_.mean).size() != 1) throw CLI::ValidationError("--mean", "a sweep takes one mean");
      if (by_mean && app->count("--mean") > 0) throw CLI::ValidationError("--mean", "--over mean sweeps the mean");
      if (!by_mean && app->count("-n") > 0) throw CLI::ValidationError("-n", "--over size sweeps n (--min-log, --max-log)");
      if (by_mean && (sweep_.dist == "single" || sweep_.dist == "ones"))
        throw CLI::ValidationError("--over", "mean needs --dist uniform, powerlaw or empty (" + sweep_.dist +
                                                 " has no mean)");
      check_sweep_options(*sweep_.min_log, *sweep_.max_log,
                          sweep_.out.empty() ? "sweep-segments-" + sweep_.op + "-" + sweep_.dist + "-" + sweep_.type
                                             : sweep_.out);
      action = [this] { return run_segments_sweep(sweep_); };
    });
  }

  void add_verify(CLI::App& verify, action_fn& action) override {
    auto* app = add_verify_command(verify, *this,
                                   "Random segmented operations (types, operations, distributions, sizes, every "
                                   "algorithm) against the serial loop",
                                   verify_);
    app->add_option("--algo", verify_.algo, "Rows to verify: all, gpu, or a list of rows")->check(check_rows)->capture_default_str();
    app->callback([this, &action] { action = [this] { return run_segments_verify(verify_); }; });
  }
};

}  // namespace

std::unique_ptr<primitive> make_segments_primitive() { return std::make_unique<segments_primitive>(); }

}  // namespace scankit::tools
