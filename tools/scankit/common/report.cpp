#include "common/report.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "common/system.hpp"
#include "common/util.hpp"
#include "scankit/error.hpp"
#include "scankit/scankit.hpp"

namespace scankit::tools {

nlohmann::json json_number(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

nlohmann::json to_json(const report_row& r) {
  nlohmann::json j = {{"algorithm", r.algorithm},
                      {"group", r.group},
                      {"x", r.x},
                      {"n", r.n},
                      {"type", r.type},
                      {"ms", json_number(r.ms)},
                      {"samples_ms", r.samples_ms},
                      {"gbps", json_number(r.gbps)},
                      {"pct_of_copy", json_number(r.pct_of_copy)},
                      {"vs_cub", json_number(r.vs_cub)},
                      {"copy_ms", json_number(r.copy_ms)},
                      {"check", r.check},
                      {"message", r.message}};
  for (const auto& [key, value] : r.extra.items())
    if (!j.contains(key)) j[key] = value;
  return j;
}

std::string check_cell(const std::string& check, const std::string& message) {
  return message.empty() ? check : check + ": " + message;
}

void record_check(timed_row& row, const std::string& failure) {
  if (failure.empty()) {
    if (row.status.empty()) row.status = check_pass;
    return;
  }
  row.status = check_fail;
  if (!row.message.empty()) row.message += "; ";
  row.message += failure;
}

report_row to_report_row(const timed_row& row, std::string algorithm, std::string group, std::int64_t x,
                         std::int64_t n, std::string type, double copy_ms) {
  report_row r;
  r.algorithm = std::move(algorithm);
  r.group = std::move(group);
  r.x = x;
  r.n = n;
  r.type = std::move(type);
  r.ms = row.device_ms;
  r.samples_ms = row.samples_ms;
  r.gbps = row.gbps;
  r.pct_of_copy = row.pct_of_copy;
  r.vs_cub = row.vs_cub;
  r.copy_ms = copy_ms;
  r.check = row.status;
  r.message = row.message;
  r.extra = {{"with_copies_ms", json_number(row.with_copies_ms)},
             {"with_copies_samples_ms", row.with_copies_samples_ms},
             {"workspace_bytes", row.workspace_bytes}};
  return r;
}

check_counts count_checks(const std::vector<report_row>& rows) {
  check_counts c;
  for (const auto& r : rows) {
    if (r.check == check_pass)
      ++c.passed;
    else if (r.check == check_fail)
      ++c.failed;
    else
      ++c.not_applicable;
  }
  return c;
}

nlohmann::json report_document(std::string_view kind, std::string_view primitive,
                               const system_info& sys, nlohmann::json params,
                               const std::vector<report_row>& rows, std::string_view over) {
  const check_counts c = count_checks(rows);
  nlohmann::json j = {{"tool", "scankit"},
                      {"schema_version", json_schema_version},
                      {"version", std::string(scankit::version())},
                      {"build", version_line()},
                      {"command", fmt::format("{} {}", kind, primitive)},
                      {"primitive", std::string(primitive)},
                      {"kind", std::string(kind)},
                      {"date", iso_date_now()},
                      {"system", to_json(sys)}};
  if (!over.empty()) j["over"] = std::string(over);
  j["params"] = std::move(params);
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows) out.push_back(to_json(r));
  j["rows"] = std::move(out);
  j["summary"] = {{"passed", c.passed}, {"failed", c.failed}, {"not_applicable", c.not_applicable}};
  j["ok"] = c.failed == 0 && c.passed > 0;
  return j;
}

int rows_exit_status(const std::vector<report_row>& rows) {
  const check_counts c = count_checks(rows);
  if (c.failed) return 1;
  if (c.passed == 0) {
    std::cout.flush();
    std::cerr
        << "scankit: error: no row was checked (every row is n/a): choose other --algo rows\n";
    return 1;
  }
  return 0;
}

int finish_bench(const std::string& json, std::string_view primitive, const system_info& sys,
                 nlohmann::json params, std::int64_t n, const std::vector<report_row>& rows) {
  if (!json.empty()) {
    params["n"] = n;
    write_file(json, report_document("bench", primitive, sys, std::move(params), rows).dump(2) + "\n");
    std::cout << "wrote " << json << "\n";
  }
  return rows_exit_status(rows);
}

int finish_sweep(const std::string& prefix, std::string_view primitive, std::string_view over,
                 const system_info& sys, nlohmann::json params, const std::vector<report_row>& rows,
                 const std::string& csv, bool no_plot, std::string_view status_column) {
  write_file(prefix + ".json", report_document("sweep", primitive, sys, std::move(params), rows, over).dump(2) + "\n");
  write_file(prefix + ".csv", csv);
  std::cout << "wrote " << prefix << ".json and " << prefix << ".csv\n";
  if (!status_column.empty() && count_checks(rows).failed)
    std::cout << "some rows failed (FAIL): see the " << status_column << " column of " << prefix << ".csv\n";
  int rc = rows_exit_status(rows);
  if (!no_plot && !draw_sweep_plot(prefix)) rc = 1;
  return rc;
}

int finish_verify(int passed, int failed) {
  std::cout << passed << " passed, " << failed << " failed\n";
  std::cout.flush();
  if (passed + failed == 0) {
    std::cerr
        << "scankit: error: nothing was checked: no selected algorithm could run these cases\n";
    return 1;
  }
  return failed ? 1 : 0;
}

namespace {

std::string errno_text(int e) {
  return std::strerror(e);
}

}  // namespace

std::string check_output_file(const std::string& path) {
  if (path.empty()) return "needs a file name (got an empty one)";
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return "'" + path + "' is a directory";
    if (::access(path.c_str(), W_OK) != 0)
      return "cannot write '" + path + "': " + errno_text(errno);
    return {};
  }
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  if (::stat(dir.c_str(), &st) != 0)
    return "cannot write '" + path + "': directory '" + dir + "': " + errno_text(errno);
  if (!S_ISDIR(st.st_mode)) return "cannot write '" + path + "': '" + dir + "' is not a directory";
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return "cannot write '" + path + "': directory '" + dir + "': " + errno_text(errno);
  return {};
}

