// CPU reductions: a plain serial reference, and the library's parallel reduction on oneTBB
// (reduce over any monoid, argmin, argmax, min_max).
//
// Contract of every reduction here:
//   in, n    n items; a null pointer is allowed only with n == 0.
//   f        what item x at position i contributes: f(x, i) (as_value, as_indexed, as_min_max).
//   op       a monoid. One that declares itself commutative (is_commutative_v) may be folded in
//            independent lanes; any other is folded strictly left to right.
//   returns  op(f(x0, 0), ..., f(xn-1, n-1)), op.identity() when n == 0.
//
// Determinism: the input is cut into blocks of a size fixed by the item size, each block is
// folded in a fixed order and the blocks' results are folded in block order, so the result is
// the same bits for any thread count or schedule, floats included. It is not always bitwise
// equal to reduce_serial for floats (the sums are associated per block and per lane).
#pragma once

#include <cstdint>
#include <span>

#include "scankit/cpu/detail/reduce/blocks.hpp"
#include "scankit/cpu/detail/reduce/plan.hpp"
#include "scankit/error.hpp"
#include "scankit/ops.hpp"
#include "scankit/reduce_ops.hpp"

namespace scankit::cpu {

/// The serial reference: one left-to-right loop.
template <class T, class F, class Op>
value_t<Op> transform_reduce_serial(const T* in, std::int64_t n, F f, Op op) {
  if (n < 0) throw invalid_argument("scankit::cpu::reduce_serial: n must be >= 0");
  if (n > 0 && in == nullptr) throw invalid_argument("scankit::cpu::reduce_serial: null input");
  value_t<Op> r = op.identity();
  for (std::int64_t i = 0; i < n; ++i) r = op(r, f(in[i], i));
  return r;
}

template <class Op>
value_t<Op> reduce_serial(const value_t<Op>* in, std::int64_t n, Op op) {
  return transform_reduce_serial(in, n, as_value{}, op);
}

/// The parallel reduction (see the contract above).
template <class T, class F, class Op>
value_t<Op> transform_reduce(const T* in, std::int64_t n, F f, Op op, const reduce_config& cfg = {}) {
  const detail::reduce::plan p = detail::reduce::make_plan(n, sizeof(T), cfg);
  if (n > 0 && in == nullptr) throw invalid_argument("scankit::cpu::reduce: null input");
  return detail::reduce::fold_blocks(in, n, f, op, p);
}

template <class Op>
value_t<Op> reduce(const value_t<Op>* in, std::int64_t n, Op op, const reduce_config& cfg = {}) {
  return transform_reduce(in, n, as_value{}, op, cfg);
}

template <class T, monoid Op = sum<T>>
  requires std::same_as<value_t<Op>, T>
T reduce(std::span<const T> in, Op op = {}, const reduce_config& cfg = {}) {
  return transform_reduce(in.data(), static_cast<std::int64_t>(in.size()), as_value{}, op, cfg);
}

/// The first position of the smallest item (a NaN, where there is one, as numpy.argmin).
/// Throws for an empty input.
template <class T>
std::int64_t argmin(std::span<const T> in, const reduce_config& cfg = {}) {
  if (in.empty()) throw invalid_argument("scankit::cpu::argmin: an empty array has no minimum");
  return transform_reduce(in.data(), static_cast<std::int64_t>(in.size()), as_indexed{}, argmin_op<T>{}, cfg).index;
}

/// The first position of the largest item (a NaN, where there is one, as numpy.argmax).
/// Throws for an empty input.
template <class T>
std::int64_t argmax(std::span<const T> in, const reduce_config& cfg = {}) {
  if (in.empty()) throw invalid_argument("scankit::cpu::argmax: an empty array has no maximum");
  return transform_reduce(in.data(), static_cast<std::int64_t>(in.size()), as_indexed{}, argmax_op<T>{}, cfg).index;
}

/// The smallest and the largest item in one pass (NaN if any item is NaN; the identities'
/// extremes for an empty input).
template <class T>
min_max_value<T> min_max(std::span<const T> in, const reduce_config& cfg = {}) {
  return transform_reduce(in.data(), static_cast<std::int64_t>(in.size()), as_min_max{}, min_max_op<T>{}, cfg);
}

}  // namespace scankit::cpu
