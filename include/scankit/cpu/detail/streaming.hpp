// Writing memory that will not be read again soon with non-temporal (streaming) stores, which
// skip the read of each output line that an ordinary store first makes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "scankit/cpu/detail/common.hpp"  // SCANKIT_CPU_HAS_SSE2

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace scankit::cpu::detail {

/// Writes a contiguous byte range front to back: whole 64-byte lines with non-temporal
/// stores, the partial lines at either end with ordinary stores. Bytes are staged so that a
/// line split between two write() calls still goes out as one streaming line.
class streaming_writer {
 public:
  explicit streaming_writer(void* dst) : pos_(static_cast<unsigned char*>(dst)) {
    const auto a = reinterpret_cast<std::uintptr_t>(pos_);
    head_ = (64 - a % 64) % 64;
  }
  streaming_writer(const streaming_writer&) = delete;
  streaming_writer& operator=(const streaming_writer&) = delete;

  void write(const void* src_v, std::size_t len) {
    if (len == 0) return;
    auto src = static_cast<const unsigned char*>(src_v);
    if (head_ > 0) {  // up to the first line boundary: ordinary stores
      const std::size_t h = std::min(len, head_);
      std::memcpy(pos_, src, h);
      pos_ += h, src += h, len -= h, head_ -= h;
      if (len == 0) return;
    }
    if (fill_ > 0) {  // complete the staged line
      const std::size_t f = std::min(len, std::size_t{64} - fill_);
      std::memcpy(stage_ + fill_, src, f);
      fill_ += f, src += f, len -= f;
      if (fill_ < 64) return;
      stream_line(pos_, stage_);
      pos_ += 64, fill_ = 0;
    }
    for (; len >= 64; len -= 64, src += 64, pos_ += 64) stream_line(pos_, src);
    std::memcpy(stage_, src, len);
    fill_ = len;
  }

  /// Writes the staged tail and orders the streaming stores before later stores.
  void finish() {
    std::memcpy(pos_, stage_, fill_);
    pos_ += fill_;
    fill_ = 0;
#ifdef SCANKIT_CPU_HAS_SSE2
    _mm_sfence();
#endif
  }

 private:
  static void stream_line(unsigned char* dst, const unsigned char* src) {
#ifdef SCANKIT_CPU_HAS_SSE2
    auto d = reinterpret_cast<__m128i*>(dst);
    auto s = reinterpret_cast<const __m128i*>(src);
    const __m128i a = _mm_loadu_si128(s), b = _mm_loadu_si128(s + 1);
    const __m128i c = _mm_loadu_si128(s + 2), e = _mm_loadu_si128(s + 3);
    _mm_stream_si128(d, a);
    _mm_stream_si128(d + 1, b);
    _mm_stream_si128(d + 2, c);
    _mm_stream_si128(d + 3, e);
#else
    std::memcpy(dst, src, 64);
#endif
  }

  unsigned char* pos_;     // next destination byte not yet written or staged
  std::size_t head_ = 0;   // bytes left before the first line boundary
  std::size_t fill_ = 0;   // staged bytes (destined for pos_...)
  alignas(64) unsigned char stage_[64];
};

/// Item types that streaming_writer may copy as bytes (and stage in a stack buffer).
template <class T>
inline constexpr bool can_stream_v = std::is_trivially_copyable_v<T> &&
                                     std::is_trivially_default_constructible_v<T> &&
                                     sizeof(T) <= 256;

/// Writes one 64-byte line (`to` on a line boundary) with streaming stores, which skip the read
/// of the line that an ordinary store would first make.
inline void stream_line(void* to, const void* from) {
#if defined(__SSE2__)
  auto* o = static_cast<__m128i*>(to);
  const auto* i = static_cast<const __m128i*>(from);
  _mm_stream_si128(o, _mm_loadu_si128(i));
  _mm_stream_si128(o + 1, _mm_loadu_si128(i + 1));
  _mm_stream_si128(o + 2, _mm_loadu_si128(i + 2));
  _mm_stream_si128(o + 3, _mm_loadu_si128(i + 3));
#else
  std::memcpy(to, from, 64);
#endif
}

/// Copies `bytes` bytes to memory that will not be read again soon: the whole 64-byte lines of
/// the destination with streaming stores (no read of those lines first), the ragged ends with
/// plain ones. Streaming stores are weakly ordered: call store_fence() before other threads
/// may read the destination.
inline void stream_bytes(void* dst, const void* src, std::size_t bytes) {
  auto* o = static_cast<unsigned char*>(dst);
  const auto* i = static_cast<const unsigned char*>(src);
#if defined(__SSE2__)
  const std::size_t head = std::min(bytes, (64 - reinterpret_cast<std::uintptr_t>(o) % 64) % 64);
  std::memcpy(o, i, head);
  o += head, i += head, bytes -= head;
  for (; bytes >= 64; bytes -= 64, o += 64, i += 64) stream_line(o, i);
#endif
  std::memcpy(o, i, bytes);
}

inline void store_fence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

}  // namespace scankit::cpu::detail
