// What a device is, as the plan functions see it: a plain value, so that every plan is a pure
// function of (request, device_info) and can be tested on the host with any description.
#pragma once

#include <cstddef>

namespace scankit::cuda::detail {

/// The facts tuning depends on. Plans read only these fields, never the driver, so a test can
/// describe a device that is not present.
struct device_info {
  int arch = 0;                           // compute capability as 10 * major + minor
  int sm_count = 1;                       // multiprocessors
  std::size_t smem_per_block_optin = 0;   // dynamic shared memory one block may opt into
  std::size_t smem_per_sm = 0;            // shared memory of one multiprocessor
  std::size_t l2_bytes = 0;               // L2 cache
  int memory_bus_bits = 0;                // global memory bus width
  int memory_clock_khz = 0;               // peak memory clock

  /// Peak memory bandwidth in bytes per second (double data rate), 0 when unknown.
  constexpr double memory_bytes_per_second() const {
    return 2.0 * static_cast<double>(memory_clock_khz) * 1000.0 * static_cast<double>(memory_bus_bits) / 8.0;
  }
  friend constexpr bool operator==(const device_info&, const device_info&) = default;
};

/// The current device's description, queried once per device and kept (thread-safe).
const device_info& current_device_info();

}  // namespace scankit::cuda::detail
