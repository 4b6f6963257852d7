// CPU sorts: a serial reference (std::stable_sort on the ordered bits) and the library's
// parallel radix sort on oneTBB (LSD; MSD-first for large inputs). Key order, stability and
// bit ranges: see sort_traits.hpp.
//
//   keys, values  n items each, sorted in place (values: nullptr for a keys-only sort);
//                 any trivially copyable value type.
//   opts          descending, bit range.
// Bad arguments (negative n, a null pointer with n > 0, a bad bit range) throw
// scankit::invalid_argument before anything is written.
//
// sort_parallel: design
// ---------------------
// Radix sort with 8-bit digits over a second buffer of the same size.
//   * Survey: one parallel read of the keys takes the OR and the AND of their ordered bits,
//     per chunk (chunk c = the c-th of C equal slices, one per worker). A digit where the two
//     agree is the same in every key: its pass would not move anything and is skipped (a big
//     win for narrow keys in wide types and for the bit ranges). The same read counts, per
//     chunk, the one digit the first pass scatters by, guessed from a sample of 1024 keys (a
//     digit that varies in the sample varies in all); on a miss the first pass counts its
//     digit by another read. (Counting every digit in this read, as it once did, cost a third
//     of the hybrid's time: the increments, not the read, were the limit.)
//   * Below 16 MiB of keys and values, LSD passes over the whole array. Each pass: per-chunk
//     histograms of its digit (the first from the survey; later passes count their source
//     again, one read), an exclusive scan over (digit, chunk) in that order gives every chunk
//     a private, contiguous output range per digit, and each chunk scatters its items in order
//     into them: one read and one write per item and pass. Reading each chunk in order and
//     writing each (digit, chunk) range in order is what makes the sort stable. Results end
//     in the caller's array (a final parallel copy when the pass count is odd).
//   * The chunked scatter writes through software write-combining (line_writer): items go to
//     a 64-byte line buffer per digit (16 KiB for 256 digits, so it stays in L1) and each
//     line, once whole, goes to memory with non-temporal stores. A plain scatter writes 256
//     streams per thread one item at a time: every new output line is first read from DRAM
//     (the write-allocate) and the store buffer fills with those misses; full-line streaming
//     stores skip the read. Serially on the 2-core CI VM it halved the scatter (2^25 uint32:
//     ~125 against ~70 ms a pass). (Buffers copied out with ordinary stores, tried earlier,
//     measured slower on the 16-core host: 406 against 345 ms at 2^27: they keep the read.)
//     Lines at the edges of a (chunk, digit) range are written item by item.
//   * MSD-first hybrid, from 16 MiB of keys and values when at least two digits vary. Every
//     LSD pass above is a round trip through DRAM (at 2^27 uint32 the passes move ~6 GB), so
//     instead:
//       - one chunked, write-combining pass as above, by the most significant varying digit,
//         moves the items from the caller's array into 256 buckets of the scratch buffer;
//       - each bucket (~n/256 items: 2 MiB at 2^27 uint32) is then sorted by the lower
//         varying digits by one thread, in the cache: one read counts all of them (and finds
//         those constant within the bucket, skipped), the LSD passes ping-pong with plain
//         stores between two buffers of that thread (kept from one bucket to the next, so they
//         stay cached), and only the last pass writes the bucket's range of the caller's
//         array, through the line_writer. The passes are laid out backwards from that
//         destination, so it comes out in place whatever their number, with no copy.
//     Each item then crosses DRAM five times (survey; MSD read and write; bucket read and
//     write) instead of twelve for four LSD passes. Stable: the MSD pass is a stable chunked
//     pass, and each bucket sort a stable LSD sort. Buckets vary in size, so each thread
//     takes the next bucket, largest first, from a shared counter. A bucket of more than 8 MiB, or (with several
//     threads) of more than 1/(2 workers) of the items and 2^16 of them (skewed keys: most
//     keys share their top digit, few distinct values), would serialise the sort: such
//     buckets are sorted first, one after the other, each by every thread with the same
//     algorithm on the next digit down (LSD passes once under 16 MiB or one digit). The
//     threshold: below it the array and its scratch buffer (<= 32 MiB) mostly stay in a
//     server's last-level cache, where the LSD passes are cheap; on the 2-core CI VM the
//     hybrid was even with them at 2-4 MiB and ahead from 8 MiB (2^21 uint32: ~14 against
//     ~18 ms), by 1.4x at 2^25. detail::hybrid_params overrides both sizes (for the tests).
//     The leaf buffers take up to 3 x 8 MiB per thread, on top of the scratch buffer.
//   * Keys without values, 4 or 8 bytes, sorted over their whole bit range: each bucket is
//     sorted instead by Google Highway's vectorized quicksort (vqsort, where the build has
//     Highway; hybrid_params::buckets), in place in its destination. A quicksort does not keep
//     equal keys in order, but two such keys compare equal only if their bits are the same,
//     so the result cannot differ. Integers are sorted as they are; floats as their ordered
//     bits (vqsort's own float order puts NaNs and -0.0 elsewhere), mapped there and back in
//     the cache.
//   * A bucket of more than hybrid_params::split_bytes (256 KiB) with at least three digits
//     left is split once more by its top digit (split_leaf) into L2-sized pieces of L1 size,
//     each then sorted as above: the passes over a 2 MiB bucket and two 2 MiB buffers ran from
//     L3 on a host with 2 MiB of L2 per core.
//   * A bucket or piece that fits the cache (at most split_bytes) is staged: its last pass
//     writes one of the thread's buffers, which then goes to the destination with streaming
//     stores. Its digit ranges are a few items long, so plain stores into the destination
//     would first read almost every line of it from DRAM, and the line_writer would find no
//     whole lines. On the 16-core host the bucket sorts took 103-110 ms instead of 113-125
//     at 2^27 uint32 (docs/PERFORMANCE.md).
//   * Large inputs are cut into up to 4 chunks per worker (hybrid_params::chunks_per_worker),
//     not one: the host's threads do not run at one speed (one read of the keys, cut into 16
//     chunks, had chunks taking 10-25 ms), and with one chunk each the slowest sets the time
//     of the survey and the MSD pass. TBB hands the chunks out as workers come free.
//   * sort_workspace keeps the scratch buffer and the bucket buffers between calls; without
//     one each call allocates (and page-faults) its own.
//   * Out of place (sort_keys_parallel(in, out, n)), the input is only read: the survey and
//     the first pass read it, the hybrid's buckets land in the output and are sorted there in
//     place, so it needs no scratch buffer of n items and no copy first (a bucket too big for
//     one thread gets scratch of its own size); the LSD passes' first pass writes whichever
//     array makes the last one end in the output.
// Below 2^16 items the same algorithm runs with one chunk on the calling thread.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(SCANKIT_HAS_HIGHWAY)
#include <hwy/contrib/sort/vqsort.h>
#endif

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "scankit/cpu/scan.hpp"  // fenced_region
#include "scankit/error.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::cpu {

