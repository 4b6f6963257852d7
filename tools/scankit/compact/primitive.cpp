// The compact primitive's subcommands and options: bench compact, sweep compact, verify compact.
#include <CLI/CLI.hpp>

#include "common/commands.hpp"
#include "common/dist.hpp"
#include "common/primitive.hpp"
#include "common/report.hpp"
#include "common/util.hpp"
#include "compact/commands.hpp"

namespace scankit::tools {

namespace {

std::vector<std::string> ops() {
  std::vector<std::string> v;
  for (const char* const* p = compact_op_names(); *p; ++p) v.emplace_back(*p);
  return v;
}

void add_common(CLI::App& app, compact_common_options& o) {
  app.add_option("--op", o.op,
                 "Operation, always with the predicate x != 0: select_if (keeps nonzeros: removes zeros), "
                 "remove_if (keeps zeros), select_flagged (flags = x != 0), partition, unique, unique_count, "
                 "nonzero (indices)")
      ->check(CLI::IsMember(ops()))
      ->capture_default_str();
  app.add_option("--type", o.type, "Element type")
      ->check(CLI::IsMember({"i32", "u32", "i64", "u64", "f32", "f64"}))
      ->capture_default_str();
  app.add_option("--selectivity", o.selectivity,
                 "Fraction of items that are nonzero (unique: that start a new run), in [0, 1]; default: "
                 "random values in 0..3 (0.75)")
      ->check(check_fraction);
  app.add_option("--order", o.order, "partition: order of the rejected items")
      ->check(CLI::IsMember({"reversed", "original"}))
      ->capture_default_str();
  app.add_option("--algo", o.algo, "Rows to run: all, or a comma-separated list of: " + compact_algo_names())
      ->check(check_compact_algo_list)
      ->capture_default_str();
  app.add_option("--compare", o.compare, "Baselines on the GPU: comma-separated cub, copy, or none")
      ->check([](const std::string& s) -> std::string {
        for (const auto& item : split_list(s))
          if (item != "cub" && item != "copy" && item != "none") return "unknown baseline '" + item + "'";
        return {};
      })
      ->capture_default_str();
  app.add_option("--block-size", o.block_size, "Threads per block of scankit's GPU algorithms (0: default; 64, 128, 256)")
      ->check(CLI::IsMember({0, 64, 128, 256}))
      ->capture_default_str();
  app.add_option("--tile", o.tile,
                 "Tile size of single-pass: auto, small (half), medium, segmented (12 vectors per lane, "
                 "one contiguous segment per warp), specialized (a producer warp bulk-loads tiles while the "
                 "others look back and write; Hopper), or all (one row each)")
      ->check(CLI::IsMember({"auto", "small", "medium", "segmented", "specialized", "all"}))
      ->capture_default_str();
  app.add_option("--reps", o.reps, "Timed repetitions per row (the median is reported)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the random input (default: random, printed)")->check(check_seed);
  app.add_flag("--device-only", o.device_only, "Skip the 'with copies' timing of the host-container API");
}

class compact_primitive final
    : public primitive_with_options<compact_bench_options, compact_sweep_options, compact_verify_options> {
 public:
  std::string_view name() const override { return "compact"; }
  std::string_view description() const override {
    return "Stream compaction (select, partition, unique, nonzero) on the GPU and the CPU, with CUB";
  }
  void add_bench(CLI::App& bench, action_fn& action) override {
    auto* app = add_bench_command(bench, *this, bench_.n, "Number of items (default 2^28 with a GPU, 2^26 without)",
                                  [this](CLI::App& a) { add_common(a, bench_); }, bench_.json,
                                  "Also write every number to FILE (docs/CLI.md)");
    app->footer(
        "Columns: with copies ms = the host-container call from pageable memory (copies in and out; CPU rows: "
        "the device time); device ms = median of R runs (CUDA events around the device-pointer call, "
        "workspace preallocated, L2 flushed; CPU: wall time); GB/s = bytes read + bytes written / time (input, "
        "flags, and only the items written); % of copy = GB/s / the device-to-device copy's GB/s (CPU rows: "
        "cpu::parallel_copy); vs CUB = CUB time / time; vs std = the std:: algorithm's time / time (CPU rows). "
        "Every row's output is checked against the CPU serial loop.");
    add_dist_options(*app, dist_, false);
    app->callback([this, app, &action] {
      if (!dist_.gpus.empty()) {
        dist_bench_options d;
        d.gpus = check_dist_options(*app, dist_, {"--order", "--algo", "--compare", "--block-size", "--tile", "--device-only"});
        check_dist_value("--op", bench_.op, {"select_if"});
        check_dist_value("--type", bench_.type, {"u32"});
        d.primitive = "compact", d.n = bench_.n, d.type = bench_.type, d.reps = bench_.reps, d.seed = bench_.seed;
        d.selectivity = bench_.selectivity.value_or(0.5), d.json = bench_.json;
        action = [d] { return run_dist_bench(d); };
        return;
      }
      action = [this] { return run_compact_bench(bench_); };
    });
  }
  void add_sweep(CLI::App& sweep, action_fn& action) override {
    auto* app = sweep.add_subcommand("compact", std::string(description()) + ", over sizes");
    sweep_.reps = 5;
    app->add_option("--min-log", sweep_.min_log, "Smallest size, log2")->check(CLI::Range(0, 40))->capture_default_str();
    app->add_option("--max-log", sweep_.max_log, "Largest size, log2 (clipped to ~40% of free memory)")
        ->check(CLI::Range(0, 40))
        ->capture_default_str();
    add_common(*app, sweep_);
    app->add_option("--out", sweep_.out, "Output prefix (default sweep-compact-<op>)")->type_name("PREFIX");
    app->add_flag("--no-plot", sweep_.no_plot, "Do not run the plot script");
    app->callback([this, &action] {
      check_sweep_options(sweep_.min_log, sweep_.max_log, sweep_.out.empty() ? "sweep-compact-" + sweep_.op : sweep_.out);
      action = [this] { return run_compact_sweep(sweep_); };
    });
  }
  void add_verify(CLI::App& verify, action_fn& action) override {
    auto* app = add_verify_command(verify, *this,
                                   "Random compaction cases (operations, types, sizes, selectivities, block sizes) "
                                   "through every algorithm against the serial loop",
                                   verify_);
    app->callback([this, &action] { action = [this] { return run_compact_verify(verify_); }; });
  }
};

}  // namespace

std::unique_ptr<primitive> make_compact_primitive() { return std::make_unique<compact_primitive>(); }

}  // namespace scankit::tools
