// The command line of `scankit`: the CLI11 app with every primitive's subcommands, and its
// parse. Parsing only validates options and stores the work in `action`; main() runs it. The
// fuzz target (fuzz_cli.cpp) parses the same way without running anything.
#pragma once

#include <CLI/CLI.hpp>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "common/primitive.hpp"

namespace scankit::tools {

/// Exit status of a bad command line.
inline constexpr int exit_usage = 2;

/// `scankit bench -n 5` means `scankit bench scan -n 5`: inserts the default primitive after a
/// verb that is not followed by a primitive name (or by a request for the verb's own help).
std::vector<std::string> with_default_primitive(std::vector<std::string> args,
                                                const std::vector<std::string>& primitives);

class command_line {
 public:
  command_line();
  command_line(const command_line&) = delete;
  command_line& operator=(const command_line&) = delete;

  /// Parses args (args[0]: the program name). Returns -1 when `action` is to run, else the exit
  /// status: 0 for --help and --version (printed on `out`), exit_usage for a bad command line
  /// (the reason on `err`).
  int parse(std::vector<std::string> args, std::ostream& out, std::ostream& err);

  action_fn action;

 private:
  std::vector<std::unique_ptr<primitive>> primitives_;
  std::vector<std::string> names_;
  CLI::App app_;
};

}  // namespace scankit::tools
