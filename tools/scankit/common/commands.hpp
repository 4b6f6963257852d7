// What the subcommands of every primitive share: the options of every verify, the helpers that
// add the options every bench and verify have, and the checks of every sweep's options.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace CLI {
class App;
}

namespace scankit::tools {

class primitive;

/// Options every `verify <primitive>` has.
struct verify_options {
  int cases = 100;
  std::optional<std::uint64_t> seed;  // random (and printed) when absent
};

/// Adds `bench <p.name()>` to `bench` with -n (`n_help`), then the primitive's own options
/// (`add_options`), then --json FILE (`json_help`); returns it, for its footer and callback.
CLI::App* add_bench_command(CLI::App& bench, const primitive& p, std::string& n, const std::string& n_help,
                            const std::function<void(CLI::App&)>& add_options, std::string& json,
                            const std::string& json_help);

/// Adds `verify <p.name()>` to `verify` with --cases and --seed; returns it.
CLI::App* add_verify_command(CLI::App& verify, const primitive& p, const std::string& description,
                             verify_options& o);

/// For a sweep's callback: throws CLI::ValidationError (exit status 2) when min_log exceeds
/// max_log or when the files PREFIX.* cannot be written.
void check_sweep_options(int min_log, int max_log, const std::string& prefix);

}  // namespace scankit::tools
