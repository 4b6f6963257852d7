// CPU sorts: a serial reference (std::stable_sort on the ordered bits) and the library's
// parallel LSD radix sort on oneTBB. Key order, stability and bit ranges: see sort_traits.hpp.
//
//   keys, values  n items each, sorted in place (values: nullptr for a keys-only sort);
//                 any trivially copyable value type.
//   opts          descending, bit range.
// Bad arguments (negative n, a null pointer with n > 0, a bad bit range) throw
// scankit::invalid_argument before anything is written.
//
// sort_parallel: design
// ---------------------
// LSD radix sort with 8-bit digits over a second buffer of the same size:
//   * One parallel read of the keys counts every digit of every key at once, per chunk
//     (chunk c = the c-th of C equal slices, one per worker). A digit whose count is n in one
//     bucket is the same in every key: that pass would not move anything and is skipped (a
//     big win for narrow keys in wide types and for the bit ranges).
//   * Each remaining pass: per-chunk histograms of the digit (the first pass reuses the counts
//     above; later passes count their source again, one read), an exclusive scan over (digit,
//     chunk) in that order gives every chunk a private, contiguous output range per digit,
//     and each chunk scatters its items in order into them: one read and one write per item
//     and pass. Reading each chunk in order and writing each (digit, chunk) range in order is
//     what makes the sort stable.
//   * The scatter writes through software write-combining (line_writer): items go to a
//     64-byte line buffer per digit (16 KiB for 256 digits, so it stays in L1) and each line,
//     once whole, goes to memory with non-temporal stores. A plain scatter writes 256 streams
//     per thread one item at a time: every new output line is first read from DRAM (the
//     write-allocate) and the store buffer fills with those misses; full-line streaming
//     stores skip the read. Serially on the 2-core CI VM it halved the scatter (2^25 uint32:
//     ~125 against ~70 ms a pass). (Buffers copied out with ordinary stores, tried earlier,
//     measured slower on the 16-core host: 406 against 345 ms at 2^27: they keep the read.)
//     Lines at the edges of a (chunk, digit) range are written item by item.
//   * Results end in the caller's array (a final parallel copy when the pass count is odd).
// Below 2^16 items the same algorithm runs with one chunk on the calling thread.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <numeric>
#include <type_traits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "scankit/cpu/scan.hpp"  // fenced_region
#include "scankit/error.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::cpu {

namespace detail {

/// Uninitialised storage for n trivially copyable T (values need not be default constructible),
/// on a 64-byte boundary so that the scatter's output lines start with the array. Buffers of
/// 4 MiB and more start on a 2 MiB boundary and ask Linux for transparent huge pages: the
/// scatter writes 256 streams per thread, far apart, and 4 KiB pages would cost a TLB miss on
/// almost every output line.
template <class T>
struct raw_buffer {
  static constexpr std::size_t huge_page = std::size_t{2} << 20;
  std::size_t alignment;
  struct free_fn {
    std::size_t alignment;
    void operator()(T* p) const noexcept { ::operator delete(p, std::align_val_t(alignment)); }
  };
  std::unique_ptr<T, free_fn> p;
  explicit raw_buffer(std::int64_t n)
      : alignment(static_cast<std::size_t>(n) * sizeof(T) >= 2 * huge_page ? huge_page
                  : alignof(T) > 64                                        ? alignof(T)
                                                                           : 64),
        p(allocate(n, alignment), free_fn{alignment}) {}
  T* get() const { return p.get(); }

