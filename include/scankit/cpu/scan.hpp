// CPU prefix scans: a plain serial reference, the library's parallel scan on oneTBB, a plain
// tbb::parallel_scan wrapper, and a parallel memcpy (the last two are benchmark baselines).
//
// Every scan here has the same contract:
//   in, out  n items each; out == in (in place) is allowed, any other overlap is rejected.
//   op       a monoid; always applied as op(earlier, later), so it need not be commutative.
//   kind     inclusive: out[i] = init . in[0] . ... . in[i]
//            exclusive: out[i] = init . in[0] . ... . in[i-1]  (out[0] = init)
//   init     the carry-in, combined before the first item; pass op.identity() for none.
//   returns  the carry-out init . in[0] . ... . in[n-1] (init when n == 0).
// Bad arguments (negative n, a null pointer with n > 0, partially overlapping ranges) throw
// scankit::invalid_argument before anything is written. An exception thrown by `op` is
// passed on to the caller; `out` is then left partly written.
//
// scan_parallel: design
// ---------------------
// A scan has to read every input item and write every output item once, so on a multicore
// machine it is bound by memory bandwidth; the goal is to touch DRAM no more than a memcpy.
// scan_parallel is a single-pass chained scan over fixed-size blocks (128 KiB of items by
// default, which fits any current core's L2 with room to spare):
//
//   * Each worker thread repeatedly takes the next block index from a shared ticket counter,
//     so blocks are handed out in order.
//   * It reduces its block (one read from DRAM; the block now sits in the core's L2),
//   * waits for the inclusive prefix of the previous block, combines it with its own total and
//     publishes the result for the next block at once (a hand-off of one cache line; the
//     chain advances block by block while the threads' reductions overlap),
//   * then scans its block a second time starting from the previous block's prefix. This
//     second read comes from L2, not DRAM.
//   * For large out-of-place scans the second pass writes through an L1-resident staging
//     buffer with non-temporal (streaming) stores, so the output lines are not first read
//     from DRAM ("read for ownership"): DRAM traffic is then one read and one write per item,
//     the same as a memcpy. In-place scans write back into lines already in cache.
//
// A thread only ever waits on a block with a smaller ticket, whose owner is already running
// and never waits on anything later, so the chain cannot deadlock however many workers TBB
// actually supplies (one thread alone simply processes every block in order). Waits spin
// briefly, then yield the CPU.
//
// Determinism: block boundaries depend only on n and sizeof(T), and each block is reduced
// and scanned in a fixed order, so the result is bitwise reproducible: the same input gives
// the same output for any thread count, schedule, or buffer alignment, including for floating
// point. It is not bitwise equal to scan_serial for floats (sums are associated differently:
// per block, and in short groups inside the block for the built-in operators), but it is
// within the usual rounding error of the serial sum. (min/max of inputs holding NaN are the
// exception: `b < a ? b : a` is not associative with NaN, so, as with any parallel scan,
// which NaN-free value or NaN comes out may differ from scan_serial.)
//
// Inner loops: for the built-in operators on arithmetic types (all commutative) the block
// reduction runs in independent lanes, which compilers vectorise; the scan itself works in
// groups of 8 items whose local prefix is computed off the critical path, so the running
// carry costs one operation per 8 items (this matters most for floating-point adds with
// their multi-cycle latency). Other operators (user monoids, non-commutative ones) use plain
// loops that combine strictly left to right.
//
// Below a cut-off (64 Ki items by default) the scan runs on the calling thread.
#pragma once

#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <optional>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_scan.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "scankit/error.hpp"
#include "scankit/ops.hpp"

#if defined(__x86_64__) || defined(_M_X64) || (defined(__i386__) && defined(__SSE2__))
#include <emmintrin.h>
#define SCANKIT_CPU_HAS_SSE2 1
#endif

