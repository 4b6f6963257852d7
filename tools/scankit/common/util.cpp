#include "common/util.hpp"

#include <fmt/format.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "scankit/error.hpp"
#include "scankit/scankit.hpp"

#ifdef SCANKIT_HAS_CUDA
#include <cuda_runtime_api.h>
#endif

extern char** environ;

namespace scankit::tools {

namespace {

constexpr std::int64_t max_count = std::int64_t{1} << 62;

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::optional<std::int64_t> parse_int(std::string_view s) {
  s = trim(s);
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<std::int64_t> parse_count(std::string_view s) {
  s = trim(s);
  if (s.empty()) return std::nullopt;
  auto power = [](std::int64_t base, std::int64_t exp) -> std::optional<std::int64_t> {
    if (base < 0 || exp < 0) return std::nullopt;
    long double v = 1;
    for (std::int64_t i = 0; i < exp; ++i) {
      v *= static_cast<long double>(base);
      if (v > static_cast<long double>(max_count)) return std::nullopt;
    }
    return static_cast<std::int64_t>(v);
  };
  if (auto caret = s.find('^'); caret != std::string_view::npos) {
    auto b = parse_int(s.substr(0, caret)), e = parse_int(s.substr(caret + 1));
    if (!b || !e) return std::nullopt;
    return power(*b, *e);
  }
  if (auto shift = s.find("<<"); shift != std::string_view::npos) {
    auto a = parse_int(s.substr(0, shift)), k = parse_int(s.substr(shift + 2));
    if (!a || !k || *a < 0 || *k < 0 || *k > 62) return std::nullopt;
    if (*a != 0 && *a > (max_count >> *k)) return std::nullopt;
    return *a << *k;
  }
  if (auto v = parse_int(s)) {
    if (*v < 0 || *v > max_count) return std::nullopt;
    return v;
  }
  // Scientific notation such as 1e6 or 1.5e7, accepted when it is a whole number.
  const std::string str(s);
  char* end = nullptr;
  const double d = std::strtod(str.c_str(), &end);
  if (end != str.c_str() + str.size() || !std::isfinite(d) || d < 0 ||
      d > static_cast<double>(max_count) || d != std::floor(d))
    return std::nullopt;
  return static_cast<std::int64_t>(d);
}

std::string check_count(const std::string& s) {
  if (parse_count(s)) return {};
  return "'" + s + "' is not an element count (use e.g. 1000000, 2^22, 1<<22 or 1e6)";
}

std::vector<std::string> split_list(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    std::size_t end = s.find(sep, start);
    if (end == std::string_view::npos) end = s.size();
    auto item = trim(s.substr(start, end - start));
    if (!item.empty()) out.emplace_back(item);
    start = end + 1;
  }
  return out;
}

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

std::string check_name_list(const std::string& s, const std::vector<std::string>& names,
                            const std::vector<std::string>& groups, std::string_view what) {
  const auto items = split_list(s);
  if (items.empty()) return "needs '" + join(groups, "', '") + "' or " + std::string(what) + " names";
  auto known = [](const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  for (const auto& item : items)
    if (!known(groups, item) && !known(names, item))
      return "unknown " + std::string(what) + " '" + item + "' (known: " + join(groups) + ", " +
             join(names) + ")";
  return {};
}

std::uint64_t pick_seed(const std::optional<std::uint64_t>& seed) {
  if (seed) return *seed;
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

std::string describe_count(std::int64_t n) {
  if (n > 0 && (n & (n - 1)) == 0) {
    int k = 0;
    while ((std::int64_t{1} << k) != n) ++k;
    return fmt::format("2^{}", k);
  }
  return std::to_string(n);
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 4) {
    bytes /= 1024.0;
    ++u;
  }
  return u == 0 ? fmt::format("{:.0f} {}", bytes, units[u]) : fmt::format("{:.1f} {}", bytes, units[u]);
}

std::string format_ms(double ms) {
  if (!std::isfinite(ms)) return "-";
  if (ms >= 100.0) return fmt::format("{:.1f}", ms);
  if (ms >= 1.0) return fmt::format("{:.3f}", ms);
  return fmt::format("{:.4f}", ms);
}

std::string format_ratio(double r) {
  if (!std::isfinite(r)) return "-";
  if (r >= 100.0) return fmt::format("{:.0f}x", r);
  return fmt::format("{:.2f}x", r);
}

std::string format_gbps(double gbps) {
  if (!std::isfinite(gbps)) return "-";
  return gbps >= 100.0 ? fmt::format("{:.0f}", gbps) : fmt::format("{:.2f}", gbps);
}

std::string format_pct(double pct) {
  if (!std::isfinite(pct)) return "-";
  return fmt::format("{:.1f}%", pct);
}

std::string iso_date_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S%z", &tm);
  return buf;
}

std::size_t host_available_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::size_t value = 0;
  std::string unit;
  while (in >> key >> value) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return value * 1024;
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : 0;
}

text_table::text_table(std::vector<std::string> header, std::vector<bool> right_align)
    : header_(std::move(header)), right_(std::move(right_align)) {
  right_.resize(header_.size(), false);
}

void text_table::add_row(std::vector<std::string> cells) {
  cells.resize(header_.size());
  rows_.push_back(std::move(cells));
}

std::string text_table::str() const {
  std::vector<std::size_t> width(header_.size());
  for (std::size_t c = 0; c < header_.size(); ++c) width[c] = header_[c].size();
  for (const auto& r : rows_)
    for (std::size_t c = 0; c + 1 < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (c) s += "  ";
      const bool last = c + 1 == cells.size();
      if (last && !right_[c]) {
        s += cells[c];  // the last column may hold long messages; never pad it
      } else if (right_[c]) {
        s += fmt::format("{:>{}}", cells[c], width[c]);
      } else {
        s += fmt::format("{:<{}}", cells[c], width[c]);
      }
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s + "\n";
  };
  std::string out = line(header_);
  std::size_t total = 0;
  for (std::size_t c = 0; c < width.size(); ++c) total += width[c] + (c ? 2 : 0);
  out += std::string(total, '-') + "\n";
  for (const auto& r : rows_) out += line(r);
  return out;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw error("cannot open " + path + " for writing");
  out << text;
  out.close();
  if (!out) throw error("failed to write " + path);
}

// SCANKIT_PLOT_SCRIPT overrides the copy tool_script_path finds.
std::string plot_script_path() {
  if (const char* env = std::getenv("SCANKIT_PLOT_SCRIPT"); env && *env) return env;
  return tool_script_path("plot_sweep.py");
}

namespace {

/// Runs argv[0] with argv (searched on the PATH); returns its exit status, or -1 if it could
/// not be started. `quiet` sends its output to /dev/null.
int spawn_and_wait(std::vector<std::string> args, bool quiet, const char* stderr_path = nullptr) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (quiet) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  } else if (stderr_path) {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_path, O_WRONLY | O_TRUNC, 0);
  }
  pid_t pid = 0;
  const int started = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (started != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

}  // namespace

