// CPU segmented reductions and scans, and the by-key operations (the group-by of sorted
// data), on oneTBB: plain serial references (the oracle of every test, the GPU ones too) and
// the parallel versions, for host pointers and for spans. The semantics are those of
// scankit/cuda/segments.hpp.
//
//   segmented_reduce  one result per segment (CSR offsets or begin/end bounds)
//   segmented_scan    inclusive or exclusive, the carry reset at each segment (offsets or flags)
//   scan_by_key       the same with runs of equal keys (by their bits) as segments
//   reduce_by_key     each run's key and aggregate, and the number of runs
//
// Every function checks its arguments first (n >= 0; a null pointer only where nothing is
// read or written through it; the segments by check_segments_host or
// check_covering_offsets_host) and throws scankit::invalid_argument, writing nothing, on a
// bad one. A scan's out may be its in.
//
// Load balance and determinism (detail/segments/reduce.hpp and scan.hpp): the work (the
// items, and for segmented_reduce the segment ends too) is cut into tiles of a size fixed by
// the item size, never by the segment lengths or the thread count; segments that cross tile
// edges are carried in tile order. Floats give the same bits for any thread count, schedule
// and path (not always the bits of the serial reference: the tiles associate differently).
// Operators that are not commutative are combined strictly in sequence order.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "scankit/cpu/detail/segments/plan.hpp"
#include "scankit/cpu/detail/segments/reduce.hpp"
#include "scankit/cpu/detail/segments/scan.hpp"
#include "scankit/error.hpp"
#include "scankit/ops.hpp"
#include "scankit/segments.hpp"