class sort_workspace;

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

/// Bytes rounded up to a whole number of 64-byte lines: the arrays carved out of one block
/// each start on a line.
constexpr std::size_t line_round(std::size_t bytes) { return (bytes + 63) & ~std::size_t{63}; }

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

}  // namespace detail

namespace detail {
/// A block that only grows: at_least(b) returns at least b bytes on a 64-byte boundary, the
/// same block while it is big enough (what it held is then kept), else a new one.
struct growing_block {
  raw_buffer<std::byte> p{0};
  std::size_t bytes = 0;
  std::byte* at_least(std::size_t b) {
    if (b > bytes) {
      p = raw_buffer<std::byte>(0);  // free the old block before the new one
      p = raw_buffer<std::byte>(static_cast<std::int64_t>(b));
      bytes = b;
    }
    return p.get();
  }
};
}  // namespace detail

/// Host memory that parallel sorts keep from one call to the next: the scratch copy of the
/// keys (and values) and every worker's bucket buffers, grown when a call needs more and
/// otherwise reused. A 2^27-key sort touches 0.5 GiB of fresh scratch memory when it allocates
/// its own, which costs it 5-25% on the 16-core host (page faults; docs/PERFORMANCE.md). The
/// sorts that take one are otherwise the same. One workspace serves one sort at a time.
class sort_workspace {
 public:
  /// The bytes held now.
  std::size_t bytes() const noexcept {
    std::size_t b = scratch_.bytes;
    for (const auto& l : leaves_) b += l.bytes;
    return b;
  }
  /// Frees everything held (the next sort grows it again).
  void release() noexcept {
    scratch_ = {};
    leaves_.clear();
  }

  // Used by the sorts: a block of at least `bytes`, on a 64-byte boundary, valid until the
  // next call asks for more.
  std::byte* scratch(std::size_t bytes) { return scratch_.at_least(bytes); }
  /// Makes room for `slots` workers' bucket buffers. Called before the workers start: leaf()
  /// then touches only its own slot, so the workers may call it concurrently.
  void prepare_leaves(std::size_t slots) {
    if (slots > leaves_.size()) leaves_.resize(slots);
  }
  /// Worker `slot`'s bucket buffers (slot < the count given to prepare_leaves), as for scratch().
  std::byte* leaf(std::size_t slot, std::size_t bytes) { return leaves_[slot].at_least(bytes); }

 private:
  detail::growing_block scratch_;
  std::vector<detail::growing_block> leaves_;
};

namespace detail {

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
  // Always inlined: called once per item from the scatter loops, where GCC at -O3 left it an
  // out-of-line call in the CLI's build (a quarter of a sort's profile there).
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

/// How the MSD-first hybrid sorts a bucket of keys without values (see the design notes).
enum class bucket_sort {
  /// The radix passes in the cache (leaf, split_leaf): stable, any key type and bit range.
  radix,
  /// Highway's vectorized quicksort, for 4- and 8-byte keys over their whole bit range: there
  /// two keys that compare equal are the same bits, so the order of equal keys, which a
  /// quicksort does not keep, cannot be seen. Elsewhere, and in builds without Highway, radix.
  vqsort,
};

/// Tuning of the MSD-first hybrid (see the design notes). The defaults are the library's;
/// tests shrink them so that the hybrid and its recursion run at small sizes.
struct hybrid_params {
  /// The hybrid sorts inputs of at least this many bytes (keys and values together).
  std::int64_t min_bytes = std::int64_t{16} << 20;
  /// The most bytes (keys and values) of one bucket that a single thread sorts alone.
  std::int64_t leaf_bytes = std::int64_t{8} << 20;
  /// A bucket of more bytes than this, with at least three digits left, is split once more by
  /// its top digit before its LSD passes, so that those run on pieces the size of an L1 cache.
  std::int64_t split_bytes = std::int64_t{256} << 10;
  /// Large inputs are cut into up to this many chunks per worker (each chunk's items going to
  /// 256 ranges of their own), so that a worker slowed down by something else on the host
  /// holds up the read and the scatter less: TBB hands the chunks out as workers come free.
  std::int64_t chunks_per_worker = 4;
  /// How a bucket of keys without values is sorted (where the choice applies).
  bucket_sort buckets = bucket_sort::vqsort;
};

/// The passes of the radix sort over an array and a scratch array of the same size.
template <class K, class V>
class radix_sorter {
  using U = typename radix_traits<K>::bits_t;
  using pass_fn = typename digit_fn<K>::of_pass;

