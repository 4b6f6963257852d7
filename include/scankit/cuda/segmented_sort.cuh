// The CUDA segmented sorts' entry points (instantiated by the library in
// src/cuda/segmented_sort_<key>.cu): the argument and workspace checks, then the call into detail.
//
// Layering: segmented_sort_device() (checks) -> detail/segmented_sort/plan.hpp (which path) ->
// launch.cuh (workspace and launches) -> pieces.cuh and merge_rounds.cuh (the merge path), or
// the flat sorts of detail/sort and kernels.cuh (the two-sort path).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "scankit/cuda/detail/arena.hpp"
#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/error.cuh"
#include "scankit/cuda/detail/math.hpp"
#include "scankit/cuda/detail/segmented_sort/launch.cuh"
#include "scankit/cuda/detail/segmented_sort/plan.hpp"
#include "scankit/cuda/detail/sort/common.cuh"  // radix::blob16
#include "scankit/cuda/scan.hpp"                // workspace, device_count
#include "scankit/cuda/segmented_sort.hpp"

namespace scankit::cuda::detail {

template <class K>
void segmented_sort_device(const segmented_sort_request& r) {
  static_assert(is_sort_key_v<K>, "scankit::cuda segmented sort keys are 8..64-bit integers, float and double");
  constexpr const char* where = "scankit::cuda::segmented_sort";
  namespace ss = detail::segmented_sort;
  scankit::detail::check_size(r.n, where);
  if (r.seg.count < 0) throw invalid_argument(std::string(where) + ": the number of segments must be >= 0");
  if (r.seg.count > 0 && (r.seg.begin == nullptr || r.seg.end == nullptr))
    throw invalid_argument(std::string(where) + ": null segment bounds");
  scankit::detail::check_pointer(r.keys_in, r.n, "input keys", where);
  scankit::detail::check_pointer(r.keys_out, r.n, "output keys", where);
  const std::size_t vb = r.value_bytes;
  if (vb != 0 && vb != 4 && vb != 8 && vb != 16)
    throw invalid_argument(std::string(where) + ": values must be 4, 8 or 16 bytes, not " + std::to_string(vb));
  if (vb) {
    scankit::detail::check_pointer(r.values_in, r.n, "input values", where);
    scankit::detail::check_pointer(r.values_out, r.n, "output values", where);
    const std::size_t align = vb < 8 ? vb : 8;
    if (reinterpret_cast<std::uintptr_t>(r.values_in) % align || reinterpret_cast<std::uintptr_t>(r.values_out) % align)
      throw invalid_argument(std::string(where) + ": value pointers must be aligned to " + std::to_string(align) + " bytes");
  }
  if (reinterpret_cast<std::uintptr_t>(r.keys_in) % sizeof(K) || reinterpret_cast<std::uintptr_t>(r.keys_out) % sizeof(K))
    throw invalid_argument(std::string(where) + ": key pointers must be aligned to the key size");
  const auto [begin_bit, end_bit] = scankit::detail::sort_bit_range(r.options, static_cast<int>(sizeof(K) * 8), where);
  const std::size_t need = segmented_sort_workspace_bytes(r.n, r.seg.count, sizeof(K), vb, r.config);
  if (r.workspace_bytes < need)
    throw invalid_argument(std::string(where) + ": workspace of " + std::to_string(r.workspace_bytes) +
                           " bytes is too small; this call needs " + std::to_string(need));
  check_workspace_pointer(r.workspace, need, where);
  if (r.n == 0) return;
  if (r.seg.count == 0) {  // no segment: every key stays where it is
    if (r.keys_out != r.keys_in)
      SCANKIT_CUDA_CHECK(cudaMemcpyAsync(r.keys_out, r.keys_in, static_cast<std::size_t>(r.n) * sizeof(K),
                                         cudaMemcpyDeviceToDevice, r.stream));
    if (vb && r.values_out != r.values_in)
      SCANKIT_CUDA_CHECK(cudaMemcpyAsync(r.values_out, r.values_in, static_cast<std::size_t>(r.n) * vb,
                                         cudaMemcpyDeviceToDevice, r.stream));
    return;
  }
  arena a(r.workspace, r.workspace_bytes);
  const ss::segments_of seg{r.seg.begin, r.seg.end, 0};
  const int sms = current_device_info().sm_count;
  const K* kin = static_cast<const K*>(r.keys_in);
  K* kout = static_cast<K*>(r.keys_out);
  const auto path = ss::plan(r.n, r.seg.count, r.config);
  auto run = [&](auto value_tag) {
    using V = typename decltype(value_tag)::type;
    const V* vin = static_cast<const V*>(r.values_in);
    V* vout = static_cast<V*>(r.values_out);
    if (path == segmented_sort_path::merge) {
      ss::run_merge(kin, kout, vin, vout, r.n, seg, r.seg.count, begin_bit, end_bit, r.options.descending, r.config,
                    a, sms, r.stream);
    } else if constexpr (!std::is_void_v<V>) {
      ss::run_two_sort(kin, kout, vin, vout, r.n, seg, r.seg.count, r.options, begin_bit, end_bit, a, sms, r.stream);
    } else {  // keys alone: the two-sort path checks its value pointers (null) at run time
      ss::run_two_sort(kin, kout, static_cast<const std::uint32_t*>(nullptr), static_cast<std::uint32_t*>(nullptr),
                       r.n, seg, r.seg.count, r.options, begin_bit, end_bit, a, sms, r.stream);
    }
  };
  if (vb == 16) run(std::type_identity<radix::blob16>{});
  else if (vb == 8) run(std::type_identity<std::uint64_t>{});
  else if (vb == 4) run(std::type_identity<std::uint32_t>{});
  else run(std::type_identity<void>{});
}

template <class K>
void segmented_sort_host(K* keys, void* values, std::size_t value_bytes, std::int64_t n, const segment_bounds& seg,
                         const sort_options& opts, const segmented_sort_config& cfg) {
  constexpr const char* where = "scankit::cuda::segmented_sort (host)";
  scankit::detail::check_size(n, where);
  scankit::detail::check_pointer(keys, n, "keys", where);
  if (value_bytes) scankit::detail::check_pointer(values, n, "values", where);
  check_segments_host(seg, n, where);
  scankit::detail::sort_bit_range(opts, static_cast<int>(sizeof(K) * 8), where);
  if (device_count() == 0) throw no_device_error(std::string(where) + ": no CUDA device");
  if (n == 0 || seg.count == 0) return;
  const std::size_t kb = align_up(static_cast<std::size_t>(n) * sizeof(K));
  const std::size_t vbytes = align_up(static_cast<std::size_t>(n) * value_bytes);
  const std::size_t sb = align_up(static_cast<std::size_t>(seg.count) * 8);
  const std::size_t wb = segmented_sort_workspace_bytes(n, seg.count, sizeof(K), value_bytes, cfg);
  workspace mem(kb + vbytes + 2 * sb + wb);
  char* base = static_cast<char*>(mem.data());
  K* d_keys = reinterpret_cast<K*>(base);
  void* d_vals = value_bytes ? base + kb : nullptr;
  auto* d_begin = reinterpret_cast<std::int64_t*>(base + kb + vbytes);
  auto* d_end = reinterpret_cast<std::int64_t*>(base + kb + vbytes + sb);
  void* d_ws = base + kb + vbytes + 2 * sb;
  cudaStream_t s = nullptr;
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(d_keys, keys, static_cast<std::size_t>(n) * sizeof(K), cudaMemcpyHostToDevice, s));
  if (value_bytes)
    SCANKIT_CUDA_CHECK(cudaMemcpyAsync(d_vals, values, static_cast<std::size_t>(n) * value_bytes, cudaMemcpyHostToDevice, s));
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(d_begin, seg.begin, static_cast<std::size_t>(seg.count) * 8, cudaMemcpyHostToDevice, s));
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(d_end, seg.end, static_cast<std::size_t>(seg.count) * 8, cudaMemcpyHostToDevice, s));
  segmented_sort_request r;
  r.keys_in = d_keys, r.keys_out = d_keys, r.values_in = d_vals, r.values_out = d_vals, r.value_bytes = value_bytes;
  r.n = n, r.seg = segment_bounds(d_begin, d_end, seg.count), r.workspace = d_ws, r.workspace_bytes = wb;
  r.stream = s, r.options = opts, r.config = cfg;
  segmented_sort_device<K>(r);
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(keys, d_keys, static_cast<std::size_t>(n) * sizeof(K), cudaMemcpyDeviceToHost, s));
  if (value_bytes)
    SCANKIT_CUDA_CHECK(cudaMemcpyAsync(values, d_vals, static_cast<std::size_t>(n) * value_bytes, cudaMemcpyDeviceToHost, s));
  SCANKIT_CUDA_CHECK(cudaStreamSynchronize(s));
}

}  // namespace scankit::cuda::detail

/// Explicit instantiation of the segmented sorts of key type K (device pointers and host containers).
#define SCANKIT_INSTANTIATE_SEGMENTED_SORT(K)                                                             \
  template void scankit::cuda::detail::segmented_sort_device<K>(                                          \
      const scankit::cuda::detail::segmented_sort_request&);                                              \
  template void scankit::cuda::detail::segmented_sort_host<K>(K*, void*, std::size_t, std::int64_t,       \
                                                              const scankit::segment_bounds&,             \
                                                              const scankit::sort_options&,               \
                                                              const scankit::cuda::segmented_sort_config&);
