// The reduce primitive's subcommands and options: bench reduce, sweep reduce, verify reduce.
#include <CLI/CLI.hpp>

#include "common/commands.hpp"
#include "common/primitive.hpp"
#include "common/report.hpp"
#include "common/util.hpp"
#include "reduce/commands.hpp"

namespace scankit::tools {

namespace {

const std::vector<std::string> value_types{"i32", "u32", "i64", "u64", "f32", "f64"};

std::string check_rows(const std::string& s) { return check_name_list(s, reduce_row_names(), {"all", "gpu", "cpu"}, "row"); }
std::string check_compare(const std::string& s) {
  if (s.empty() || s == "none") return "";
  return check_name_list(s, {"cub", "read"}, {}, "baseline");
}

void add_common(CLI::App& app, reduce_common_options& o) {
  app.add_option("--type", o.type, "Element type")->check(CLI::IsMember(value_types))->capture_default_str();
  app.add_option("--op", o.op, "Operation: " + join(reduce_op_names()))
      ->check(CLI::IsMember(reduce_op_names()))
      ->capture_default_str();
  app.add_option("--algo", o.algo, "Rows: all, gpu, cpu, or a comma-separated list of: " + join(reduce_row_names()))
      ->check(check_rows)
      ->capture_default_str();
  app.add_option("--compare", o.compare,
                 "Baselines: cub, read (a kernel that reads the input once; for the CPU rows a parallel read), none")
      ->check(check_compare)
      ->capture_default_str();
  app.add_option("--reps", o.reps, "Timed repetitions per row (the median is reported)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the random input (default: random, printed)")->check(check_seed);
}

constexpr const char* columns_footer =
    "Columns: ms = median of R runs (GPU: CUDA events around the device-pointer call, result left in device "
    "memory, workspace preallocated, L2 flushed before each; CPU: wall time); GB/s = n * sizeof(T) / time (one "
    "read of the input, the floor of any reduction); % of read = the read-once kernel's time / time * 100 (CPU "
    "rows: one parallel read of the input on the CPU); vs "
    "CUB = CUB time / time; check = integers equal to the serial loop, floats within the stated tolerance of a "
    "long double sum (exact for min, max and the arg forms).";

class reduce_primitive final
    : public primitive_with_options<reduce_bench_options, reduce_sweep_options, reduce_verify_options> {
 public:
  std::string_view name() const override { return "reduce"; }
  std::string_view description() const override {
    return "Reductions (sum, product, min, max, argmin, argmax, min_max) on the GPU, beside CUB, and the CPU";
  }

  void add_bench(CLI::App& bench, action_fn& action) override {
    auto* app = add_bench_command(bench, *this, bench_.n, "Number of items (default 2^28 with a GPU, 2^26 without)",
                                  [this](CLI::App& a) { add_common(a, bench_); }, bench_.json,
                                  "Also write every number to FILE (docs/CLI.md)");
    app->footer(columns_footer);
    app->callback([this, &action] { action = [this] { return run_reduce_bench(bench_); }; });
  }

  void add_sweep(CLI::App& sweep, action_fn& action) override {
    auto* app = sweep.add_subcommand("reduce", std::string(description()));
    app->add_option("--min-log", sweep_.min_log, "Smallest size, log2")->check(CLI::Range(0, 34))->capture_default_str();
    app->add_option("--max-log", sweep_.max_log, "Largest size, log2 (sizes that do not fit are skipped)")
        ->check(CLI::Range(0, 34))
        ->capture_default_str();
    add_common(*app, sweep_);
    app->add_option("--out", sweep_.out,
                    "Output prefix: PREFIX.json, PREFIX.csv and (via tools/plot_sweep.py) PREFIX.png and PREFIX.svg "
                    "(default sweep-reduce-<op>-<type>)")
        ->type_name("PREFIX");
    app->add_flag("--no-plot", sweep_.no_plot, "Do not run tools/plot_sweep.py");
    app->footer(columns_footer);
    app->callback([this, &action] {
      check_sweep_options(sweep_.min_log, sweep_.max_log,
                          sweep_.out.empty() ? "sweep-reduce-" + sweep_.op + "-" + sweep_.type : sweep_.out);
      action = [this] { return run_reduce_sweep(sweep_); };
    });
  }

  void add_verify(CLI::App& verify, action_fn& action) override {
    auto* app = add_verify_command(verify, *this,
                                   "Random reductions (types, operations, sizes, misaligned starts, every path) "
                                   "against the serial loop",
                                   verify_);
    app->add_option("--algo", verify_.algo, "Rows to verify: all, gpu, cpu, or a list")->check(check_rows)->capture_default_str();
    app->callback([this, &action] { action = [this] { return run_reduce_verify(verify_); }; });
  }
};

}  // namespace

std::unique_ptr<primitive> make_reduce_primitive() { return std::make_unique<reduce_primitive>(); }

}  // namespace scankit::tools
