#include "common/commands.hpp"

#include <CLI/CLI.hpp>

#include "common/primitive.hpp"
#include "common/report.hpp"
#include "common/util.hpp"

namespace scankit::tools {

CLI::App* add_bench_command(CLI::App& bench, const primitive& p, std::string& n, const std::string& n_help,
                            const std::function<void(CLI::App&)>& add_options, std::string& json,
                            const std::string& json_help) {
  auto* app = bench.add_subcommand(std::string(p.name()), std::string(p.description()));
  app->add_option("-n,--n", n, n_help)->check(check_count)->type_name("N");
  add_options(*app);
  app->add_option("--json", json, json_help)->check(check_output_file)->type_name("FILE");
  return app;
}

CLI::App* add_verify_command(CLI::App& verify, const primitive& p, const std::string& description,
                             verify_options& o) {
  auto* app = verify.add_subcommand(std::string(p.name()), description);
  app->add_option("--cases", o.cases, "Number of random cases")->check(CLI::Range(1, 1000000))->capture_default_str();
  app->add_option("--seed", o.seed, "Seed of the cases (default: random, printed)")->check(check_seed);
  return app;
}

void check_sweep_options(int min_log, int max_log, const std::string& prefix) {
  if (min_log > max_log) throw CLI::ValidationError("--min-log", "must not exceed --max-log");
  if (auto e = check_output_prefix(prefix); !e.empty()) throw CLI::ValidationError("--out", e);
}

}  // namespace scankit::tools
