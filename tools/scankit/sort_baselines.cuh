// Definitions of the CUB sort baseline (see sort_baselines.hpp); one key type per .cu file.
#pragma once

#include <cub/device/device_radix_sort.cuh>

#include "baselines.cuh"
#include "sort_baselines.hpp"

namespace scankit::tools::detail {

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

/// The entry for one key type: keys only, and 4-, 8- and 16-byte values.
template <class K>
bool cub_sort_key(cub_sort_args& a) {
  switch (a.value_bytes) {
    case 0: cub_sort_typed<K, void>(a); return true;
    case 4: cub_sort_typed<K, std::uint32_t>(a); return true;
    case 8: cub_sort_typed<K, std::uint64_t>(a); return true;
    case 16: cub_sort_typed<K, value16>(a); return true;
  }
  return false;
}

bool cub_sort_u8(cub_sort_args&);
bool cub_sort_u16(cub_sort_args&);
bool cub_sort_u32(cub_sort_args&);
bool cub_sort_u64(cub_sort_args&);
bool cub_sort_i8(cub_sort_args&);
bool cub_sort_i16(cub_sort_args&);
bool cub_sort_i32(cub_sort_args&);
bool cub_sort_i64(cub_sort_args&);
bool cub_sort_f32(cub_sort_args&);
bool cub_sort_f64(cub_sort_args&);

}  // namespace scankit::tools::detail