 private:
  static T* allocate(std::int64_t n, std::size_t alignment) {
    if (n <= 0) return nullptr;
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
    void* m = ::operator new(bytes, std::align_val_t(alignment));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (alignment == huge_page) ::madvise(m, bytes & ~(huge_page - 1), MADV_HUGEPAGE);  // a hint
#endif
    return static_cast<T*>(m);
  }
};

inline constexpr int radix_bits = 8;
inline constexpr int radix = 1 << radix_bits;

/// The digit of pass p of a key: bits [begin + 8p, min(begin + 8p + 8, end)) of the ordered
/// (and, descending, complemented) bits.
template <class K>
struct digit_fn {
  using U = typename radix_traits<K>::bits_t;
  U flip;  // all ones for descending
  int begin, end;
  /// The digit of one pass, as a small value the loops keep in registers (a loop that reads
  /// the pass and bit range through a reference re-reads them after every store through a
  /// char pointer, as the write-combining's are: that made its scatter 1.7x slower).
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
  of_pass pass(int p) const {
    const int shift = begin + p * radix_bits;
    const int width = std::min(radix_bits, end - shift);
    return {flip, shift, (1u << width) - 1u};
  }
};

template <class K, class V>
void check_sort_args(const K* keys, const V* values, bool with_values, std::int64_t n,
                     const char* where) {
  scankit::detail::check_size(n, where);
  scankit::detail::check_pointer(keys, n, "keys", where);
  if (with_values) scankit::detail::check_pointer(values, n, "values", where);
}

/// Software write-combining for one output array of the scatter (see the design notes).
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
  void put(unsigned d, std::int64_t p, const T& x) {
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
#if defined(__SSE2__)
    _mm_sfence();  // streaming stores are weakly ordered: drain them before the pass ends
#endif
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
  static void stream(T* to, const unsigned char* from) {
#if defined(__SSE2__)
    auto* o = reinterpret_cast<__m128i*>(to);
    const auto* i = reinterpret_cast<const __m128i*>(from);
    _mm_stream_si128(o, _mm_load_si128(i));
    _mm_stream_si128(o + 1, _mm_load_si128(i + 1));
    _mm_stream_si128(o + 2, _mm_load_si128(i + 2));
    _mm_stream_si128(o + 3, _mm_load_si128(i + 3));
#else
    std::memcpy(static_cast<void*>(to), from, 64);
#endif
  }
  T* dst_;
  std::uintptr_t base_;  // dst's address in items: slot of item p = (base_ + p) % line_items
  std::unique_ptr<line[]> lines_;
  std::array<std::int64_t, radix> first_;
};

/// The radix sort proper; values may be nullptr (keys only).
template <class K, class V>
void radix_sort(K* keys, V* values, std::int64_t n, const sort_options& opts, const char* where,
                bool write_combining = true) {
  const auto [begin, end] = scankit::detail::sort_bit_range(opts, radix_traits<K>::bits, where);
  if (n < 2 || begin == end) return;
  using U = typename radix_traits<K>::bits_t;
  const digit_fn<K> digit{opts.descending ? static_cast<U>(~U{0}) : U{0}, begin, end};
  const int passes = (end - begin + radix_bits - 1) / radix_bits;

  const int workers = n < (std::int64_t{1} << 16) ? 1 : std::max(1, tbb::this_task_arena::max_concurrency());
  const std::int64_t chunks = std::min<std::int64_t>(workers, n);
  auto chunk_begin = [&](std::int64_t c) { return n * c / chunks; };
  auto for_chunks = [&](auto&& f) {
    if (chunks == 1) {
      f(std::int64_t{0});
      return;
    }
    // Through scan.hpp's fenced_region: the hand-off of the chunk bodies to TBB's workers is
    // restated with release/acquire operations that a race detector can see.
    auto body = [&f](const tbb::blocked_range<std::int64_t>& r) {
      for (std::int64_t c = r.begin(); c != r.end(); ++c) f(c);
    };
    fenced_region<decltype(body)> region(body);
    typename fenced_region<decltype(body)>::scope open(region);
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, chunks, 1), region.template get_body<0>(),
                      tbb::simple_partitioner());
  };

  // counts[c][p][d]: digit d of pass p in chunk c, all passes from one read.
  std::vector<std::int64_t> counts(static_cast<std::size_t>(chunks * passes * radix), 0);
  auto count_at = [&](std::int64_t c, int p) { return counts.data() + (c * passes + p) * radix; };
  std::array<typename digit_fn<K>::of_pass, sizeof(K)> digit_of{};  // at most one pass per byte
  for (int p = 0; p < passes; ++p) digit_of[static_cast<std::size_t>(p)] = digit.pass(p);
  for_chunks([&](std::int64_t c) {
    std::vector<std::int64_t> local(static_cast<std::size_t>(passes * radix), 0);
    const auto dp = digit_of;
    const K* const k = keys;
    std::int64_t* const h = local.data();
    for (std::int64_t i = chunk_begin(c), e = chunk_begin(c + 1); i < e; ++i)
      for (int p = 0; p < passes; ++p) ++h[p * radix + static_cast<int>(dp[static_cast<std::size_t>(p)](k[i]))];
    std::copy(local.begin(), local.end(), count_at(c, 0));
  });
  std::vector<int> active;
  for (int p = 0; p < passes; ++p) {
    std::array<std::int64_t, radix> total{};
    for (std::int64_t c = 0; c < chunks; ++c)
      for (int d = 0; d < radix; ++d) total[d] += count_at(c, p)[d];
    if (*std::max_element(total.begin(), total.end()) < n) active.push_back(p);
  }
  if (active.empty()) return;  // every compared bit is the same in every key

  raw_buffer<K> key_tmp(n);
  raw_buffer<V> val_tmp(values ? n : 0);
  K* src_k = keys;
  K* dst_k = key_tmp.get();
  V* src_v = values;
  V* dst_v = val_tmp.get();
  // hist[c][d]: the count of the pass's digit d in chunk c, then (scanned) its first output.
  std::vector<std::int64_t> hist(static_cast<std::size_t>(chunks * radix));
  for (std::size_t a = 0; a < active.size(); ++a) {
    const int p = active[a];
    const auto digit_p = digit.pass(p);
    if (a == 0) {
      for (std::int64_t c = 0; c < chunks; ++c) std::copy_n(count_at(c, p), radix, hist.data() + c * radix);
    } else {
      for_chunks([&](std::int64_t c) {
        std::array<std::int64_t, radix> h{};
        const K* const sk = src_k;
        for (std::int64_t i = chunk_begin(c), e = chunk_begin(c + 1); i < e; ++i) ++h[digit_p(sk[i])];
        std::copy(h.begin(), h.end(), hist.data() + c * radix);
      });
    }
    // Exclusive scan in (digit, chunk) order: chunk c's items of digit d go after every
    // item of a smaller digit and after the items of digit d in earlier chunks.
    std::int64_t run = 0;
    for (int d = 0; d < radix; ++d)
      for (std::int64_t c = 0; c < chunks; ++c) {
        const std::int64_t k = hist[static_cast<std::size_t>(c * radix + d)];
        hist[static_cast<std::size_t>(c * radix + d)] = run;
        run += k;
      }
    const bool combine_keys = write_combining && line_writer<K>::usable(dst_k);
    const bool combine_values = src_v != nullptr && write_combining && line_writer<V>::usable(dst_v);
    for_chunks([&](std::int64_t c) {
      std::array<std::int64_t, radix> off;
      std::copy_n(hist.data() + c * radix, radix, off.begin());
      const std::int64_t b = chunk_begin(c), e = chunk_begin(c + 1);
      const K* const sk = src_k;
      const V* const sv = src_v;
      if (sv == nullptr && combine_keys) {
        line_writer<K> wk(dst_k, off.data());
        for (std::int64_t i = b; i < e; ++i) {
          const K k = sk[i];
          const unsigned d = digit_p(k);
          wk.put(d, off[d]++, k);
        }
        wk.finish(off.data());
      } else if (sv != nullptr && combine_keys && combine_values) {
        line_writer<K> wk(dst_k, off.data());
        line_writer<V> wv(dst_v, off.data());
        for (std::int64_t i = b; i < e; ++i) {
          const K k = sk[i];
          const unsigned d = digit_p(k);
          const std::int64_t o = off[d]++;
          wk.put(d, o, k);
          wv.put(d, o, sv[i]);
        }
        wk.finish(off.data());
        wv.finish(off.data());
      } else if (sv != nullptr) {
        K* const dk = dst_k;
        V* const dv = dst_v;
        for (std::int64_t i = b; i < e; ++i) {
          const std::int64_t o = off[digit_p(sk[i])]++;
          dk[o] = sk[i];
          dv[o] = sv[i];
        }
      } else {
        K* const dk = dst_k;
        for (std::int64_t i = b; i < e; ++i) dk[off[digit_p(sk[i])]++] = sk[i];
      }
    });
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
  if (src_k != keys) {  // an odd number of passes: the result is in the scratch buffers
    for_chunks([&](std::int64_t c) {
      const std::int64_t b = chunk_begin(c), e = chunk_begin(c + 1);
      std::memcpy(keys + b, src_k + b, static_cast<std::size_t>(e - b) * sizeof(K));
      if (values) std::memcpy(values + b, src_v + b, static_cast<std::size_t>(e - b) * sizeof(V));
    });
  }
}

}  // namespace detail

