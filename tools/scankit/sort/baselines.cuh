// Definitions of the CUB sort baseline (see sort/baselines.hpp).
#pragma once

#include <cub/device/device_radix_sort.cuh>

#include <string>
#include <type_traits>

#include "common/baselines.cuh"
#include "sort/baselines.hpp"

namespace scankit::tools {

namespace detail {

struct alignas(8) value16 {
  std::uint64_t a, b;
};

template <class K, class V>
void cub_sort_typed(cub_sort_args& a) {
  const auto* ki = static_cast<const K*>(a.keys_in);
  auto* ko = static_cast<K*>(a.keys_out);
  if constexpr (std::is_void_v<V>) {
    SCANKIT_CUDA_CHECK(a.descending
                           ? cub::DeviceRadixSort::SortKeysDescending(a.temp, a.temp_bytes, ki, ko, a.n,
                                                                      a.begin_bit, a.end_bit, a.stream)
                           : cub::DeviceRadixSort::SortKeys(a.temp, a.temp_bytes, ki, ko, a.n, a.begin_bit,
                                                            a.end_bit, a.stream));
  } else {
    const auto* vi = static_cast<const V*>(a.values_in);
    auto* vo = static_cast<V*>(a.values_out);
    SCANKIT_CUDA_CHECK(a.descending
                           ? cub::DeviceRadixSort::SortPairsDescending(a.temp, a.temp_bytes, ki, ko, vi, vo,
                                                                       a.n, a.begin_bit, a.end_bit, a.stream)
                           : cub::DeviceRadixSort::SortPairs(a.temp, a.temp_bytes, ki, ko, vi, vo, a.n,
                                                             a.begin_bit, a.end_bit, a.stream));
  }
}

}  // namespace detail

template <class K>
void cub_sort(cub_sort_args& a) {
  switch (a.value_bytes) {
    case 0: return detail::cub_sort_typed<K, void>(a);
    case 4: return detail::cub_sort_typed<K, std::uint32_t>(a);
    case 8: return detail::cub_sort_typed<K, std::uint64_t>(a);
    case 16: return detail::cub_sort_typed<K, detail::value16>(a);
  }
  throw error("CUB sort baseline not built for " + std::to_string(a.value_bytes) + "-byte values");
}

}  // namespace scankit::tools

#define SCANKIT_TOOLS_SORT_BASELINES(K) \
  template void scankit::tools::cub_sort<K>(scankit::tools::cub_sort_args&);