namespace scankit::cpu {

/// Default block size of scan_parallel, in bytes of items.
inline constexpr std::int64_t default_block_bytes = std::int64_t{128} << 10;
/// Default size below which scan_parallel runs serially, in items.
inline constexpr std::int64_t default_serial_cutoff = std::int64_t{1} << 16;
/// Default output size from which scan_parallel uses non-temporal stores, in bytes. Smaller
/// outputs likely stay in the caches for their consumer, so they are written normally.
inline constexpr std::int64_t default_streaming_threshold = std::int64_t{32} << 20;

/// How an out-of-place scan_parallel writes its output.
enum class store_policy {
  automatic,  // streaming stores from default_streaming_threshold bytes of output up
  cached,     // ordinary stores
  streaming,  // non-temporal stores whenever possible (x86 only; elsewhere ordinary stores)
};

/// Tuning knobs of scan_parallel. The default block fits a core's L2 (512 KiB or more) with
/// room for the prefetchers; tests use small blocks to get many blocks out of small arrays.
struct parallel_scan_config {
  std::int64_t block_bytes = default_block_bytes;      // bytes of items per block (>= 1)
  std::int64_t serial_cutoff = default_serial_cutoff;  // n below this runs serially
  store_policy stores = store_policy::automatic;
  /// With streaming stores, first touch the output's pages in parallel, one contiguous
  /// range per thread (see touch_pages).
  bool touch_output = true;
};

/// Items per block of scan_parallel for item type T under `cfg`.
template <class T>
constexpr std::int64_t parallel_block_items(const parallel_scan_config& cfg = {}) {
  return std::max<std::int64_t>(1, cfg.block_bytes / static_cast<std::int64_t>(sizeof(T)));
}

namespace detail {

/// The built-in operators over arithmetic types: commutative and cheap, so the inner loops
/// may reorder (reduction lanes) and regroup (grouped scan) freely.
template <class Op> struct is_builtin_arith_op : std::false_type {};
template <class T> struct is_builtin_arith_op<sum<T>> : std::is_arithmetic<T> {};
template <class T> struct is_builtin_arith_op<product<T>> : std::is_arithmetic<T> {};
template <class T> struct is_builtin_arith_op<min<T>> : std::is_arithmetic<T> {};
template <class T> struct is_builtin_arith_op<max<T>> : std::is_arithmetic<T> {};
template <class T> struct is_builtin_arith_op<bit_and<T>> : std::true_type {};
template <class T> struct is_builtin_arith_op<bit_or<T>> : std::true_type {};
template <class T> struct is_builtin_arith_op<bit_xor<T>> : std::true_type {};
template <class Op>
inline constexpr bool is_builtin_arith_op_v = is_builtin_arith_op<std::remove_cv_t<Op>>::value;

/// Items per group in the grouped scan loop (a staging chunk is a multiple of it).
inline constexpr std::int64_t scan_group = 8;

inline void check_no_partial_overlap(const void* in, const void* out, std::int64_t n,
                                     std::size_t item, const char* where) {
  if (in == out || n == 0) return;
  const auto ib = reinterpret_cast<std::uintptr_t>(in);
  const auto ob = reinterpret_cast<std::uintptr_t>(out);
  const auto bytes = static_cast<std::uintptr_t>(n) * item;
  if (ib < ob + bytes && ob < ib + bytes)
    throw invalid_argument(std::string(where) +
                           ": input and output overlap without being the same array");
}

template <monoid Op>
void check_scan_args(const value_t<Op>* in, const value_t<Op>* out, std::int64_t n,
                     const char* where) {
  scankit::detail::check_size(n, where);
  scankit::detail::check_pointer(in, n, "input", where);
  scankit::detail::check_pointer(out, n, "output", where);
  check_no_partial_overlap(in, out, n, sizeof(value_t<Op>), where);
}

/// in[0] . ... . in[len-1], starting from the identity.
template <monoid Op>
value_t<Op> reduce_block(const value_t<Op>* in, std::int64_t len, const Op& op) {
  using T = value_t<Op>;
  if constexpr (is_builtin_arith_op_v<Op>) {
    // Independent lanes (64 bytes of accumulators): no loop-carried dependency between
    // consecutive items, so the loop vectorises and pipelines. Fine because op commutes.
    constexpr std::int64_t L = std::max<std::int64_t>(4, 64 / sizeof(T));
    T acc[L];
    for (auto& a : acc) a = op.identity();
    const std::int64_t full = len / L * L;
    for (std::int64_t i = 0; i < full; i += L)
      for (std::int64_t j = 0; j < L; ++j) acc[j] = op(acc[j], in[i + j]);
    T r = acc[0];
    for (std::int64_t j = 1; j < L; ++j) r = op(r, acc[j]);
    for (std::int64_t i = full; i < len; ++i) r = op(r, in[i]);
    return r;
  } else {
    T r = op.identity();
    for (std::int64_t i = 0; i < len; ++i) r = op(r, in[i]);
    return r;
  }
}

/// Scans in[0, len) into out[0, len) starting from `carry`; returns the new carry.
/// out == in is allowed (every item is read before its output is written).
template <monoid Op>
value_t<Op> scan_block(const value_t<Op>* in, value_t<Op>* out, std::int64_t len, const Op& op,
                       scan_kind kind, value_t<Op> carry) {
  using T = value_t<Op>;
  std::int64_t i = 0;
  if constexpr (is_builtin_arith_op_v<Op>) {
    // Groups of G: the group's own inclusive prefix t[] does not depend on the carry, so the
    // only serial dependency is one op per group; the G combines with the carry are
    // independent (and vectorise).
    constexpr std::int64_t G = scan_group;
    for (const std::int64_t full = len / G * G; i < full; i += G) {
      T t[G];
      t[0] = in[i];
      for (std::int64_t j = 1; j < G; ++j) t[j] = op(t[j - 1], in[i + j]);
      if (kind == scan_kind::inclusive) {
        for (std::int64_t j = 0; j < G; ++j) out[i + j] = op(carry, t[j]);
      } else {
        out[i] = carry;
        for (std::int64_t j = 1; j < G; ++j) out[i + j] = op(carry, t[j - 1]);
      }
      carry = op(carry, t[G - 1]);
    }
  }
  if (kind == scan_kind::inclusive) {
    for (; i < len; ++i) {
      carry = op(carry, in[i]);
      out[i] = carry;
    }
  } else {
    for (; i < len; ++i) {
      const T x = in[i];
      out[i] = carry;
      carry = op(carry, x);
    }
  }
  return carry;
}

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

template <class T>
inline constexpr bool can_stream_v = std::is_trivially_copyable_v<T> &&
                                     std::is_trivially_default_constructible_v<T> &&
                                     sizeof(T) <= 256;

/// scan_block through an L1-resident staging buffer and streaming stores. Chunks are
/// multiples of the group size, so the result is bitwise identical to scan_block.
template <monoid Op>
value_t<Op> scan_block_streaming(const value_t<Op>* in, value_t<Op>* out, std::int64_t len,
                                 const Op& op, scan_kind kind, value_t<Op> carry) {
  using T = value_t<Op>;
  constexpr std::int64_t K = std::max<std::int64_t>(
      scan_group, 4096 / static_cast<std::int64_t>(sizeof(T)) / scan_group * scan_group);
  T stage[K];
  streaming_writer w(out);
  for (std::int64_t i = 0; i < len; i += K) {
    const std::int64_t m = std::min(K, len - i);
    carry = scan_block(in + i, stage, m, op, kind, carry);
    w.write(stage, static_cast<std::size_t>(m) * sizeof(T));
  }
  w.finish();
  return carry;
}

/// Touches every 4 KiB page of [p, p + bytes) with a one-byte read-modify-write of its own
/// value (one write fault, where a read then a write would fault twice), each thread a
/// contiguous range. The scan writes its output in block order, every thread within a few
/// blocks of the others: on an output that nobody has written yet (a fresh NumPy array) all
/// of them then fault the same huge page, which one thread clears while the others wait, and
/// the kernel's clearing of the whole output runs on one thread at a time. Touched first by
/// ranges, the pages are cleared by all threads at once. On pages already in memory a touch
/// costs one cache line in 64. The caller owns the bytes (nothing else reads or writes them).
inline void touch_pages(void* p, std::int64_t bytes, int threads);

/// Happens-before edges around a TBB parallel region that race detectors can see.
///
/// oneTBB hands tasks to its workers and joins them inside its compiled library. A
/// ThreadSanitizer build cannot see that synchronisation unless TBB itself was built with
/// -fsanitize=thread, and then reports every task's reads of the caller's data, and the
/// caller's reads of the tasks' results, as races. Standard release/acquire operations on
/// one atomic restate the ordering TBB already provides: the caller calls open() just before
/// starting the tasks and close() after they are joined; every task calls enter() before it
/// touches shared data and leave() when it is done. A few atomic operations per task.
class region_fence {
 public:
  void open() noexcept { a_.store(0, std::memory_order_release); }
  void enter() const noexcept { (void)a_.load(std::memory_order_acquire); }
  void leave() noexcept { a_.fetch_add(1, std::memory_order_acq_rel); }
  void close() const noexcept { (void)a_.load(std::memory_order_acquire); }

