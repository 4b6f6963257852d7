// The registry of primitives the CLI knows. Each primitive (scan, compact, sort, histogram, reduce, segments, topk) lives
// in its own folder and adds `bench <name>`, `sweep <name>` and `verify <name>` subcommands with
// its own options. A subcommand's callback only validates its options and
// stores the work to run in `action`; main() runs it after parsing, so that bad flags exit
// with status 2 and run-time failures with status 1.
#pragma once

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "common/dist.hpp"

namespace CLI {
class App;
}

namespace scankit::tools {

/// What main() runs after a successful parse; returns the process exit status.
using action_fn = std::function<int()>;

class primitive {
 public:
  virtual ~primitive() = default;
  /// The subcommand name under bench/sweep/verify ("scan").
  virtual std::string_view name() const = 0;
  /// One line for the help of bench/sweep/verify.
  virtual std::string_view description() const = 0;
  virtual void add_bench(CLI::App& bench, action_fn& action) = 0;
  virtual void add_sweep(CLI::App& sweep, action_fn& action) = 0;
  virtual void add_verify(CLI::App& verify, action_fn& action) = 0;
  /// Top-level commands of the primitive's own (`scankit histogram FILE`); none by default.
  virtual void add_commands(CLI::App& app, action_fn& action) {
    (void)app;
    (void)action;
  }
};

/// A primitive whose subcommands fill option structs of these types while the command line is
/// parsed; the stored actions read them afterwards.
template <class BenchOptions, class SweepOptions, class VerifyOptions>
class primitive_with_options : public primitive {
 protected:
  BenchOptions bench_;
  SweepOptions sweep_;
  VerifyOptions verify_;
  dist_cli_options dist_;  // bench --gpus (common/dist.hpp)
};

/// Every primitive, in the order the help lists them. The first is the default one that
/// `scankit bench` (and sweep, verify) runs when no primitive is named.
std::vector<std::unique_ptr<primitive>> make_primitives();

std::unique_ptr<primitive> make_scan_primitive();
std::unique_ptr<primitive> make_compact_primitive();
std::unique_ptr<primitive> make_histogram_primitive();
std::unique_ptr<primitive> make_sort_primitive();
std::unique_ptr<primitive> make_reduce_primitive();
std::unique_ptr<primitive> make_segments_primitive();
std::unique_ptr<primitive> make_topk_primitive();

}  // namespace scankit::tools
