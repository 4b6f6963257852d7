// Stream compaction over ranges, on the CPU (the parallel oneTBB algorithm of
// scankit/cpu/compact.hpp, which also documents the contract). For the GPU see
// scankit/cuda/compact.hpp.
//
//   std::vector<int> v = ..., out(v.size());
//   auto k = scankit::remove_if(v, out, scankit::is_nonzero<int>{} /* removes nonzeros */);
//   auto m = scankit::select_if(v, v, [](int x) { return x % 3 == 0; });   // in place
//   std::vector<std::int64_t> idx(v.size());
//   auto z = scankit::nonzero(v, idx);                                       // numpy.flatnonzero
// Every function returns the number of items written at the front of the output (partition:
// the number selected). Outputs must be at least as long as the input.
#pragma once

#include <cstdint>
#include <ranges>
#include <string>

#include "scankit/cpu/compact.hpp"
#include "scankit/error.hpp"
#include "scankit/concepts.hpp"
#include "scankit/predicates.hpp"

namespace scankit {

namespace detail {
template <class In, class Out>
std::int64_t checked_sizes(const In& in, const Out& out, const char* where) {
  const auto n = static_cast<std::int64_t>(std::ranges::size(in));
  if (static_cast<std::int64_t>(std::ranges::size(out)) < n)
    throw invalid_argument(std::string(where) + ": output range is shorter than the input");
  return n;
}
}  // namespace detail

template <std::ranges::contiguous_range In, class Out, class Pred>
  requires writable_range_of<Out, std::ranges::range_value_t<In>> && predicate_on<Pred, std::ranges::range_value_t<In>>
std::int64_t select_if(const In& in, Out&& out, Pred pred) {
  const auto n = detail::checked_sizes(in, out, "scankit::select_if");
  return cpu::select_if(std::ranges::data(in), std::ranges::data(out), n, pred);
}

template <std::ranges::contiguous_range In, class Out, class Pred>
  requires writable_range_of<Out, std::ranges::range_value_t<In>> && predicate_on<Pred, std::ranges::range_value_t<In>>
std::int64_t remove_if(const In& in, Out&& out, Pred pred) {
  const auto n = detail::checked_sizes(in, out, "scankit::remove_if");
  return cpu::remove_if(std::ranges::data(in), std::ranges::data(out), n, pred);
}

template <std::ranges::contiguous_range In, std::ranges::contiguous_range Flags, class Out>
  requires std::ranges::sized_range<Flags> && writable_range_of<Out, std::ranges::range_value_t<In>>
std::int64_t select_flagged(const In& in, const Flags& flags, Out&& out) {
  const auto n = detail::checked_sizes(in, out, "scankit::select_flagged");
  if (static_cast<std::int64_t>(std::ranges::size(flags)) < n)
    throw invalid_argument("scankit::select_flagged: flags range is shorter than the input");
  return cpu::select_flagged(std::ranges::data(in), std::ranges::data(flags), std::ranges::data(out), n);
}

template <std::ranges::contiguous_range In, class Out, class Pred>
  requires writable_range_of<Out, std::ranges::range_value_t<In>> && predicate_on<Pred, std::ranges::range_value_t<In>>
std::int64_t partition(const In& in, Out&& out, Pred pred, rejected_order order = rejected_order::reversed) {
  const auto n = detail::checked_sizes(in, out, "scankit::partition");
  return cpu::partition(std::ranges::data(in), std::ranges::data(out), n, pred, order);
}

template <std::ranges::contiguous_range In, class Out, class Eq = equal_to<std::ranges::range_value_t<In>>>
  requires writable_range_of<Out, std::ranges::range_value_t<In>> && equality_on<Eq, std::ranges::range_value_t<In>>
std::int64_t unique(const In& in, Out&& out, Eq eq = {}) {
  const auto n = detail::checked_sizes(in, out, "scankit::unique");
  return cpu::unique(std::ranges::data(in), std::ranges::data(out), n, eq);
}

template <std::ranges::contiguous_range In, class Out, class Counts, class Eq = equal_to<std::ranges::range_value_t<In>>>
  requires writable_range_of<Out, std::ranges::range_value_t<In>> && writable_range_of<Counts, std::int64_t> &&
           equality_on<Eq, std::ranges::range_value_t<In>>
std::int64_t unique_count(const In& in, Out&& values, Counts&& counts, Eq eq = {}) {
  const auto n = detail::checked_sizes(in, values, "scankit::unique_count");
  detail::checked_sizes(in, counts, "scankit::unique_count");
  return cpu::unique_count(std::ranges::data(in), std::ranges::data(values), std::ranges::data(counts), n, eq);
}

template <std::ranges::contiguous_range In, class Out>
  requires writable_range_of<Out, std::int64_t>
std::int64_t nonzero(const In& in, Out&& indices) {
  const auto n = detail::checked_sizes(in, indices, "scankit::nonzero");
  return cpu::nonzero(std::ranges::data(in), std::ranges::data(indices), n);
}

/// Indices i in [0, n) with pred(i), ascending; `indices` must hold n.
template <class Out, class Pred>
  requires writable_range_of<Out, std::int64_t> && predicate_on<Pred, std::int64_t>
std::int64_t select_indices(std::int64_t n, Pred pred, Out&& indices) {
  if (n < 0 || static_cast<std::int64_t>(std::ranges::size(indices)) < n)
    throw invalid_argument("scankit::select_indices: negative n or output range shorter than n");
  return cpu::select_indices(n, pred, std::ranges::data(indices));
}

}  // namespace scankit
