// CPU stream compaction: select_if, remove_if, select_flagged, partition, unique (and its
// run-length variant unique_count), select_indices and nonzero, each with three algorithms:
//
//   serial_loop   one left-to-right loop with a write cursor, no scan (the reference)
//   serial_scan   the textbook three steps, serially: map every item to 0/1, exclusive scan
//                 of the flags (scankit::cpu::scan_serial), scatter through the positions
//   parallel      oneTBB, single pass, chained (the default; design below)
//
// Contract shared by every function here:
//   * n >= 0; pointers may be null only when n == 0; anything else throws
//     scankit::invalid_argument before anything is written.
//   * Selection is stable: selected items keep their input order. The functions return the
//     number of items written at the front of `out` (partition: the number selected).
//   * `out` must hold n items (a compaction writes at most n). Items past the returned count
//     are left as they were (partition writes all n).
//   * In place: select_if, remove_if, select_flagged, unique and unique_count's values may
//     use out == in (every algorithm reads an item before anything can overwrite it; for
//     unique the parallel algorithm first copies the item before each block, which the
//     previous block may be overwriting). Any other overlap, and any overlap for partition,
//     select_indices and nonzero, is rejected.
//   * Predicates are called once per item by serial_loop and parallel (twice by serial_scan:
//     map and scatter; and once more per item by partition with rejected_order::original),
//     from several threads at once by parallel, in no particular order. They must not modify
//     the items.
//   * An exception thrown by a predicate propagates; `out` is then partly written.
//
// parallel: design
// ----------------
// Compaction is bound by memory bandwidth, so the aim is to read every input byte once and
// write every output byte once. The input is cut into blocks of 128 KiB of items (they stay
// in a core's L2); worker threads take blocks in order from a ticket counter. For its block
// a worker
//   1. evaluates the predicate and copies the selected items (and for partition the rejected
//      ones) into its own staging buffers: one read of the input, writes that stay in cache;
//   2. waits for the previous block's running count (the chained hand-off of the parallel
//      scan, see scankit/cpu/scan.hpp), adds its own count and publishes the sum at once, so
//      the chain advances while the workers' step 1s overlap;
//   3. copies its staged items to their final place with one contiguous write per output
//      range (non-temporal stores for large outputs, so output lines are not first read).
// Because step 3 only reads the staging buffers, a later block can never overwrite input a
// worker still needs, which is what makes the in-place forms safe. The result is exactly the
// serial one (integers and positions: there is nothing to round).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "scankit/cpu/scan.hpp"
#include "scankit/error.hpp"
#include "scankit/predicates.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define SCANKIT_CPU_COMPRESS_AVX512 1
#endif

