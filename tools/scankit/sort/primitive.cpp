// The sort primitive's subcommands and options: bench sort, sweep sort, verify sort.
#include <CLI/CLI.hpp>

#include <algorithm>

#include "common/commands.hpp"
#include "common/dist.hpp"
#include "common/primitive.hpp"
#include "common/report.hpp"
#include "common/util.hpp"
#include "segments/commands.hpp"
#include "sort/commands.hpp"

namespace scankit::tools {

namespace {

const std::vector<std::string> key_types{"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64"};

std::string check_rows(const std::string& s) {
  return check_name_list(s, sort_row_names(), {"all", "gpu", "cpu"}, "row");
}

/// The rows of the flat sort and of the segmented sort (bench sort --segments, and the
/// segmented cases of verify sort): which of them apply is checked once the command line is read.
std::vector<std::string> flat_and_segmented_rows() {
  std::vector<std::string> v = sort_row_names();
  for (auto& r : sort_segmented_row_names())
    if (std::find(v.begin(), v.end(), r) == v.end()) v.push_back(std::move(r));
  return v;
}

std::string check_any_rows(const std::string& s) {
  return check_name_list(s, flat_and_segmented_rows(), {"all", "gpu", "cpu"}, "row");
}

/// For --mean: a count of at least 1 ("256", "2^10", "1e3").
std::string check_mean(const std::string& s) {
  const auto v = parse_count(s);
  if (!v) return "mean segment length '" + s + "' is not a whole number (1, 8, 2^16, 1e3)";
  if (*v < 1) return "mean segment length '" + s + "' must be at least 1";
  return "";
}

/// Throws CLI::ValidationError (exit status 2) when an --algo item is a row of the other kind of
/// sort: the segmented rows need --segments, the flat rows go without it.
void check_rows_for(const std::string& algo, bool segmented) {
  const auto rows = segmented ? sort_segmented_row_names() : sort_row_names();
  for (const auto& item : split_list(algo)) {
    if (item == "all" || item == "gpu" || item == "cpu" || std::find(rows.begin(), rows.end(), item) != rows.end())
      continue;
    throw CLI::ValidationError("--algo", segmented ? "'" + item + "' is not a row of --segments (" +
                                                         join(sort_segmented_row_names()) + ")"
                                                   : "'" + item + "' is a row of --segments only");
  }
}

void add_common(CLI::App& app, sort_common_options& o, bool with_segmented_rows = false) {
  app.add_option("--type", o.type, "Key type")->check(CLI::IsMember(key_types))->capture_default_str();
  auto* pairs = app.add_flag("--pairs", o.pairs, "Sort key-value pairs (values of --value-bytes)");
  app.add_option("--value-bytes", o.value_bytes,
                 with_segmented_rows ? "Value size (needs --pairs; 4 with --segments)" : "Value size (needs --pairs)")
      ->check(CLI::IsMember({4, 8, 16}))
      ->needs(pairs)
      ->capture_default_str();
  auto* bits = app.add_option("--bits", o.bits,
                              "Keys vary only in their low B (ordered) bits and the sorts are told so (bit "
                              "range [0, B)); integer key types")
                   ->check(CLI::Range(1, 64));
  app.add_flag("--no-range", o.no_range, "Narrow keys, but sort the full width (needs --bits)")->needs(bits);
  app.add_flag("--descending", o.descending, "Descending order");
  app.add_option("--algo", o.algo,
                 "Rows: all, gpu, cpu, or a comma-separated list of: " + join(sort_row_names()) +
                     (with_segmented_rows ? "; with --segments: " + join(sort_segmented_row_names()) : ""))
      ->check(with_segmented_rows ? check_any_rows : check_rows)
      ->capture_default_str();
  app.add_flag("--no-cub", o.no_cub, "Leave out the CUB rows");
  app.add_option("--reps", o.reps, "Timed repetitions per row (the median is reported)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the random keys (default: random, printed)")->check(check_seed);
}

void check_common(const sort_common_options& o) {
  if (o.bits) {
    if (o.type[0] == 'f') throw CLI::ValidationError("--bits", "needs an integer --type");
    const int width = std::stoi(o.type.substr(1));
    if (o.bits > width) throw CLI::ValidationError("--bits", "exceeds the key width of " + o.type);
  }
}

class sort_primitive final : public primitive_with_options<sort_bench_options, sort_sweep_options, sort_verify_options> {
 public:
  std::string_view name() const override { return "sort"; }
  std::string_view description() const override {
    return "Radix sort (keys or pairs) with every algorithm, CUB and the CPU";
  }

