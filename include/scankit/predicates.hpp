// Predicates for stream compaction (select_if, remove_if, partition, unique), usable on the
// CPU and, being __host__ __device__ functors, on the GPU. Any callable with the same shape
// works too: a unary `bool(const T&)` for select/remove/partition, a binary equivalence
// `bool(const T&, const T&)` for unique, and `bool(std::int64_t index)` for select_indices.
// The library's CUDA build instantiates its kernels for the predicates below; for your own,
// include "scankit/cuda/compact.cuh" from a .cu file.
#pragma once

#include <cstdint>

#include "scankit/ops.hpp"  // SCANKIT_HD

namespace scankit {

/// x != 0 (for floats: -0.0 counts as zero, NaN as nonzero, as in C++).
template <class T>
struct is_nonzero {
  SCANKIT_HD constexpr bool operator()(const T& x) const { return x != T(0); }
};

/// x < threshold.
template <class T>
struct less_than {
  T threshold;
  SCANKIT_HD constexpr bool operator()(const T& x) const { return x < threshold; }
};

/// x > threshold.
template <class T>
struct greater_than {
  T threshold;
  SCANKIT_HD constexpr bool operator()(const T& x) const { return x > threshold; }
};

/// a == b: the default equivalence of unique.
template <class T>
struct equal_to {
  SCANKIT_HD constexpr bool operator()(const T& a, const T& b) const { return a == b; }
};

/// a == b, or both NaN: unique with every NaN one value (NumPy's `equal_nan=True`), where
/// equal_to leaves each NaN a value of its own. The same as equal_to for types without NaNs.
template <class T>
struct equal_or_both_nan {
  SCANKIT_HD constexpr bool operator()(const T& a, const T& b) const {
    return a == b || (a != a && b != b);  // x != x only for a NaN
  }
};

/// Where partition puts the rejected items (after all selected ones, which keep their order).
enum class rejected_order {
  /// Rejected items in reverse input order, filling the output from the end: the single-pass
  /// layout (the same as CUB's DevicePartition::If), no extra pass. The default.
  reversed,
  /// Rejected items in input order (a fully stable partition). Needs the number of selected
  /// items before the first rejected one can be placed, so it costs one extra counting pass.
  original,
};

}  // namespace scankit