 private:
  std::atomic<std::int64_t> a_{0};
};

/// Task bodies for TBB that go through a region_fence. TBB copies a body into its task
/// objects and hands those between threads (the hand-off a race detector cannot see), so a
/// body here holds nothing but a pointer to the region, read and written atomically. The
/// region, with the fence and the real functors, lives on the caller's stack; a call enters
/// the fence before it touches a functor's captures and leaves it when done.
///
///   fenced_region region(f, g);
///   {
///     fenced_region<F, G>::scope open(region);        // open() now, close() at scope exit
///     tbb::parallel_for(range, region.body<0>());       // calls f through the fence
///   }
template <class... F>
class fenced_region {
 public:
  explicit fenced_region(F... f) : fs_(std::move(f)...) {}
  fenced_region(const fenced_region&) = delete;
  fenced_region& operator=(const fenced_region&) = delete;

  template <std::size_t I>
  class body {
   public:
    explicit body(fenced_region* r) noexcept { tbb_owned_pointer_store(r); }
    body(const body& o) noexcept { tbb_owned_pointer_store(o.tbb_owned_pointer_load()); }
    body& operator=(const body& o) noexcept {
      tbb_owned_pointer_store(o.tbb_owned_pointer_load());
      return *this;
    }
    template <class... A>
    decltype(auto) operator()(A&&... a) const {
      fenced_region* r = tbb_owned_pointer_load();
      struct guard {
        region_fence& f;
        explicit guard(region_fence& g) noexcept : f(g) { f.enter(); }
        guard(const guard&) = delete;
        guard& operator=(const guard&) = delete;
        ~guard() { f.leave(); }
      } g(r->fence_);
      return std::get<I>(r->fs_)(std::forward<A>(a)...);
    }