namespace scankit::cpu {

enum class compact_algorithm { serial_loop, serial_scan, parallel };

inline constexpr compact_algorithm all_compact_algorithms[] = {
    compact_algorithm::serial_loop, compact_algorithm::serial_scan, compact_algorithm::parallel};

constexpr std::string_view name(compact_algorithm a) {
  switch (a) {
    case compact_algorithm::serial_loop: return "cpu-serial";
    case compact_algorithm::serial_scan: return "cpu-serial-scan";
    case compact_algorithm::parallel: return "cpu-parallel";
  }
  return "?";
}

/// Tuning of the parallel algorithm (tests use small blocks to get many blocks).
struct compact_config {
  compact_algorithm algorithm = compact_algorithm::parallel;
  std::int64_t block_bytes = default_block_bytes;      // bytes of input items per block
  std::int64_t serial_cutoff = default_serial_cutoff;  // below this many items: serial_loop
  bool simd = true;  // AVX-512 compress for the staging copy where the CPU has it (tests turn it off)
};

namespace detail {

/// What a compaction writes (the same description drives all three algorithms).
///   flag(i)  -> bool   whether item i is selected
///   value(i) -> V      what item i writes (the item, or its index)
/// Selected items go to out[0, count); with `index_out`, their indices also go to index_out.
/// Partition: rejected items fill out[count, n), in reverse or input order.
template <class V, class Flag, class Value>
struct compact_spec {
  std::int64_t n;
  Flag flag;
  Value value;
  V* out;
  std::int64_t* index_out = nullptr;
  bool partition = false;
  rejected_order order = rejected_order::reversed;
  /// In-place unique: flag(i) reads in[i - 1], which the block before may be overwriting
  /// (with the same value, but still a data race). The parallel algorithm then snapshots
  /// the item before every block first and evaluates each block's first flag with
  /// flag.with_prev(i, snapshot). Null otherwise.
  const V* prev_source = nullptr;
};

template <class T>
struct item_value;

// ---------------------------------------------------------------------------------------
// The staging copy with AVX-512. The parallel compaction first writes each chunk's flags (a
// loop compilers vectorise for simple predicates), then copies the selected items to the
// staging buffer. Item by item, that copy costs about three cycles per item on a 16-core Xeon
// and holds the whole compaction to 55-65% of a parallel copy's bandwidth. vpcompressd / vpcompressq packs
// the selected lanes of 16 (8) items in one instruction. The library is built for baseline
// x86-64, so these functions carry their own target and run only where the CPU has AVX-512
// F, BW and VL (checked once at run time). Items are copied as bit patterns, so any trivially
// copyable 4- or 8-byte type goes through them.

/// Whether the compress path can run on this CPU.
inline bool cpu_has_avx512_compress() {
#ifdef SCANKIT_CPU_COMPRESS_AVX512
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vl");
  return yes;
#else
  return false;
#endif
}

#ifdef SCANKIT_CPU_COMPRESS_AVX512
/// Appends src[j] for every j < m with (fl[j] != 0) == keep to dst; returns how many. Word is
/// std::uint32_t (16 items a vector) or std::uint64_t (8). Whole vectors are stored: up to a
/// vector of items past the kept ones is written, but never past dst[j + lanes) for the vector
/// read from src[j], so a buffer with room for every item of the block holds them all.
template <class Word>
__attribute__((target("avx512f,avx512bw,avx512vl"))) inline std::int64_t compress_items(
    Word* dst, const Word* src, const unsigned char* fl, std::int64_t m, bool keep) {
  static_assert(sizeof(Word) == 4 || sizeof(Word) == 8);
  constexpr int lanes = 64 / static_cast<int>(sizeof(Word));
  std::int64_t c = 0, j = 0;
  for (; j + lanes <= m; j += lanes) {
    const __m128i f = lanes == 16 ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(fl + j))
                                  : _mm_loadl_epi64(reinterpret_cast<const __m128i*>(fl + j));
    // One mask bit per flag byte; for 8 lanes only the low 8 bits hold flags.
    const unsigned k = (keep ? _mm_test_epi8_mask(f, f) : _mm_testn_epi8_mask(f, f)) & ((1u << lanes) - 1u);
    const __m512i v = _mm512_loadu_si512(src + j);
    if constexpr (lanes == 16) _mm512_storeu_si512(dst + c, _mm512_maskz_compress_epi32(static_cast<__mmask16>(k), v));
    else _mm512_storeu_si512(dst + c, _mm512_maskz_compress_epi64(static_cast<__mmask8>(k), v));
    c += __builtin_popcount(k);
  }
  for (; j < m; ++j) {
    dst[c] = src[j];
    c += (fl[j] != 0) == keep ? 1 : 0;
  }
  return c;
}
#endif

/// Counts the selected items (the extra pass of a stable partition).
template <class Flag>
std::int64_t count_flags(std::int64_t n, const Flag& flag, bool parallel) {
  if (!parallel) {
    std::int64_t c = 0;
    for (std::int64_t i = 0; i < n; ++i) c += flag(i) ? 1 : 0;
    return c;
  }
  struct counter {
    const Flag* flag;
    std::int64_t operator()(const tbb::blocked_range<std::int64_t>& r, std::int64_t c) const {
      for (auto i = r.begin(); i != r.end(); ++i) c += (*flag)(i) ? 1 : 0;
      return c;
    }
  };
  struct adder {
    std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a + b; }
  };
  fenced_region<counter, adder> region(counter{&flag}, adder{});
  typename fenced_region<counter, adder>::scope open(region);
  return tbb::parallel_reduce(tbb::blocked_range<std::int64_t>(0, n, std::int64_t{1} << 14),
                              std::int64_t{0}, region.template get_body<0>(),
                              region.template get_body<1>());
}

