// Helpers shared by the CUDA test programs: the test-harness environment flags, a check for the
// tests' own CUDA calls, and device memory that grows on demand.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace scankit::test {

/// Whether test-harness environment variable `name` is set to something other than "" or "0".
inline bool env_flag(const char* name) {
  const char* e = std::getenv(name);
  return e != nullptr && *e != '\0' && std::string(e) != "0";
}
/// SCANKIT_TEST_QUICK: small sizes only (for compute-sanitizer runs).
inline bool quick_mode() { return env_flag("SCANKIT_TEST_QUICK"); }
/// SCANKIT_TEST_VERBOSE: print each case before it runs (to find one that hangs).
inline bool verbose() { return env_flag("SCANKIT_TEST_VERBOSE"); }

/// Throws (and so fails the running test) when a CUDA call of the test itself fails.
inline void ck(cudaError_t e, const char* what = "CUDA call") {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
}

/// Device memory that grows on demand (reused across the cases of a test).
struct device_buffer {
  void* p = nullptr;
  std::size_t bytes = 0;
  device_buffer() = default;
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() {
    if (p) cudaFree(p);
  }
  void reserve(std::size_t b) {
    b = std::max<std::size_t>(b, 256);
    if (b <= bytes) return;
    if (p) ck(cudaFree(p), "cudaFree");
    p = nullptr;
    bytes = 0;
    ck(cudaMalloc(&p, b), "cudaMalloc");
    bytes = b;
  }
  template <class T>
  T* as() const {
    return static_cast<T*>(p);
  }
};

}  // namespace scankit::test
