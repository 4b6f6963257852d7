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

/// The classes of device the tuning tables have entries for. Each table names every class, so
/// a reader sees what each kind of card gets; class_of puts any device in one.
enum class device_class {
  hopper_fast_memory,  // Hopper's features with memory of 4 TB/s or more (H200-like)
  hopper,              // Hopper's features: bulk copies, 227 KiB of shared memory (H100-like)
  ampere,              // cp.async without bulk copies (A100-like; Ada's parts too)
  portable,            // anything older: the portable paths only
};

/// Memory of at least this many bytes per second makes a Hopper-class device a fast-memory one:
/// it needs more bytes in flight per SM than the H100-like entries keep.
inline constexpr double fast_memory_bytes_per_second = 4.0e12;

/// The class of a device. Newer parts with Hopper's shared memory take Hopper's entries (they
/// have its bulk copies too), split by memory speed as Hopper's are; newer parts with less
/// shared memory per SM take the Ampere entries, whose tiles fit them.
inline constexpr std::size_t hopper_smem_per_sm = 200 * 1024;
constexpr device_class class_of(const device_info& d) {
  if (d.arch >= 90 && d.smem_per_sm >= hopper_smem_per_sm)
    return d.memory_bytes_per_second() >= fast_memory_bytes_per_second ? device_class::hopper_fast_memory
                                                                        : device_class::hopper;
  if (d.arch >= 80) return device_class::ampere;
  return device_class::portable;
}

/// The class's name, for descriptions and test messages.
constexpr const char* name_of(device_class c) {
  switch (c) {
    case device_class::hopper_fast_memory: return "hopper_fast_memory";
    case device_class::hopper: return "hopper";
    case device_class::ampere: return "ampere";
    case device_class::portable: return "portable";
  }
  return "?";
}

/// A tuning table's row: the tuning one class of device gets.
template <class Tuning>
struct class_entry {
  device_class cls;
  Tuning t;
};

/// Whether `table` has exactly one row for every class (checked where each table is defined).
template <class Tuning, std::size_t N>
constexpr bool names_every_class(const class_entry<Tuning> (&table)[N]) {
  for (device_class c : {device_class::hopper_fast_memory, device_class::hopper, device_class::ampere,
                         device_class::portable}) {
    int rows = 0;
    for (const auto& e : table) rows += e.cls == c ? 1 : 0;
    if (rows != 1) return false;
  }
  return true;
}

/// The row of `table` for device d's class.
template <class Tuning, std::size_t N>
constexpr Tuning tuning_of_class(const class_entry<Tuning> (&table)[N], const device_info& d) {
  const device_class c = class_of(d);
  for (const auto& e : table)
    if (e.cls == c) return e.t;
  return table[N - 1].t;
}

/// The description plans use where no device is present (workspace sizes and descriptions asked
/// on a machine without a GPU): the device the tables are tuned on, compute capability 9.0 with
/// 132 SMs and Hopper's shared memory.
inline constexpr device_info reference_device_info{
    .arch = 90, .sm_count = 132, .smem_per_block_optin = 227 * 1024, .smem_per_sm = 228 * 1024};

/// Which classes run the warp-specialized tiles of the scan and the compaction (they need
/// Hopper's bulk copies and its shared memory): one table for both.
inline constexpr class_entry<bool> warp_specialized_table[] = {
    {device_class::hopper_fast_memory, true},
    {device_class::hopper, true},
    {device_class::ampere, false},
    {device_class::portable, false},
};
static_assert(names_every_class(warp_specialized_table));

/// The current device's description, queried once per device and kept (thread-safe).
const device_info& current_device_info();

}  // namespace scankit::cuda::detail
