// One bucket of keys without values by Google Highway's vectorized quicksort (vqsort;
// bucket_path::vqsort, where the build has Highway and plan_vqsort_buckets allows it), in place
// in its destination. A quicksort does not keep equal keys in order, but over the whole bit
// range of 4- or 8-byte keys two keys compare equal only if their bits are the same, so the
// result cannot differ. Integers are sorted as they are; floats as their ordered bits
// (vqsort's own float order puts NaNs and -0.0 elsewhere), mapped there and back in the cache.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(SCANKIT_HAS_HIGHWAY)
#include <hwy/contrib/sort/vqsort.h>
#endif

#include "scankit/cpu/detail/sort/sorter.hpp"

namespace scankit::cpu::detail {

/// A bucket of m keys from s into d (which may be s) by Highway's vqsort, in place in d.
/// Integer keys are sorted as they are (ascending or descending: their order is the sort's);
/// floats as their ordered bits, the unsigned integers whose order is IEEE total order, and
/// mapped back after.
template <class K, class V>
void radix_sorter<K, V>::quicksort_leaf([[maybe_unused]] const K* s, [[maybe_unused]] K* d, [[maybe_unused]] std::int64_t m) const {
#if defined(SCANKIT_HAS_HIGHWAY)
  if constexpr (sizeof(K) == 4 || sizeof(K) == 8) {
    thread_local const hwy::Sorter sorter;  // holds a buffer; one per thread
    const auto n = static_cast<std::size_t>(m);
    if constexpr (std::is_integral_v<K>) {
      // The fixed-width type of K (long long and long are both 8 bytes but distinct types).
      using I = std::conditional_t<std::is_signed_v<K>, std::make_signed_t<U>, U>;
      if (s != d) std::memcpy(static_cast<void*>(d), s, n * sizeof(K));
      I* const v = reinterpret_cast<I*>(d);
      if (digit_.flip != U{0}) sorter(v, n, hwy::SortDescending());
      else sorter(v, n, hwy::SortAscending());
    } else {
      U* const o = reinterpret_cast<U*>(d);  // the keys' bytes, as their ordered bits
      for (std::size_t i = 0; i < n; ++i) {
        const U b = digit_.ordered(s[i]);
        std::memcpy(o + i, &b, sizeof(U));
      }
      sorter(o, n, hwy::SortAscending());
      for (std::size_t i = 0; i < n; ++i) {
        U b;
        std::memcpy(&b, o + i, sizeof(U));
        b = radix_traits<K>::map::from(static_cast<U>(b ^ digit_.flip));
        std::memcpy(o + i, &b, sizeof(U));
      }
    }
  }
#endif
}

}  // namespace scankit::cpu::detail
