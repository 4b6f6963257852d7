// Definitions of the CUB segmented sort baselines (see sort/segmented_baselines.hpp).
#pragma once

#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "common/baselines.cuh"
#include "sort/segmented_baselines.hpp"

namespace scankit::tools {

namespace detail {

template <class K>
void cub_segmented_radix(cub_segmented_sort_args& a) {
  using cub::DeviceSegmentedRadixSort;
  const auto* ki = static_cast<const K*>(a.keys_in);
  auto* ko = static_cast<K*>(a.keys_out);
  const std::int64_t* b = a.offsets;
  const std::int64_t* e = a.offsets + 1;
  constexpr int bits = static_cast<int>(sizeof(K) * 8);
  if (a.values_in == nullptr)
    SCANKIT_CUDA_CHECK(a.descending ? DeviceSegmentedRadixSort::SortKeysDescending(
                                          a.temp, a.temp_bytes, ki, ko, a.n, a.segments, b, e, 0, bits, a.stream)
                                    : DeviceSegmentedRadixSort::SortKeys(a.temp, a.temp_bytes, ki, ko, a.n,
                                                                         a.segments, b, e, 0, bits, a.stream));
  else
    SCANKIT_CUDA_CHECK(a.descending
                           ? DeviceSegmentedRadixSort::SortPairsDescending(a.temp, a.temp_bytes, ki, ko, a.values_in,
                                                                           a.values_out, a.n, a.segments, b, e, 0,
                                                                           bits, a.stream)
                           : DeviceSegmentedRadixSort::SortPairs(a.temp, a.temp_bytes, ki, ko, a.values_in,
                                                                 a.values_out, a.n, a.segments, b, e, 0, bits,
                                                                 a.stream));
}

template <class K>
void cub_segmented_stable(cub_segmented_sort_args& a) {
  using cub::DeviceSegmentedSort;
  const auto* ki = static_cast<const K*>(a.keys_in);
  auto* ko = static_cast<K*>(a.keys_out);
  const std::int64_t* b = a.offsets;
  const std::int64_t* e = a.offsets + 1;
  if (a.values_in == nullptr)
    SCANKIT_CUDA_CHECK(a.descending ? DeviceSegmentedSort::StableSortKeysDescending(a.temp, a.temp_bytes, ki, ko, a.n,
                                                                                    a.segments, b, e, a.stream)
                                    : DeviceSegmentedSort::StableSortKeys(a.temp, a.temp_bytes, ki, ko, a.n,
                                                                          a.segments, b, e, a.stream));
  else
    SCANKIT_CUDA_CHECK(a.descending
                           ? DeviceSegmentedSort::StableSortPairsDescending(a.temp, a.temp_bytes, ki, ko, a.values_in,
                                                                            a.values_out, a.n, a.segments, b, e,
                                                                            a.stream)
                           : DeviceSegmentedSort::StableSortPairs(a.temp, a.temp_bytes, ki, ko, a.values_in,
                                                                  a.values_out, a.n, a.segments, b, e, a.stream));
}

}  // namespace detail

template <class K>
void cub_segmented_sort(cub_segmented_sort_args& a) {
  if (a.radix) detail::cub_segmented_radix<K>(a);
  else detail::cub_segmented_stable<K>(a);
}

}  // namespace scankit::tools

#define SCANKIT_TOOLS_SORT_SEGMENTED_BASELINES(K) \
  template void scankit::tools::cub_segmented_sort<K>(scankit::tools::cub_segmented_sort_args&);
