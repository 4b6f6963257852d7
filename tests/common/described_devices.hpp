// The devices the host-only plan tests plan for: the card classes the tuning tables name
// (Hopper with two memory speeds, Ampere) and small parts whose shared memory and SM count the
// plans must still fit. Descriptions only: no CUDA call is made.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "scankit/cuda/detail/device_info.hpp"

namespace scankit::test {

struct described_device {
  const char* name;
  cuda::detail::device_info info;
};

inline const std::vector<described_device>& described_devices() {
  constexpr std::size_t KiB = 1024, MiB = 1024 * KiB;
  static const std::vector<described_device> d = {
      {"sm90_132sms", {.arch = 90, .sm_count = 132, .smem_per_block_optin = 227 * KiB, .smem_per_sm = 228 * KiB,
                       .l2_bytes = 50 * MiB, .memory_bus_bits = 5120, .memory_clock_khz = 2619000}},
      {"sm90_132sms_faster_memory", {.arch = 90, .sm_count = 132, .smem_per_block_optin = 227 * KiB,
                                     .smem_per_sm = 228 * KiB, .l2_bytes = 60 * MiB, .memory_bus_bits = 6144,
                                     .memory_clock_khz = 3201000}},
      {"sm80_108sms", {.arch = 80, .sm_count = 108, .smem_per_block_optin = 163 * KiB, .smem_per_sm = 164 * KiB,
                       .l2_bytes = 40 * MiB, .memory_bus_bits = 5120, .memory_clock_khz = 1593000}},
      {"sm89_46sms", {.arch = 89, .sm_count = 46, .smem_per_block_optin = 99 * KiB, .smem_per_sm = 100 * KiB,
                      .l2_bytes = 32 * MiB, .memory_bus_bits = 192, .memory_clock_khz = 10501000}},
      {"sm120_46sms", {.arch = 120, .sm_count = 46, .smem_per_block_optin = 99 * KiB, .smem_per_sm = 100 * KiB,
                       .l2_bytes = 32 * MiB, .memory_bus_bits = 192, .memory_clock_khz = 14001000}},
  };
  return d;
}

/// The described device of that name (throws for an unknown name, so a typo fails the test).
inline const described_device& described_device_named(const char* name) {
  for (const described_device& d : described_devices())
    if (std::string(d.name) == name) return d;
  throw std::invalid_argument(std::string("no described device ") + name);
}

}  // namespace scankit::test