   private:
    // The only accesses to r_, which lives in TBB's task storage. TBB recycles that storage
    // between threads, again out of a race detector's sight, so the test programs' TSan
    // suppressions name these two functions.
    void tbb_owned_pointer_store(fenced_region* r) noexcept {
      std::atomic_ref<fenced_region*>(r_).store(r, std::memory_order_relaxed);
    }
    fenced_region* tbb_owned_pointer_load() const noexcept {
      return std::atomic_ref<fenced_region*>(r_).load(std::memory_order_relaxed);
    }
    mutable fenced_region* r_;
  };

  template <std::size_t I>
  body<I> get_body() noexcept {
    return body<I>(this);
  }

  /// Opens the fence for the lifetime of the scope; closes it also when an exception leaves.
  class scope {
   public:
    explicit scope(fenced_region& r) noexcept : r_(r) { r_.fence_.open(); }
    scope(const scope&) = delete;
    scope& operator=(const scope&) = delete;
    ~scope() { r_.fence_.close(); }

   private:
    fenced_region& r_;
  };

 private:
  region_fence fence_;
  std::tuple<F...> fs_;
};

/// Spin on a flag for a while, then start yielding the CPU (a preempted or oversubscribed
/// predecessor must be allowed to run).
class backoff {
 public:
  void pause() {
    if (count_ < 64) {
      ++count_;
#ifdef SCANKIT_CPU_HAS_SSE2
      _mm_pause();
#endif
    } else {
      std::this_thread::yield();
    }
  }

