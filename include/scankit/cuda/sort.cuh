// The CUDA sorts' entry points (instantiated by the library in src/cuda/sort_<key>.cu): the
// argument and workspace checks, then the call into detail.
//
// Layering: sort_device() (checks arguments) -> radix::run_sort (value type; launch.cuh) ->
// plan_for (which path: detail/sort/plan.cuh, tuning in detail/sort/tuning.cuh) -> the path's
// host driver (detail/sort/launch.cuh) -> its kernels (detail/sort/*.cuh).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/sort/launch.cuh"
#include "scankit/cuda/sort.hpp"

namespace scankit::cuda::detail {

template <class K>
void sort_device(const sort_request& r) {
  constexpr const char* where = "scankit::cuda::sort";
  scankit::detail::check_size(r.n, where);
  scankit::detail::check_pointer(r.keys_in, r.n, "input keys", where);
  scankit::detail::check_pointer(r.keys_out, r.n, "output keys", where);
  const std::size_t vb = r.value_bytes;
  if (vb != 0 && vb != 4 && vb != 8 && vb != 16)
    throw invalid_argument(std::string(where) + ": values must be 4, 8 or 16 bytes, not " + std::to_string(vb));
  if (r.index_values && vb != 8 && vb != 4)
    throw invalid_argument(std::string(where) + ": argsort writes 8-byte or 4-byte indices");
  if (r.index_values && vb == 4 && r.n > (std::int64_t{1} << 32))
    throw invalid_argument(std::string(where) + ": 32-bit indices hold at most 2^32 positions, not " +
                           std::to_string(r.n));
  if (vb) {
    if (!r.index_values) scankit::detail::check_pointer(r.values_in, r.n, "input values", where);
    scankit::detail::check_pointer(r.values_out, r.n, "output values", where);
    const std::size_t align = std::min<std::size_t>(vb, 8);
    if (reinterpret_cast<std::uintptr_t>(r.values_in) % align || reinterpret_cast<std::uintptr_t>(r.values_out) % align)
      throw invalid_argument(std::string(where) + ": value pointers must be aligned to " + std::to_string(align) + " bytes");
  }
  if (reinterpret_cast<std::uintptr_t>(r.keys_in) % sizeof(K) || reinterpret_cast<std::uintptr_t>(r.keys_out) % sizeof(K))
    throw invalid_argument(std::string(where) + ": key pointers must be aligned to the key size");
  const auto [begin, end] = scankit::detail::sort_bit_range(r.options, radix_traits<K>::bits, where);
  // int64 argsort positions carried as 32 bits (sort_positions): their own, smaller workspace.
  const bool narrow = r.index_values && vb == 8 &&
                      radix::narrow_positions(r.n, sizeof(K), begin, end, r.config, radix::sort_device_info());
  const std::size_t need = r.index_values ? argsort_workspace_bytes(r.n, sizeof(K), vb, r.config)
                                          : sort_workspace_bytes(r.n, sizeof(K), vb, r.config);
  if (r.workspace_bytes < need)
    throw invalid_argument(std::string(where) + ": workspace of " + std::to_string(r.workspace_bytes) +
                           " bytes is too small; " + std::string(name(r.config.algorithm)) + " needs " +
                           std::to_string(need) + " for n = " + std::to_string(r.n));
  detail::check_workspace_pointer(r.workspace, need, where);
  radix::run_sort<K>(r, begin, end, narrow);
}

template <class K>
void sort_host(K* keys, void* values, std::size_t value_bytes, bool index_values, std::int64_t n,
               const sort_options& opts, const sort_config& cfg) {
  constexpr const char* where = "scankit::cuda::sort (host)";
  scankit::detail::check_size(n, where);
  scankit::detail::check_pointer(keys, n, "keys", where);
  if (value_bytes) scankit::detail::check_pointer(values, n, "values", where);
  scankit::detail::sort_bit_range(opts, radix_traits<K>::bits, where);
  if (device_count() == 0) throw no_device_error(std::string(where) + ": no CUDA device");
  if (n == 0) return;
  const std::size_t kbytes = sizeof(K) * static_cast<std::size_t>(n);
  const std::size_t vbytes = value_bytes * static_cast<std::size_t>(n);
  const std::size_t wbytes = sort_workspace_bytes(n, sizeof(K), value_bytes, cfg);
  workspace mem(align_up(kbytes) + align_up(vbytes) + wbytes);
  char* base = static_cast<char*>(mem.data());
  K* d_keys = reinterpret_cast<K*>(base);
  void* d_vals = value_bytes ? base + align_up(kbytes) : nullptr;
  void* d_ws = base + align_up(kbytes) + align_up(vbytes);
  cudaStream_t s = nullptr;
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(d_keys, keys, kbytes, cudaMemcpyHostToDevice, s));
  if (value_bytes && !index_values) SCANKIT_CUDA_CHECK(cudaMemcpyAsync(d_vals, values, vbytes, cudaMemcpyHostToDevice, s));
  sort_request r;
  r.keys_in = d_keys, r.keys_out = d_keys, r.values_in = index_values ? nullptr : d_vals, r.values_out = d_vals;
  r.value_bytes = value_bytes, r.index_values = index_values, r.n = n, r.workspace = d_ws;
  r.workspace_bytes = wbytes, r.stream = s, r.options = opts, r.config = cfg;
  sort_device<K>(r);
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(keys, d_keys, kbytes, cudaMemcpyDeviceToHost, s));
  if (value_bytes) SCANKIT_CUDA_CHECK(cudaMemcpyAsync(values, d_vals, vbytes, cudaMemcpyDeviceToHost, s));
  SCANKIT_CUDA_CHECK(cudaStreamSynchronize(s));
}

}  // namespace scankit::cuda::detail

/// Instantiates the device-pointer and host-container sorts for one key type.
#define SCANKIT_INSTANTIATE_SORT(K)                                                                \
  template void scankit::cuda::detail::sort_device<K>(const scankit::cuda::detail::sort_request&); \
  template void scankit::cuda::detail::sort_host<K>(K*, void*, std::size_t, bool, std::int64_t,     \
                                                    const scankit::sort_options&,                  \
                                                    const scankit::cuda::sort_config&);
