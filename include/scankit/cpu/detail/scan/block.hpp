// The loops over one block of a CPU scan: its reduction, its scan from a carry, and the scan
// through a staging buffer and streaming stores.
//
// For the built-in operators on arithmetic types (all commutative) the reduction runs in
// independent lanes, which compilers vectorise; the scan works in groups of scan_group items
// whose local prefix is computed off the critical path, so the running carry costs one
// operation per group (this matters most for floating-point adds with their multi-cycle
// latency). Other operators (user monoids, non-commutative ones) use plain loops that combine
// strictly left to right.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "scankit/cpu/detail/scan/tuning.hpp"
#include "scankit/cpu/detail/streaming.hpp"
#include "scankit/ops.hpp"

namespace scankit::cpu::detail {

/// The built-in operators over arithmetic types: commutative and cheap, so the inner loops
/// may reorder (reduction lanes) and regroup (grouped scan) freely.
template <class Op> struct is_builtin_arith_op : std::false_type {};
template <class T> struct is_builtin_arith_op<sum<T>> : std::is_arithmetic<T> {};
template <class T> struct is_builtin_arith_op<product<T>> : std::is_arithmetic<T> {};
template <class T> struct is_builtin_arith_op<min<T>> : std::is_arithmetic<T> {};
template <class T> struct is_builtin_arith_op<max<T>> : std::is_arithmetic<T> {};
template <class T> struct is_builtin_arith_op<bit_and<T>> : std::true_type {};
template <class T> struct is_builtin_arith_op<bit_or<T>> : std::true_type {};
template <class T> struct is_builtin_arith_op<bit_xor<T>> : std::true_type {};
template <class Op>
inline constexpr bool is_builtin_arith_op_v = is_builtin_arith_op<std::remove_cv_t<Op>>::value;

/// in[0] . ... . in[len-1], starting from the identity.
template <monoid Op>
value_t<Op> reduce_block(const value_t<Op>* in, std::int64_t len, const Op& op) {
  using T = value_t<Op>;
  if constexpr (is_builtin_arith_op_v<Op>) {
    // Independent lanes (64 bytes of accumulators): no loop-carried dependency between
    // consecutive items, so the loop vectorises and pipelines. Fine because op commutes.
    constexpr std::int64_t L = std::max<std::int64_t>(4, 64 / sizeof(T));
    T acc[L];
    for (auto& a : acc) a = op.identity();
    const std::int64_t full = len / L * L;
    for (std::int64_t i = 0; i < full; i += L)
      for (std::int64_t j = 0; j < L; ++j) acc[j] = op(acc[j], in[i + j]);
    T r = acc[0];
    for (std::int64_t j = 1; j < L; ++j) r = op(r, acc[j]);
    for (std::int64_t i = full; i < len; ++i) r = op(r, in[i]);
    return r;
  } else {
    T r = op.identity();
    for (std::int64_t i = 0; i < len; ++i) r = op(r, in[i]);
    return r;
  }
}

/// Scans in[0, len) into out[0, len) starting from `carry`; returns the new carry.
/// out == in is allowed (every item is read before its output is written).
template <monoid Op>
value_t<Op> scan_block(const value_t<Op>* in, value_t<Op>* out, std::int64_t len, const Op& op,
                       scan_kind kind, value_t<Op> carry) {
  using T = value_t<Op>;
  std::int64_t i = 0;
  if constexpr (is_builtin_arith_op_v<Op>) {
    // Groups of G: the group's own inclusive prefix t[] does not depend on the carry, so the
    // only serial dependency is one op per group; the G combines with the carry are
    // independent (and vectorise).
    constexpr std::int64_t G = scan_group;
    for (const std::int64_t full = len / G * G; i < full; i += G) {
      T t[G];
      t[0] = in[i];
      for (std::int64_t j = 1; j < G; ++j) t[j] = op(t[j - 1], in[i + j]);
      if (kind == scan_kind::inclusive) {
        for (std::int64_t j = 0; j < G; ++j) out[i + j] = op(carry, t[j]);
      } else {
        out[i] = carry;
        for (std::int64_t j = 1; j < G; ++j) out[i + j] = op(carry, t[j - 1]);
      }
      carry = op(carry, t[G - 1]);
    }
  }
  if (kind == scan_kind::inclusive) {
    for (; i < len; ++i) {
      carry = op(carry, in[i]);
      out[i] = carry;
    }
  } else {
    for (; i < len; ++i) {
      const T x = in[i];
      out[i] = carry;
      carry = op(carry, x);
    }
  }
  return carry;
}

/// scan_block through an L1-resident staging buffer and streaming stores. Chunks are
/// multiples of the group size, so the result is bitwise identical to scan_block.
template <monoid Op>
value_t<Op> scan_block_streaming(const value_t<Op>* in, value_t<Op>* out, std::int64_t len,
                                 const Op& op, scan_kind kind, value_t<Op> carry) {
  using T = value_t<Op>;
  constexpr std::int64_t K = std::max<std::int64_t>(
      scan_group, scan_stage_bytes / static_cast<std::int64_t>(sizeof(T)) / scan_group * scan_group);
  T stage[K];
  streaming_writer w(out);
  for (std::int64_t i = 0; i < len; i += K) {
    const std::int64_t m = std::min(K, len - i);
    carry = scan_block(in + i, stage, m, op, kind, carry);
    w.write(stage, static_cast<std::size_t>(m) * sizeof(T));
  }
  w.finish();
  return carry;
}

}  // namespace scankit::cpu::detail