 public:
  /// How a bucket sort's last pass writes its destination: with plain stores; through the
  /// line_writer (streaming whole lines; for buckets too big for the cache); or, staged, into
  /// a buffer in the cache and from there to the destination with stream_bytes (for buckets
  /// that fit the cache, whose digit ranges are too short for whole lines: this skips the
  /// read of every destination line that plain stores cost).
  enum class out_mode { plain, combine, staged };
  /// Items [0, n) of a keys array and its values array (v: nullptr for keys only).
  struct span {
    K* k;
    V* v;
    span at(std::int64_t i) const { return {k + i, v ? v + i : nullptr}; }
  };
  /// What one read of the keys found: the passes that vary, and per-chunk histograms of one
  /// or two of them.
  struct tally {
    std::int64_t chunks;
    std::vector<int> active;            // the surveyed passes whose digit is not the same in every key
    std::vector<int> counted;           // the passes counted below
    std::vector<std::int64_t> counts;   // [chunk][j][digit], j indexing `counted`
    const std::int64_t* at(std::int64_t c, std::size_t j) const {
      return counts.data() + (c * static_cast<std::int64_t>(counted.size()) + static_cast<std::int64_t>(j)) * radix;
    }
  };
  radix_sorter(const digit_fn<K>& digit, bool with_values, bool write_combining, const hybrid_params& hp,
               sort_workspace* ws = nullptr)
      : digit_(digit),
        with_values_(with_values),
        write_combining_(write_combining),
        hp_(hp),
        ws_(ws),
        workers_(std::max(1, tbb::this_task_arena::max_concurrency())) {}

  /// One parallel read of keys[0, n): which of `passes` (ascending) vary, exactly, from the
  /// OR and the AND of the ordered bits (a digit is constant where they agree), and the
  /// per-chunk histogram of the digit that the sort will scatter by first: the top varying
  /// one for the hybrid, the bottom one for the LSD passes. Which digits vary is not known
  /// before the read, so a sample of the keys guesses them (a digit that varies in the
  /// sample varies); when the guess misses, the first pass counts its digit itself. Counting
  /// every digit instead, as this once did, cost a third of the hybrid's time: the
  /// increments, not the read, were the limit.
  tally survey(const K* keys, std::int64_t n, const std::vector<int>& passes) const {
    const std::int64_t sample = std::min<std::int64_t>(n, 1024);
    U s_or{0}, s_and = static_cast<U>(~U{0});
    for (std::int64_t i = 0; i < sample; ++i) {
      const U o = digit_.ordered(keys[i * n / sample]);
      s_or = static_cast<U>(s_or | o);
      s_and = static_cast<U>(s_and & o);
    }
    const std::vector<int> likely = varying_of(passes, static_cast<U>(s_or ^ s_and));
    const int bottom = likely.empty() ? passes.front() : likely.front();
    const int top = likely.empty() ? passes.back() : likely.back();
    tally t{chunks_for(n), {}, {}, {}};
    const bool big = hybrid_size(n);
    if (!big || likely.size() < 2) t.counted.push_back(bottom);  // the LSD passes may run
    if (big && top != bottom) t.counted.push_back(top);           // the hybrid may run
    const std::size_t nc = t.counted.size();
    t.counts.assign(static_cast<std::size_t>(t.chunks) * nc * radix, 0);
    const auto [shift, mask] = shifts_and_masks(t.counted);
    std::vector<U> ors(static_cast<std::size_t>(t.chunks)), ands(static_cast<std::size_t>(t.chunks));
    for_chunks(t.chunks, [&, shift = shift, mask = mask](std::int64_t c) {
      std::vector<std::int64_t> local(nc * radix, 0);
      std::int64_t* const h0 = local.data();
      std::int64_t* const h1 = h0 + radix;
      const digit_fn<K> dg = digit_;
      const K* const k = keys;
      const std::int64_t b = chunk_begin(n, t.chunks, c), e = chunk_begin(n, t.chunks, c + 1);
      U o_or{0}, o_and = static_cast<U>(~U{0});
      const int s0 = shift[0], s1 = shift[1];
      const unsigned m0 = mask[0], m1 = mask[1];
      if (nc == 1) {
        for (std::int64_t i = b; i < e; ++i) {
          const U o = dg.ordered(k[i]);
          o_or = static_cast<U>(o_or | o);
          o_and = static_cast<U>(o_and & o);
          ++h0[(o >> s0) & m0];
        }
      } else {
        for (std::int64_t i = b; i < e; ++i) {
          const U o = dg.ordered(k[i]);
          o_or = static_cast<U>(o_or | o);
          o_and = static_cast<U>(o_and & o);
          ++h0[(o >> s0) & m0];
          ++h1[(o >> s1) & m1];
        }
      }
      ors[static_cast<std::size_t>(c)] = o_or;
      ands[static_cast<std::size_t>(c)] = o_and;
      std::copy(local.begin(), local.end(), t.counts.begin() + static_cast<std::ptrdiff_t>(c * nc * radix));
    });
    U all_or{0}, all_and = static_cast<U>(~U{0});
    for (std::int64_t c = 0; c < t.chunks; ++c) {
      all_or = static_cast<U>(all_or | ors[static_cast<std::size_t>(c)]);
      all_and = static_cast<U>(all_and & ands[static_cast<std::size_t>(c)]);
    }
    t.active = varying_of(passes, static_cast<U>(all_or ^ all_and));
    return t;
  }

  /// Sorts the n items of `from` by the passes t.active (t: the survey of from) into x when
  /// end_in_x, else into y. `from` is only read; it is x itself, or a third array of n items.
  /// y is scratch of n items; for an out-of-place sort that takes the hybrid (uses_hybrid) it
  /// may be x itself, as the hybrid's bucket sorts run in place.
  void sort(span from, span x, span y, std::int64_t n, const tally& t, bool end_in_x) const {
    if (t.active.empty()) {
      const span fin = end_in_x ? x : y;
      if (from.k != fin.k) copy(from, fin, n);
      return;
    }
    if (uses_hybrid(n, t)) msd(from, x, y, n, t, end_in_x);
    else lsd(from, x, y, n, t, end_in_x);
  }

  /// Whether sort() takes the MSD-first hybrid for these n items.
  bool uses_hybrid(std::int64_t n, const tally& t) const { return t.active.size() >= 2 && hybrid_size(n); }