/// Where rejected item number r (0-based, in input order) goes.
inline std::int64_t rejected_slot(std::int64_t n, std::int64_t selected_total, std::int64_t r,
                                  rejected_order order) {
  return order == rejected_order::reversed ? n - 1 - r : selected_total + r;
}

template <class V, class Flag, class Value>
std::int64_t run_serial_loop(const compact_spec<V, Flag, Value>& s) {
  const std::int64_t total =
      s.partition && s.order == rejected_order::original ? count_flags(s.n, s.flag, false) : 0;
  std::int64_t k = 0, r = 0;
  for (std::int64_t i = 0; i < s.n; ++i) {
    if (s.flag(i)) {
      s.out[k] = s.value(i);
      if (s.index_out) s.index_out[k] = i;
      ++k;
    } else if (s.partition) {
      s.out[rejected_slot(s.n, total, r++, s.order)] = s.value(i);
    }
  }
  return k;
}

template <class V, class Flag, class Value>
std::int64_t run_serial_scan(const compact_spec<V, Flag, Value>& s) {
  // 1. map
  std::vector<std::int64_t> pos(static_cast<std::size_t>(s.n));
  for (std::int64_t i = 0; i < s.n; ++i) pos[i] = s.flag(i) ? 1 : 0;
  // 2. exclusive scan; the carry-out is the count
  const std::int64_t total =
      scan_serial(pos.data(), pos.data(), s.n, sum<std::int64_t>{}, scan_kind::exclusive, 0);
  // 3. scatter. Forward order keeps the in-place forms safe: pos[i] <= i.
  for (std::int64_t i = 0; i < s.n; ++i) {
    if (s.flag(i)) {
      s.out[pos[i]] = s.value(i);
      if (s.index_out) s.index_out[pos[i]] = i;
    } else if (s.partition) {
      s.out[rejected_slot(s.n, total, i - pos[i], s.order)] = s.value(i);
    }
  }
  return total;
}

/// The chained parallel compaction (see the design notes at the top).
template <class V, class Flag, class Value>
struct chained_compact {
  const compact_spec<V, Flag, Value>& s;
  std::int64_t block, blocks;
  std::int64_t selected_total = 0;  // partition with rejected_order::original only
  bool streaming = false;
  std::vector<V> prev_snapshot;      // in-place unique: the item before each block
  // Items copied by the AVX-512 compress path: the value is the item itself, 4 or 8 bytes.
  static constexpr bool compressible = std::is_same_v<Value, item_value<V>> && std::is_trivially_copyable_v<V> &&
                                       (sizeof(V) == 4 || sizeof(V) == 8);
  bool compress = compressible && cpu_has_avx512_compress();

  std::atomic<std::int64_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  static constexpr std::int64_t ring = 16;
  std::unique_ptr<prefix_slot<std::int64_t>[]> slots{new prefix_slot<std::int64_t>[ring]};

  chained_compact(const compact_spec<V, Flag, Value>& spec, std::int64_t block_items)
      : s(spec), block(block_items), blocks((spec.n + block_items - 1) / block_items) {}

  std::int64_t wait_for(std::int64_t k) {  // selected items in blocks [0, k]
    prefix_slot<std::int64_t>& sl = slots[k % ring];
    backoff b;
    while (sl.seq.load(std::memory_order_acquire) != k + 1) {
      if (failed.load(std::memory_order_relaxed)) throw abort_scan{};
      b.pause();
    }
    return *sl.value;
  }
  void publish(std::int64_t k, std::int64_t v) {
    prefix_slot<std::int64_t>& sl = slots[k % ring];
    sl.value.emplace(v);
    sl.seq.store(k + 1, std::memory_order_release);
  }

  void write(V* dst, const V* src, std::int64_t count) {
    if (count == 0) return;
    const auto bytes = static_cast<std::size_t>(count) * sizeof(V);
    if constexpr (can_stream_v<V>) {
      if (streaming) {
        streaming_writer w(dst);
        w.write(src, bytes);
        w.finish();
        return;
      }
    }
    std::copy(src, src + count, dst);
  }

  struct buffers {
    std::vector<V> sel, rej;
    std::vector<std::int64_t> idx;
  };

