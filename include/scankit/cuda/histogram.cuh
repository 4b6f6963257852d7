// The CUDA histograms' definitions (instantiated by the library in src/cuda/histogram_*.cu).
//
// Layering: histogram_even/range (entry: check arguments, zero counts) -> plan_histogram
// (strategy and launch shape for the bin count and device) -> run_plan (launch per
// 2^31-sample chunk) -> the kernels in detail/histogram/kernels.cuh.
#pragma once

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/histogram/kernels.cuh"
#include "scankit/cuda/histogram.hpp"

namespace scankit::cuda {

namespace detail::hist {

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
    const int optin = device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin);
    SCANKIT_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
  }
  int per_sm = 0;
  SCANKIT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, smem));
  const int sms = device_sm_count();
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

}  // namespace detail::hist

template <histogram_sample T, histogram_counter C>
void histogram_even(const T* d_samples, std::int64_t n, C* d_counts, std::int64_t num_bins,
                    histogram_level_t<T> lower, histogram_level_t<T> upper, cudaStream_t stream,
                    const histogram_options& opts) {
  const char* where = "scankit::cuda::histogram_even";
  detail::hist::check_device_args(d_samples, n, d_counts, where);
  const auto e = even_bins<T>::make(num_bins, lower, upper, where);
  const histogram_plan p = plan_histogram(num_bins, sizeof(T), opts);
  detail::hist::zero_counts(d_counts, num_bins, opts.accumulate, stream);
  if (n == 0) return;
  if constexpr (!std::is_floating_point_v<T>) {
    if constexpr (sizeof(T) <= 2) {
      if (e.identity())
        return detail::hist::run_plan(p, d_samples, n, even_bins_identity<T>{}, d_counts, e.num_bins, stream);
    }
    if (e.full_range())
      return detail::hist::run_plan(p, d_samples, n, even_bins_full<T>{e}, d_counts, e.num_bins, stream);
    if (e.fast_path())
      return detail::hist::run_plan(p, d_samples, n, even_bins_fast<T>{e}, d_counts, e.num_bins, stream);
  }
  detail::hist::run_plan(p, d_samples, n, e, d_counts, e.num_bins, stream);
}

template <histogram_sample T, histogram_counter C>
void histogram_range(const T* d_samples, std::int64_t n, C* d_counts,
                     const histogram_level_t<T>* d_edges, std::int64_t num_edges,
                     cudaStream_t stream, const histogram_options& opts) {
  const char* where = "scankit::cuda::histogram_range";
  detail::hist::check_device_args(d_samples, n, d_counts, where);
  const auto r = range_bins<T>::make(d_edges, num_edges, false, where);
  const histogram_plan p = plan_histogram(r.num_bins, sizeof(T), opts);
  detail::hist::zero_counts(d_counts, r.num_bins, opts.accumulate, stream);
  if (n == 0) return;
  detail::hist::run_plan(p, d_samples, n, r, d_counts, r.num_bins, stream);
}

template <histogram_sample T, histogram_counter C>
  requires std::is_integral_v<T>
void bincount_capped(const T* d_keys, std::int64_t n, C* d_counts, std::int64_t capacity,
                     std::int64_t* d_summary, cudaStream_t stream, const histogram_options& opts) {
  const char* where = "scankit::cuda::bincount_capped";
  detail::hist::check_device_args(d_keys, n, d_counts, where);
  if (capacity < 1 || capacity > max_bincount_capacity)
    throw invalid_argument(std::string(where) + ": capacity = " + std::to_string(capacity) +
                           " is outside [1, 2^24 - 2]");
  if (d_summary == nullptr) throw invalid_argument(std::string(where) + ": summary is a null pointer");
  if (reinterpret_cast<std::uintptr_t>(d_summary) % alignof(std::int64_t) != 0)
    throw invalid_argument(std::string(where) + ": summary is not aligned to int64");
  const std::int64_t bins = capacity + 2;
  const int cap = static_cast<int>(capacity);
  // 1- and 2-byte keys below a capacity that holds every value are counted as they are, in the
  // values' own bins (65,536 bins of 16-bit keys keep 16-bit shared counters; 65,538 would not).
  std::int64_t values = bins;
  if constexpr (sizeof(T) <= 2)
    if (capacity >= (std::int64_t{1} << (8 * sizeof(T)))) values = std::int64_t{1} << (8 * sizeof(T));
  const histogram_plan p = plan_histogram(values, sizeof(T), opts);
  detail::hist::zero_counts(d_counts, bins, opts.accumulate, stream);
  SCANKIT_CUDA_CHECK(cudaMemsetAsync(d_summary + 2, 0xFF, sizeof(std::int64_t), stream));  // -1
  if (n > 0) {
    if (values < bins) {
      if constexpr (sizeof(T) <= 2)
        detail::hist::run_plan(p, d_keys, n, even_bins_identity<T>{}, d_counts,
                               static_cast<int>(values), stream);
    } else {
      detail::hist::run_plan(p, d_keys, n, detail::hist::capped_bins<T>{cap}, d_counts,
                             static_cast<int>(bins), stream);
    }
  }
  using detail::hist::summary_block, detail::hist::summary_per_thread;
  const auto grid = static_cast<int>(
      std::max<std::int64_t>(1, detail::ceil_div(capacity, std::int64_t{summary_block} * summary_per_thread)));
  detail::hist::capped_summary_kernel<<<grid, summary_block, 0, stream>>>(d_counts, cap, d_summary);
  SCANKIT_LAUNCH_CHECK("bincount_capped summary");
}