int run_python_script(const std::string& script, const std::vector<std::string>& args, std::string* last_error_line) {
  // The first interpreter that can import matplotlib: $SCANKIT_PYTHON, the one found when
  // scankit was configured, python3 on the PATH.
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("SCANKIT_PYTHON"); env && *env) candidates.emplace_back(env);
  candidates.emplace_back(SCANKIT_TOOLS_PYTHON);
  candidates.emplace_back("python3");
  std::string python = candidates.front();
  for (const auto& c : candidates) {
    if (spawn_and_wait({c, "-c", "import matplotlib"}, true) == 0) {
      python = c;
      break;
    }
  }
  std::vector<std::string> argv{python, script};
  argv.insert(argv.end(), args.begin(), args.end());
  char path[] = "/tmp/scankit-plot-XXXXXX";
  int fd = -1;
  if (last_error_line && (fd = mkstemp(path)) >= 0) close(fd);
  const int status = spawn_and_wait(argv, false, fd >= 0 ? path : nullptr);
  if (fd >= 0) {
    std::ifstream err(path);
    std::string line;
    last_error_line->clear();
    while (std::getline(err, line))
      if (!trim(line).empty()) *last_error_line = std::string(trim(line));
    err.close();
    std::remove(path);
  }
  if (status < 0) throw error("cannot start " + python + " to run " + script);
  return status;
}

int run_plot_script(const std::string& json_path) {
  return run_python_script(plot_script_path(), {json_path});
}

bool draw_sweep_plot(const std::string& prefix) {
  std::cout.flush();
  std::string why;
  int rc = 0;
  try {
    rc = run_python_script(plot_script_path(), {prefix + ".json"}, &why);
  } catch (const std::exception& e) {
    rc = -1;
    why = e.what();
  }
  if (rc == 0) {
    std::cout << "wrote " << prefix << ".png and " << prefix << ".svg\n";
    return true;
  }
  std::cerr << "scankit: error: no plot: " << (why.empty() ? "the plot script failed (exit " + std::to_string(rc) + ")" : why)
            << " (the data is in " << prefix << ".json; --no-plot skips the plot)\n";
  return false;
}

// The plot scripts: $SCANKIT_TOOLS_DIR, else beside an installed binary (<prefix>/bin/scankit
// finds <prefix>/share/scankit/), else the source tree this binary was built from.
std::string tool_script_path(const std::string& name) {
  if (const char* env = std::getenv("SCANKIT_TOOLS_DIR"); env && *env) return std::string(env) + "/" + name;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path installed = exe.parent_path().parent_path() / "share" / "scankit" / name;
    if (std::filesystem::exists(installed, ec)) return installed.string();
  }
  return std::string(SCANKIT_TOOLS_SOURCE_DIR) + "/" + name;
}

std::string version_line() {
  std::string s = fmt::format("scankit {}", scankit::version());
#ifdef SCANKIT_HAS_CUDA
  s += fmt::format(" (CUDA backend, CUDA {}.{}", CUDART_VERSION / 1000, (CUDART_VERSION % 1000) / 10);
#else
  s += " (CPU backend only";
#endif
#if defined(__clang__)
  s += ", clang " __clang_version__;
#elif defined(__GNUC__)
  s += fmt::format(", g++ {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#endif
  s += fmt::format(", {} build)", SCANKIT_TOOLS_BUILD_TYPE);
  return s;
}

}  // namespace scankit::tools
