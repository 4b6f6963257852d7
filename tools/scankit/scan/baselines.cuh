// Definitions of the CUB and Thrust scan baselines (see scan/baselines.hpp).
#pragma once

#include <cub/device/device_scan.cuh>
#include <thrust/scan.h>
#include <thrust/system/cuda/execution_policy.h>

#include <type_traits>

#include "common/baselines.cuh"
#include "scan/baselines.hpp"

namespace scankit::tools {

namespace detail {
template <class Op>
inline constexpr bool is_sum = false;
template <class T>
inline constexpr bool is_sum<scankit::sum<T>> = true;

// CUB's scans over one call shape: a size query (d_temp == nullptr) or the scan itself.
template <class Op>
cudaError_t cub_call(void* d_temp, std::size_t& bytes, const value_t<Op>* d_in, value_t<Op>* d_out,
                     std::int64_t n, scan_kind kind, cudaStream_t stream) {
  if constexpr (is_sum<Op>) {
    return kind == scan_kind::inclusive
               ? cub::DeviceScan::InclusiveSum(d_temp, bytes, d_in, d_out, n, stream)
               : cub::DeviceScan::ExclusiveSum(d_temp, bytes, d_in, d_out, n, stream);
  } else {
    return kind == scan_kind::inclusive
               ? cub::DeviceScan::InclusiveScan(d_temp, bytes, d_in, d_out, Op{}, n, stream)
               : cub::DeviceScan::ExclusiveScan(d_temp, bytes, d_in, d_out, Op{},
                                                Op::identity(), n, stream);
  }
}
}  // namespace detail

template <class Op>
std::size_t cub_scan_temp_bytes(std::int64_t n, scan_kind kind) {
  std::size_t bytes = 0;
  SCANKIT_CUDA_CHECK(detail::cub_call<Op>(nullptr, bytes, nullptr, nullptr, n, kind, nullptr));
  return bytes;
}

template <class Op>
void cub_scan(const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t n, scan_kind kind,
              void* d_temp, std::size_t temp_bytes, cudaStream_t stream) {
  std::size_t bytes = temp_bytes;
  SCANKIT_CUDA_CHECK(detail::cub_call<Op>(d_temp, bytes, d_in, d_out, n, kind, stream));
}

template <class Op>
void thrust_scan(const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t n, scan_kind kind,
                 thrust_scratch& scratch, cudaStream_t stream) {
  auto policy = thrust::cuda::par(scratch.get()).on(stream);
  if constexpr (detail::is_sum<Op>) {
    if (kind == scan_kind::inclusive) thrust::inclusive_scan(policy, d_in, d_in + n, d_out);
    else thrust::exclusive_scan(policy, d_in, d_in + n, d_out);
  } else {
    if (kind == scan_kind::inclusive) thrust::inclusive_scan(policy, d_in, d_in + n, d_out, Op{});
    else thrust::exclusive_scan(policy, d_in, d_in + n, d_out, Op::identity(), Op{});
  }
}

}  // namespace scankit::tools

#define SCANKIT_TOOLS_SCAN_BASELINES_FOR(...)                                                  \
  template std::size_t scankit::tools::cub_scan_temp_bytes<__VA_ARGS__>(std::int64_t,          \
                                                                       scankit::scan_kind);   \
  template void scankit::tools::cub_scan<__VA_ARGS__>(                                         \
      const scankit::value_t<__VA_ARGS__>*, scankit::value_t<__VA_ARGS__>*, std::int64_t,      \
      scankit::scan_kind, void*, std::size_t, cudaStream_t);                                   \
  template void scankit::tools::thrust_scan<__VA_ARGS__>(                                      \
      const scankit::value_t<__VA_ARGS__>*, scankit::value_t<__VA_ARGS__>*, std::int64_t,      \
      scankit::scan_kind, scankit::tools::thrust_scratch&, cudaStream_t);

/// The built-in operators of every element type.
#define SCANKIT_TOOLS_SCAN_BASELINES(T)                \
  SCANKIT_TOOLS_SCAN_BASELINES_FOR(scankit::sum<T>)     \
  SCANKIT_TOOLS_SCAN_BASELINES_FOR(scankit::product<T>) \
  SCANKIT_TOOLS_SCAN_BASELINES_FOR(scankit::min<T>)     \
  SCANKIT_TOOLS_SCAN_BASELINES_FOR(scankit::max<T>)

/// Every built-in operator of an integer type: the bitwise ones too.
#define SCANKIT_TOOLS_SCAN_BASELINES_INTEGER(T)        \
  SCANKIT_TOOLS_SCAN_BASELINES(T)                       \
  SCANKIT_TOOLS_SCAN_BASELINES_FOR(scankit::bit_and<T>) \
  SCANKIT_TOOLS_SCAN_BASELINES_FOR(scankit::bit_or<T>)  \
  SCANKIT_TOOLS_SCAN_BASELINES_FOR(scankit::bit_xor<T>)
