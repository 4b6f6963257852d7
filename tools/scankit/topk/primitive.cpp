// The top-k primitive's subcommands and options: bench topk, sweep topk, verify topk.
#include <CLI/CLI.hpp>

#include "common/commands.hpp"
#include "common/primitive.hpp"
#include "common/report.hpp"
#include "common/util.hpp"
#include "topk/commands.hpp"

namespace scankit::tools {

namespace {

std::string check_rows(const std::string& s) { return check_name_list(s, topk_row_names(), {"all", "gpu", "cpu"}, "row"); }
std::string check_compare(const std::string& s) {
  if (s.empty() || s == "none") return "";
  return check_name_list(s, {"read"}, {}, "baseline");
}

void add_common(CLI::App& app, topk_common_options& o) {
  app.add_option("--k", o.k, "How many items to select (per row with --rows)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--rows", o.rows,
                 "0: one array (topk); R: R rows of n / R columns (topk_rows; R must divide n, k <= n / R)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--type", o.type, "Key type")->check(CLI::IsMember(topk_type_names()))->capture_default_str();
  app.add_flag("--smallest", o.smallest, "The k smallest, ascending (default: the k largest, descending)");
  app.add_option("--algo", o.algo, "Rows: all, gpu, cpu, or a comma-separated list of: " + join(topk_row_names()))
      ->check(check_rows)
      ->capture_default_str();
  app.add_option("--path", o.path,
                 "The GPU path (topk_config::path): auto, or forced: sampled, radix (one array), block, warp (rows, or one "
                 "array as one row), sort (rows); "
                 "a path that does not apply runs the automatic one, and the path column says what ran")
      ->check(CLI::IsMember(topk_path_names()))
      ->capture_default_str();
  app.add_option("--split", o.split,
                 "Rows longer than a block holds (block path): auto splits them into chunks while they are too few to "
                 "fill the GPU; always, never force it (topk_config::split)")
      ->check(CLI::IsMember(topk_split_names()))
      ->capture_default_str();
  app.add_option("--compare", o.compare, "Baselines beside the GPU row: read (a kernel that reads the input once), none")
      ->check(check_compare)
      ->capture_default_str();
  app.add_option("--reps", o.reps, "Timed repetitions per row (the median is reported)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the random input (default: random, printed)")->check(check_seed);
}

/// With -n given, the shape checks that need n are usage errors (before any work); without it
/// the runner checks them against the default n.
void check_shape(const topk_common_options& o, const std::string& n_text) {
  if (n_text.empty()) return;
  const std::int64_t n = *parse_count(n_text);
  if (o.rows > 0 && n % o.rows != 0)
    throw CLI::ValidationError("--rows", "n = " + std::to_string(n) + " is not a multiple of " + std::to_string(o.rows));
  const std::int64_t len = o.rows > 0 ? n / o.rows : n;
  if (o.k > len)
    throw CLI::ValidationError("--k", std::to_string(o.k) + " exceeds the " + (o.rows > 0 ? "row length " : "size ") +
                                          std::to_string(len));
}

constexpr const char* columns_footer =
    "Columns: ms = median of R runs (GPU: CUDA events around the device-pointer call, values and indices left in "
    "device memory, workspace preallocated, L2 flushed before each; CPU: wall time); GB/s = n * sizeof(T) / time "
    "(one read of the input, the floor of any top-k); % of read = the read-once kernel's time / time * 100; path = "
    "what plan_topk chose for the GPU row; check = indices equal to cpu::topk_serial's (segmented_topk_serial's "
    "with --rows) and values bitwise equal.";

class topk_primitive final : public primitive_with_options<topk_bench_options, topk_sweep_options, topk_verify_options> {
 public:
  std::string_view name() const override { return "topk"; }
  std::string_view description() const override {
    return "Top-k (the k largest or smallest with their positions) of an array or of every row, on the GPU and the CPU";
  }

  void add_bench(CLI::App& bench, action_fn& action) override {
    auto* app = add_bench_command(bench, *this, bench_.n, "Number of items (default 2^28 with a GPU, 2^24 without)",
                                  [this](CLI::App& a) { add_common(a, bench_); }, bench_.json,
                                  "Also write every number to FILE (docs/CLI.md)");
    app->footer(columns_footer);
    app->callback([this, &action] {
      check_shape(bench_, bench_.n);
      action = [this] { return run_topk_bench(bench_); };
    });
  }

  void add_sweep(CLI::App& sweep, action_fn& action) override {
    auto* app = sweep.add_subcommand("topk", std::string(description()));
    app->add_option("--min-log", sweep_.min_log, "Smallest size, log2")->check(CLI::Range(0, 34))->capture_default_str();
    app->add_option("--max-log", sweep_.max_log, "Largest size, log2 (sizes that do not fit, or hold fewer than k "
                                                 "items per row, are skipped)")
        ->check(CLI::Range(0, 34))
        ->capture_default_str();
    add_common(*app, sweep_);
    app->add_option("--out", sweep_.out,
                    "Output prefix: PREFIX.json, PREFIX.csv and (via tools/plot_sweep.py) PREFIX.png and PREFIX.svg "
                    "(default sweep-topk-<type>-k<k>)")
        ->type_name("PREFIX");
    app->add_flag("--no-plot", sweep_.no_plot, "Do not run tools/plot_sweep.py");
    app->footer(columns_footer);
    app->callback([this, &action] {
      check_sweep_options(sweep_.min_log, sweep_.max_log,
                          sweep_.out.empty() ? "sweep-topk-" + sweep_.type + "-k" + std::to_string(sweep_.k) : sweep_.out);
      action = [this] { return run_topk_sweep(sweep_); };
    });
  }

  void add_verify(CLI::App& verify, action_fn& action) override {
    auto* app = add_verify_command(verify, *this,
                                   "Random top-k cases (types, sizes, k, largest or smallest, ties and special floats, "
                                   "rows, every path) against the serial reference",
                                   verify_);
    app->add_option("--algo", verify_.algo, "Rows to verify: all, gpu, cpu, or a list")->check(check_rows)->capture_default_str();
    app->callback([this, &action] { action = [this] { return run_topk_verify(verify_); }; });
  }
};

}  // namespace

std::unique_ptr<primitive> make_topk_primitive() { return std::make_unique<topk_primitive>(); }

}  // namespace scankit::tools