 private:
  /// A worker's buffers for the bucket sorts, reused from one bucket to the next so that they
  /// stay in the cache: three of `cap` items, carved from one block, the worker's block of the
  /// caller's workspace when there is one (slot: the worker), else one of its own.
  struct leaf_buffers {
    sort_workspace* ws = nullptr;
    std::size_t slot = 0;
    raw_buffer<std::byte> own{0};
    span bufs[3] = {};
    void reserve(std::int64_t cap, bool values) {
      if (bufs[0].k != nullptr) return;
      const std::size_t kb = line_round(static_cast<std::size_t>(cap) * sizeof(K));
      const std::size_t vb = values ? line_round(static_cast<std::size_t>(cap) * sizeof(V)) : 0;
      std::byte* base = nullptr;
      if (ws != nullptr) {
        base = ws->leaf(slot, 3 * (kb + vb));
      } else {
        own = raw_buffer<std::byte>(static_cast<std::int64_t>(3 * (kb + vb)));
        base = own.get();
      }
      for (int i = 0; i < 3; ++i, base += kb + vb)
        bufs[i] = {reinterpret_cast<K*>(base), values ? reinterpret_cast<V*>(base + kb) : nullptr};
    }
    span a() const { return bufs[0]; }
    span b() const { return bufs[1]; }
    span c() const { return bufs[2]; }
  };

  std::int64_t item_bytes() const {
    return static_cast<std::int64_t>(sizeof(K) + (with_values_ ? sizeof(V) : 0));
  }
  bool hybrid_size(std::int64_t n) const { return n * item_bytes() >= hp_.min_bytes; }
  /// How a bucket sort of m items writes its destination (see out_mode).
  out_mode leaf_out(std::int64_t m) const {
    if (!write_combining_) return out_mode::plain;
    return m * item_bytes() <= hp_.split_bytes ? out_mode::staged : out_mode::combine;
  }
  /// The passes among `passes` in which some bit of `varying` falls.
  std::vector<int> varying_of(const std::vector<int>& passes, U varying) const {
    std::vector<int> v;
    for (int p : passes) {
      const pass_fn f = digit_.pass(p);
      if ((static_cast<unsigned>(varying >> f.shift) & f.mask) != 0) v.push_back(p);
    }
    return v;
  }
  /// One chunk below 2^16 items; else one per worker, and more (up to chunks_per_worker each)
  /// while every (chunk, digit) range still averages 16 KiB of keys, so that the lines cut at
  /// the ranges' edges stay few.
  std::int64_t chunks_for(std::int64_t n) const {
    if (n < (std::int64_t{1} << 16)) return 1;
    const std::int64_t most = workers_ * std::max<std::int64_t>(1, hp_.chunks_per_worker);
    const std::int64_t by_size = n * static_cast<std::int64_t>(sizeof(K)) / (radix * (std::int64_t{16} << 10));
    return std::min(n, std::clamp(by_size, workers_, most));
  }
  static std::int64_t chunk_begin(std::int64_t n, std::int64_t chunks, std::int64_t c) { return n * c / chunks; }

  /// Every pass's shift and mask, for loops that cut several digits out of one mapped key
  /// (at most 8 passes: one per byte of the widest key; unused entries are zero).
  std::pair<std::array<int, 8>, std::array<unsigned, 8>> shifts_and_masks(const std::vector<int>& passes) const {
    std::array<int, 8> shift{};
    std::array<unsigned, 8> mask{};
    for (std::size_t j = 0; j < passes.size(); ++j) {
      const pass_fn f = digit_.pass(passes[j]);
      shift[j] = f.shift;
      mask[j] = f.mask;
    }
    return {shift, mask};
  }

  template <class F>
  static void for_chunks(std::int64_t chunks, F&& f) {
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
  }

  /// hist[c][d] = chunk c's count of digit d of pass p in keys[0, n): from the survey t
  /// when `surveyed` (keys are still the ones t read, in the same order) and it counted p,
  /// else by a read.
  void histogram(const tally& t, bool surveyed, const K* keys, std::int64_t n, int p,
                 std::vector<std::int64_t>& hist) const {
    const auto j = static_cast<std::size_t>(std::find(t.counted.begin(), t.counted.end(), p) - t.counted.begin());
    if (surveyed && j < t.counted.size()) {
      for (std::int64_t c = 0; c < t.chunks; ++c) std::copy_n(t.at(c, j), radix, hist.data() + c * radix);
      return;
    }
    const pass_fn digit_p = digit_.pass(p);
    const std::int64_t chunks = t.chunks;
    for_chunks(chunks, [&](std::int64_t c) {
      std::array<std::int64_t, radix> h{};
      for (std::int64_t i = chunk_begin(n, chunks, c), e = chunk_begin(n, chunks, c + 1); i < e; ++i)
        ++h[digit_p(keys[i])];
      std::copy(h.begin(), h.end(), hist.data() + c * radix);
    });
  }

  /// Exclusive scan in (digit, chunk) order: chunk c's items of digit d go after every item
  /// of a smaller digit and after the items of digit d in earlier chunks.
  static void scan_hist(std::vector<std::int64_t>& hist, std::int64_t chunks) {
    std::int64_t run = 0;
    for (int d = 0; d < radix; ++d)
      for (std::int64_t c = 0; c < chunks; ++c) {
        const std::int64_t k = hist[static_cast<std::size_t>(c * radix + d)];
        hist[static_cast<std::size_t>(c * radix + d)] = run;
        run += k;
      }
  }

  /// Items [b, e) of (sk, sv) to (dk, dv) by the digit: off[d] is the next slot of digit d
  /// (advanced). Streaming write-combining when `combine` and the items tile a line.
  static void scatter_run(const K* sk, const V* sv, std::int64_t b, std::int64_t e, K* dk, V* dv,
                          std::array<std::int64_t, radix>& off, const pass_fn digit_p, bool combine) {
    const bool combine_keys = combine && line_writer<K>::usable(dk);
    const bool combine_values = sv != nullptr && combine && line_writer<V>::usable(dv);
    if (sv == nullptr && combine_keys) {
      line_writer<K> wk(dk, off.data());
      for (std::int64_t i = b; i < e; ++i) {
        const K k = sk[i];
        const unsigned d = digit_p(k);
        wk.put(d, off[d]++, k);
      }
      wk.finish(off.data());
    } else if (sv != nullptr && combine_keys && combine_values) {
      line_writer<K> wk(dk, off.data());
      line_writer<V> wv(dv, off.data());
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
      for (std::int64_t i = b; i < e; ++i) {
        const std::int64_t o = off[digit_p(sk[i])]++;
        dk[o] = sk[i];
        dv[o] = sv[i];
      }
    } else {
      for (std::int64_t i = b; i < e; ++i) dk[off[digit_p(sk[i])]++] = sk[i];
    }
  }

