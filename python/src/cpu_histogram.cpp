// The C ABI's CPU histograms: numpy.histogram's even bins through the library's parallel
// counting loop, range bins and bincount as the library has them.
#include <algorithm>
#include <string>

#include "capi_internal.hpp"
#include "scankit/cpu/histogram.hpp"
#include "scankit/histogram_numpy.hpp"

namespace scankit::capi::host {
namespace {

namespace sk = scankit;

bool serial_of(const std::string& algorithm) {
  return cpu_choice(algorithm, {"cpu-parallel", "cpu-serial"}, 0, "histogram") == 1;
}

template <class F>
void visit_histogram(int dtype, unsigned allowed, const char* what, F&& f) {
  require_type(dtype, allowed, what);
  visit_number(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (sk::histogram_sample<T>) f(tag);
  });
}

}  // namespace

void histogram_even(int dtype, const void* samples, std::int64_t n, std::uint64_t* counts,
                    std::int64_t bins, double lower, double upper, int mode,
                    const std::string& algorithm) {
  const bool serial = serial_of(algorithm);
  visit_histogram(dtype, histogram_types, "histogram", [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::fill(counts, counts + bins, std::uint64_t{0});
    if (n == 0) return;
    check_out(samples, "samples", "histogram");
    // The GPU's choice of bin function (the C ABI's mode bits are its flags), so that the CPU
    // tests check numpy_even_bins_f32 too.
    with_numpy_bins<T>(static_cast<int>(bins), lower, upper, mode, [&](const auto& bin_of) {
      if (serial)
        cpu::detail::count_serial(static_cast<const T*>(samples), n, counts, bin_of);
      else
        cpu::detail::count_parallel(static_cast<const T*>(samples), n, counts,
                                    static_cast<int>(bins), bin_of);
    });
  });
}

void histogram_edges(int dtype, const void* samples, std::int64_t n, std::uint64_t* counts,
                     const void* edges, std::int64_t num_edges, const std::string& algorithm) {
  const bool serial = serial_of(algorithm);
  visit_histogram(dtype, histogram_types, "histogram", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using L = sk::histogram_level_t<T>;
    const auto* s = static_cast<const T*>(samples);
    const auto* e = static_cast<const L*>(edges);
    if (serial)
      cpu::histogram_range_serial(s, n, counts, e, num_edges);
    else
      cpu::histogram_range_parallel(s, n, counts, e, num_edges);
  });
}

void bincount(int dtype, const void* samples, std::int64_t n, std::uint64_t* counts,
              std::int64_t bins, const std::string& algorithm) {
  const bool serial = serial_of(algorithm);
  visit_histogram(dtype, bincount_types, "bincount", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      const auto* s = static_cast<const T*>(samples);
      if (serial)
        cpu::bincount_serial(s, n, counts, bins);
      else
        cpu::bincount_parallel(s, n, counts, bins);
    }
  });
}

}  // namespace scankit::capi::host
