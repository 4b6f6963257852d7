// The current GPU as scankit's tuning sees it: the facts its plans read, and the class of device
// whose rows of the tuning tables it gets (docs/ALGORITHMS.md, "Every GPU from Ampere on").
//
//   auto d = scankit::cuda::describe_current_device();
//   std::printf("%s: %.2f TB/s\n", d.tuning_class.c_str(), d.memory_bytes_per_second / 1e12);
#pragma once

#include <cstddef>
#include <string>

namespace scankit::cuda {

struct device_description {
  int arch = 0;                          // compute capability as 10 * major + minor
  int sm_count = 0;                      // multiprocessors
  std::size_t smem_per_block_optin = 0;  // dynamic shared memory one block may opt into
  std::size_t smem_per_sm = 0;           // shared memory of one multiprocessor
  std::size_t l2_bytes = 0;              // L2 cache
  int memory_bus_bits = 0;               // global memory bus width (0: the driver does not say)
  int memory_clock_khz = 0;              // peak memory clock (0: the driver does not say)
  double memory_bytes_per_second = 0;    // peak, from the bus width and clock (0: unknown)
  std::string tuning_class;              // hopper_fast_memory, hopper, ampere or portable
};

/// The current device's description (looked up once per device). Throws no_device_error
/// without a GPU.
device_description describe_current_device();

}  // namespace scankit::cuda
