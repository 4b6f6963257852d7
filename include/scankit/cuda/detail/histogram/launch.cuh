// The CUDA histograms' host side: the resident grid of a kernel shape, run_plan (the launches
// of a plan, one per 2^31-sample chunk) and the helpers of the entry points (argument checks,
// zeroing, the host-container round trip). The plan comes from detail/histogram/plan.hpp.
#pragma once

#include <algorithm>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <tuple>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/histogram/kernels.cuh"
#include "scankit/cuda/histogram.hpp"

namespace scankit::cuda::detail::hist {

/// Blocks of `block` threads with `smem` dynamic shared bytes that fit on one SM, times the
/// SMs, for `kernel` on the current device; sets the kernel's shared-memory opt-in the first
/// time. Cached: the event-timed benchmarks should not time driver queries.
template <class Kernel>
int resident_grid(Kernel kernel, int block, std::size_t smem) {
  static std::mutex mu;
  static std::map<std::tuple<const void*, int, int, std::size_t>, int> cache;
  int dev = 0;
  SCANKIT_CUDA_CHECK(cudaGetDevice(&dev));
  const auto key = std::make_tuple(reinterpret_cast<const void*>(kernel), dev, block, smem);
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  if (smem > 48 * 1024) {
    // Opt in to the device's whole per-block limit (not just smem): a later call of the same
    // kernel with a smaller histogram must not lower the limit an earlier, cached one needs.
    const auto optin = static_cast<int>(current_device_info().smem_per_block_optin);
    SCANKIT_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
  }
  int per_sm = 0;
  SCANKIT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, smem));
  const int sms = current_device_info().sm_count;
  if (per_sm < 1)
    throw invalid_argument("scankit::cuda::histogram: a block of " + std::to_string(block) +
                           " threads with " + std::to_string(smem) +
                           " bytes of shared memory does not fit on this GPU");
  const int grid = per_sm * sms;
  cache.emplace(key, grid);
  return grid;
}

/// Counts n samples (already checked) with the plan; counts already zeroed or accumulating.
template <class T, class C, class Bins>
void run_plan(const histogram_plan& p, const T* in, std::int64_t n, const Bins& bins, C* counts,
              int num_bins, cudaStream_t s) {
  using strategy = histogram_plan::strategy;
  for (std::int64_t off = 0; off < n; off += max_samples_per_launch) {
    const std::int64_t m = std::min(max_samples_per_launch, n - off);
    const T* chunk = in + off;
    const std::int64_t vectors = m / vec<T> + 1;
    const std::int64_t tile_vectors = static_cast<std::int64_t>(p.block_size) * unroll;
    const auto wanted = static_cast<int>(std::min<std::int64_t>(ceil_div(vectors, tile_vectors), 1 << 30));
    using aggregation = histogram_plan::aggregation;
    switch (p.kind) {
      case strategy::global_blocked: {
        auto k = global_kernel<T, C, Bins, true, agg::none>;
        const int grid = std::min(resident_grid(k, p.block_size, 0), std::max(wanted, 1));
        k<<<grid, p.block_size, 0, s>>>(chunk, m, bins, counts);
        SCANKIT_LAUNCH_CHECK("histogram global_kernel (blocked)");
        break;
      }
      case strategy::global_strided: {
        auto k = p.aggregate == aggregation::vectors ? global_kernel<T, C, Bins, false, agg::vectors>
                                                     : global_kernel<T, C, Bins, false, agg::none>;
        const int grid = std::min(resident_grid(k, p.block_size, 0), std::max(wanted, 1));
        k<<<grid, p.block_size, 0, s>>>(chunk, m, bins, counts);
        SCANKIT_LAUNCH_CHECK("histogram global_kernel");
        break;
      }
      case strategy::shared32:
      case strategy::shared32_lanes:
      case strategy::shared16: {
        using L = shared_layout;
        auto k = p.kind == strategy::shared16         ? shared_kernel<T, C, Bins, L::narrow16, agg::vectors>
                 : p.kind == strategy::shared32_lanes ? shared_kernel<T, C, Bins, L::lanes, agg::vectors>
                 : p.aggregate == aggregation::runs    ? shared_kernel<T, C, Bins, L::rows, agg::runs>
                 : p.aggregate == aggregation::vectors ? shared_kernel<T, C, Bins, L::rows, agg::vectors>
                                                       : shared_kernel<T, C, Bins, L::rows, agg::none>;
        const int grid = std::min(resident_grid(k, p.block_size, p.shared_bytes), std::max(wanted, 1));
        const int tiles_per_round =
            std::max(1, shared16_round_samples / (p.block_size * unroll * vec<T>));
        k<<<grid, p.block_size, p.shared_bytes, s>>>(chunk, m, bins, counts, num_bins, p.copies,
                                                     tiles_per_round);
        SCANKIT_LAUNCH_CHECK("histogram shared_kernel");
        break;
      }
    }
  }
}

template <class T, class C>
void check_device_args(const T* d_samples, std::int64_t n, const C* d_counts, const char* where) {
  scankit::detail::check_size(n, where);
  scankit::detail::check_pointer(d_samples, n, "samples", where);
  if (d_counts == nullptr) throw invalid_argument(std::string(where) + ": counts is a null pointer");
  if (reinterpret_cast<std::uintptr_t>(d_samples) % alignof(T) != 0)
    throw invalid_argument(std::string(where) + ": samples are not aligned to their type");
  if (reinterpret_cast<std::uintptr_t>(d_counts) % alignof(C) != 0)
    throw invalid_argument(std::string(where) + ": counts are not aligned to their type");
}

template <class C>
void zero_counts(C* d_counts, std::int64_t num_bins, bool accumulate, cudaStream_t s) {
  if (!accumulate)
    SCANKIT_CUDA_CHECK(cudaMemsetAsync(d_counts, 0, static_cast<std::size_t>(num_bins) * sizeof(C), s));
}

/// Device memory freed on scope exit (the host-container calls).
struct device_array {
  void* p = nullptr;
  explicit device_array(std::size_t bytes) {
    if (bytes) SCANKIT_CUDA_CHECK(cudaMalloc(&p, bytes));
  }
  ~device_array() {
    if (p) cudaFree(p);
  }
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
};

inline void require_device(const char* where) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    throw no_device_error(std::string(where) + ": no CUDA device");
  }
}

/// The host-container calls: samples and counts through device memory, one synchronisation.
template <class T, class C, class Count>
void via_device(std::span<const T> samples, std::span<C> counts, bool accumulate, Count&& count) {
  const auto n = static_cast<std::int64_t>(samples.size());
  device_array d_in(samples.size_bytes()), d_counts(counts.size_bytes());
  if (n) SCANKIT_CUDA_CHECK(cudaMemcpy(d_in.p, samples.data(), samples.size_bytes(), cudaMemcpyHostToDevice));
  if (accumulate)
    SCANKIT_CUDA_CHECK(cudaMemcpy(d_counts.p, counts.data(), counts.size_bytes(), cudaMemcpyHostToDevice));
  count(static_cast<const T*>(d_in.p), n, static_cast<C*>(d_counts.p));
  SCANKIT_CUDA_CHECK(cudaMemcpy(counts.data(), d_counts.p, counts.size_bytes(), cudaMemcpyDeviceToHost));
}

}  // namespace scankit::cuda::detail::hist
