// Helpers shared by the CUDA test programs: the test-harness environment flags, the skip without
// a GPU, a check for the tests' own CUDA calls, device memory that grows on demand, the base of
// the parametrised fixtures that run on a stream of their own, and gtest names of parameters.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "common/test_util.hpp"
#include "scankit/cuda/scan.hpp"  // device_count

namespace scankit::test {

/// Whether test-harness environment variable `name` is set to something other than "" or "0".
inline bool env_flag(const char* name) {
  const char* e = std::getenv(name);
  return e != nullptr && *e != '\0' && std::string(e) != "0";
}
/// SCANKIT_TEST_VERBOSE: print each case before it runs (to find one that hangs).
inline bool verbose() { return env_flag("SCANKIT_TEST_VERBOSE"); }

inline bool have_gpu() { return cuda::device_count() > 0; }

#define SKIP_WITHOUT_GPU() \
  if (!::scankit::test::have_gpu()) GTEST_SKIP() << "no CUDA device"

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

/// Base of the parametrised CUDA fixtures: skips without a GPU, and gives each test a
/// non-blocking stream of its own.
template <class Param>
class cuda_stream_test : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    ck(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  void TearDown() override {
    if (stream_) cudaStreamDestroy(stream_);
  }
  cudaStream_t stream_{};
};

/// The gtest name of an enum parameter: the library's name of it (found by argument-dependent
/// lookup) with '-' written '_', which gtest names cannot hold.
template <class E>
std::string param_name(const ::testing::TestParamInfo<E>& info) {
  std::string s(name(info.param));
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

}  // namespace scankit::test
