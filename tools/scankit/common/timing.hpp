// Timing building blocks for every `scankit` benchmark (scan, compact, sort, histogram):
// medians, CPU wall-clock loops and, in CUDA builds, a checked-call macro, RAII device
// memory, streams and events, an L2 flusher and an event-timed loop.
//
// This header is plain C++ (no nvcc needed): .cpp files use SCANKIT_TOOLS_CUDA_CHECK, which
// throws scankit::cuda_error naming the failed call. (.cu files use the library's
// SCANKIT_CUDA_CHECK instead.)
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "scankit/error.hpp"

#ifdef SCANKIT_HAS_CUDA
#include <cuda_runtime_api.h>
#endif

namespace scankit::tools {

/// Median of the samples (mean of the two middle ones for an even count); NaN when empty.
inline double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  double m = *mid;
  if (v.size() % 2 == 0) m = (m + *std::max_element(v.begin(), mid)) / 2.0;
  return m;
}

/// Does nothing; the default "before each timed call" hook.
struct no_op {
  void operator()() const noexcept {}
};

using wall_clock = std::chrono::steady_clock;

inline double ms_between(wall_clock::time_point a, wall_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

/// Calls f() `warmup` times untimed, then `reps` times timed by the wall clock; returns the
/// `reps` times in milliseconds. before_each() runs before every call, outside the timing.
template <class F, class Before = no_op>
std::vector<double> time_cpu_ms(int warmup, int reps, F&& f, Before&& before_each = {}) {
  for (int i = 0; i < warmup; ++i) {
    before_each();
    f();
  }
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(std::max(reps, 0)));
  for (int i = 0; i < reps; ++i) {
    before_each();
    const auto t0 = wall_clock::now();
    f();
    samples.push_back(ms_between(t0, wall_clock::now()));
  }
  return samples;
}

#ifdef SCANKIT_HAS_CUDA

[[noreturn]] inline void throw_cuda_call(cudaError_t e, const char* call) {
  (void)cudaGetLastError();  // clear a non-sticky error so later calls start clean
  throw cuda_error(static_cast<int>(e), std::string("CUDA call failed: ") + call + ": " +
                                            cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
}

/// Checks a CUDA runtime call made from a .cpp file; throws scankit::cuda_error naming it.
#define SCANKIT_TOOLS_CUDA_CHECK(call)                                              \
  do {                                                                              \
    const cudaError_t scankit_tools_err_ = (call);                                  \
    if (scankit_tools_err_ != cudaSuccess)                                          \
      ::scankit::tools::throw_cuda_call(scankit_tools_err_, #call);                 \
  } while (0)

/// Device memory that grows on demand (reserve) and is freed on destruction. Move-only.
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t bytes) { reserve(bytes); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  device_buffer& operator=(device_buffer&& o) noexcept {
    if (this != &o) {
      release();
      ptr_ = std::exchange(o.ptr_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  ~device_buffer() { release(); }

  /// Ensures at least `bytes` bytes (old contents are not kept when it grows).
  void reserve(std::size_t bytes) {
    if (bytes <= bytes_) return;
    release();
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, bytes);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      throw cuda_error(static_cast<int>(e), "CUDA call failed: cudaMalloc of " +
                                                std::to_string(bytes) + " bytes: " +
                                                cudaGetErrorString(e));
    }
    ptr_ = p;
    bytes_ = bytes;
  }
  void release() noexcept {
    if (ptr_) cudaFree(ptr_);  // nothing useful to do with a failure in a destructor
    ptr_ = nullptr;
    bytes_ = 0;
  }
  void* data() const noexcept { return ptr_; }
  template <class T>
  T* as() const noexcept {
    return static_cast<T*>(ptr_);
  }
  std::size_t size() const noexcept { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

/// A non-blocking CUDA stream.
class cuda_stream {
 public:
  cuda_stream() { SCANKIT_TOOLS_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  cuda_stream(const cuda_stream&) = delete;
  cuda_stream& operator=(const cuda_stream&) = delete;
  ~cuda_stream() {
    cudaStreamSynchronize(s_);
    cudaStreamDestroy(s_);
  }
  cudaStream_t get() const noexcept { return s_; }
  void synchronize() const { SCANKIT_TOOLS_CUDA_CHECK(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_{};
};

/// A pair of CUDA events timing what is enqueued between start() and stop() on one stream.
class event_timer {
 public:
  event_timer() {
    SCANKIT_TOOLS_CUDA_CHECK(cudaEventCreate(&start_));
    const cudaError_t e = cudaEventCreate(&stop_);
    if (e != cudaSuccess) {
      cudaEventDestroy(start_);
      throw_cuda_call(e, "cudaEventCreate(&stop_)");
    }
  }
  event_timer(const event_timer&) = delete;
  event_timer& operator=(const event_timer&) = delete;
  ~event_timer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start(cudaStream_t s) { SCANKIT_TOOLS_CUDA_CHECK(cudaEventRecord(start_, s)); }
  void stop(cudaStream_t s) { SCANKIT_TOOLS_CUDA_CHECK(cudaEventRecord(stop_, s)); }
  /// Waits for stop() and returns the milliseconds between the two events.
  double elapsed_ms() {
    SCANKIT_TOOLS_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    SCANKIT_TOOLS_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return static_cast<double>(ms);
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

/// Evicts the L2 cache by writing a buffer twice its size, so small problems are timed from
/// DRAM like large ones instead of from a cache the previous repetition warmed.
class l2_flusher {
 public:
  l2_flusher() {
    int dev = 0, l2 = 0;
    SCANKIT_TOOLS_CUDA_CHECK(cudaGetDevice(&dev));
    SCANKIT_TOOLS_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    if (l2 > 0) buf_.reserve(2 * static_cast<std::size_t>(l2));
  }
  void flush(cudaStream_t s) {
    if (buf_.size()) SCANKIT_TOOLS_CUDA_CHECK(cudaMemsetAsync(buf_.data(), 0, buf_.size(), s));
  }

 private:
  device_buffer buf_;
};

/// Calls f() (which enqueues work on `s`) `warmup` times untimed, then `reps` times timed with
/// CUDA events around f() alone; returns the `reps` times in milliseconds. before_each()
/// enqueues its work (poisoning outputs, flushing L2) before every call, outside the events.
template <class F, class Before = no_op>
std::vector<double> time_gpu_ms(cudaStream_t s, int warmup, int reps, F&& f, Before&& before_each = {}) {
  for (int i = 0; i < warmup; ++i) {
    before_each();
    f();
  }
  SCANKIT_TOOLS_CUDA_CHECK(cudaStreamSynchronize(s));
  event_timer t;
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(std::max(reps, 0)));
  for (int i = 0; i < reps; ++i) {
    before_each();
    t.start(s);
    f();
    t.stop(s);
    samples.push_back(t.elapsed_ms());
  }
  SCANKIT_TOOLS_CUDA_CHECK(cudaStreamSynchronize(s));
  return samples;
}

#endif  // SCANKIT_HAS_CUDA

}  // namespace scankit::tools