template <histogram_sample T, histogram_counter C>
void histogram_even(std::span<const T> samples, std::span<C> counts, histogram_level_t<T> lower,
                    histogram_level_t<T> upper, const histogram_options& opts) {
  const char* where = "scankit::cuda::histogram_even";
  even_bins<T>::make(static_cast<std::int64_t>(counts.size()), lower, upper, where);  // checks first
  detail::hist::require_device(where);
  plan_histogram(static_cast<std::int64_t>(counts.size()), sizeof(T), opts);  // needs the device
  detail::hist::via_device(samples, counts, opts.accumulate, [&](const T* in, std::int64_t n, C* c) {
    histogram_options o = opts;
    o.accumulate = opts.accumulate;
    histogram_even(in, n, c, static_cast<std::int64_t>(counts.size()), lower, upper, nullptr, o);
  });
}

template <histogram_sample T, histogram_counter C>
void histogram_range(std::span<const T> samples, std::span<C> counts,
                     std::span<const histogram_level_t<T>> edges, const histogram_options& opts) {
  const char* where = "scankit::cuda::histogram_range";
  range_bins<T>::make(edges.data(), static_cast<std::int64_t>(edges.size()), true, where);
  if (counts.size() + 1 != edges.size())
    throw invalid_argument(std::string(where) + ": counts must have edges.size() - 1 entries");
  detail::hist::require_device(where);
  plan_histogram(static_cast<std::int64_t>(counts.size()), sizeof(T), opts);  // needs the device
  detail::hist::device_array d_edges(edges.size_bytes());
  SCANKIT_CUDA_CHECK(cudaMemcpy(d_edges.p, edges.data(), edges.size_bytes(), cudaMemcpyHostToDevice));
  detail::hist::via_device(samples, counts, opts.accumulate, [&](const T* in, std::int64_t n, C* c) {
    histogram_range(in, n, c, static_cast<const histogram_level_t<T>*>(d_edges.p),
                    static_cast<std::int64_t>(edges.size()), nullptr, opts);
  });
}

}  // namespace scankit::cuda

/// Instantiates every histogram entry point for one sample type and one counter type.
#define SCANKIT_INSTANTIATE_HISTOGRAM(T, C)                                                      \
  template void scankit::cuda::histogram_even<T, C>(const T*, std::int64_t, C*, std::int64_t,     \
                                                    scankit::histogram_level_t<T>,                \
                                                    scankit::histogram_level_t<T>, cudaStream_t,  \
                                                    const scankit::cuda::histogram_options&);     \
  template void scankit::cuda::histogram_range<T, C>(const T*, std::int64_t, C*,                  \
                                                     const scankit::histogram_level_t<T>*,        \
                                                     std::int64_t, cudaStream_t,                  \
                                                     const scankit::cuda::histogram_options&);    \
  template void scankit::cuda::histogram_even<T, C>(std::span<const T>, std::span<C>,             \
                                                    scankit::histogram_level_t<T>,                \
                                                    scankit::histogram_level_t<T>,                \
                                                    const scankit::cuda::histogram_options&);     \
  template void scankit::cuda::histogram_range<T, C>(                                             \
      std::span<const T>, std::span<C>, std::span<const scankit::histogram_level_t<T>>,           \
      const scankit::cuda::histogram_options&);

/// Instantiates bincount_capped for one integer key type and one counter type.
#define SCANKIT_INSTANTIATE_BINCOUNT(T, C)                                                        \
  template void scankit::cuda::bincount_capped<T, C>(const T*, std::int64_t, C*, std::int64_t,    \
                                                     std::int64_t*, cudaStream_t,                 \
                                                     const scankit::cuda::histogram_options&);
