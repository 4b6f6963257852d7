// Sorting over ranges, on the CPU (the parallel oneTBB radix sort). For the GPU see
// scankit/cuda/sort.hpp. Key order (IEEE total order for floats, NaNs last), stability and
// bit ranges: see scankit/sort_traits.hpp.
//
//   std::vector<float> k = ...;  std::vector<int> v = ...;
//   scankit::sort_keys(k);                                   // ascending, stable
//   scankit::sort_pairs(k, v, {.descending = true});         // values follow their keys
//   std::vector<std::int64_t> p = scankit::argsort(k);       // k[p[0]] is the smallest
//   scankit::cpu::sort_workspace ws;                         // scratch memory kept between
//   scankit::sort_keys(k, ws);                               //   calls (faster when repeated)
#pragma once

#include <cstdint>
#include <ranges>
#include <string>
#include <vector>

#include "scankit/concepts.hpp"
#include "scankit/cpu/sort.hpp"
#include "scankit/error.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit {

/// Sorts `keys` in place (stable).
template <class R>
  requires sortable_range<R> && writable_range_of<R, std::ranges::range_value_t<R>>
void sort_keys(R&& keys, const sort_options& opts = {}) {
  cpu::sort_keys_parallel(std::ranges::data(keys), static_cast<std::int64_t>(std::ranges::size(keys)), opts);
}

/// Sorts `keys` in place and applies the same permutation to `values` (stable).
template <class RK, class RV>
  requires sortable_range<RK> && writable_range_of<RK, std::ranges::range_value_t<RK>> &&
           writable_range_of<RV, std::ranges::range_value_t<RV>>
void sort_pairs(RK&& keys, RV&& values, const sort_options& opts = {}) {
  const auto n = static_cast<std::int64_t>(std::ranges::size(keys));
  if (static_cast<std::int64_t>(std::ranges::size(values)) < n)
    throw invalid_argument("scankit::sort_pairs: values range is shorter than the keys");
  cpu::sort_pairs_parallel(std::ranges::data(keys), std::ranges::data(values), n, opts);
}

/// sort_keys with its scratch memory kept in `ws` from one call to the next (no allocation
/// once it has grown to the largest sort; one workspace serves one sort at a time).
template <class R>
  requires sortable_range<R> && writable_range_of<R, std::ranges::range_value_t<R>>
void sort_keys(R&& keys, cpu::sort_workspace& ws, const sort_options& opts = {}) {
  cpu::sort_keys_parallel(std::ranges::data(keys), static_cast<std::int64_t>(std::ranges::size(keys)), ws, opts);
}

/// sort_pairs with its scratch memory kept in `ws`.
template <class RK, class RV>
  requires sortable_range<RK> && writable_range_of<RK, std::ranges::range_value_t<RK>> &&
           writable_range_of<RV, std::ranges::range_value_t<RV>>
void sort_pairs(RK&& keys, RV&& values, cpu::sort_workspace& ws, const sort_options& opts = {}) {
  const auto n = static_cast<std::int64_t>(std::ranges::size(keys));
  if (static_cast<std::int64_t>(std::ranges::size(values)) < n)
    throw invalid_argument("scankit::sort_pairs: values range is shorter than the keys");
  cpu::sort_pairs_parallel(std::ranges::data(keys), std::ranges::data(values), n, ws, opts);
}

/// The stable sorting permutation of `keys` (which are left unchanged).
template <sortable_range R>
std::vector<std::int64_t> argsort(const R& keys, const sort_options& opts = {}) {
  return cpu::argsort_parallel(std::ranges::data(keys), static_cast<std::int64_t>(std::ranges::size(keys)), opts);
}

}  // namespace scankit
