// The output contract every command follows (docs/CLI.md): the check words of the tables, the
// JSON document of every bench and sweep, the last line of every verify, the checks of output
// paths and options made before any work starts, the memory check of a requested size, and
// progress lines on a terminal.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace scankit::tools {

struct system_info;

/// The words of every table's check column and of the rows' "check" key.
inline constexpr const char* check_pass = "PASS";
inline constexpr const char* check_fail = "FAIL";
inline constexpr const char* check_na = "n/a";  // nothing to check (a copy, no counterpart)

/// Version of the JSON layout; bumped when a key changes meaning or goes away.
inline constexpr int json_schema_version = 1;

/// One row of a bench or sweep, with the keys every primitive shares (docs/CLI.md).
struct report_row {
  std::string algorithm;
  std::string group;   // gpu | baseline | cpu
  std::int64_t x = 0;  // the swept value (bench: n)
  std::int64_t n = 0;
  std::string type;
  double ms = NAN;  // median of samples_ms
  std::vector<double> samples_ms;
  double gbps = NAN;
  double pct_of_copy = NAN;
  double vs_cub = NAN;
  double copy_ms = NAN;          // the copy pct_of_copy compares with
  std::string check = check_na;  // PASS | FAIL | n/a
  std::string message;
  nlohmann::json extra = nlohmann::json::object();  // primitive-specific keys, merged into the row
};

/// What a row of scan and of compact measures (their row types derive from it): the check, and
/// the times of the device-pointer call and of the host-container call.
struct timed_row {
  std::string status;   // PASS, FAIL (an error too), or n/a
  std::string message;  // why it failed or is n/a
  std::vector<double> samples_ms;  // device time (CUDA events) or CPU wall time, per rep
  double device_ms = NAN;          // median of samples_ms
  std::vector<double> with_copies_samples_ms;
  double with_copies_ms = NAN;  // the host-container call, copies included (CPU rows: device_ms)
  double gbps = NAN;
  double pct_of_copy = NAN;
  double vs_cub = NAN;  // CUB time / device time
  std::size_t workspace_bytes = 0;
};

/// Records one check of a timed row: PASS unless another of its checks failed; `failure`
/// (empty: the check passed) makes it FAIL and is added to its message.
void record_check(timed_row& row, const std::string& failure);

/// Runs `measure` for one row; an exception makes the row FAIL with the error as its message,
/// so that one row's failure does not stop the others.
template <class F>
void measure_row(timed_row& row, F&& measure) {
  try {
    measure();
  } catch (const std::exception& e) {
    row.status = check_fail;
    row.message = std::string("error: ") + e.what();
  }
}

/// A table's check cell: the word, and after a colon the message when there is one.
std::string check_cell(const std::string& check, const std::string& message);

/// A finite number, else null.
nlohmann::json json_number(double v);

nlohmann::json to_json(const report_row& r);

/// The report_row of a timed row: its shared keys, and with_copies_ms, with_copies_samples_ms
/// and workspace_bytes in `extra` (the primitive adds its own keys there).
report_row to_report_row(const timed_row& row, std::string algorithm, std::string group, std::int64_t x,
                         std::int64_t n, std::string type, double copy_ms);

/// The document of a bench or sweep: tool, schema_version, version, build, command, primitive,
/// kind (bench | sweep), date, system, params, rows, summary, ok. `over` is set for sweeps.
nlohmann::json report_document(std::string_view kind, std::string_view primitive,
                               const system_info& sys, nlohmann::json params,
                               const std::vector<report_row>& rows, std::string_view over = {});

struct check_counts {
  int passed = 0, failed = 0, not_applicable = 0;
};
check_counts count_checks(const std::vector<report_row>& rows);

/// The exit status of a bench or sweep: 1 when a row failed or when no row was checked (with a
/// line on stderr that says so), else 0.
int rows_exit_status(const std::vector<report_row>& rows);

/// The end of every bench: writes the document (params with "n") to `json` when a path was
/// given, and says so. Returns rows_exit_status(rows).
int finish_bench(const std::string& json, std::string_view primitive, const system_info& sys,
                 nlohmann::json params, std::int64_t n, const std::vector<report_row>& rows);

/// The end of every sweep over `over`: writes PREFIX.json (the document) and PREFIX.csv (`csv`)
/// and says so; when a row failed, a note points at the CSV's `status_column` (no note when it
/// is empty); then the plot, unless `no_plot`. Returns rows_exit_status(rows), or 1 when the
/// plot could not be drawn.
int finish_sweep(const std::string& prefix, std::string_view primitive, std::string_view over,
                 const system_info& sys, nlohmann::json params, const std::vector<report_row>& rows,
                 const std::string& csv, bool no_plot, std::string_view status_column = "status");

/// The end of every verify: the line "N passed, N failed" on stdout; returns 1 when a check
/// failed or when nothing was checked (then an error line on stderr says why), else 0.
int finish_verify(int passed, int failed);

/// "" when `path` can be written (its directory exists and is writable, and it is not a
/// directory), else the reason, with strerror's text.
std::string check_output_file(const std::string& path);
/// The same for the files PREFIX.json, PREFIX.csv, ... of a sweep.
std::string check_output_prefix(const std::string& prefix);
/// check_output_file, and an extension matplotlib can write (png, svg, pdf).
std::string check_plot_file(const std::string& path);

/// For CLI11's check(): a seed is a whole number in [0, 2^64).
std::string check_seed(const std::string& s);
/// For CLI11's check(): a finite number in [0, 1].
std::string check_fraction(const std::string& s);

/// Throws scankit::error when a run needs more host memory than is available, or (with a GPU)
/// more device memory than is free. `what` names the request ("-n 1e12 of u32").
void check_memory(const system_info& sys, std::string_view what, double host_bytes,
                  double device_bytes);

/// One overwritten progress line on stderr, only when stderr is a terminal.
class progress_line {
 public:
  explicit progress_line(std::size_t total = 0);
  ~progress_line();
  progress_line(const progress_line&) = delete;
  progress_line& operator=(const progress_line&) = delete;
  /// "[i/total] text ..." (or "text ..." without a total).
  void step(const std::string& text);
  /// Any text, no count.
  void show(const std::string& text);
  void clear();
  bool active() const { return active_; }

 private:
  bool active_ = false;
  bool shown_ = false;
  std::size_t total_ = 0, count_ = 0;
};

}  // namespace scankit::tools
