// scankit: benchmark, sweep and verify scankit's primitives side by side with CUB, Thrust and
// the CPU.
//
//   scankit bench [scan] [-n N] [--type T] [--op OP] [--exclusive] [--algo ...] [--json FILE]
//   scankit sweep [scan] --over size|block-size [--out PREFIX]
//   scankit verify [scan] [--cases 100] [--seed S]
//   scankit devices
//
// Exit status: 0 success, 1 a run-time error, a failed check or nothing checked, 2 a bad command
// line (docs/CLI.md).
#include <iostream>
#include <string>
#include <vector>

#include "common/cli.hpp"

int main(int argc, char** argv) {
  using namespace scankit::tools;
  command_line cl;
  const int rc = cl.parse(std::vector<std::string>(argv, argv + argc), std::cout, std::cerr);
  if (rc >= 0) return rc;
  try {
    return cl.action();
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "scankit: error: " << e.what() << "\n";
    return 1;
  }
}
