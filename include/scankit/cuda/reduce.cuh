// The CUDA reductions' definitions (instantiated by the library in src/cuda/reduce_<type>.cu;
// include this from a .cu file to reduce with your own monoid).
//
// Layering: transform_reduce() -> detail/reduce/launch.cuh (checks, plan, passes) ->
// plan.hpp (the shape of the call, from tuning.hpp) -> kernels.cuh.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "scankit/cuda/detail/reduce/launch.cuh"
#include "scankit/cuda/reduce.hpp"

namespace scankit::cuda {

template <class T, class F, class Op>
void transform_reduce(const T* d_in, std::int64_t n, F f, Op op, value_t<Op>* d_out, void* d_workspace,
                      std::size_t workspace_bytes, cudaStream_t stream, const reduce_config& cfg) {
  detail::reduce::run(d_in, n, 0, f, op, d_out, d_workspace, workspace_bytes, stream, cfg, {});
}

namespace detail::reduce {

/// Device memory of a host-container reduction, freed on every way out.
struct device_buffer {
  void* p = nullptr;
  explicit device_buffer(std::size_t bytes) { SCANKIT_CUDA_CHECK(cudaMalloc(&p, std::max<std::size_t>(bytes, 1))); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() { cudaFree(p); }
};

/// Items per chunk of a host-container reduction: what the memory limit leaves after the
/// workspace and the chunk results, at most 2^26 items (large enough to reach full speed).
template <class T, class U>
std::int64_t host_chunk_items(std::int64_t n, std::size_t limit, std::size_t fixed_bytes) {
  std::int64_t items = std::int64_t{1} << 26;
  if (limit > 0) {
    if (limit <= fixed_bytes + sizeof(T) + sizeof(U))
      throw invalid_argument("scankit::cuda::reduce: device_memory_limit too small for the workspace");
    items = std::min<std::int64_t>(items, static_cast<std::int64_t>((limit - fixed_bytes) / (sizeof(T) + sizeof(U))));
  }
  return std::max<std::int64_t>(1, std::min(items, n));
}

}  // namespace detail::reduce

template <class T, class F, class Op>
value_t<Op> transform_reduce_host(const T* in, std::int64_t n, F f, Op op, const host_reduce_options& opts) {
  using U = value_t<Op>;
  namespace dr = detail::reduce;
  if (n < 0) throw invalid_argument("scankit::cuda::reduce: n must be >= 0");
  if (n > 0 && in == nullptr) throw invalid_argument("scankit::cuda::reduce: null input");
  if (device_count() == 0) throw no_device_error("scankit::cuda::reduce: no CUDA device");
  const std::size_t ws_bytes = reduce_workspace_bytes(sizeof(U));
  const std::int64_t chunk = dr::host_chunk_items<T, U>(n, opts.device_memory_limit, ws_bytes + 2 * 256);
  const std::int64_t chunks = n == 0 ? 1 : (n + chunk - 1) / chunk;
  const std::size_t in_bytes = detail::align_up(static_cast<std::size_t>(std::min(chunk, std::max<std::int64_t>(n, 1))) * sizeof(T));
  const std::size_t results_bytes = detail::align_up(static_cast<std::size_t>(chunks + 1) * sizeof(U));
  dr::device_buffer buf(ws_bytes + in_bytes + results_bytes);
  char* base = static_cast<char*>(buf.p);
  void* ws = base;
  T* d_chunk = reinterpret_cast<T*>(base + ws_bytes);
  U* d_results = reinterpret_cast<U*>(base + ws_bytes + in_bytes);
  cudaStream_t s = nullptr;
  SCANKIT_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  struct stream_guard {
    cudaStream_t s;
    ~stream_guard() { cudaStreamDestroy(s); }
  } guard{s};
  // Chunk c's result goes to d_results[c]; the chunks' results are then reduced in order.
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::int64_t begin = c * chunk, count = std::min(chunk, n - begin);
    if (count > 0)
      SCANKIT_CUDA_CHECK(cudaMemcpyAsync(d_chunk, in + begin, static_cast<std::size_t>(count) * sizeof(T),
                                         cudaMemcpyHostToDevice, s));
    dr::run(d_chunk, count, begin, f, op, d_results + c, ws, ws_bytes, s, opts.config, {});
  }
  U* d_total = d_results + chunks;
  dr::run(static_cast<const U*>(d_results), chunks, 0, as_value{}, op, d_total, ws, ws_bytes, s, reduce_config{}, {});
  U result;
  copy_result_to_host(&result, d_total, sizeof(U), s);
  return result;
}

}  // namespace scankit::cuda

/// Explicit instantiation of the reductions of T with the item transform F and monoid Op
/// (device pointers and host containers).
#define SCANKIT_INSTANTIATE_REDUCE(T, F, ...)                                                               \
  template void scankit::cuda::transform_reduce<T, F, __VA_ARGS__>(                                         \
      const T*, std::int64_t, F, __VA_ARGS__, scankit::value_t<__VA_ARGS__>*, void*, std::size_t,          \
      cudaStream_t, const scankit::cuda::reduce_config&);                                                   \
  template scankit::value_t<__VA_ARGS__> scankit::cuda::transform_reduce_host<T, F, __VA_ARGS__>(           \
      const T*, std::int64_t, F, __VA_ARGS__, const scankit::cuda::host_reduce_options&);