  void process(std::int64_t k, buffers& buf) {
    const std::int64_t b = k * block, e = std::min(b + block, s.n);
    // 1. Stage, a chunk at a time: first the chunk's flags (a loop that only reads, which
    //    compilers vectorise for simple predicates), then a branch-free copy: every item is
    //    written at the cursor, which only advances for selected ones (no mispredicted
    //    branches on random selections).
    const auto flag = s.flag;
    const auto value = s.value;
    V* sel = buf.sel.data();
    V* rej = buf.rej.data();
    std::int64_t* idx = buf.idx.data();
    std::int64_t c = 0, r = 0;
    constexpr std::int64_t chunk = 256;
    unsigned char fl[chunk];
    for (std::int64_t i0 = b; i0 < e; i0 += chunk) {
      const std::int64_t m = std::min(chunk, e - i0);
      std::int64_t j0 = 0;
      if constexpr (requires { flag.with_prev(i0, *sel); }) {
        if (i0 == b && k > 0 && !prev_snapshot.empty()) fl[0] = flag.with_prev(b, prev_snapshot[k]) ? 1 : 0, j0 = 1;
      }
      for (std::int64_t j = j0; j < m; ++j) fl[j] = flag(i0 + j) ? 1 : 0;
#ifdef SCANKIT_CPU_COMPRESS_AVX512
      if constexpr (compressible) {
        if (compress && !s.index_out) {
          using word = std::conditional_t<sizeof(V) == 4, std::uint32_t, std::uint64_t>;
          const auto* src = reinterpret_cast<const word*>(value.in + i0);
          auto pack = [&](V* dst, bool keep) { return compress_items(reinterpret_cast<word*>(dst), src, fl, m, keep); };
          c += pack(sel + c, true);
          if (s.partition) r += pack(rej + r, false);
          continue;
        }
      }
#endif
      if (s.partition) {
        for (std::int64_t j = 0; j < m; ++j) {
          const V v = value(i0 + j);
          sel[c] = v;
          rej[r] = v;
          c += fl[j];
          r += 1 - fl[j];
        }
      } else if (s.index_out) {
        for (std::int64_t j = 0; j < m; ++j) {
          sel[c] = value(i0 + j);
          idx[c] = i0 + j;
          c += fl[j];
        }
      } else {
        for (std::int64_t j = 0; j < m; ++j) {
          sel[c] = value(i0 + j);
          c += fl[j];
        }
      }
    }
    // 2. Chain the running count.
    const std::int64_t before = k == 0 ? 0 : wait_for(k - 1);
    publish(k, before + c);
    // 3. Write out.
    write(s.out + before, sel, c);
    if (s.index_out) write_indices(s.index_out + before, buf.idx.data(), c);
    if (s.partition) {
      const std::int64_t r0 = b - before;  // rejected items before this block
      if (s.order == rejected_order::original) {
        write(s.out + selected_total + r0, rej, r);
      } else {
        V* dst = s.out + (s.n - r0 - r);  // reversed: the block's run ends at n - 1 - r0
        for (std::int64_t j = 0; j < r; ++j) dst[j] = rej[r - 1 - j];
      }
    }
  }

  void write_indices(std::int64_t* dst, const std::int64_t* src, std::int64_t count) {
    if constexpr (std::is_same_v<V, std::int64_t>) {
      write(dst, src, count);
    } else {
      std::copy(src, src + count, dst);
    }
  }

  void worker() {
    buffers buf;
    for (;;) {
      if (failed.load(std::memory_order_relaxed)) return;
      const std::int64_t k = next.fetch_add(1, std::memory_order_relaxed);
      if (k >= blocks) return;
      try {
        if (buf.sel.empty()) {
          buf.sel.resize(static_cast<std::size_t>(block));
          if (s.partition) buf.rej.resize(static_cast<std::size_t>(block));
          if (s.index_out) buf.idx.resize(static_cast<std::size_t>(block));
        }
        tbb::this_task_arena::isolate([&] { process(k, buf); });
      } catch (const abort_scan&) {
        return;
      } catch (...) {
        if (!failed.exchange(true)) error = std::current_exception();
        return;
      }
    }
  }
};