std::string check_output_prefix(const std::string& prefix) {
  if (prefix.empty()) return "needs a prefix (got an empty one)";
  if (prefix.back() == '/')
    return "'" + prefix + "' is a directory; give a prefix such as " + prefix + "sweep";
  return check_output_file(prefix + ".json");
}

std::string check_plot_file(const std::string& path) {
  const auto dot = path.find_last_of('.');
  const auto slash = path.find_last_of('/');
  std::string ext = dot == std::string::npos || (slash != std::string::npos && dot < slash)
                        ? ""
                        : path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char ch) { return std::tolower(ch); });
  if (ext != "png" && ext != "svg" && ext != "pdf")
    return "'" + path + "': the plot's file name must end in .png, .svg or .pdf";
  return check_output_file(path);
}

std::string check_seed(const std::string& s) {
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || p != s.data() + s.size())
    return "seed '" + s + "' is not a whole number in [0, 2^64)";
  return {};
}

std::string check_fraction(const std::string& s) {
  double v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || p != s.data() + s.size() || !std::isfinite(v) || v < 0 ||
      v > 1)
    return "'" + s + "' is not a number in [0, 1]";
  return {};
}

void check_memory(const system_info& sys, std::string_view what, double host_bytes,
                  double device_bytes) {
  // The same share of memory a sweep allows itself would refuse sizes a bench can run; a bench
  // may use most of what is there.
  constexpr double share = 0.9;
  const double host = static_cast<double>(sys.host_memory_available);
  if (host > 0 && host_bytes > share * host)
    throw error(fmt::format("{} needs ~{} of host memory; {} is available", what,
                            format_bytes(host_bytes), format_bytes(host)));
  if (sys.gpu) {
    const double dev = static_cast<double>(sys.gpu->free_memory);
    if (device_bytes > share * dev)
      throw error(fmt::format("{} needs ~{} of GPU memory; {} is free on {}", what,
                              format_bytes(device_bytes), format_bytes(dev), sys.gpu->name));
  }
}

progress_line::progress_line(std::size_t total)
    : active_(::isatty(STDERR_FILENO) == 1), total_(total) {}

progress_line::~progress_line() {
  clear();
}

void progress_line::step(const std::string& text) {
  ++count_;
  if (!active_) return;
  if (total_)
    show(fmt::format("[{}/{}] {}", count_, total_, text));
  else
    show(text);
}

void progress_line::show(const std::string& text) {
  if (!active_) return;
  std::fprintf(stderr, "\r\033[K%s ...", text.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void progress_line::clear() {
  if (!active_ || !shown_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace scankit::tools