 private:
  int count_ = 0;
};

/// Hand-off of one block's inclusive prefix to the next block. seq == k + 1 once block k
/// has published `value`. Slots are reused round-robin: block k + ring can only write slot
/// k % ring after block k + 1 has read it (see chained_scan), so two slots would do; a few
/// more keep the spinning threads on different lines.
template <class T>
struct alignas(128) prefix_slot {
  std::atomic<std::int64_t> seq{0};
  std::optional<T> value;
};

struct abort_scan {};  // thrown inside a worker when another worker failed

template <monoid Op>
struct chained_scan {
  using T = value_t<Op>;
  static constexpr std::int64_t ring = 16;

  chained_scan(const T* in_, T* out_, std::int64_t n_, std::int64_t block_, Op op_,
               scan_kind kind_, T init_, bool streaming_)
      : in(in_), out(out_), n(n_), block(block_), blocks((n_ + block_ - 1) / block_), op(op_),
        kind(kind_), init(init_), streaming(streaming_) {}

  const T* in;
  T* out;
  std::int64_t n, block, blocks;
  Op op;
  scan_kind kind;
  T init;
  bool streaming;

  std::atomic<std::int64_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;  // written by the first failing worker, read after the join
  std::unique_ptr<prefix_slot<T>[]> slots{new prefix_slot<T>[ring]};

  T wait_for(std::int64_t k) {  // inclusive prefix of block k
    prefix_slot<T>& s = slots[k % ring];
    backoff b;
    while (s.seq.load(std::memory_order_acquire) != k + 1) {
      if (failed.load(std::memory_order_relaxed)) throw abort_scan{};
      b.pause();
    }
    return *s.value;
  }

  void publish(std::int64_t k, const T& prefix) {
    prefix_slot<T>& s = slots[k % ring];
    s.value.emplace(prefix);
    s.seq.store(k + 1, std::memory_order_release);
  }

  void process(std::int64_t k) {
    const std::int64_t b = k * block, len = std::min(block, n - b);
    const T agg = reduce_block(in + b, len, op);
    const T carry = k == 0 ? init : wait_for(k - 1);
    publish(k, op(carry, agg));
    if constexpr (can_stream_v<T>) {
      if (streaming) {
        scan_block_streaming(in + b, out + b, len, op, kind, carry);
        return;
      }
    }
    scan_block(in + b, out + b, len, op, kind, carry);
  }

