// The GPU segmented sort's tuning, as data. Its item-wise kernels are bound by memory, so one
// shape serves every device; the flat sorts it calls carry their own tuning (detail/sort/).
#pragma once

namespace scankit::cuda::detail::segmented_sort {

inline constexpr int item_threads = 256;  // threads per block of the item-wise kernels
inline constexpr int blocks_per_sm = 8;   // their grids cover one wave of resident blocks

}  // namespace scankit::cuda::detail::segmented_sort