template <class V, class Flag, class Value>
std::int64_t run_parallel(const compact_spec<V, Flag, Value>& s, std::int64_t item_bytes,
                          const compact_config& cfg) {
  static_assert(std::is_default_constructible_v<V>, "staged items must be default-constructible");
  const std::int64_t block = std::max<std::int64_t>(1, cfg.block_bytes / std::max<std::int64_t>(1, item_bytes));
  chained_compact<V, Flag, Value> c(s, block);
  c.compress = c.compress && cfg.simd;
  if (s.prev_source) {
    c.prev_snapshot.resize(static_cast<std::size_t>(c.blocks));
    for (std::int64_t k = 1; k < c.blocks; ++k) c.prev_snapshot[k] = s.prev_source[k * block - 1];
  }
  if (s.partition && s.order == rejected_order::original) c.selected_total = count_flags(s.n, s.flag, true);
  c.streaming = s.n * static_cast<std::int64_t>(sizeof(V)) >= default_streaming_threshold;
  const auto workers = std::min<std::int64_t>(c.blocks, tbb::this_task_arena::max_concurrency());
  if (workers <= 1) {
    c.worker();
  } else {
    fenced_region region([&c](const tbb::blocked_range<std::int64_t>& r) {
      for (auto w = r.begin(); w != r.end(); ++w) c.worker();
    });
    tbb::this_task_arena::isolate([&] {
      typename decltype(region)::scope open(region);
      tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, workers, 1), region.template get_body<0>(),
                        tbb::simple_partitioner());
    });
  }
  if (c.error) std::rethrow_exception(c.error);
  return c.blocks == 0 ? 0 : *c.slots[(c.blocks - 1) % c.ring].value;
}

template <class V, class Flag, class Value>
std::int64_t run(const compact_spec<V, Flag, Value>& s, std::int64_t item_bytes,
                 const compact_config& cfg, const char* where) {
  if (cfg.block_bytes < 1) throw invalid_argument(std::string(where) + ": block_bytes must be positive");
  if (s.n == 0) return 0;
  switch (cfg.algorithm) {
    case compact_algorithm::serial_loop: return run_serial_loop(s);
    case compact_algorithm::serial_scan: return run_serial_scan(s);
    case compact_algorithm::parallel:
      if (s.n < cfg.serial_cutoff) return run_serial_loop(s);
      return run_parallel(s, item_bytes, cfg);
  }
  throw invalid_argument(std::string(where) + ": unknown algorithm");
}

inline void check_args(std::int64_t n, const void* in, const void* out, const char* where) {
  scankit::detail::check_size(n, where);
  scankit::detail::check_pointer(in, n, "input", where);
  scankit::detail::check_pointer(out, n, "output", where);
}

/// Rejects any overlap of two arrays (equal pointers included).
inline void check_disjoint(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes,
                           const char* what, const char* where) {
  if (a_bytes == 0 || b_bytes == 0) return;
  const auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
  if (x < y + b_bytes && y < x + a_bytes)
    throw invalid_argument(std::string(where) + ": " + what + " overlap");
}

template <class T>
std::size_t bytes_of(std::int64_t n) {
  return static_cast<std::size_t>(n) * sizeof(T);
}

/// Item i as the value written (the item itself).
template <class T>
struct item_value {
  const T* in;
  T operator()(std::int64_t i) const { return in[i]; }
};
/// Index i as the value written.
struct index_value {
  std::int64_t operator()(std::int64_t i) const { return i; }
};
template <class T, class Pred>
struct pred_flag {
  const T* in;
  Pred pred;
  bool keep;  // false: remove_if (select where pred is false)
  bool operator()(std::int64_t i) const { return static_cast<bool>(pred(in[i])) == keep; }
};
template <class F>
struct array_flag {
  const F* flags;
  bool operator()(std::int64_t i) const { return flags[i] != F(0); }
};
template <class T, class Eq>
struct run_start_flag {  // the first item of every run of equivalent items
  const T* in;
  Eq eq;
  bool operator()(std::int64_t i) const { return i == 0 || !static_cast<bool>(eq(in[i - 1], in[i])); }
  bool with_prev(std::int64_t i, const T& prev) const { return i == 0 || !static_cast<bool>(eq(prev, in[i])); }
};
template <class Pred>
struct index_flag {
  Pred pred;
  bool operator()(std::int64_t i) const { return static_cast<bool>(pred(i)); }
};