  void add_bench(CLI::App& bench, action_fn& action) override {
    auto* app = add_bench_command(
        bench, *this, bench_.n,
        "Number of keys (default 2^28 with a GPU, 2^26 without; with --segments 2^26 and 2^22)",
        [this](CLI::App& a) {
          add_common(a, bench_, true);
          auto* seg = a.add_option("--segments", bench_.segments,
                                   "Sort segments instead of one array (the segmented sorts, CSR offsets), their "
                                   "lengths drawn from DIST: uniform (1..2*mean-1), powerlaw (a few giant "
                                   "segments), single (one segment of n), ones (n segments of 1), empty (uniform, "
                                   "half the segments empty)")
                          ->check(CLI::IsMember(segments_dist_names()))
                          ->type_name("DIST");
          seg->excludes(a.get_option("--bits"));
          seg->excludes(a.get_option("--no-range"));
          a.add_option("--mean", bench_.mean, "Mean segment length of --segments (ignored by single and ones)")
              ->check(check_mean)
              ->needs(seg)
              ->type_name("M")
              ->capture_default_str();
        },
        bench_.json, "Also write every number to FILE (docs/CLI.md)");
    app->footer(
        "Columns: ms = median of R runs (GPU: CUDA events around the device-pointer call, "
        "workspace preallocated, L2 flushed before each; CPU: wall time); Gkeys/s = n / time; "
        "GB/s = 2 * n * (key + value bytes) / time (each element read and written once, the "
        "floor of any sort); % of copy = device-to-device copy of the same bytes / time * 100; "
        "vs CUB = CUB time / time (>1: faster than CUB); ws B/key = workspace bytes / n; check "
        "= bitwise equal to the reference (the CPU radix sort, itself tested against "
        "std::stable_sort). With --segments: Gkeys/s = n / time; % of flat = the flat row's time (scankit's "
        "sort of all n keys as one array) / time * 100; x serial = cpu-serial's time / time (CPU rows); vs CUB = "
        "the faster CUB segmented sort's time / time; check = bitwise equal to the serial segmented sort "
        "(std::stable_sort per segment; the flat row: to the CPU radix sort of all n keys).");
    add_dist_options(*app, dist_, true);
    app->callback([this, app, &action] {
      check_common(bench_);
      if (!dist_.gpus.empty()) {
        dist_bench_options d;
        d.gpus = check_dist_options(*app, dist_,
                                    {"--bits", "--no-range", "--descending", "--algo", "--no-cub", "--segments", "--mean"});
        check_dist_value("--type", bench_.type, {"u32", "u64"});
        if (bench_.pairs) check_dist_value("--value-bytes", std::to_string(bench_.value_bytes), {"4", "8"});
        d.primitive = "sort", d.n = bench_.n, d.type = bench_.type, d.value_bytes = bench_.pairs ? bench_.value_bytes : 0;
        d.keys = dist_.keys, d.split = dist_.split, d.exchange_parts = dist_.exchange_parts, d.reps = bench_.reps, d.seed = bench_.seed, d.json = bench_.json;
        action = [d] { return run_dist_bench(d); };
        return;
      }
      const bool segmented = !bench_.segments.empty();
      check_rows_for(bench_.algo, segmented);
      if (segmented && bench_.pairs && bench_.value_bytes != 4)
        throw CLI::ValidationError("--value-bytes", "--segments sorts keys alone or pairs with 4-byte values");
      action = [this] { return run_sort_bench(bench_); };
    });
  }

  void add_sweep(CLI::App& sweep, action_fn& action) override {
    auto* app = sweep.add_subcommand("sort", std::string(description()));
    sweep_.reps = 5;
    sweep_.algo = "gpu";
    app->add_option("--min-log", sweep_.min_log, "Smallest size, log2")->check(CLI::Range(0, 34))->capture_default_str();
    app->add_option("--max-log", sweep_.max_log, "Largest size, log2 (sizes that do not fit the GPU are skipped)")
        ->check(CLI::Range(0, 34))
        ->capture_default_str();
    add_common(*app, sweep_);
    app->add_option("--out", sweep_.out,
                    "Output prefix: PREFIX.json, PREFIX.csv and (via tools/plot_sweep.py) PREFIX.png and "
                    "PREFIX.svg (default sweep-sort-<type>)")
        ->type_name("PREFIX");
    app->add_flag("--no-plot", sweep_.no_plot, "Do not run tools/plot_sweep.py");
    app->callback([this, &action] {
      check_common(sweep_);
      check_sweep_options(sweep_.min_log, sweep_.max_log, sweep_.out.empty() ? "sweep-sort-" + sweep_.type : sweep_.out);
      action = [this] { return run_sort_sweep(sweep_); };
    });
  }

  void add_verify(CLI::App& verify, action_fn& action) override {
    auto* app = add_verify_command(verify, *this,
                                   "Random sort cases (key types, value sizes, patterns, directions, bit ranges; "
                                   "flat and segmented) against std::stable_sort",
                                   verify_);
    app->add_option("--algo", verify_.algo,
                    "Rows to verify: all, gpu, cpu, or a list (cpu-parallel and scankit: the segmented sorts)")
        ->check(check_any_rows)
        ->capture_default_str();
    app->callback([this, &action] { action = [this] { return run_sort_verify(verify_); }; });
  }
};

}  // namespace

std::unique_ptr<primitive> make_sort_primitive() { return std::make_unique<sort_primitive>(); }

}  // namespace scankit::tools
