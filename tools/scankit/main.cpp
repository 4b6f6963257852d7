// scankit: benchmark, sweep and verify scankit's primitives side by side with CUB, Thrust and
// the CPU.
//
//   scankit bench [scan] [-n N] [--type T] [--op OP] [--exclusive] [--algo ...] [--json FILE]
//   scankit sweep [scan] --over size|block-size [--out PREFIX]
//   scankit verify [scan] [--cases 100] [--seed S]
//   scankit devices
//
// Exit status: 0 success, 1 a run-time error or a failed check, 2 a bad command line.
#include <CLI/CLI.hpp>

#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "primitive.hpp"
#include "scankit/error.hpp"
#include "system.hpp"
#include "util.hpp"

namespace {

constexpr int exit_usage = 2;

/// `scankit bench -n 5` means `scankit bench scan -n 5`: inserts the default primitive after a
/// verb that is not followed by a primitive name (or by a request for the verb's own help).
std::vector<std::string> with_default_primitive(std::vector<std::string> args,
                                                const std::vector<std::string>& primitives) {
  if (args.size() < 2) return args;
  const std::string& verb = args[1];
  if (verb != "bench" && verb != "sweep" && verb != "verify") return args;
  if (args.size() > 2) {
    const std::string& next = args[2];
    if (next == "-h" || next == "--help" || next == "--help-all") return args;
    for (const auto& p : primitives)
      if (next == p) return args;
  }
  args.insert(args.begin() + 2, primitives.front());
  return args;
}

/// An error line and the usage of the (sub)command that failed, on stderr. (help() of the
/// top-level app delegates to the deepest subcommand parsed, named with its full path.)
std::string usage_failure(const CLI::App* app, const CLI::Error& e) {
  return "error: " + std::string(e.what()) + "\n\n" + app->help();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace scankit::tools;
  auto primitives = make_primitives();
  std::vector<std::string> names;
  for (const auto& p : primitives) names.emplace_back(p->name());

  CLI::App app{"scankit: benchmark and verify scankit's data-parallel primitives on the GPU "
               "and the CPU, side by side with CUB, Thrust and a memory copy.",
               "scankit"};
  app.failure_message(usage_failure);
  app.set_version_flag("--version", version_line());
  app.require_subcommand(1);
  app.footer("Exit status: 0 success; 1 a run-time error, a FAIL or an ERROR row; 2 a bad command line.");

  action_fn action;
  auto* bench = app.add_subcommand("bench", "Time and check every algorithm on one input (default primitive: " + names.front() + ")");
  auto* sweep = app.add_subcommand("sweep", "The bench measurements over sizes or block sizes, to JSON, CSV and a plot");
  auto* verify = app.add_subcommand("verify", "Random cases through every algorithm against the serial reference");
  for (auto* verb : {bench, sweep, verify}) {
    verb->require_subcommand(1);
    verb->footer("Without a primitive, `scankit " + verb->get_name() + " ...` runs `scankit " +
                 verb->get_name() + " " + names.front() + " ...`.");
  }
  for (auto& p : primitives) {
    p->add_bench(*bench, action);
    p->add_sweep(*sweep, action);
    p->add_verify(*verify, action);
    p->add_commands(app, action);
  }
  auto* devices = app.add_subcommand("devices", "The GPUs (with a measured copy bandwidth) and the CPU");
  devices->callback([&action] { action = [] { return run_devices_command(); }; });

  std::vector<std::string> args(argv, argv + argc);
  args = with_default_primitive(std::move(args), names);
  // CLI11 parses a reversed vector of the arguments after the program name.
  std::vector<std::string> reversed(args.rbegin(), args.rend() - 1);
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);  // help and version: 0, printed on stdout
    return rc == 0 ? 0 : exit_usage;
  }
  if (!action) {
    std::cerr << app.help();
    return exit_usage;
  }
  try {
    return action();
  } catch (const std::exception& e) {
    std::cerr << "scankit: error: " << e.what() << "\n";
    return 1;
  }
}
