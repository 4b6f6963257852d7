// Helpers shared by the CUDA sort test programs (test_cuda_sort*.cu): device memory, the
// tuning the sizes derive from, and the GPU-against-reference checks of keys, pairs and argsort.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "common/cuda_test_util.hpp"
#include "common/sort_test_util.hpp"
#include "scankit/cuda/detail/sort/kernels.cuh"
#include "scankit/cuda/sort.hpp"

namespace scankit::cuda {
inline void PrintTo(sort_algorithm a, std::ostream* os) {
  *os << name(a);
}
inline void PrintTo(sort_tile t, std::ostream* os) {
  *os << name(t);
}
}  // namespace scankit::cuda

namespace scankit::test {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

/// Device memory for a test, freed on scope exit.
struct dmem {
  void* p = nullptr;
  std::size_t bytes = 0;
  explicit dmem(std::size_t b) : bytes(b) {
    if (b) check(cudaMalloc(&p, b), "cudaMalloc");
  }
  ~dmem() {
    if (p) cudaFree(p);
  }
  dmem(const dmem&) = delete;
  dmem(dmem&& o) noexcept : p(o.p), bytes(o.bytes) { o.p = nullptr, o.bytes = 0; }
  template <class T>
  T* as() const {
    return static_cast<T*>(p);
  }
};

template <class T>
dmem upload(const std::vector<T>& v, std::size_t extra = 0) {
  dmem d(v.size() * sizeof(T) + extra);
  if (!v.empty())
    check(cudaMemcpy(d.p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
  return d;
}

template <class T>
std::vector<T> download(const dmem& d, std::size_t n) {
  std::vector<T> v(n);
  if (n) check(cudaMemcpy(v.data(), d.p, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
  return v;
}

/// Fills memory with a pattern, so that a sort that leaves an output slot unwritten fails.
inline void poison(const dmem& d) {
  if (d.bytes) check(cudaMemset(d.p, 0xA5, d.bytes), "cudaMemset");
}

/// The sort's tuning for keys of K and values of `value_bytes` (0: keys only) on this device.
template <class K>
cuda::detail::radix::sort_tuning tuning(std::size_t value_bytes) {
  return cuda::detail::radix::sort_tuning_for(sizeof(K), value_bytes,
                                              cuda::detail::radix::sort_device_info().arch);
}

/// onesweep's main tile for keys of K and values of `value_bytes`.
template <class K>
std::int64_t onesweep_tile(std::size_t value_bytes) {
  return tuning<K>(value_bytes).main.tile();
}

/// onesweep's tile for large inputs (the main tile where there is none).
template <class K>
std::int64_t onesweep_large_tile(std::size_t value_bytes) {
  const auto t = tuning<K>(value_bytes);
  return t.large.exists() ? t.large.tile() : t.main.tile();
}

/// The largest n the one-block sort takes.
template <class K>
std::int64_t one_block_limit(std::size_t value_bytes) {
  return tuning<K>(value_bytes).one_block_limit();
}

/// GPU keys-only sort with `cfg` against the reference; in_place sorts d_in onto itself.
template <class K>
::testing::AssertionResult gpu_keys_match(const std::vector<K>& keys, const std::vector<K>& want,
                                          const sort_options& opts, const cuda::sort_config& cfg,
                                          bool in_place) {
  const auto n = static_cast<std::int64_t>(keys.size());
  dmem in = upload(keys);
  dmem out(in_place ? 0 : keys.size() * sizeof(K));
  poison(out);
  const std::size_t wb = cuda::sort_workspace_bytes(n, sizeof(K), 0, cfg);
  dmem ws(wb);
  poison(ws);
  K* dst = in_place ? in.as<K>() : out.as<K>();
  cuda::sort_keys(in.as<K>(), dst, n, ws.p, wb, nullptr, opts, cfg);
  check(cudaDeviceSynchronize(), "sort_keys");
  auto r = bitwise_equal(want, download<K>(in_place ? in : out, keys.size()));
  if (r && !in_place && !bitwise_equal(keys, download<K>(in, keys.size())))
    return ::testing::AssertionFailure() << "the input keys were modified";
  return r;
}

template <class K>
::testing::AssertionResult gpu_keys_match(const std::vector<K>& keys, const std::vector<K>& want,
                                          const sort_options& opts, cuda::sort_algorithm alg,
                                          bool in_place) {
  return gpu_keys_match(keys, want, opts, cuda::sort_config{.algorithm = alg}, in_place);
}

template <class K, class V>
::testing::AssertionResult gpu_pairs_match(std::int64_t n, key_pattern p, const sort_options& opts,
                                           const cuda::sort_config& cfg, bool in_place) {
  auto keys = make_keys<K>(n, p);
  auto vals = index_values<V>(n);
  auto want_k = keys;
  auto want_v = vals;
  cpu::sort_pairs_serial(want_k.data(), want_v.data(), n, opts);
  dmem kin = upload(keys), vin = upload(vals);
  dmem kout(in_place ? 0 : keys.size() * sizeof(K)), vout(in_place ? 0 : vals.size() * sizeof(V));
  poison(kout);
  poison(vout);
  const std::size_t wb = cuda::sort_workspace_bytes(n, sizeof(K), sizeof(V), cfg);
  dmem ws(wb);
  const dmem& ko = in_place ? kin : kout;
  const dmem& vo = in_place ? vin : vout;
  cuda::sort_pairs(kin.as<K>(), ko.as<K>(), vin.as<V>(), vo.as<V>(), n, ws.p, wb, nullptr, opts,
                   cfg);
  check(cudaDeviceSynchronize(), "sort_pairs");
  auto rk = bitwise_equal(want_k, download<K>(ko, keys.size()));
  if (!rk)
    return rk << " (keys, n = " << n << ", pattern " << name(p) << ", value bytes " << sizeof(V)
              << ")";
  auto rv = bitwise_equal(want_v, download<V>(vo, vals.size()));
  if (!rv)
    return rv << " (values: stability, n = " << n << ", pattern " << name(p) << ", value bytes "
              << sizeof(V) << ")";
  return ::testing::AssertionSuccess();
}

template <class K, class V>
::testing::AssertionResult gpu_pairs_match(std::int64_t n, key_pattern p, const sort_options& opts,
                                           cuda::sort_algorithm alg, bool in_place) {
  return gpu_pairs_match<K, V>(n, p, opts, cuda::sort_config{.algorithm = alg}, in_place);
}

/// argsort through the device API against the stable reference's positions, with int64
/// indices (I = std::int64_t) or 32-bit ones (I = std::uint32_t).
template <class K, class I = std::int64_t>
::testing::AssertionResult gpu_argsort_match(const std::vector<K>& keys, const sort_options& opts,
                                             const cuda::sort_config& cfg) {
  const auto n = static_cast<std::int64_t>(keys.size());
  dmem in = upload(keys), kout(keys.size() * sizeof(K)), idx(keys.size() * sizeof(I));
  const std::size_t wb = cuda::sort_workspace_bytes(n, sizeof(K), sizeof(I), cfg);
  dmem ws(wb);
  cuda::argsort(in.as<K>(), kout.as<K>(), idx.as<I>(), n, ws.p, wb, nullptr, opts, cfg);
  check(cudaDeviceSynchronize(), "argsort");
  using W = std::conditional_t<sizeof(I) == 8, std::uint64_t, std::uint32_t>;
  auto want_idx = index_values<W>(n);
  auto want = keys;
  cpu::sort_pairs_serial(want.data(), want_idx.data(), n, opts);
  auto r = bitwise_equal(want_idx, download<W>(idx, keys.size()));
  if (!r) return r << " (argsort indices of " << sizeof(I) << " bytes, n = " << n << ")";
  return bitwise_equal(want, download<K>(kout, keys.size()));
}

/// Every key type with its test-name suffix.
#define FOR_EACH_KEY_TYPE(X) \
  X(std::uint8_t, u8)        \
  X(std::uint16_t, u16)      \
  X(std::uint32_t, u32)      \
  X(std::uint64_t, u64)      \
  X(std::int8_t, i8)         \
  X(std::int16_t, i16)       \
  X(std::int32_t, i32)       \
  X(std::int64_t, i64)       \
  X(float, f32)              \
  X(double, f64)

}  // namespace scankit::test
