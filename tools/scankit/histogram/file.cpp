// `scankit histogram FILE [--bins N] [--plot out.png]`: the byte histogram of any file (or of
// stdin, FILE = -), counted on the GPU when there is one, else on the CPU, in chunks of
// 256 MiB accumulated into one histogram. Prints one line per non-empty bin: the bin's first
// byte value, its count, and a bar scaled to the largest count.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <span>
#include <vector>

#include "common/report.hpp"
#include "common/system.hpp"
#include "common/util.hpp"
#include "histogram/commands.hpp"
#include "scankit/cpu/histogram.hpp"

#ifdef SCANKIT_HAS_CUDA
#include "scankit/cuda/histogram.hpp"
#endif

namespace scankit::tools {

namespace {

bool utf8_terminal() {
  for (const char* var : {"LC_ALL", "LC_CTYPE", "LANG"}) {
    const char* v = std::getenv(var);
    if (v && *v) {
      const std::string s(v);
      return s.find("UTF-8") != std::string::npos || s.find("utf8") != std::string::npos ||
             s.find("UTF8") != std::string::npos || s.find("utf-8") != std::string::npos;
    }
  }
  return false;
}

/// A bar of `frac` (0..1) of `width` cells: Unicode eighth blocks on a UTF-8 terminal, '#'
/// otherwise. A non-zero count always gets at least a sliver.
std::string bar(double frac, int width, bool utf8) {
  const int eighths = std::max(frac > 0 ? 1 : 0, static_cast<int>(frac * width * 8 + 0.5));
  std::string s;
  if (!utf8) return std::string(static_cast<std::size_t>(std::max(eighths / 8, frac > 0 ? 1 : 0)), '#');
  static const char* part[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
  for (int i = 0; i < eighths / 8; ++i) s += "█";
  s += part[eighths % 8];
  return s;
}

}  // namespace

std::uint64_t read_byte_histogram(std::istream& in, const std::string& name, std::int64_t bins,
                                  [[maybe_unused]] bool use_gpu, std::vector<std::uint64_t>& counts,
                                  const std::function<void(std::uint64_t)>& on_chunk, std::size_t chunk) {
  if (bins < 1 || bins > 256 || counts.size() != static_cast<std::size_t>(bins))
    throw invalid_argument("read_byte_histogram: bins must be in [1, 256] and match the counts");
  chunk = std::max<std::size_t>(chunk, 1);
  std::vector<std::uint8_t> buf;
  std::uint64_t total = 0;
  while (in) {
    buf.resize(chunk);
    errno = 0;
    in.read(reinterpret_cast<char*>(buf.data()), static_cast<std::streamsize>(chunk));
    const int read_errno = errno;
    if (in.bad())
      throw error("cannot read " + name + ": " + std::strerror(read_errno ? read_errno : EIO));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    buf.resize(got);
    total += got;
#ifdef SCANKIT_HAS_CUDA
    if (use_gpu) {
      cuda::histogram_even<std::uint8_t, std::uint64_t>(std::span<const std::uint8_t>(buf), std::span<std::uint64_t>(counts),
                                                       0, 256, {cuda::default_histogram_algorithm, 0, true});
      if (on_chunk) on_chunk(total);
      continue;
    }
#endif
    cpu::histogram_even_parallel(buf.data(), static_cast<std::int64_t>(got), counts.data(), bins, 0, 256, true);
    if (on_chunk) on_chunk(total);
  }
  return total;
}

int run_histogram_file(const histogram_file_options& o) {
  std::istream* in = &std::cin;
  std::ifstream file;
  if (o.file != "-") {
    errno = 0;
    file.open(o.file, std::ios::binary);
    if (!file) throw error("cannot open " + o.file + ": " + std::strerror(errno ? errno : ENOENT));
    in = &file;
  }
  const auto bins = o.bins;
  const auto e = even_bins<std::uint8_t>::make(bins, 0, 256, "scankit histogram");
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(bins), 0);
  bool use_gpu = false;
  std::string where = "CPU (oneTBB)";
#ifdef SCANKIT_HAS_CUDA
  if (!o.cpu) {
    const system_info sys = query_system();
    if (sys.gpu) {
      use_gpu = true;
      where = "GPU: " + sys.gpu->name;
    }
  }
#endif
  // Large files, pipes and endless streams (a device) take a while: a byte count on a terminal.
  progress_line progress;
  const std::uint64_t total = read_byte_histogram(*in, o.file, bins, use_gpu, counts, [&](std::uint64_t bytes) {
    progress.show(fmt::format("{}: {} read", o.file, format_bytes(static_cast<double>(bytes))));
  });
  progress.clear();

  // The first byte value of each bin (the smallest b with bin(b) == i).
  std::vector<int> first_value(static_cast<std::size_t>(bins), -1);
  for (int b = 255; b >= 0; --b) first_value[static_cast<std::size_t>(e(static_cast<std::uint8_t>(b)))] = b;
  const std::uint64_t max_count = *std::max_element(counts.begin(), counts.end());
  std::cout << fmt::format("# {}: {} bytes, {} bins over [0, 256), counted on the {}\n", o.file, total, bins, where);
  std::cout << "# value  count  bar\n";
  const bool utf8 = utf8_terminal();
  const int count_width = static_cast<int>(std::to_string(max_count).size());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    std::cout << fmt::format("{:>3}  {:>{}}  {}\n", first_value[i], counts[i], count_width,
                             bar(static_cast<double>(counts[i]) / static_cast<double>(max_count), o.width, utf8));
  }
  if (!o.plot.empty()) {
    nlohmann::json j = {{"file", o.file}, {"bytes", total}, {"bins", bins}, {"device", where}};
    nlohmann::json values = nlohmann::json::array(), cs = nlohmann::json::array();
    for (std::size_t i = 0; i < counts.size(); ++i) {
      values.push_back(first_value[i]);
      cs.push_back(counts[i]);
    }
    j["values"] = values;
    j["counts"] = cs;
    // The counts go to the plot script through a temporary file of its own, not beside the plot.
    char data[] = "/tmp/scankit-histogram-XXXXXX";
    const int fd = mkstemp(data);
    if (fd < 0) throw error(std::string("cannot create a temporary file for the plot: ") + std::strerror(errno));
    close(fd);
    std::string why;
    int rc = 0;
    try {
      write_file(data, j.dump() + "\n");
      rc = run_python_script(tool_script_path("plot_histogram.py"), {"--counts", data, "--out", o.plot}, &why);
    } catch (...) {
      std::remove(data);
      throw;
    }
    std::remove(data);
    std::cout.flush();
    if (rc != 0) {
      std::cerr << "scankit: error: no plot: "
                << (why.empty() ? "tools/plot_histogram.py failed (exit " + std::to_string(rc) + ")" : why) << "\n";
      return 1;
    }
    std::cerr << "wrote " << o.plot << "\n";
  }
  return 0;
}

}  // namespace scankit::tools
