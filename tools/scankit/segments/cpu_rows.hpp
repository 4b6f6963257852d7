// The CPU rows of `bench|sweep|verify segments`: scankit::cpu's segmented operations, parallel
// (row `cpu`) and the serial loops (`cpu-serial`, the *_serial functions). Their calls live in
// cpu_rows.cpp alone.
#pragma once

#include <cstdint>
#include <string>

namespace scankit::tools {

/// One call of a CPU segmented operation over host memory (all sums, inclusive scans).
struct cpu_segments_call {
  std::string op;  // reduce, scan, scan-flags, scan-by-key, reduce-by-key
  bool serial = false;
  const void* in = nullptr;
  void* out = nullptr;  // count (reduce), n (scans) or the runs' (reduce-by-key) values
  std::int64_t n = 0;
  const std::int64_t* offsets = nullptr;  // count + 1
  std::int64_t count = 0;
  const std::uint8_t* flags = nullptr;    // scan-flags
  const std::uint32_t* keys = nullptr;    // scan-by-key, reduce-by-key
  std::uint32_t* unique_keys = nullptr;   // reduce-by-key: n
  std::int64_t* num_runs = nullptr;       // reduce-by-key: one
};


/// Runs the call with values of type T (i32, u32, i64, u64, f32, f64); throws what scankit::cpu
/// throws.
template <class T>
void run_cpu_segments(const cpu_segments_call& c);

}  // namespace scankit::tools