/// Turns run starts s[0..runs) into run lengths in place: s[k] = s[k+1] - s[k] (s[runs] = n).
/// The parallel form first saves the value just past each chunk, which the next chunk
/// overwrites.
inline void starts_to_counts(std::int64_t* s, std::int64_t runs, std::int64_t n, bool parallel) {
  if (!parallel || runs < (std::int64_t{1} << 16)) {
    for (std::int64_t k = 0; k < runs; ++k) s[k] = (k + 1 < runs ? s[k + 1] : n) - s[k];
    return;
  }
  constexpr std::int64_t chunk = std::int64_t{1} << 14;
  const std::int64_t chunks = (runs + chunk - 1) / chunk;
  std::vector<std::int64_t> next_start(static_cast<std::size_t>(chunks));
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::int64_t e = std::min(runs, (c + 1) * chunk);
    next_start[c] = e < runs ? s[e] : n;
  }
  struct body {
    std::int64_t* s;
    std::int64_t runs;
    const std::int64_t* next_start;
    void operator()(const tbb::blocked_range<std::int64_t>& r) const {
      for (auto c = r.begin(); c != r.end(); ++c) {
        const std::int64_t b = c * chunk, e = std::min(runs, b + chunk);
        for (std::int64_t k = b; k + 1 < e; ++k) s[k] = s[k + 1] - s[k];
        s[e - 1] = next_start[c] - s[e - 1];
      }
    }
  };
  fenced_region<body> region(body{s, runs, next_start.data()});
  typename fenced_region<body>::scope open(region);
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, chunks), region.template get_body<0>());
}

}  // namespace detail

/// Copies the items x with pred(x) true to out, in order. Returns how many.
template <class T, class Pred>
std::int64_t select_if(const T* in, T* out, std::int64_t n, Pred pred, const compact_config& cfg = {}) {
  constexpr const char* where = "scankit::cpu::select_if";
  detail::check_args(n, in, out, where);
  detail::check_no_partial_overlap(in, out, n, sizeof(T), where);
  detail::compact_spec<T, detail::pred_flag<T, Pred>, detail::item_value<T>> s{
      n, {in, pred, true}, {in}, out};
  return detail::run(s, sizeof(T), cfg, where);
}

/// Copies the items x with pred(x) false to out, in order (removes the others). Returns how many.
template <class T, class Pred>
std::int64_t remove_if(const T* in, T* out, std::int64_t n, Pred pred, const compact_config& cfg = {}) {
  constexpr const char* where = "scankit::cpu::remove_if";
  detail::check_args(n, in, out, where);
  detail::check_no_partial_overlap(in, out, n, sizeof(T), where);
  detail::compact_spec<T, detail::pred_flag<T, Pred>, detail::item_value<T>> s{
      n, {in, pred, false}, {in}, out};
  return detail::run(s, sizeof(T), cfg, where);
}

/// Copies in[i] for every flags[i] != 0 to out, in order. Returns how many. flags must not
/// overlap out.
template <class T, class F>
std::int64_t select_flagged(const T* in, const F* flags, T* out, std::int64_t n,
                            const compact_config& cfg = {}) {
  constexpr const char* where = "scankit::cpu::select_flagged";
  detail::check_args(n, in, out, where);
  scankit::detail::check_pointer(flags, n, "flags", where);
  detail::check_no_partial_overlap(in, out, n, sizeof(T), where);
  detail::check_disjoint(flags, detail::bytes_of<F>(n), out, detail::bytes_of<T>(n), "flags and output", where);
  detail::compact_spec<T, detail::array_flag<F>, detail::item_value<T>> s{n, {flags}, {in}, out};
  return detail::run(s, sizeof(T), cfg, where);
}