  /// One chunked pass: every chunk moves its items from src to dst by digit p, at the
  /// scanned offsets in hist.
  void scatter(span src, span dst, std::int64_t n, std::int64_t chunks, int p,
               const std::vector<std::int64_t>& hist) const {
    const pass_fn digit_p = digit_.pass(p);
    for_chunks(chunks, [&](std::int64_t c) {
      std::array<std::int64_t, radix> off;
      std::copy_n(hist.data() + c * radix, radix, off.begin());
      scatter_run(src.k, src.v, chunk_begin(n, chunks, c), chunk_begin(n, chunks, c + 1), dst.k, dst.v, off,
                  digit_p, write_combining_);
    });
  }

  void copy(span src, span dst, std::int64_t n) const {
    const std::int64_t chunks = chunks_for(n);
    for_chunks(chunks, [&](std::int64_t c) {
      const std::int64_t b = chunk_begin(n, chunks, c), e = chunk_begin(n, chunks, c + 1);
      std::memcpy(static_cast<void*>(dst.k + b), src.k + b, static_cast<std::size_t>(e - b) * sizeof(K));
      if (src.v) std::memcpy(static_cast<void*>(dst.v + b), src.v + b, static_cast<std::size_t>(e - b) * sizeof(V));
    });
  }

  /// The chunked LSD sort: every active pass over the whole array, ping-ponging x and y. A
  /// first pass from a separate array writes the one of x and y that makes the last pass end
  /// where the result belongs, so no copy follows.
  void lsd(span from, span x, span y, std::int64_t n, const tally& t, bool end_in_x) const {
    const span fin = end_in_x ? x : y, other = end_in_x ? y : x;
    const std::size_t r = t.active.size();
    span src = from;
    // hist[c][d]: the count of the pass's digit d in chunk c, then (scanned) its first output.
    std::vector<std::int64_t> hist(static_cast<std::size_t>(t.chunks * radix));
    for (std::size_t q = 0; q < r; ++q) {
      const int p = t.active[q];
      const span dst = src.k == x.k ? y : src.k == y.k ? x : (r - 1 - q) % 2 == 0 ? fin : other;
      histogram(t, q == 0, src.k, n, p, hist);  // the first pass reads what the survey read
      scan_hist(hist, t.chunks);
      scatter(src, dst, n, t.chunks, p, hist);
      src = dst;
    }
    if (src.k != fin.k) copy(src, fin, n);  // the result is in the other array
  }

  /// The MSD-first hybrid: one chunked pass by the top active digit into y, then every
  /// bucket sorted by the lower digits on its own; see the design notes.
  /// With y == x (an out-of-place sort: from is another array), the buckets are sorted in
  /// place in x, and only the rare buckets too big for one thread get scratch of their own.
  void msd(span from, span x, span y, std::int64_t n, const tally& t, bool end_in_x) const {
    const int top = t.active.back();
    const std::vector<int> rest(t.active.begin(), t.active.end() - 1);
    std::vector<std::int64_t> hist(static_cast<std::size_t>(t.chunks * radix));
    histogram(t, true, from.k, n, top, hist);
    std::array<std::int64_t, radix + 1> first{};  // bucket d: [first[d], first[d + 1])
    for (int d = 0; d < radix; ++d) {
      first[d + 1] = first[d];
      for (std::int64_t c = 0; c < t.chunks; ++c) first[d + 1] += hist[static_cast<std::size_t>(c * radix + d)];
    }
    scan_hist(hist, t.chunks);
    // Every chunk writes into every bucket at once, and a bucket is about one huge page (2 MiB
    // at 2^27 uint32): on a destination nobody has written yet (a fresh NumPy array, a fresh
    // scratch buffer) all threads fault the same page, one clears it while the others wait,
    // and the kernel's clearing of the whole array runs on one thread at a time. Touched first
    // by contiguous ranges, its pages are cleared by all threads at once; on resident pages a
    // touch costs one line in 64.
    if (workers_ > 1) {
      touch_pages(y.k, n * static_cast<std::int64_t>(sizeof(K)), static_cast<int>(workers_));
      if (y.v) touch_pages(y.v, n * static_cast<std::int64_t>(sizeof(V)), static_cast<int>(workers_));
    }
    scatter(from, y, n, t.chunks, top, hist);

    // A bucket one thread sorts must fit its buffers and, with several threads, hold at most
    // 1/(2 workers) of the items: then the slowest thread finishes within 1.5x of the mean.
    // Larger buckets (skewed keys) are sorted one after the other by every thread, recursively.
    std::int64_t leaf_max = std::clamp<std::int64_t>(hp_.leaf_bytes / item_bytes(), 1, std::int64_t{1} << 31);
    if (workers_ > 1) leaf_max = std::min(leaf_max, std::max(n / (2 * workers_), std::int64_t{1} << 16));
    const span dst = end_in_x ? x : y;
    const bool in_place = y.k == x.k;
    std::int64_t big = 0;  // the largest bucket sorted by every thread
    for (int d = 0; d < radix; ++d) big = std::max(big, first[d + 1] - first[d] > leaf_max ? first[d + 1] - first[d] : 0);
    raw_buffer<std::byte> own(in_place && big > 0 && ws_ == nullptr ? big * item_bytes() + 64 : 0);
    std::byte* const spare = !in_place || big == 0 ? nullptr
                             : ws_ != nullptr    ? ws_->scratch(static_cast<std::size_t>(big * item_bytes()) + 64)
                                                 : own.get();
    std::vector<int> leaves;
    std::int64_t cap = 0;
    for (int d = 0; d < radix; ++d) {
      const std::int64_t m = first[d + 1] - first[d];
      if (m == 0) continue;
      if (m <= leaf_max) {
        leaves.push_back(d);
        cap = std::max(cap, m);
        continue;
      }
      const span yb = y.at(first[d]), xb = x.at(first[d]);
      if (in_place) {
        const std::size_t kb = line_round(static_cast<std::size_t>(m) * sizeof(K));
        const span scratch{reinterpret_cast<K*>(spare), with_values_ ? reinterpret_cast<V*>(spare + kb) : nullptr};
        sort(xb, xb, scratch, m, survey(xb.k, m, rest), true);
      } else {
        sort(yb, yb, xb, m, survey(yb.k, m, rest), !end_in_x);
      }
    }
    if (leaves.empty()) return;
    // Largest first, each thread taking the next bucket when done with one: the small ones
    // fill in at the end.
    std::stable_sort(leaves.begin(), leaves.end(),
                     [&](int a, int b) { return first[a + 1] - first[a] > first[b + 1] - first[b]; });
    const std::int64_t pool = std::min<std::int64_t>(workers_, static_cast<std::int64_t>(leaves.size()));
    std::vector<leaf_buffers> buffers(static_cast<std::size_t>(pool));
    if (ws_ != nullptr) ws_->prepare_leaves(buffers.size());  // here, before the workers start
    for (std::size_t i = 0; i < buffers.size(); ++i) buffers[i].ws = ws_, buffers[i].slot = i;
    std::atomic<std::size_t> next{0};
    const bool quicksort = quicksort_buckets();
    for_chunks(pool, [&](std::int64_t c) {
      leaf_buffers& lb = buffers[static_cast<std::size_t>(c)];
      // Every worker's buffers up front, by that worker (the pages then lie near it), whether
      // or not a bucket is left for it: a workspace then holds the same after the same call.
      if (!quicksort) lb.reserve(cap, y.v != nullptr);
      for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < leaves.size();) {
        const int d = leaves[i];
        const std::int64_t m = first[d + 1] - first[d];
        if (quicksort)
          quicksort_leaf(y.k + first[d], dst.k + first[d], m);
        else if (rest.size() >= 3 && m * item_bytes() > hp_.split_bytes)
          split_leaf(y.at(first[d]), dst.at(first[d]), m, rest, lb, cap);
        else
          leaf(y.at(first[d]), dst.at(first[d]), m, rest, lb.a(), lb.b(), leaf_out(m));
      }
      store_fence();  // the staged copies' streaming stores, before the join publishes them
    });
  }

