// Software write-combining for the radix sort's scatter.
//
// Items go to a 64-byte line buffer per digit (16 KiB for 256 digits, so it stays in L1) and
// each line, once whole, goes to memory with non-temporal stores. A plain scatter writes 256
// streams per thread one item at a time: every new output line is first read from DRAM (the
// write-allocate) and the store buffer fills with those misses; full-line streaming stores
// skip the read. Lines at the edges of a (chunk, digit) range are written item by item.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>

#include "scankit/cpu/detail/sort/tuning.hpp"
#include "scankit/cpu/detail/streaming.hpp"

namespace scankit::cpu::detail {

/// Software write-combining for one output array of the scatter (see the top of this file).
/// put(d, p, x) writes x to dst[p], p being the next slot of digit d's range (which began at
/// first[d]); finish() writes what is left in the buffers. Lines are 64 bytes of the address
/// space, so a full line lies in one writer's range and no other thread writes to it.
template <class T>
class line_writer {
 public:
  static constexpr bool fits = sizeof(T) <= 64 && 64 % sizeof(T) == 0;  // whole items per line
  static constexpr int line_items = fits ? static_cast<int>(64 / sizeof(T)) : 1;
  /// Whether a scatter into dst can go through a line_writer<T>: items that tile a line, and
  /// dst on a multiple of the item size (so that lines start on an item).
  static bool usable(const T* dst) { return fits && reinterpret_cast<std::uintptr_t>(dst) % sizeof(T) == 0; }
  line_writer(T* dst, const std::int64_t* first)
      : dst_(dst), base_(reinterpret_cast<std::uintptr_t>(dst) / sizeof(T)), lines_(new line[radix]) {
    std::copy_n(first, radix, first_.begin());
  }
  // Always inlined: called once per item from the scatter loops, where GCC at -O3 may leave it
  // an out-of-line call.
  [[gnu::always_inline]] void put(unsigned d, std::int64_t p, const T& x) {
    const int slot = static_cast<int>((base_ + static_cast<std::uintptr_t>(p)) % line_items);
    std::memcpy(lines_[d].bytes + slot * sizeof(T), &x, sizeof(T));
    if (slot != line_items - 1) return;
    const std::int64_t start = p - (line_items - 1);
    if (start >= first_[d]) stream(dst_ + start, lines_[d].bytes);
    else copy_out(d, first_[d], p + 1);  // the range's first line is partly another's
  }
  /// Writes the partial last line of each digit; `end[d]` is one past digit d's last slot.
  void finish(const std::int64_t* end) {
    for (unsigned d = 0; d < radix; ++d) {
      const std::int64_t p = end[d];
      const std::int64_t line_start = p - static_cast<std::int64_t>((base_ + static_cast<std::uintptr_t>(p)) % line_items);
      copy_out(d, std::max(line_start, first_[d]), p);
    }
    store_fence();  // streaming stores are weakly ordered: drain them before the pass ends
  }

 private:
  struct alignas(64) line {
    unsigned char bytes[64];
  };
  void copy_out(unsigned d, std::int64_t from, std::int64_t to) {
    for (std::int64_t q = from; q < to; ++q) {
      const int slot = static_cast<int>((base_ + static_cast<std::uintptr_t>(q)) % line_items);
      std::memcpy(static_cast<void*>(dst_ + q), lines_[d].bytes + slot * sizeof(T), sizeof(T));
    }
  }
  static void stream(T* to, const unsigned char* from) { stream_line(static_cast<void*>(to), from); }
  T* dst_;
  std::uintptr_t base_;  // dst's address in items: slot of item p = (base_ + p) % line_items
  std::unique_ptr<line[]> lines_;
  std::array<std::int64_t, radix> first_;
};

}  // namespace scankit::cpu::detail
