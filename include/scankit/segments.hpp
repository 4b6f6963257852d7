// Segment descriptions shared by the CPU and the CUDA backends: how the items of one array are
// cut into independent segments for the segmented reductions and scans.
//
//   segment_offsets  CSR: count + 1 non-decreasing offsets; segment s is [offsets[s], offsets[s+1]).
//   segment_bounds   begin/end arrays: segment s is [begin[s], end[s]); segments are sorted and do
//                    not overlap (begin[s] <= end[s] <= begin[s+1]); items between segments
//                    belong to none. A segment_offsets converts to it (begin = offsets,
//                    end = offsets + 1).
//   head_flags       one byte per item; a non-zero byte starts a new segment at that item (item
//                    0 always starts one).
//   keys             runs of equal keys (compared by their bits) are the segments: scan_by_key,
//                    reduce_by_key.
//
// Offsets are 64-bit item positions in [0, n]. The pointers live where the backend's data
// does (host memory for scankit::cpu, device memory for the device-pointer API of
// scankit::cuda).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "scankit/error.hpp"

namespace scankit {

/// CSR segments: `count` segments described by count + 1 offsets.
struct segment_offsets {
  const std::int64_t* offsets = nullptr;
  std::int64_t count = 0;
};

/// Segments described by their begin and end positions (see the top of this file).
struct segment_bounds {
  const std::int64_t* begin = nullptr;
  const std::int64_t* end = nullptr;
  std::int64_t count = 0;
  segment_bounds() = default;
  segment_bounds(const std::int64_t* b, const std::int64_t* e, std::int64_t c) : begin(b), end(e), count(c) {}
  // NOLINTNEXTLINE(google-explicit-constructor): CSR offsets are begin/end bounds.
  segment_bounds(segment_offsets o) : begin(o.offsets), end(o.offsets ? o.offsets + 1 : nullptr), count(o.count) {}
};

/// Segments that start at the items whose flag byte is non-zero (and at item 0).
struct head_flags {
  const std::uint8_t* flags = nullptr;
};

/// Key types of scan_by_key and reduce_by_key: compared by their bits, so any trivially
/// copyable type of 4 or 8 bytes works (for floats, -0.0 and 0.0 are different keys and a NaN
/// equals the same NaN).
template <class K>
concept segment_key = std::is_trivially_copyable_v<K> && (sizeof(K) == 4 || sizeof(K) == 8);

namespace detail {

/// The unsigned integer with the bits of a key, for comparing keys by their bits.
template <std::size_t Bytes>
using key_bits_t = std::conditional_t<Bytes == 4, std::uint32_t, std::uint64_t>;

template <class K>
inline key_bits_t<sizeof(K)> key_bits(const K& k) {
  key_bits_t<sizeof(K)> b;
  std::memcpy(&b, &k, sizeof(K));
  return b;
}

template <class K>
inline bool same_key(const K& a, const K& b) {
  return key_bits(a) == key_bits(b);
}

}  // namespace detail

/// Checks segments held in host memory against an array of n items: count >= 0, pointers
/// present when count > 0, every bound in [0, n], begin[s] <= end[s] <= begin[s+1]. Throws
/// invalid_argument naming `who` and the first bad segment. O(count).
inline void check_segments_host(const segment_bounds& seg, std::int64_t n, const char* who) {
  const std::string w = who;
  if (n < 0) throw invalid_argument(w + ": n must be >= 0");
  if (seg.count < 0) throw invalid_argument(w + ": the number of segments must be >= 0");
  if (seg.count == 0) return;
  if (seg.begin == nullptr || seg.end == nullptr) throw invalid_argument(w + ": null segment offsets");
  std::int64_t previous_end = 0;
  for (std::int64_t s = 0; s < seg.count; ++s) {
    const std::int64_t b = seg.begin[s], e = seg.end[s];
    if (b < 0 || e > n || b > e)
      throw invalid_argument(w + ": segment " + std::to_string(s) + " is [" + std::to_string(b) + ", " +
                             std::to_string(e) + "), not inside [0, " + std::to_string(n) + ") or decreasing");
    if (b < previous_end)
      throw invalid_argument(w + ": segment " + std::to_string(s) + " begins at " + std::to_string(b) +
                             ", before the end of the previous one (" + std::to_string(previous_end) +
                             "): offsets must not decrease");
    previous_end = e;
  }
}

/// The same for CSR offsets that must cover all n items (offsets[0] == 0, offsets[count] ==
/// n), as the segmented scans by offsets require.
inline void check_covering_offsets_host(const segment_offsets& seg, std::int64_t n, const char* who) {
  const std::string w = who;
  check_segments_host(seg, n, who);
  if (seg.count == 0) {
    if (n != 0) throw invalid_argument(w + ": no segments for " + std::to_string(n) + " items");
    return;
  }
  if (seg.offsets[0] != 0 || seg.offsets[seg.count] != n)
    throw invalid_argument(w + ": the offsets must run from 0 to n = " + std::to_string(n) + " (they run from " +
                           std::to_string(seg.offsets[0]) + " to " + std::to_string(seg.offsets[seg.count]) + ")");
}

}  // namespace scankit