/// Writes all n items to out: those with pred true first, in input order, then the others in
/// `order` (reverse input order by default, see rejected_order). Returns the number selected.
/// out must not overlap in.
template <class T, class Pred>
std::int64_t partition(const T* in, T* out, std::int64_t n, Pred pred,
                       rejected_order order = rejected_order::reversed, const compact_config& cfg = {}) {
  constexpr const char* where = "scankit::cpu::partition";
  detail::check_args(n, in, out, where);
  detail::check_disjoint(in, detail::bytes_of<T>(n), out, detail::bytes_of<T>(n), "input and output", where);
  detail::compact_spec<T, detail::pred_flag<T, Pred>, detail::item_value<T>> s{
      n, {in, pred, true}, {in}, out, nullptr, true, order};
  return detail::run(s, sizeof(T), cfg, where);
}

/// Keeps the first item of every run of consecutive equivalent items (eq(a, b): a and b are
/// equivalent). Returns the number of runs.
template <class T, class Eq = equal_to<T>>
std::int64_t unique(const T* in, T* out, std::int64_t n, Eq eq = {}, const compact_config& cfg = {}) {
  constexpr const char* where = "scankit::cpu::unique";
  detail::check_args(n, in, out, where);
  detail::check_no_partial_overlap(in, out, n, sizeof(T), where);
  detail::compact_spec<T, detail::run_start_flag<T, Eq>, detail::item_value<T>> s{n, {in, eq}, {in}, out};
  if (out == in) s.prev_source = in;
  return detail::run(s, sizeof(T), cfg, where);
}

/// Run-length encoding: unique's values to out_values and each run's length to out_counts
/// (both of room n). Returns the number of runs. out_values may be in; out_counts must not
/// overlap either.
template <class T, class Eq = equal_to<T>>
std::int64_t unique_count(const T* in, T* out_values, std::int64_t* out_counts, std::int64_t n,
                          Eq eq = {}, const compact_config& cfg = {}) {
  constexpr const char* where = "scankit::cpu::unique_count";
  detail::check_args(n, in, out_values, where);
  scankit::detail::check_pointer(out_counts, n, "counts output", where);
  detail::check_no_partial_overlap(in, out_values, n, sizeof(T), where);
  detail::check_disjoint(out_counts, detail::bytes_of<std::int64_t>(n), in, detail::bytes_of<T>(n),
                         "counts output and input", where);
  detail::check_disjoint(out_counts, detail::bytes_of<std::int64_t>(n), out_values,
                         detail::bytes_of<T>(n), "counts output and values output", where);
  // Runs are found as for unique, with their start positions; lengths are differences of
  // consecutive starts.
  detail::compact_spec<T, detail::run_start_flag<T, Eq>, detail::item_value<T>> s{
      n, {in, eq}, {in}, out_values, out_counts};
  if (out_values == in) s.prev_source = in;
  const std::int64_t runs = detail::run(s, sizeof(T), cfg, where);
  detail::starts_to_counts(out_counts, runs, n, cfg.algorithm == compact_algorithm::parallel);
  return runs;
}

/// Writes every index i in [0, n) with pred(i) true to out_indices, ascending (like
/// numpy.flatnonzero of a computed mask). Returns how many.
template <class Pred>
std::int64_t select_indices(std::int64_t n, Pred pred, std::int64_t* out_indices,
                            const compact_config& cfg = {}) {
  constexpr const char* where = "scankit::cpu::select_indices";
  scankit::detail::check_size(n, where);
  scankit::detail::check_pointer(out_indices, n, "output", where);
  detail::compact_spec<std::int64_t, detail::index_flag<Pred>, detail::index_value> s{
      n, {pred}, {}, out_indices};
  return detail::run(s, sizeof(std::int64_t), cfg, where);
}

/// Writes the index of every nonzero item to out_indices, ascending (numpy.flatnonzero).
/// Returns how many.
template <class T>
std::int64_t nonzero(const T* in, std::int64_t* out_indices, std::int64_t n, const compact_config& cfg = {}) {
  constexpr const char* where = "scankit::cpu::nonzero";
  detail::check_args(n, in, out_indices, where);
  detail::check_disjoint(in, detail::bytes_of<T>(n), out_indices, detail::bytes_of<std::int64_t>(n),
                         "input and output", where);
  detail::compact_spec<std::int64_t, detail::pred_flag<T, is_nonzero<T>>, detail::index_value> s{
      n, {in, {}, true}, {}, out_indices};
  return detail::run(s, sizeof(T), cfg, where);
}

}  // namespace scankit::cpu