  void worker() {
    for (;;) {
      if (failed.load(std::memory_order_relaxed)) return;
      const std::int64_t k = next.fetch_add(1, std::memory_order_relaxed);
      if (k >= blocks) return;
      try {
        // Isolated, so that should op itself run TBB algorithms, this thread cannot pick up
        // another block of this scan (which would wait on this one) while it waits for them.
        tbb::this_task_arena::isolate([&] { process(k); });
      } catch (const abort_scan&) {
        return;
      } catch (...) {
        if (!failed.exchange(true)) error = std::current_exception();
        return;
      }
    }
  }
};

}  // namespace detail

/// The serial reference scan: one plain left-to-right loop (see the contract at the top).
template <monoid Op>
value_t<Op> scan_serial(const value_t<Op>* in, value_t<Op>* out, std::int64_t n, Op op,
                        scan_kind kind, value_t<Op> init) {
  using T = value_t<Op>;
  detail::check_scan_args<Op>(in, out, n, "scankit::cpu::scan_serial");
  T acc = init;
  if (kind == scan_kind::inclusive) {
    for (std::int64_t i = 0; i < n; ++i) {
      acc = op(acc, in[i]);
      out[i] = acc;
    }
  } else {
    for (std::int64_t i = 0; i < n; ++i) {
      const T x = in[i];
      out[i] = acc;
      acc = op(acc, x);
    }
  }
  return acc;
}

/// The parallel scan with explicit tuning (see the design notes at the top).
template <monoid Op>
value_t<Op> scan_parallel(const value_t<Op>* in, value_t<Op>* out, std::int64_t n, Op op,
                          scan_kind kind, value_t<Op> init, const parallel_scan_config& cfg) {
  using T = value_t<Op>;
  static_assert(std::copy_constructible<T>, "scan_parallel needs a copyable value type");
  constexpr const char* where = "scankit::cpu::scan_parallel";
  detail::check_scan_args<Op>(in, out, n, where);
  if (cfg.block_bytes < 1)
    throw invalid_argument(std::string(where) + ": block_bytes must be positive");

  const std::int64_t block = parallel_block_items<T>(cfg);
  if (n < cfg.serial_cutoff || n <= block) return detail::scan_block(in, out, n, op, kind, init);
  const int threads = tbb::this_task_arena::max_concurrency();

  const auto bytes = n * static_cast<std::int64_t>(sizeof(T));
  const bool streaming =
      in != out && (cfg.stores == store_policy::streaming ||
                    (cfg.stores == store_policy::automatic && bytes >= default_streaming_threshold));

  if (streaming && cfg.touch_output)
    detail::touch_pages(out, bytes, threads);
  detail::chained_scan<Op> s(in, out, n, block, op, kind, init, streaming);
  const auto workers = std::min<std::int64_t>(s.blocks, threads);
  if (workers <= 1) {
    s.worker();
  } else {
    // One task per worker; each loops over tickets. Isolation keeps a waiting thread from
    // picking up unrelated outer tasks while it owns a block.
    detail::fenced_region region([&s](const tbb::blocked_range<std::int64_t>& r) {
      for (auto w = r.begin(); w != r.end(); ++w) s.worker();
    });
    tbb::this_task_arena::isolate([&] {
      typename decltype(region)::scope open(region);
      tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, workers, 1), region.template get_body<0>(),
                        tbb::simple_partitioner());
    });
  }
  if (s.error) std::rethrow_exception(s.error);
  return *s.slots[(s.blocks - 1) % s.ring].value;
}

/// The library's parallel scan on oneTBB with default tuning (see the notes at the top).
template <monoid Op>
value_t<Op> scan_parallel(const value_t<Op>* in, value_t<Op>* out, std::int64_t n, Op op,
                          scan_kind kind, value_t<Op> init) {
  return scan_parallel(in, out, n, op, kind, init, parallel_scan_config{});
}

