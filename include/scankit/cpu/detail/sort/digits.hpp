// The digits of the CPU radix sort: a key's ordered (and, descending, complemented) bits, cut
// into radix_bits-wide fields from the start of the sorted bit range.
#pragma once

#include <algorithm>
#include <cstring>

#include "scankit/cpu/detail/sort/tuning.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::cpu::detail {

/// The digit of pass p of a key: bits [begin + 8p, min(begin + 8p + 8, end)) of the ordered
/// (and, descending, complemented) bits.
template <class K>
struct digit_fn {
  using U = typename radix_traits<K>::bits_t;
  U flip;  // all ones for descending
  int begin, end;
  /// The digit of one pass, as a small value the loops keep in registers (a loop that reads
  /// the pass and bit range through a reference re-reads them after every store through a
  /// char pointer, as the write-combining's are, which slows its scatter down).
  struct of_pass {
    U flip;
    int shift;
    unsigned mask;
    unsigned operator()(K k) const {
      U b;
      std::memcpy(&b, &k, sizeof(K));
      return static_cast<unsigned>(static_cast<U>(radix_traits<K>::map::to(b) ^ flip) >> shift) & mask;
    }
  };
  /// The ordered (and, descending, complemented) bits of a key: every pass's digit is a
  /// field of these, so a loop over several passes maps each key once.
  U ordered(K k) const {
    U b;
    std::memcpy(&b, &k, sizeof(K));
    return static_cast<U>(radix_traits<K>::map::to(b) ^ flip);
  }
  of_pass pass(int p) const {
    const int shift = begin + p * radix_bits;
    const int width = std::min(radix_bits, end - shift);
    return {flip, shift, (1u << width) - 1u};
  }
};

}  // namespace scankit::cpu::detail