namespace scankit::cpu {

namespace detail::segments {

inline void check_n(std::int64_t n, const char* who) {
  if (n < 0) throw invalid_argument(std::string(who) + ": n must be >= 0");
}

[[noreturn]] inline void throw_null(const char* who, const char* what) {
  throw invalid_argument(std::string(who) + ": null " + what);
}

inline void check_pointer(const void* p, bool needed, const char* who, const char* what) {
  if (needed && p == nullptr) throw_null(who, what);
}

}  // namespace detail::segments

// ---------------------------------------------------------------------------------------------
// Serial references: one left-to-right loop each.

/// out[s] = op(identity, x[begin[s]], ..., x[end[s] - 1]) for every segment, left to right;
/// empty_value for an empty segment.
template <class Op>
void segmented_reduce_serial(const value_t<Op>* in, std::int64_t n, const segment_bounds& seg, Op op,
                             value_t<Op> empty_value, value_t<Op>* out) {
  constexpr const char* who = "scankit::cpu::segmented_reduce_serial";
  detail::segments::check_n(n, who);
  detail::segments::check_pointer(in, n > 0, who, "input");
  check_segments_host(seg, n, who);
  detail::segments::check_pointer(out, seg.count > 0, who, "output");
  for (std::int64_t s = 0; s < seg.count; ++s) {
    if (seg.begin[s] == seg.end[s]) {
      out[s] = empty_value;
      continue;
    }
    value_t<Op> r = op.identity();
    for (std::int64_t i = seg.begin[s]; i < seg.end[s]; ++i) r = op(r, in[i]);
    out[s] = r;
  }
}

namespace detail::segments {
/// The serial scan loop: item i starts a segment when head(i) (item 0 always does).
template <class Op, class Head>
void scan_serial_loop(const value_t<Op>* in, value_t<Op>* out, std::int64_t n, Head head, Op op, scan_kind kind,
                      const value_t<Op>& init) {
  value_t<Op> acc = init;
  for (std::int64_t i = 0; i < n; ++i) {
    if (i == 0 || head(i)) acc = init;
    const value_t<Op> x = in[i];
    if (kind == scan_kind::inclusive) {
      acc = op(acc, x);
      out[i] = acc;
    } else {
      out[i] = acc;
      acc = op(acc, x);
    }
  }
}
}  // namespace detail::segments

/// Segmented scan over CSR offsets that cover [0, n). Inclusive: out[i] = op(init, x[head],
/// ..., x[i]); exclusive: out[i] = op(init, x[head], ..., x[i - 1]) (init at each head).
template <class Op>
void segmented_scan_serial(const value_t<Op>* in, value_t<Op>* out, std::int64_t n, const segment_offsets& seg, Op op,
                           scan_kind kind, value_t<Op> init) {
  constexpr const char* who = "scankit::cpu::segmented_scan_serial";
  detail::segments::check_n(n, who);
  detail::segments::check_pointer(in, n > 0, who, "input");
  detail::segments::check_pointer(out, n > 0, who, "output");
  check_covering_offsets_host(seg, n, who);
  // The items are visited in order: s passes every offset <= i, and item i is a head when one
  // of the offsets passed is i itself (offsets[count] == n > i ends the loop).
  std::int64_t s = 0;
  detail::segments::scan_serial_loop(
      in, out, n,
      [&](std::int64_t i) {
        bool head = false;
        while (seg.offsets[s + 1] <= i) {
          head = head || seg.offsets[s + 1] == i;
          ++s;
        }
        return head;
      },
      op, kind, init);
}

/// The same with a segment starting at every item whose flag is non-zero (and at item 0).
template <class Op>
void segmented_scan_serial(const value_t<Op>* in, value_t<Op>* out, std::int64_t n, head_flags flags, Op op,
                           scan_kind kind, value_t<Op> init) {
  constexpr const char* who = "scankit::cpu::segmented_scan_serial";
  detail::segments::check_n(n, who);
  detail::segments::check_pointer(in, n > 0, who, "input");
  detail::segments::check_pointer(out, n > 0, who, "output");
  detail::segments::check_pointer(flags.flags, n > 0, who, "flags");
  detail::segments::scan_serial_loop(in, out, n, [&](std::int64_t i) { return flags.flags[i] != 0; }, op, kind, init);
}

/// The same with runs of keys with equal bits as segments.
template <segment_key K, class Op>
void scan_by_key_serial(const K* keys, const value_t<Op>* in, value_t<Op>* out, std::int64_t n, Op op, scan_kind kind,
                        value_t<Op> init) {
  constexpr const char* who = "scankit::cpu::scan_by_key_serial";
  detail::segments::check_n(n, who);
  detail::segments::check_pointer(keys, n > 0, who, "keys");
  detail::segments::check_pointer(in, n > 0, who, "input");
  detail::segments::check_pointer(out, n > 0, who, "output");
  detail::segments::scan_serial_loop(
      in, out, n, [&](std::int64_t i) { return !scankit::detail::same_key(keys[i], keys[i - 1]); }, op, kind, init);
}

/// For each run of keys with equal bits, in order: its key to unique_keys[r] and op over its
/// values (from the identity, left to right) to aggregates[r]. Both outputs must hold as
/// many items as there are runs (n at most). Returns the number of runs.
template <segment_key K, class Op>
std::int64_t reduce_by_key_serial(const K* keys, const value_t<Op>* in, std::int64_t n, Op op, K* unique_keys,
                                  value_t<Op>* aggregates) {
  constexpr const char* who = "scankit::cpu::reduce_by_key_serial";
  detail::segments::check_n(n, who);
  detail::segments::check_pointer(keys, n > 0, who, "keys");
  detail::segments::check_pointer(in, n > 0, who, "input");
  detail::segments::check_pointer(unique_keys, n > 0, who, "unique keys");
  detail::segments::check_pointer(aggregates, n > 0, who, "aggregates");
  std::int64_t runs = 0;
  for (std::int64_t i = 0; i < n;) {
    std::int64_t e = i + 1;
    value_t<Op> r = op(op.identity(), in[i]);
    for (; e < n && scankit::detail::same_key(keys[e], keys[i]); ++e) r = op(r, in[e]);
    unique_keys[runs] = keys[i];
    aggregates[runs] = r;
    ++runs;
    i = e;
  }
  return runs;
}

// ---------------------------------------------------------------------------------------------
// The parallel versions: the same contracts (see the top of this file for load balance and
// determinism).

template <class Op>
void segmented_reduce(const value_t<Op>* in, std::int64_t n, const segment_bounds& seg, Op op,
                      value_t<Op> empty_value, value_t<Op>* out, const segments_config& cfg = {}) {
  constexpr const char* who = "scankit::cpu::segmented_reduce";
  detail::segments::check_n(n, who);
  detail::segments::check_pointer(in, n > 0, who, "input");
  check_segments_host(seg, n, who);
  detail::segments::check_pointer(out, seg.count > 0, who, "output");
  const auto p = detail::segments::make_plan(n + seg.count, sizeof(value_t<Op>), cfg, who);
  detail::segments::segmented_reduce(in, n, seg, op, empty_value, out, p);
}

template <class Op>
void segmented_scan(const value_t<Op>* in, value_t<Op>* out, std::int64_t n, const segment_offsets& seg, Op op,
                    scan_kind kind, value_t<Op> init, const segments_config& cfg = {}) {
  constexpr const char* who = "scankit::cpu::segmented_scan";
  detail::segments::check_n(n, who);
  detail::segments::check_pointer(in, n > 0, who, "input");
  detail::segments::check_pointer(out, n > 0, who, "output");
  check_covering_offsets_host(seg, n, who);
  const auto p = detail::segments::make_plan(n, sizeof(value_t<Op>), cfg, who);
  detail::segments::segmented_scan(in, out, n, detail::segments::offset_heads{seg.offsets, seg.count}, op, kind, init,
                                   p);
}

template <class Op>
void segmented_scan(const value_t<Op>* in, value_t<Op>* out, std::int64_t n, head_flags flags, Op op, scan_kind kind,
                    value_t<Op> init, const segments_config& cfg = {}) {
  constexpr const char* who = "scankit::cpu::segmented_scan";
  detail::segments::check_n(n, who);
  detail::segments::check_pointer(in, n > 0, who, "input");
  detail::segments::check_pointer(out, n > 0, who, "output");
  detail::segments::check_pointer(flags.flags, n > 0, who, "flags");
  const auto p = detail::segments::make_plan(n, sizeof(value_t<Op>), cfg, who);
  detail::segments::segmented_scan(in, out, n, detail::segments::flag_heads{flags.flags}, op, kind, init, p);
}

template <segment_key K, class Op>
void scan_by_key(const K* keys, const value_t<Op>* in, value_t<Op>* out, std::int64_t n, Op op, scan_kind kind,
                 value_t<Op> init, const segments_config& cfg = {}) {
  constexpr const char* who = "scankit::cpu::scan_by_key";
  detail::segments::check_n(n, who);
  detail::segments::check_pointer(keys, n > 0, who, "keys");
  detail::segments::check_pointer(in, n > 0, who, "input");
  detail::segments::check_pointer(out, n > 0, who, "output");
  const auto p = detail::segments::make_plan(n, sizeof(value_t<Op>), cfg, who);
  detail::segments::segmented_scan(in, out, n, detail::segments::key_heads<K>{keys}, op, kind, init, p);
}

/// As reduce_by_key_serial; the outputs must hold n items (the most runs there can be).
template <segment_key K, class Op>
std::int64_t reduce_by_key(const K* keys, const value_t<Op>* in, std::int64_t n, Op op, K* unique_keys,
                           value_t<Op>* aggregates, const segments_config& cfg = {}) {
  constexpr const char* who = "scankit::cpu::reduce_by_key";
  detail::segments::check_n(n, who);
  detail::segments::check_pointer(keys, n > 0, who, "keys");
  detail::segments::check_pointer(in, n > 0, who, "input");
  detail::segments::check_pointer(unique_keys, n > 0, who, "unique keys");
  detail::segments::check_pointer(aggregates, n > 0, who, "aggregates");
  const auto p = detail::segments::make_plan(n, sizeof(value_t<Op>), cfg, who);
  return detail::segments::reduce_by_key(keys, in, n, op, unique_keys, aggregates, p);
}

// ---------------------------------------------------------------------------------------------
// Spans, as the CUDA host API: `offsets` of size S + 1 describe S segments (an empty span is
// an error). The optional values do not take part in deducing T, so a plain value or
// std::nullopt may be passed for them.

namespace detail::segments {
inline segment_offsets offsets_of(std::span<const std::int64_t> offsets, const char* who) {
  if (offsets.empty())
    throw invalid_argument(std::string(who) + ": the offsets need at least one element (S + 1 for S segments)");
  return {offsets.data(), static_cast<std::int64_t>(offsets.size()) - 1};
}
inline void check_sizes(std::size_t a, std::size_t b, const char* who, const char* what) {
  if (a != b)
    throw invalid_argument(std::string(who) + ": " + what + " differ in size (" + std::to_string(a) + " and " +
                           std::to_string(b) + ")");
}
}  // namespace detail::segments

/// One value per segment: op over [offsets[s], offsets[s+1]), `empty_value` (default: the
/// identity) for an empty segment. The offsets need not start at 0 nor end at in.size().
template <class T, monoid Op = sum<T>>
  requires std::same_as<value_t<Op>, T>
std::vector<T> segmented_reduce(std::span<const T> in, std::span<const std::int64_t> offsets, Op op = {},
                                std::optional<std::type_identity_t<T>> empty_value = std::nullopt, const segments_config& cfg = {}) {
  const segment_offsets seg = detail::segments::offsets_of(offsets, "scankit::cpu::segmented_reduce");
  std::vector<T> out(static_cast<std::size_t>(seg.count), op.identity());
  segmented_reduce(in.data(), static_cast<std::int64_t>(in.size()), segment_bounds(seg), op,
                   empty_value.value_or(op.identity()), out.data(), cfg);
  return out;
}

/// Segmented scan of in into out (same size; may be the same array) over offsets that cover
/// [0, in.size()); init defaults to the identity.
template <class T, monoid Op = sum<T>>
  requires std::same_as<value_t<Op>, T>
void segmented_scan(std::span<const T> in, std::span<T> out, std::span<const std::int64_t> offsets, Op op = {},
                    scan_kind kind = scan_kind::inclusive, std::optional<std::type_identity_t<T>> init = std::nullopt,
                    const segments_config& cfg = {}) {
  constexpr const char* who = "scankit::cpu::segmented_scan";
  detail::segments::check_sizes(in.size(), out.size(), who, "input and output");
  const segment_offsets seg = detail::segments::offsets_of(offsets, who);
  segmented_scan(in.data(), out.data(), static_cast<std::int64_t>(in.size()), seg, op, kind,
                 init.value_or(op.identity()), cfg);
}

template <segment_key K, class T, monoid Op = sum<T>>
  requires std::same_as<value_t<Op>, T>
void scan_by_key(std::span<const K> keys, std::span<const T> in, std::span<T> out, Op op = {},
                 scan_kind kind = scan_kind::inclusive, std::optional<std::type_identity_t<T>> init = std::nullopt,
                 const segments_config& cfg = {}) {
  constexpr const char* who = "scankit::cpu::scan_by_key";
  detail::segments::check_sizes(keys.size(), in.size(), who, "keys and input");
  detail::segments::check_sizes(in.size(), out.size(), who, "input and output");
  scan_by_key(keys.data(), in.data(), out.data(), static_cast<std::int64_t>(in.size()), op, kind,
              init.value_or(op.identity()), cfg);
}

/// Returns (unique keys, aggregates), one entry per run.
template <segment_key K, class T, monoid Op = sum<T>>
  requires std::same_as<value_t<Op>, T>
std::pair<std::vector<K>, std::vector<T>> reduce_by_key(std::span<const K> keys, std::span<const T> in, Op op = {},
                                                        const segments_config& cfg = {}) {
  detail::segments::check_sizes(keys.size(), in.size(), "scankit::cpu::reduce_by_key", "keys and input");
  std::vector<K> k(keys.size());
  std::vector<T> v(in.size(), op.identity());
  const std::int64_t runs =
      reduce_by_key(keys.data(), in.data(), static_cast<std::int64_t>(in.size()), op, k.data(), v.data(), cfg);
  k.resize(static_cast<std::size_t>(runs));
  v.resize(static_cast<std::size_t>(runs));
  return {std::move(k), std::move(v)};
}

}  // namespace scankit::cpu
