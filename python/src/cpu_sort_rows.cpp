// The C ABI's CPU sort of every row of a matrix: the library's parallel segmented sort, one
// segment per row (its own file: the instantiations for every key type are a long compile).
#include <type_traits>
#include <vector>

#include "capi_internal.hpp"
#include "half_keys.hpp"
#include "parallel_range.hpp"
#include "scankit/cpu/segmented_sort.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::capi::host {

void sort_rows(int dtype, const void* keys_in, void* keys_out, std::int64_t* indices, std::int64_t rows,
               std::int64_t cols, bool descending) {
  require_type(dtype, sort_types, "sort");
  const std::int64_t n = rows * cols;
  if (n == 0) return;
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(rows) + 1);
  for (std::int64_t r = 0; r <= rows; ++r) offsets[static_cast<std::size_t>(r)] = r * cols;
  const segment_bounds seg{segment_offsets{offsets.data(), rows}};
  sort_options opts;
  opts.descending = descending;
  const bool half = dtype == SK_F16 || dtype == SK_BF16;
  const int mant = dtype == SK_F16 ? 10 : 7;
  // Every key type sorts as its ordered unsigned bits (the sorts' order), mapped in on the way
  // into the output and back afterwards: four instantiations of the sort instead of ten.
  std::vector<std::int64_t> scratch(indices ? 0 : static_cast<std::size_t>(n));
  std::int64_t* pos = indices ? indices : scratch.data();
  parallel_range(n, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) pos[i] = i % cols;
  });
  auto sort_as = [&](auto tag, auto to, auto from) {
    using U = typename decltype(tag)::type;
    const auto* in = static_cast<const U*>(keys_in);
    auto* u = static_cast<U*>(keys_out);
    parallel_range(n, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) u[i] = to(in[i]);
    });
    cpu::segmented_sort_pairs(u, pos, n, seg, opts);
    parallel_range(n, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) u[i] = from(u[i]);
    });
  };
  if (half) {
    sort_as(std::type_identity<std::uint16_t>{}, [&](std::uint16_t x) { return half_to_ordered(x, mant); },
            [&](std::uint16_t x) { return half_from_ordered(x, mant); });
    return;
  }
  visit_number(dtype, [&](auto tag) {
    using K = typename decltype(tag)::type;
    using U = typename radix_traits<K>::bits_t;
    using map = typename radix_traits<K>::map;
    sort_as(std::type_identity<U>{}, [](U x) { return map::to(x); }, [](U x) { return map::from(x); });
  });
}

}  // namespace scankit::capi::host
