// The type requirements of the range APIs (scankit/scan.hpp, compact.hpp, sort.hpp,
// histogram.hpp), as named concepts: a call whose ranges do not fit fails at the call site
// with the concept's name ("the constraint contiguous_range_of<Out, int> was not satisfied")
// instead of an error from deep inside the implementation.
#pragma once

#include <concepts>
#include <cstdint>
#include <ranges>
#include <type_traits>

#include "scankit/sort_traits.hpp"

namespace scankit {

/// A contiguous, sized range whose elements are exactly T (const or not): what a call reads.
/// Exactly: scankit converts nothing implicitly (a vector<uint8_t> does not scan into a
/// vector<int>; widen the input first, or scan with an operator on the wider type).
template <class R, class T>
concept contiguous_range_of = std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
                              std::same_as<std::ranges::range_value_t<R>, T>;

/// A contiguous_range_of<T> that can be written: what a call writes.
template <class R, class T>
concept writable_range_of = contiguous_range_of<R, T> &&
                            std::is_assignable_v<std::ranges::range_reference_t<R>, const T&>;

/// A key type the radix sorts order: 8- to 64-bit integers, float, double (sort_traits.hpp).
template <class K>
concept sort_key = is_sort_key_v<K>;

/// A contiguous, sized range of sort_key.
template <class R>
concept sortable_range = std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
                         sort_key<std::ranges::range_value_t<R>>;

/// A predicate on T, as select_if, remove_if and partition take.
template <class P, class T>
concept predicate_on = std::predicate<const P&, const T&>;

/// An equality on T, as unique and unique_count take.
template <class E, class T>
concept equality_on = std::predicate<const E&, const T&, const T&>;

}  // namespace scankit