/// tbb::parallel_scan used plainly (a comparison baseline for benchmarks). Same contract as
/// scan_parallel; not deterministic for floating point.
template <monoid Op>
value_t<Op> tbb_parallel_scan(const value_t<Op>* in, value_t<Op>* out, std::int64_t n, Op op,
                              scan_kind kind, value_t<Op> init) {
  using T = value_t<Op>;
  detail::check_scan_args<Op>(in, out, n, "scankit::cpu::tbb_parallel_scan");
  if (n == 0) return init;
  auto scan = [&](const tbb::blocked_range<std::int64_t>& r, T sum, bool is_final) -> T {
    // The carry-in belongs to the range that starts the array (nothing lies left of it).
    T acc = r.begin() == 0 ? op(init, sum) : sum;
    if (!is_final) {
      for (auto i = r.begin(); i != r.end(); ++i) acc = op(acc, in[i]);
    } else if (kind == scan_kind::inclusive) {
      for (auto i = r.begin(); i != r.end(); ++i) {
        acc = op(acc, in[i]);
        out[i] = acc;
      }
    } else {
      for (auto i = r.begin(); i != r.end(); ++i) {
        const T x = in[i];
        out[i] = acc;
        acc = op(acc, x);
      }
    }
    return acc;
  };
  auto join = [&](const T& left, const T& right) { return op(left, right); };
  detail::fenced_region region(scan, join);
  typename decltype(region)::scope open(region);
  const auto scan_body = region.template get_body<0>();
  const auto join_body = region.template get_body<1>();
  return tbb::parallel_scan(tbb::blocked_range<std::int64_t>(0, n), op.identity(), scan_body, join_body);
}

namespace detail {
inline void touch_pages(void* p, std::int64_t bytes, int threads) {
  constexpr std::int64_t page = 4096;
  auto* b = static_cast<unsigned char*>(p);
  const std::int64_t points = (bytes + page - 1) / page;  // b[i * page], and the last byte
  struct range {
    unsigned char* b;
    static void touch(unsigned char* byte) { std::atomic_ref<unsigned char>(*byte).fetch_or(0, std::memory_order_relaxed); }
    void operator()(const tbb::blocked_range<std::int64_t>& r) const {
      for (std::int64_t i = r.begin(); i < r.end(); ++i) touch(b + i * page);
    }
  };
  if (bytes <= 0) return;
  if (threads <= 1) {
    range{b}(tbb::blocked_range<std::int64_t>(0, points));
  } else {
    fenced_region<range> region(range{b});
    typename fenced_region<range>::scope open(region);
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, points, 64), region.template get_body<0>(),
                      tbb::static_partitioner());
  }
  range::touch(b + bytes - 1);
}
}  // namespace detail

/// memcpy with every thread of the current arena, one contiguous piece per thread (the
/// bandwidth floor for the CPU scans in benchmarks). dst and src must not overlap.
inline void parallel_copy(void* dst, const void* src, std::int64_t bytes) {
  constexpr const char* where = "scankit::cpu::parallel_copy";
  scankit::detail::check_size(bytes, where);
  scankit::detail::check_pointer(dst, bytes, "destination", where);
  scankit::detail::check_pointer(src, bytes, "source", where);
  detail::check_no_partial_overlap(src, dst, bytes, 1, where);
  if (bytes == 0 || dst == src) return;
  auto d = static_cast<unsigned char*>(dst);
  auto s = static_cast<const unsigned char*>(src);
  const int threads = tbb::this_task_arena::max_concurrency();
  constexpr std::int64_t min_piece = std::int64_t{1} << 20;
  if (threads <= 1 || bytes < 2 * min_piece) {
    std::memcpy(d, s, static_cast<std::size_t>(bytes));
    return;
  }
  // A named functor rather than a lambda: nvcc (this header is reached from .cu tests) cannot
  // deduce the class template from a lambda's closure type inside a non-template function.
  struct copy_piece {
    unsigned char* d;
    const unsigned char* s;
    void operator()(const tbb::blocked_range<std::int64_t>& r) const {
      std::memcpy(d + r.begin(), s + r.begin(), static_cast<std::size_t>(r.size()));
    }
  };
  detail::fenced_region<copy_piece> region(copy_piece{d, s});
  detail::fenced_region<copy_piece>::scope open(region);
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, bytes, min_piece), region.get_body<0>(),
                    tbb::static_partitioner());
}

}  // namespace scankit::cpu
