// The histogram primitive's subcommands: bench histogram, sweep histogram, verify histogram,
// and the top-level `scankit histogram FILE`.
#include <CLI/CLI.hpp>

#include "common/commands.hpp"
#include "common/dist.hpp"
#include "common/primitive.hpp"
#include "common/report.hpp"
#include "common/util.hpp"
#include "histogram/commands.hpp"
#include "scankit/histogram_bins.hpp"

namespace scankit::tools {

namespace {

std::string check_algo_list(const std::string& s) { return check_name_list(s, histogram_algo_names()); }

std::string check_compare_list(const std::string& s) {
  for (const auto& item : split_list(s))
    if (item != "cub" && item != "read" && item != "copy" && item != "none")
      return "unknown baseline '" + item + "' (known: cub, read, copy, none)";
  return {};
}

void add_common(CLI::App& app, histogram_common_options& o) {
  app.add_option("--bins", o.bins, "Number of bins (1 to 2^24)")
      ->check(CLI::Range(std::int64_t{1}, max_histogram_bins))
      ->capture_default_str();
  app.add_option("--type", o.type, "Sample type")
      ->check(CLI::IsMember(histogram_type_names()))
      ->capture_default_str();
  app.add_option("--counter", o.counter, "Counter type")->check(CLI::IsMember({"u32", "u64"}))->capture_default_str();
  app.add_option("--distribution", o.distribution,
                 "Samples: uniform over the range, one-bin (all in the middle bin), or normal (peaked, "
                 "standard deviation 1/16 of the range)")
      ->check(CLI::IsMember({"uniform", "one-bin", "normal"}))
      ->capture_default_str();
  app.add_option("--bins-kind", o.bins_kind, "even (histogram_even) or range (histogram_range over even edges)")
      ->check(CLI::IsMember({"even", "range"}))
      ->capture_default_str();
  app.add_option("--algo", o.algo, "Rows to run: all, or a comma-separated list of: " + join(histogram_algo_names()))
      ->check(check_algo_list)
      ->capture_default_str();
  app.add_option("--compare", o.compare, "Baselines on the GPU: comma-separated cub, read, copy, or none")
      ->check(check_compare_list)
      ->capture_default_str();
  app.add_option("--reps", o.reps, "Timed repetitions per row (the median is reported)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--block-size", o.block_size, "Threads per block of scankit's GPU algorithms (0: each one's default; else a multiple of 64 in [64, 1024])")
      ->check([](const std::string& v) -> std::string {
        try {
          const int b = std::stoi(v);
          if (b == 0 || (b >= 64 && b <= 1024 && b % 64 == 0)) return {};
        } catch (const std::exception&) {
        }
        return "block size must be 0 or a multiple of 64 in [64, 1024]";
      })
      ->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the random input (default: random, printed)")->check(check_seed);
}

constexpr const char* columns_footer =
    "Range: the bins cover [0, 256) of u8, [0, 65536) of u16, [0, 2^30) of i32, [0, 2^31) of u32, [0, 2^40) "
    "of i64, [0, 1) of f32 and f64.\nColumns: ms = median of R runs timed with CUDA events (CPU rows: wall "
    "time), L2 flushed before each; G samples/s = n / time; GB/s = n * sizeof(T) / time (bytes read); % of "
    "read = read-once kernel time / time * 100 (the bandwidth floor); vs CUB = CUB time / time (>1: faster "
    "than CUB); vs serial = cpu-serial time / time. check: exact comparison with the serial reference (CUB: "
    "n/a where CUB's bin formula differs from ours on this range; the note says so).";

class histogram_primitive final
    : public primitive_with_options<histogram_bench_options, histogram_sweep_options, histogram_verify_options> {
 public:
  std::string_view name() const override { return "histogram"; }
  std::string_view description() const override {
    return "Histograms (even bins, sorted edges) with every algorithm, CUB and the CPU";
  }

  void add_bench(CLI::App& bench, action_fn& action) override {
    auto* app = add_bench_command(bench, *this, bench_.n,
                                  "Number of samples (default: 1 GiB of them with a GPU, 64 MiB without)",
                                  [this](CLI::App& a) { add_common(a, bench_); }, bench_.json,
                                  "Also write every number (and all samples) to FILE (docs/CLI.md)");
    app->footer(columns_footer);
    add_dist_options(*app, dist_, false);
    app->callback([this, app, &action] {
      if (!dist_.gpus.empty()) {
        dist_bench_options d;
        d.gpus = check_dist_options(*app, dist_, {"--counter", "--distribution", "--bins-kind", "--algo", "--compare",
                                                  "--block-size"});
        check_dist_value("--type", bench_.type, {"u8"});
        check_dist_value("--bins", std::to_string(bench_.bins), {"256"});
        d.primitive = "histogram", d.n = bench_.n, d.type = bench_.type, d.reps = bench_.reps, d.seed = bench_.seed;
        d.json = bench_.json;
        action = [d] { return run_dist_bench(d); };
        return;
      }
      action = [this] { return run_histogram_bench(bench_); };
    });
  }

  void add_sweep(CLI::App& sweep, action_fn& action) override {
    auto* app = sweep.add_subcommand("histogram", std::string(description()));
    sweep_.reps = 5;
    app->add_option("--over", sweep_.over, "What to sweep: bins (2^min-log..2^max-log bins) or size (samples)")
        ->check(CLI::IsMember({"bins", "size"}))
        ->capture_default_str();
    app->add_option("--min-log", sweep_.min_log, "Smallest bins or size, log2")->check(CLI::Range(0, 40))->capture_default_str();
    app->add_option("--max-log", sweep_.max_log, "Largest bins or size, log2 (default 20; sizes clipped to memory)")
        ->check(CLI::Range(0, 40))
        ->capture_default_str();
    app->add_option("-n,--n", sweep_.n, "Samples of a bins sweep (default: 256 MiB of them with a GPU)")
        ->check(check_count)
        ->type_name("N");
    add_common(*app, sweep_);
    app->add_option("--out", sweep_.out,
                    "Output prefix: PREFIX.json, PREFIX.csv, PREFIX.png, PREFIX.svg (default sweep-histogram-<over>)")
        ->type_name("PREFIX");
    app->add_flag("--no-plot", sweep_.no_plot, "Do not run tools/plot_sweep.py");
    app->footer(columns_footer);
    app->callback([this, &action] {
      check_sweep_options(sweep_.min_log, sweep_.max_log,
                          sweep_.out.empty() ? "sweep-histogram-" + sweep_.over : sweep_.out);
      action = [this] { return run_histogram_sweep(sweep_); };
    });
  }

  void add_verify(CLI::App& verify, action_fn& action) override {
    auto* app = add_verify_command(verify, *this,
                                   "Random histogram cases (types, counters, bin counts, sizes, ranges, edges, "
                                   "distributions, offsets, accumulation) against the serial reference",
                                   verify_);
    app->add_option("--algo", verify_.algo, "Algorithms to verify: all or a comma-separated list of: " + join(histogram_algo_names()))
        ->check(check_algo_list)
        ->capture_default_str();
    app->callback([this, &action] { action = [this] { return run_histogram_verify(verify_); }; });
  }

  void add_commands(CLI::App& app, action_fn& action) override {
    auto* cmd = app.add_subcommand("histogram", "Byte histogram of a file: one line per non-empty bin (value, count, "
                                                "bar); on the GPU when there is one");
    cmd->add_option("FILE", file_.file, "The file ('-': standard input)")->required();
    cmd->add_option("--bins", file_.bins, "Bins over the byte values [0, 256)")->check(CLI::Range(1, 256))->capture_default_str();
    cmd->add_option("--plot", file_.plot, "Also draw the histogram to this image: .png, .svg or .pdf (via tools/plot_histogram.py)")
        ->check(check_plot_file)
        ->type_name("IMAGE");
    cmd->add_flag("--cpu", file_.cpu, "Count on the CPU even when a GPU is present");
    cmd->add_option("--width", file_.width, "Width of the longest bar, in characters")->check(CLI::Range(1, 1000))->capture_default_str();
    cmd->callback([this, &action] { action = [this] { return run_histogram_file(file_); }; });
  }

 private:
  histogram_file_options file_;
};

}  // namespace

std::unique_ptr<primitive> make_histogram_primitive() { return std::make_unique<histogram_primitive>(); }

}  // namespace scankit::tools
