// Small helpers shared by every command: parsing sizes and lists, number formatting, a text
// table, dates, files, and running the plot script.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace scankit::tools {

/// Parses an element count: "1000000", "2^22", "1<<22", "1e6" (must be a whole number >= 0).
std::optional<std::int64_t> parse_count(std::string_view s);

/// For CLI11's check(): "" when `s` is a valid count, else the reason.
std::string check_count(const std::string& s);

/// Splits "a,b,,c" into {"a","b","c"} (empty items dropped, spaces trimmed).
std::vector<std::string> split_list(std::string_view s, char sep = ',');

std::string join(const std::vector<std::string>& items, std::string_view sep = ", ");

/// name(x) of every value in `values` (such as all_dtypes): the words an option accepts.
template <class Values>
std::vector<std::string> names_of(const Values& values) {
  std::vector<std::string> v;
  for (const auto& x : values) v.emplace_back(name(x));
  return v;
}

/// Checks an --algo value: a comma-separated list of `names` and of the group words `groups`
/// (such as "all"). Returns an empty string when it is good, else the error message.
std::string check_name_list(const std::string& s, const std::vector<std::string>& names,
                            const std::vector<std::string>& groups = {"all"},
                            std::string_view what = "algorithm");

/// `seed` when one was given, else a random one (every command prints the seed it used, so that
/// a run can be repeated).
std::uint64_t pick_seed(const std::optional<std::uint64_t>& seed);

/// "2^20" for exact powers of two, otherwise the decimal number.
std::string describe_count(std::int64_t n);

/// "469.7 MiB" style.
std::string format_bytes(double bytes);

/// Fixed-width-friendly number formatting: "-" for NaN; at most `digits` significant
/// digits but never scientific for values that print reasonably.
std::string format_ms(double ms);
std::string format_ratio(double r);
std::string format_gbps(double gbps);
std::string format_pct(double pct);

/// Local time as ISO 8601 with offset: YYYY-MM-DDThh:mm:ss+hhmm.
std::string iso_date_now();

/// Bytes of host memory available to allocate (MemAvailable), 0 if unknown.
std::size_t host_available_bytes();

/// A plain text table: a header row and rows of cells; numeric-looking columns right-aligned.
class text_table {
 public:
  explicit text_table(std::vector<std::string> header, std::vector<bool> right_align = {});
  void add_row(std::vector<std::string> cells);
  std::string str() const;

 private:
  std::vector<std::string> header_;
  std::vector<bool> right_;
  std::vector<std::vector<std::string>> rows_;
};

/// Writes `text` to `path`; throws scankit::error on failure.
void write_file(const std::string& path, const std::string& text);

/// Runs `python plot_sweep.py json_path` (python: $SCANKIT_PYTHON, else the interpreter with
/// matplotlib found when scankit was configured, else python3). Returns the exit status.
int run_plot_script(const std::string& json_path);

/// Path of tools/plot_sweep.py in the source tree scankit was built from.
std::string plot_script_path();

/// Path of tools/<name> in the source tree scankit was built from ($SCANKIT_TOOLS_DIR/<name>
/// when that is set, for a binary run away from its source tree).
std::string tool_script_path(const std::string& name);

/// Runs `python script args...` with the interpreter run_plot_script picks. Returns the exit
/// status; throws scankit::error when no interpreter can be started. With `last_error_line`,
/// the script's stderr is captured and its last non-empty line stored there.
int run_python_script(const std::string& script, const std::vector<std::string>& args,
                      std::string* last_error_line = nullptr);

/// Draws a sweep's plot (PREFIX.png and PREFIX.svg from PREFIX.json, tools/plot_sweep.py).
/// Prints "wrote ..." or one error line on stderr (the JSON and CSV stand either way); returns
/// whether the plot was written.
bool draw_sweep_plot(const std::string& prefix);

/// The git-free description of this build: version, compiler, build type, CUDA versions.
std::string version_line();

}  // namespace scankit::tools
