// The C ABI's CPU top-k: scankit::cpu::topk for one row (the pool selects in one large array),
// scankit::cpu::topk_rows for several (the rows spread over the pool).

#include <cstdint>
#include <vector>

#include "capi_internal.hpp"
#include "half_keys.hpp"
#include "parallel_range.hpp"
#include "scankit/cpu/topk.hpp"

namespace scankit::capi::host {
namespace {

template <class K>
void topk_typed(const K* in, K* values, std::int64_t* indices, std::int64_t rows, std::int64_t cols,
                std::int64_t k, bool largest) {
  cpu::topk_options opts;
  opts.largest = largest;
  if (rows == 1)
    cpu::topk(in, cols, k, values, indices, opts);
  else
    cpu::topk_rows(in, rows, cols, k, values, indices, opts);
}

}  // namespace

void topk(int dtype, const void* in, void* values, std::int64_t* indices, std::int64_t rows,
          std::int64_t cols, std::int64_t k, bool largest) {
  require_type(dtype, sort_types, "topk");
  if (rows == 0 || k == 0) return;
  if (dtype == SK_F16 || dtype == SK_BF16) {
    // The keys as the sorts' ordered uint16 bits (their order is the floats'), selected, and
    // the selected values mapped back.
    const int mant = dtype == SK_F16 ? 10 : 7;
    const std::int64_t n = rows * cols;
    const auto* src = static_cast<const std::uint16_t*>(in);
    std::vector<std::uint16_t> keys(static_cast<std::size_t>(n));
    parallel_range(n, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) keys[static_cast<std::size_t>(i)] = half_to_ordered(src[i], mant);
    });
    auto* v = static_cast<std::uint16_t*>(values);
    topk_typed<std::uint16_t>(keys.data(), v, indices, rows, cols, k, largest);
    parallel_range(rows * k, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) v[i] = half_from_ordered(v[i], mant);
    });
    return;
  }
  visit_number(dtype, [&](auto tag) {
    using K = typename decltype(tag)::type;
    topk_typed(static_cast<const K*>(in), static_cast<K*>(values), indices, rows, cols, k, largest);
  });
}

}  // namespace scankit::capi::host
