// The GPU ranks' test cases, shared by the one-process suite (1 and 2 GPUs) and the
// one-process-per-GPU suite under mpirun: each process checks the shards of its local ranks
// against the serial CPU reference of the whole global array (dist_test_util.hpp). The cases
// are compiled once, in nccl_test_cases.cu, for both suites.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "dist/dist_test_util.hpp"
#include "scankit/dist/nccl.cuh"

namespace scankit::dist::test {

inline void cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) ADD_FAILURE() << what << ": " << cudaGetErrorString(e);
}

/// Device memory of one local rank, allocated, filled, read and freed in order on the rank's
/// stream: a plain cudaMalloc or cudaFree waits for the whole device, which never finishes
/// while a NCCL kernel there waits for a rank that another thread has yet to launch.
template <class T>
class device_array {
 public:
  device_array(const nccl_local_rank& l, std::int64_t n) : device_(l.device), stream_(l.stream), n_(n) {
    detail::device_guard g(device_);
    cuda_ok(cudaMallocAsync(&p_, static_cast<std::size_t>(n > 0 ? n : 1) * sizeof(T), stream_), "cudaMallocAsync");
  }
  device_array(const nccl_local_rank& l, const std::vector<T>& host) : device_array(l, static_cast<std::int64_t>(host.size())) {
    detail::device_guard g(device_);
    if (n_ > 0) cuda_ok(cudaMemcpyAsync(p_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, stream_), "cudaMemcpyAsync");
    cuda_ok(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
  }
  device_array(device_array&& o) noexcept : device_(o.device_), stream_(o.stream_), n_(o.n_), p_(o.p_) { o.p_ = nullptr; }
  device_array(const device_array&) = delete;
  ~device_array() {
    if (!p_) return;
    detail::device_guard g(device_);
    cudaFreeAsync(p_, stream_);
  }
  T* get() const { return p_; }
  std::int64_t size() const { return n_; }
  /// The first `count` items (all by default); call after the rank's work is done.
  std::vector<T> host(std::int64_t count = -1) const {
    detail::device_guard g(device_);
    std::vector<T> h(static_cast<std::size_t>(count < 0 ? n_ : count));
    if (!h.empty()) cuda_ok(cudaMemcpyAsync(h.data(), p_, h.size() * sizeof(T), cudaMemcpyDeviceToHost, stream_), "cudaMemcpyAsync");
    cuda_ok(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
    return h;
  }

 private:
  int device_;
  cudaStream_t stream_;
  std::int64_t n_;
  T* p_ = nullptr;
};

/// Every case of each primitive, over every type, layout and path (nccl_test_cases.cu).
void scan_cases(nccl_communicator& c);
void compaction_cases(nccl_communicator& c);
void histogram_cases(nccl_communicator& c);
void sort_cases(nccl_communicator& c);

}  // namespace scankit::dist::test
