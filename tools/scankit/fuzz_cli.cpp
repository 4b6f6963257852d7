// libFuzzer target over what the CLI does with untrusted text before any work: parse_count and
// the option checks, the whole command line (with_default_primitive and CLI11's parse of the
// app, callbacks included, without running the stored action), and the histogram file reader.
// Built with -DSCANKIT_BUILD_FUZZERS=ON (clang); run by tools/fuzz.
//
// The first input byte picks the target; the rest is its input:
//   0  parse_count, check_count, check_seed, check_fraction, check_name_list on the text
//   1  a command line: the text split at NUL bytes into arguments after "scankit"
//   2  the histogram reader: byte 1 picks the bins, byte 2 the chunk size, the rest is the file
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "common/report.hpp"
#include "common/util.hpp"
#include "histogram/commands.hpp"

namespace {

using namespace scankit::tools;

void fail_if(bool bad) {
  if (bad) std::abort();
}

void fuzz_numbers(const std::string& s) {
  const auto n = parse_count(s);
  fail_if(n && (*n < 0 || *n > (std::int64_t{1} << 62)));
  fail_if(check_count(s).empty() != n.has_value());
  (void)check_seed(s);
  (void)check_fraction(s);
  (void)check_name_list(s, {"cpu-serial", "cpu-parallel"}, {"all", "gpu", "cpu"});
  (void)split_list(s);
  if (n) (void)describe_count(*n);
}

void fuzz_command_line(const std::string& s) {
  std::vector<std::string> args{"scankit"};
  std::string cur;
  for (char c : s) {
    if (c == '\0') {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) args.push_back(cur);
  if (args.size() > 64) return;
  command_line cl;
  std::ostringstream out, err;
  const int rc = cl.parse(args, out, err);
  // -1: an action to run (not run here); 0: help or version; exit_usage: rejected, with a reason.
  fail_if(rc != -1 && rc != 0 && rc != exit_usage);
  fail_if(rc == exit_usage && err.str().empty());
  fail_if(rc == -1 && !cl.action);
}

void fuzz_histogram_reader(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return;
  const std::int64_t bins = 1 + data[0] % 256;
  const std::size_t chunk = 1 + data[1] % 97;
  const std::string bytes(reinterpret_cast<const char*>(data + 2), size - 2);
  std::istringstream in(bytes);
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(bins), 0);
  std::uint64_t chunks = 0;
  const std::uint64_t total = read_byte_histogram(
      in, "fuzz input", bins, false, counts, [&](std::uint64_t) { ++chunks; }, chunk);
  fail_if(total != bytes.size());
  fail_if(std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}) != total);
  fail_if(chunks != (total + chunk - 1) / chunk);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > 4096) return 0;
  const std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 3) {
    case 0:
      fuzz_numbers(rest);
      break;
    case 1:
      fuzz_command_line(rest);
      break;
    default:
      fuzz_histogram_reader(data + 1, size - 1);
      break;
  }
  return 0;
}
