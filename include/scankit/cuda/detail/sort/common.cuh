// Building blocks shared by the CUDA radix sorts' kernels (detail/sort/): key digits, value
// blobs, the plan of the passes (made on the device once the histograms are known), and the
// three buffers a pass reads and writes.
#pragma once

#include <cstdint>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/sort_traits.hpp"

namespace scankit::cuda::detail::radix {

inline constexpr int digit_bits = 8;
inline constexpr int radix = 1 << digit_bits;
inline constexpr int max_passes = 8;  // 64-bit keys

/// Values move as opaque blobs of 4, 8 or 16 bytes (16: two 8-byte words, so any
/// 8-byte-aligned 16-byte type works).
struct no_value {};
struct alignas(8) blob16 {
  std::uint64_t lo, hi;
};
template <std::size_t Bytes>
struct blob_of;
template <> struct blob_of<4> { using type = std::uint32_t; };
template <> struct blob_of<8> { using type = std::uint64_t; };
template <> struct blob_of<16> { using type = blob16; };

template <class V>
inline constexpr bool has_values = !std::is_same_v<V, no_value>;

/// The value type of an argsort with std::int64_t output over n <= 2^32 keys on a onesweep
/// tile: positions move between passes as 4 bytes (the first pass makes them from the item
/// index, intermediate passes carry them as uint32) and the last pass writes them as int64
/// straight into the caller's output, so no pass moves 8 bytes of index except that last
/// write and no widening pass or 32-bit output buffer follows. Buffer 1 (the caller's int64
/// output) holds uint32 positions in its first half while intermediate passes use it.
/// A type of its own, so that these kernels are instantiated apart from those of 4-byte
/// pairs, whose code stays as it is.
enum class narrow_index : std::uint32_t {};
/// Whether the values are narrow_index positions (written as int64 by the last pass).
template <class V>
inline constexpr bool widens = std::is_same_v<V, narrow_index>;

/// The digit of one pass: bits [shift, shift + width) of the ordered, possibly complemented,
/// key bits. Build it with make() (or make_digit), which fills in flip_digit.
template <key_kind Kind, class U>
struct digit_of {
  U flip;  // all ones for a descending sort
  int shift;
  unsigned mask;
  /// Integer keys: the ordering and the complement are both an xor with a constant (the sign
  /// bit, all ones), so they can be applied to the digit instead of the key: a shift and one
  /// three-input logic op (and, then xor) instead of an xor, a shift and an and. The ranking
  /// kernels take a key's digit three times per pass, and a onesweep pass is bound by its
  /// integer pipe.
  unsigned flip_digit;
  __host__ __device__ static digit_of make(U flip, int shift, unsigned mask) {
    const U all_flips = static_cast<U>(ordered_bits<Kind, U>::to(U{0}) ^ flip);
    return {flip, shift, mask, static_cast<unsigned>(all_flips >> shift) & mask};
  }
  __host__ __device__ __forceinline__ unsigned operator()(U raw) const {
    if constexpr (Kind == key_kind::floating) {
      return of_sortable(sortable(raw));
    } else {
      return (static_cast<unsigned>(raw >> shift) & mask) ^ flip_digit;
    }
  }
  /// A key's sortable bits: ordered, and complemented for a descending sort (kernels that hold
  /// keys this way transform each key once instead of at every digit), and back.
  __host__ __device__ __forceinline__ U sortable(U raw) const {
    return static_cast<U>(ordered_bits<Kind, U>::to(raw) ^ flip);
  }
  __host__ __device__ __forceinline__ U raw(U sortable_bits) const {
    return ordered_bits<Kind, U>::from(static_cast<U>(sortable_bits ^ flip));
  }
  /// The digit of sortable bits: a shift and a mask.
  __host__ __device__ __forceinline__ unsigned of_sortable(U o) const { return static_cast<unsigned>(o >> shift) & mask; }
};

template <key_kind Kind, class U>
__host__ __device__ inline digit_of<Kind, U> make_digit(const sort_options& o, int begin, int end, int pass) {
  const int shift = begin + pass * digit_bits;
  const int width = end - shift < digit_bits ? end - shift : digit_bits;
  return digit_of<Kind, U>::make(o.descending ? static_cast<U>(~U{0}) : U{0}, shift, (1u << width) - 1u);
}

/// Where each digit pass reads and writes, decided on the device once the histograms are
/// known (so no host round trip): buffer 0 = the caller's input, 1 = the caller's output,
/// 2 = the workspace's alternate buffer. Inactive passes (a digit that is the same in every
/// key) launch but return at once. The pass sequence is arranged to end in buffer 1; only an
/// in-place sort (input == output) with an odd number of active passes needs a final copy.
/// Kernels that hold keys as their sortable bits (onesweep with float keys) also leave them
/// that way between passes, so that a middle pass is a plain unsigned pass: only the first
/// active pass reads raw keys (the one whose src is still buffer 0: no pass writes there) and
/// only the last one writes raw keys (raw_out).
struct plan {
  int active[max_passes];
  int src[max_passes];
  int dst[max_passes];
  int raw_out[max_passes];  // no later pass is active: the pass writes raw keys
  int final_copy;  // copy buffer 2 -> 1 at the end
};

__host__ __device__ inline void make_plan(plan& p, const bool* active, int passes, bool in_place) {
  int k = 0;
  for (int i = 0; i < passes; ++i) k += active[i] ? 1 : 0;
  int last = passes - 1;
  // No digit varies: sort by the last digit anyway (a stable no-op) so the keys still move
  // from the input to the output.
  const bool none = k == 0;
  if (none) k = 1;
  // The destination of the j-th active pass (0-based): alternate 1 and 2 so that the k-th
  // lands in 1. With input == output the first pass must not write into its own source.
  int first_dst = (k % 2 == 1) ? 1 : 2;
  p.final_copy = 0;
  if (in_place && first_dst == 1) {
    first_dst = 2;
    p.final_copy = 1;
  }
  int cur = 0, next = first_dst, j = 0;
  for (int i = 0; i < passes; ++i) {
    const bool a = none ? i == last : active[i];
    p.active[i] = a ? 1 : 0;
    p.src[i] = cur;
    p.dst[i] = next;
    if (a) {
      cur = next;
      next = (cur == 1) ? 2 : 1;
      ++j;
    }
    p.raw_out[i] = j == k ? 1 : 0;
  }
}

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

/// Tuning: items per thread by the widest element moved (the shared staging buffer holds one
/// tile of keys or of values; 32 KiB keeps a block's shared memory under the static 48 KiB).
template <class U, class V>
constexpr int items_for() {
  constexpr std::size_t vb = has_values<V> ? sizeof(V) : 0;
  constexpr std::size_t w = sizeof(U) > vb ? sizeof(U) : vb;
  return w <= 8 ? 16 : 8;
}

/// The three buffers a pass may read or write (0 input, 1 output, 2 alternate; see plan).
/// Buffer 0 is only ever read. A null values[0] with index_values means "the values are the
/// input positions" (argsort: int64, or uint32 with 4-byte values).
template <class U, class V>
struct buffers {
  U* keys[3];
  V* values[3];
  bool index_values;
  // The caller does not want the sorted keys (argsort_without_keys): a pass that writes the
  // int64 positions into the caller's output skips its key stores.
  bool discard_keys;
};

/// Stores position v (a narrow_index) as the int64 at out[i], where out is buffer 1's values:
/// the caller's int64 output.
template <class V>
__device__ __forceinline__ void store_wide_index(V* out, std::int64_t i, V v) {
  static_assert(widens<V>);
  reinterpret_cast<std::uint64_t*>(out)[i] = static_cast<std::uint32_t>(v);
}

/// buffers[i] for a runtime i without indexing the array (an indexed kernel parameter is
/// copied to the stack first).
template <class P>
__device__ __forceinline__ P pick(P const (&p)[3], int i) {
  return i == 0 ? p[0] : i == 1 ? p[1] : p[2];
}

template <class U>
struct key_buffers {
  U* keys[3];
};

/// Input position i as an index value: int64 in 8-byte values, uint32 in 4-byte ones (the
/// 32-bit argsort and narrow_index, for n <= 2^32, move half the index bytes per pass).
template <class V>
__device__ __forceinline__ V index_value(std::int64_t i) {
  V v{};
  if constexpr (sizeof(V) == 8) {
    memcpy(&v, &i, 8);
  } else if constexpr (sizeof(V) == 4) {
    const auto u = static_cast<std::uint32_t>(i);
    memcpy(&v, &u, 4);
  }
  return v;
}
}  // namespace scankit::cuda::detail::radix
