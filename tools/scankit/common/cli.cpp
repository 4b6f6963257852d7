#include "common/cli.hpp"

#include <algorithm>
#include <ostream>

#include "common/system.hpp"
#include "common/util.hpp"

namespace scankit::tools {

namespace {

const std::vector<std::string> verbs{"bench", "sweep", "verify"};

bool is_verb(const std::string& s) {
  return std::find(verbs.begin(), verbs.end(), s) != verbs.end();
}

/// An error line and the usage of the (sub)command that failed. (help() of the top-level app
/// delegates to the deepest subcommand parsed, named with its full path.)
std::string usage_failure(const CLI::App* app, const CLI::Error& e) {
  return "error: " + std::string(e.what()) + "\n\n" + app->help();
}

}  // namespace

std::vector<std::string> with_default_primitive(std::vector<std::string> args,
                                                const std::vector<std::string>& primitives) {
  if (args.size() < 2 || primitives.empty()) return args;
  const std::string& verb = args[1];
  if (!is_verb(verb)) return args;
  if (args.size() > 2) {
    const std::string& next = args[2];
    if (next == "-h" || next == "--help" || next == "--help-all") return args;
    for (const auto& p : primitives)
      if (next == p) return args;
  }
  args.insert(args.begin() + 2, primitives.front());
  return args;
}

command_line::command_line()
    : primitives_(make_primitives()),
      app_{
          "scankit: benchmark and verify scankit's data-parallel primitives on the GPU and the "
          "CPU, side by "
          "side with CUB, Thrust and a memory copy.",
          "scankit"} {
  for (const auto& p : primitives_) names_.emplace_back(p->name());
  app_.failure_message(usage_failure);
  app_.set_version_flag("--version", version_line());
  app_.require_subcommand(1);
  app_.footer(
      "Exit status: 0 success; 1 a run-time error, a FAIL row or nothing checked; 2 a bad command "
      "line. "
      "Output contract and JSON schema: docs/CLI.md.");
  auto* bench = app_.add_subcommand(
      "bench",
      "Time and check every algorithm on one input (default primitive: " + names_.front() + ")");
  auto* sweep = app_.add_subcommand(
      "sweep", "The bench measurements over sizes or block sizes, to JSON, CSV and a plot");
  auto* verify = app_.add_subcommand(
      "verify", "Random cases through every algorithm against the serial reference");
  for (auto* verb : {bench, sweep, verify}) {
    verb->require_subcommand(1);
    verb->footer("Without a primitive, `scankit " + verb->get_name() + " ...` runs `scankit " +
                 verb->get_name() + " " + names_.front() + " ...`.");
  }
  for (auto& p : primitives_) {
    p->add_bench(*bench, action);
    p->add_sweep(*sweep, action);
    p->add_verify(*verify, action);
    p->add_commands(app_, action);
  }
  auto* devices =
      app_.add_subcommand("devices", "The GPUs (with a measured copy bandwidth) and the CPU");
  devices->callback([this] { action = [] { return run_devices_command(); }; });
}

int command_line::parse(std::vector<std::string> args, std::ostream& out, std::ostream& err) {
  // Unknown command words get their own message: CLI11 would take them for stray arguments.
  if (args.size() >= 2 && !args[1].empty() && args[1][0] != '-') {
    std::vector<std::string> commands;
    const CLI::App& app = app_;
    for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      commands.push_back(sub->get_name());
    if (std::find(commands.begin(), commands.end(), args[1]) == commands.end()) {
      err << "error: unknown command '" << args[1] << "' (valid commands: " << join(commands)
          << ")\n";
      return exit_usage;
    }
    if (is_verb(args[1]) && args.size() >= 3 && !args[2].empty() && args[2][0] != '-' &&
        std::find(names_.begin(), names_.end(), args[2]) == names_.end()) {
      err << "error: unknown primitive '" << args[2] << "' for " << args[1]
          << " (valid: " << join(names_) << ")\n";
      return exit_usage;
    }
  }
  args = with_default_primitive(std::move(args), names_);
  if (args.empty()) args.emplace_back("scankit");
  // CLI11 parses a reversed vector of the arguments after the program name.
  std::vector<std::string> reversed(args.rbegin(), args.rend() - 1);
  try {
    app_.parse(reversed);
  } catch (const CLI::ParseError& e) {
    const int rc = app_.exit(e, out, err);  // help and version: 0, printed on `out`
    return rc == 0 ? 0 : exit_usage;
  }
  if (!action) {
    err << app_.help();
    return exit_usage;
  }
  return -1;
}

}  // namespace scankit::tools
