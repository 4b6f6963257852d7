// The C ABI's CPU reductions: scankit::cpu's parallel reduce, argmin, argmax and min_max.
#include <cstring>
#include <string>

#include "capi_internal.hpp"
#include "scankit/cpu/reduce.hpp"
#include "scankit/reduce_ops.hpp"

namespace scankit::capi::host {

void reduce(int dtype, int op, const void* in, std::int64_t n, void* out) {
  visit_types<scan_types>(dtype, "reduce", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* x = static_cast<const T*>(in);
    if (op == SK_REDUCE_ARGMIN || op == SK_REDUCE_ARGMAX) {
      const indexed<T> r = op == SK_REDUCE_ARGMIN
                               ? cpu::transform_reduce(x, n, as_indexed{}, argmin_op<T>{})
                               : cpu::transform_reduce(x, n, as_indexed{}, argmax_op<T>{});
      // capi.h's layout: the item at byte 0, the int64 position at byte 8.
      static_assert(sizeof(T) <= 8);
      std::memcpy(out, &r.value, sizeof(T));
      std::memcpy(static_cast<char*>(out) + 8, &r.index, sizeof(std::int64_t));
      return;
    }
    if (op == SK_REDUCE_MIN_MAX) {
      const min_max_value<T> r = cpu::transform_reduce(x, n, as_min_max{}, min_max_op<T>{});
      std::memcpy(out, &r.min, sizeof(T));
      std::memcpy(static_cast<char*>(out) + sizeof(T), &r.max, sizeof(T));
      return;
    }
    visit_op<T>(op, [&](auto m) {
      const T r = cpu::reduce(x, n, m);
      std::memcpy(out, &r, sizeof(T));
    });
  });
}

}  // namespace scankit::capi::host