/// Serial reference: std::stable_sort of the keys by their ordered bits.
template <class K>
void sort_keys_serial(K* keys, std::int64_t n, const sort_options& opts = {}) {
  constexpr const char* where = "scankit::cpu::sort_keys_serial";
  detail::check_sort_args<K, int>(keys, nullptr, false, n, where);
  const auto [b, e] = scankit::detail::sort_bit_range(opts, radix_traits<K>::bits, where);
  std::stable_sort(keys, keys + n, [&, b = b, e = e](K x, K y) {
    return scankit::detail::sort_rank_bits(x, b, e, opts.descending) <
           scankit::detail::sort_rank_bits(y, b, e, opts.descending);
  });
}

/// Serial reference for pairs: a stable sort of the indices, then the permutation applied.
template <class K, class V>
void sort_pairs_serial(K* keys, V* values, std::int64_t n, const sort_options& opts = {}) {
  static_assert(std::is_trivially_copyable_v<V>, "sort values must be trivially copyable");
  constexpr const char* where = "scankit::cpu::sort_pairs_serial";
  detail::check_sort_args(keys, values, true, n, where);
  const auto [b, e] = scankit::detail::sort_bit_range(opts, radix_traits<K>::bits, where);
  std::vector<std::int64_t> idx(static_cast<std::size_t>(n));
  std::iota(idx.begin(), idx.end(), std::int64_t{0});
  std::stable_sort(idx.begin(), idx.end(), [&, b = b, e = e](std::int64_t x, std::int64_t y) {
    return scankit::detail::sort_rank_bits(keys[x], b, e, opts.descending) <
           scankit::detail::sort_rank_bits(keys[y], b, e, opts.descending);
  });
  std::vector<K> k2(static_cast<std::size_t>(n));
  detail::raw_buffer<V> v2(n);
  for (std::int64_t i = 0; i < n; ++i) {
    k2[static_cast<std::size_t>(i)] = keys[idx[static_cast<std::size_t>(i)]];
    std::memcpy(v2.get() + i, values + idx[static_cast<std::size_t>(i)], sizeof(V));
  }
  std::copy(k2.begin(), k2.end(), keys);
  if (n > 0) std::memcpy(values, v2.get(), static_cast<std::size_t>(n) * sizeof(V));
}