  /// Whether msd() sorts its buckets with Highway's vqsort (bucket_sort::vqsort).
  bool quicksort_buckets() const {
#if defined(SCANKIT_HAS_HIGHWAY)
    return hp_.buckets == bucket_sort::vqsort && !with_values_ && (sizeof(K) == 4 || sizeof(K) == 8) &&
           digit_.begin == 0 && digit_.end == radix_traits<K>::bits;
#else
    return false;
#endif
  }

  /// A bucket of m keys from s into d (which may be s) by Highway's vqsort, in place in d.
  /// Integer keys are sorted as they are (ascending or descending: their order is the sort's);
  /// floats as their ordered bits, the unsigned integers whose order is IEEE total order, and
  /// mapped back after.
  void quicksort_leaf([[maybe_unused]] const K* s, [[maybe_unused]] K* d, [[maybe_unused]] std::int64_t m) const {
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

  /// A bucket too big for the L1 cache: one more stable pass, by its top digit, from s into
  /// buffer a (plain stores: it stays in L2 for the next step), then each piece sorted by the
  /// digits below with leaf(), in buffers b and c, into its range of d. At 2^27 uint32 keys a
  /// bucket is 2 MiB and its pieces 8 KiB: the leaf's three passes over 2 MiB buffers ran
  /// from L3 (the two buffers and the bucket outgrow a 2 MiB L2); the pieces' two passes stay
  /// in L1. The last passes are staged (out_mode): a piece's digit ranges are shorter than a
  /// line, so the line_writer would not find whole lines.
  void split_leaf(span s, span d, std::int64_t m, const std::vector<int>& rest, leaf_buffers& lb,
                  std::int64_t cap) const {
    const int top = rest.back();
    const std::vector<int> lower(rest.begin(), rest.end() - 1);
    const pass_fn digit_top = digit_.pass(top);
    lb.reserve(cap, s.v != nullptr);
    std::array<std::int64_t, radix + 1> first{};
    for (std::int64_t i = 0; i < m; ++i) ++first[digit_top(s.k[i]) + 1];
    if (first[digit_top(s.k[0]) + 1] == m) {  // constant top digit (every key has the first's)
      leaf(s, d, m, lower, lb.a(), lb.b(), leaf_out(m));
      return;
    }
    std::partial_sum(first.begin(), first.end(), first.begin());
    std::array<std::int64_t, radix> off;
    std::copy_n(first.begin(), radix, off.begin());
    const span a = lb.a();
    scatter_run(s.k, s.v, 0, m, a.k, a.v, off, digit_top, false);
    for (int q = 0; q < radix; ++q) {
      const std::int64_t len = first[q + 1] - first[q];
      if (len == 0) continue;
      if (lower.size() >= 3 && len * item_bytes() > hp_.split_bytes) {
        // A skewed bucket: the piece is still big; split it too, in buffers of its own (b and
        // c hold only ordinary pieces).
        leaf_buffers sub;
        split_leaf(a.at(first[q]), d.at(first[q]), len, lower, sub, len);
      } else {
        leaf(a.at(first[q]), d.at(first[q]), len, lower, lb.b(), lb.c(), leaf_out(len));
      }
    }
  }

  /// Serial LSD sort of one bucket of m items by the passes `rest`, from s to d (which may
  /// be s), in the cache: one read counts every digit, the passes ping-pong between the
  /// buffers a and b (m items each) with plain stores, and only the last one writes d, as
  /// `out` says.
  void leaf(span s, span d, std::int64_t m, const std::vector<int>& rest, span a, span b, out_mode out) const {
    const std::size_t np = rest.size();
    const auto [shift, mask] = shifts_and_masks(rest);
    std::array<std::array<std::uint32_t, radix>, sizeof(K)> h;  // m < 2^31
    for (std::size_t j = 0; j < np; ++j) h[j].fill(0);
    {
      // The digit count a compile-time constant for the usual one to three (a loop over a
      // run-time count cost a third of this count: 2^27 uint32 keys leave two digits here).
      const digit_fn<K> dg = digit_;
      const K* const k = s.k;
      // (shift and mask copied: a lambda may not capture structured bindings before C++20's
      // P1091, which Clang implements from version 16.)
      auto count = [&, shift = shift, mask = mask]<std::size_t P>(std::integral_constant<std::size_t, P>) {
        for (std::int64_t i = 0; i < m; ++i) {
          const U o = dg.ordered(k[i]);
          for (std::size_t j = 0; j < (P == 0 ? np : P); ++j) ++h[j][(o >> shift[j]) & mask[j]];
        }
      };
      if (np == 1) count(std::integral_constant<std::size_t, 1>{});
      else if constexpr (sizeof(K) >= 2) {
        if (np == 2) count(std::integral_constant<std::size_t, 2>{});
        else if constexpr (sizeof(K) >= 4) {
          if (np == 3) count(std::integral_constant<std::size_t, 3>{});
          else count(std::integral_constant<std::size_t, 0>{});
        }
      }
    }
    std::array<std::size_t, sizeof(K)> act{};  // the passes that vary in this bucket
    int r = 0;
    // A digit varies unless every key has the first key's: one look-up per digit (a scan of
    // the 256 counts for their maximum cost 4% of a 2^27 sort, its pieces being 2,048 keys).
    // m >= 1 here: msd() and split_leaf() skip empty buckets and pieces.
    const U first_key = digit_.ordered(s.k[0]);
    for (std::size_t j = 0; j < np; ++j)
      if (h[j][(first_key >> shift[j]) & mask[j]] < static_cast<std::uint32_t>(m)) act[r++] = j;
    if (r == 0) {
      if (s.k != d.k) {
        std::memcpy(static_cast<void*>(d.k), s.k, static_cast<std::size_t>(m) * sizeof(K));
        if (s.v) std::memcpy(static_cast<void*>(d.v), s.v, static_cast<std::size_t>(m) * sizeof(V));
      }
      return;
    }
    auto pass = [&](span from, span to, std::size_t j, bool last) {
      std::array<std::int64_t, radix> off;
      std::int64_t run = 0;
      for (int q = 0; q < radix; ++q) {
        off[q] = run;
        run += h[j][q];
      }
      // Streaming stores only for the last pass: its output is not read again soon, while
      // the buffers' lines are, and must stay in the cache.
      scatter_run(from.k, from.v, 0, m, to.k, to.v, off, digit_.pass(rest[j]), last && out == out_mode::combine);
    };
    const bool staged = out == out_mode::staged;
    if (!staged && r == 1 && s.k == d.k) {  // in place, one pass: through a buffer and back
      pass(s, a, act[0], false);
      std::memcpy(static_cast<void*>(d.k), a.k, static_cast<std::size_t>(m) * sizeof(K));
      if (s.v) std::memcpy(static_cast<void*>(d.v), a.v, static_cast<std::size_t>(m) * sizeof(V));
      return;
    }
    // The last pass writes d (staged: b, which then goes to d), the ones before alternate a
    // and b backwards from it, so d (possibly s) is written only once everything has been read
    // from s.
    const span last = staged ? b : d;
    span from = s;
    for (int q = 0; q < r; ++q) {
      const span to = q == r - 1 ? last : (r - 1 - q) % 2 == 1 ? a : b;
      pass(from, to, act[static_cast<std::size_t>(q)], q == r - 1);
      from = to;
    }
    if (staged) {
      stream_bytes(d.k, b.k, static_cast<std::size_t>(m) * sizeof(K));
      if (s.v) stream_bytes(d.v, b.v, static_cast<std::size_t>(m) * sizeof(V));
    }
  }

  digit_fn<K> digit_;
  bool with_values_;
  bool write_combining_;
  hybrid_params hp_;
  sort_workspace* ws_;  // the caller's, or nullptr
  std::int64_t workers_;
};

/// Copies n keys (and values, when `values`) from `in_keys`/`in_values` to `keys`/`values`
/// unless they are the same arrays.
template <class K, class V>
void copy_unsorted(const K* in_keys, const V* in_values, K* keys, V* values, std::int64_t n) {
  if (n <= 0) return;
  if (in_keys != keys) parallel_copy(keys, in_keys, n * static_cast<std::int64_t>(sizeof(K)));
  if (values != nullptr && in_values != values)
    parallel_copy(values, in_values, n * static_cast<std::int64_t>(sizeof(V)));
}

/// The radix sort proper, from (in_keys, in_values) into (keys, values); values may be nullptr
/// (keys only). The input arrays are only read; they are either the output arrays themselves
/// (in place) or arrays that do not overlap them. Out of place, the hybrid needs no scratch
/// buffer: its first pass moves the items from the input into their buckets in the output,
/// and the buckets are sorted there (three reads and two writes of the items in all, against
/// a copy and four reads and three writes in place).
template <class K, class V>
void radix_sort(const K* in_keys, const V* in_values, K* keys, V* values, std::int64_t n, const sort_options& opts,
                const char* where, sort_workspace* ws = nullptr, bool write_combining = true,
                const hybrid_params& hp = {}) {
  const auto [begin, end] = scankit::detail::sort_bit_range(opts, radix_traits<K>::bits, where);
  if (n < 2 || begin == end) return copy_unsorted(in_keys, in_values, keys, values, n);
  using U = typename radix_traits<K>::bits_t;
  const digit_fn<K> digit{opts.descending ? static_cast<U>(~U{0}) : U{0}, begin, end};
  const int passes = (end - begin + radix_bits - 1) / radix_bits;
  const radix_sorter<K, V> sorter(digit, values != nullptr, write_combining, hp, ws);
  std::vector<int> all(static_cast<std::size_t>(passes));
  std::iota(all.begin(), all.end(), 0);
  const auto t = sorter.survey(in_keys, n, all);
  // Every compared bit the same in every key: the input is sorted.
  if (t.active.empty()) return copy_unsorted(in_keys, in_values, keys, values, n);

  using span = typename radix_sorter<K, V>::span;
  const span from{const_cast<K*>(in_keys), values ? const_cast<V*>(in_values) : nullptr};  // only read
  const span x{keys, values};
  if (in_keys != keys && sorter.uses_hybrid(n, t)) return sorter.sort(from, x, x, n, t, true);
  const std::size_t kb = line_round(static_cast<std::size_t>(n) * sizeof(K));
  const std::size_t vb = values ? static_cast<std::size_t>(n) * sizeof(V) : 0;
  raw_buffer<std::byte> own(ws != nullptr ? 0 : static_cast<std::int64_t>(kb + vb));
  std::byte* const base = ws != nullptr ? ws->scratch(kb + vb) : own.get();
  sorter.sort(from, x, {reinterpret_cast<K*>(base), values ? reinterpret_cast<V*>(base + kb) : nullptr}, n, t, true);
}

/// The radix sort in place.
template <class K, class V>
void radix_sort(K* keys, V* values, std::int64_t n, const sort_options& opts, const char* where,
                sort_workspace* ws = nullptr, bool write_combining = true, const hybrid_params& hp = {}) {
  radix_sort<K, V>(keys, values, keys, values, n, opts, where, ws, write_combining, hp);
}

/// Rejects input and output arrays that overlap without being the same array.
template <class K, class V>
void check_sort_copy_args(const K* in_keys, const V* in_values, const K* keys, const V* values, bool with_values,
                          std::int64_t n, const char* where) {
  check_sort_args(keys, values, with_values, n, where);
  check_sort_args(in_keys, in_values, with_values, n, where);
  check_no_partial_overlap(in_keys, keys, n, sizeof(K), where);
  if (with_values) {
    check_no_partial_overlap(in_values, values, n, sizeof(V), where);
    if ((in_keys == keys) != (in_values == values))
      throw invalid_argument(std::string(where) + ": the keys and the values must both be sorted in place or both not");
  }
}

/// The public parallel sorts: the arguments checked (nothing written when they are bad), then
/// radix_sort with the caller's workspace or none.
template <class K, class V>
void checked_radix_sort(K* keys, V* values, bool with_values, std::int64_t n, const sort_options& opts,
                        const char* where, sort_workspace* ws) {
  check_sort_args(keys, values, with_values, n, where);
  radix_sort(keys, values, n, opts, where, ws);
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

/// Parallel radix sort of keys (see the design notes above).
template <class K>
void sort_keys_parallel(K* keys, std::int64_t n, const sort_options& opts = {}) {
  detail::checked_radix_sort<K, int>(keys, nullptr, false, n, opts, "scankit::cpu::sort_keys_parallel", nullptr);
}

/// Parallel radix sort of key-value pairs: values move with their keys; stable.
template <class K, class V>
void sort_pairs_parallel(K* keys, V* values, std::int64_t n, const sort_options& opts = {}) {
  static_assert(std::is_trivially_copyable_v<V>, "sort values must be trivially copyable");
  detail::checked_radix_sort(keys, values, true, n, opts, "scankit::cpu::sort_pairs_parallel", nullptr);
}

/// sort_keys_parallel with its scratch memory taken from (and kept in) `ws`.
template <class K>
void sort_keys_parallel(K* keys, std::int64_t n, sort_workspace& ws, const sort_options& opts = {}) {
  detail::checked_radix_sort<K, int>(keys, nullptr, false, n, opts, "scankit::cpu::sort_keys_parallel", &ws);
}

/// sort_pairs_parallel with its scratch memory taken from (and kept in) `ws`.
template <class K, class V>
void sort_pairs_parallel(K* keys, V* values, std::int64_t n, sort_workspace& ws, const sort_options& opts = {}) {
  static_assert(std::is_trivially_copyable_v<V>, "sort values must be trivially copyable");
  detail::checked_radix_sort(keys, values, true, n, opts, "scankit::cpu::sort_pairs_parallel", &ws);
}

/// Out of place: the n keys of `in` sorted into `out` (in is only read; out == in sorts in
/// place; any other overlap throws). Faster than a copy and an in-place sort: large inputs
/// need no scratch buffer and one pass less (see radix_sort).
template <class K>
void sort_keys_parallel(const K* in, K* out, std::int64_t n, const sort_options& opts = {}) {
  constexpr const char* where = "scankit::cpu::sort_keys_parallel";
  detail::check_sort_copy_args<K, int>(in, nullptr, out, nullptr, false, n, where);
  detail::radix_sort<K, int>(in, nullptr, out, nullptr, n, opts, where);
}

/// sort_keys_parallel out of place, with scratch memory from `ws` when it needs any.
template <class K>
void sort_keys_parallel(const K* in, K* out, std::int64_t n, sort_workspace& ws, const sort_options& opts = {}) {
  constexpr const char* where = "scankit::cpu::sort_keys_parallel";
  detail::check_sort_copy_args<K, int>(in, nullptr, out, nullptr, false, n, where);
  detail::radix_sort<K, int>(in, nullptr, out, nullptr, n, opts, where, &ws);
}

/// Out of place: the pairs (in_keys, in_values) sorted into (keys, values), as
/// sort_keys_parallel(in, out, n): both inputs in place or both not.
template <class K, class V>
void sort_pairs_parallel(const K* in_keys, const V* in_values, K* keys, V* values, std::int64_t n,
                         const sort_options& opts = {}) {
  static_assert(std::is_trivially_copyable_v<V>, "sort values must be trivially copyable");
  constexpr const char* where = "scankit::cpu::sort_pairs_parallel";
  detail::check_sort_copy_args(in_keys, in_values, keys, values, true, n, where);
  detail::radix_sort(in_keys, in_values, keys, values, n, opts, where);
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
