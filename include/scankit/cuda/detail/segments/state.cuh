// The segmented scan as an ordinary scan: every item becomes a pair (value, head count), and
// the pairs are combined by an associative operator that restarts the value at a head. Any
// scan machinery (warp and block scans, the look-back's status tree) then carries segments.
#pragma once

#include <cstdint>

#include "scankit/ops.hpp"

namespace scankit::cuda::detail::segments {

/// The scan state after a run of items: the combination of the run's items since its last
/// head (all of them where it has none), and how many heads the run holds.
template <class T>
struct seg_state {
  T value;
  std::int64_t heads;
};

/// The segmented operator of a monoid: (a, b) -> (b.heads ? b.value : op(a.value, b.value),
/// a.heads + b.heads). Associative whenever op is, never commutative.
template <class Op>
struct seg_op {
  using T = value_t<Op>;
  using value_type = seg_state<T>;
  Op op;
  SCANKIT_HD value_type identity() const { return {op.identity(), 0}; }
  SCANKIT_HD value_type operator()(const value_type& a, const value_type& b) const {
    return {b.heads > 0 ? b.value : op(a.value, b.value), a.heads + b.heads};
  }
  /// One item after a state: a head restarts the value.
  SCANKIT_HD value_type step(const value_type& a, const T& x, bool head) const {
    return head ? value_type{x, a.heads + 1} : value_type{op(a.value, x), a.heads};
  }
};

}  // namespace scankit::cuda::detail::segments