/// Parallel LSD radix sort of keys (see the design notes above).
template <class K>
void sort_keys_parallel(K* keys, std::int64_t n, const sort_options& opts = {}) {
  constexpr const char* where = "scankit::cpu::sort_keys_parallel";
  detail::check_sort_args<K, int>(keys, nullptr, false, n, where);
  detail::radix_sort<K, int>(keys, nullptr, n, opts, where);
}

/// Parallel LSD radix sort of key-value pairs: values move with their keys; stable.
template <class K, class V>
void sort_pairs_parallel(K* keys, V* values, std::int64_t n, const sort_options& opts = {}) {
  static_assert(std::is_trivially_copyable_v<V>, "sort values must be trivially copyable");
  constexpr const char* where = "scankit::cpu::sort_pairs_parallel";
  detail::check_sort_args(keys, values, true, n, where);
  detail::radix_sort(keys, values, n, opts, where);
}

/// The permutation that sorts `keys` (stably): keys[result[0]] is the smallest key.
template <class K>
std::vector<std::int64_t> argsort_parallel(const K* keys, std::int64_t n, const sort_options& opts = {}) {
  constexpr const char* where = "scankit::cpu::argsort_parallel";
  detail::check_sort_args<K, int>(keys, nullptr, false, n, where);
  std::vector<K> k(keys, keys + n);
  std::vector<std::int64_t> idx(static_cast<std::size_t>(n));
  std::iota(idx.begin(), idx.end(), std::int64_t{0});
  detail::radix_sort(k.data(), idx.data(), n, opts, where);
  return idx;
}

}  // namespace scankit::cpu
