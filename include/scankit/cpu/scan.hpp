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
// scan_parallel: a single-pass chained scan over blocks of a core's L2 size on oneTBB, which
// reads and writes DRAM no more than a memcpy (design: detail/scan/chained.hpp). Small inputs
// run serially on the calling thread. The choice is detail/scan/plan.hpp (plan_scan), the
// sizes detail/scan/tuning.hpp, the per-block loops detail/scan/block.hpp.
//
// Determinism: block boundaries depend only on n and sizeof(T), and each block is reduced
// and scanned in a fixed order, so the result is bitwise reproducible: the same input gives
// the same output for any thread count, schedule, or buffer alignment, including for floating
// point. It is not bitwise equal to scan_serial for floats (sums are associated differently:
// per block, and in short groups inside the block for the built-in operators), but it is
// within the usual rounding error of the serial sum. (min/max of inputs holding NaN are the
// exception: `b < a ? b : a` is not associative with NaN, so, as with any parallel scan,
// which NaN-free value or NaN comes out may differ from scan_serial.)
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

#include "scankit/cpu/detail/common.hpp"
#include "scankit/cpu/detail/parallel.hpp"
#include "scankit/cpu/detail/scan/args.hpp"
#include "scankit/cpu/detail/scan/block.hpp"
#include "scankit/cpu/detail/scan/tuning.hpp"
#include "scankit/error.hpp"
#include "scankit/ops.hpp"

namespace scankit::cpu {

/// Default block size of scan_parallel, in bytes of items.
inline constexpr std::int64_t default_block_bytes = detail::scan_block_bytes;
/// Default size below which scan_parallel runs serially, in items.
inline constexpr std::int64_t default_serial_cutoff = detail::scan_serial_cutoff;
/// Default output size from which scan_parallel uses non-temporal stores, in bytes. Smaller
/// outputs likely stay in the caches for their consumer, so they are written normally.
inline constexpr std::int64_t default_streaming_threshold = detail::scan_streaming_threshold;

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

}  // namespace scankit::cpu

// The plan and the chained scan read the config above.
#include "scankit/cpu/detail/scan/chained.hpp"
#include "scankit/cpu/detail/scan/plan.hpp"

namespace scankit::cpu {

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

/// The parallel scan with explicit tuning (see the notes at the top).
template <monoid Op>
value_t<Op> scan_parallel(const value_t<Op>* in, value_t<Op>* out, std::int64_t n, Op op,
                          scan_kind kind, value_t<Op> init, const parallel_scan_config& cfg) {
  using T = value_t<Op>;
  static_assert(std::copy_constructible<T>, "scan_parallel needs a copyable value type");
  constexpr const char* where = "scankit::cpu::scan_parallel";
  detail::check_scan_args<Op>(in, out, n, where);
  if (cfg.block_bytes < 1)
    throw invalid_argument(std::string(where) + ": block_bytes must be positive");

  const detail::scan_plan plan = detail::plan_scan(n, static_cast<std::int64_t>(sizeof(T)), in == out, cfg);
  if (plan.path == detail::scan_path::serial) return detail::scan_block(in, out, n, op, kind, init);
  return detail::run_chained_scan(in, out, n, op, kind, init, plan);
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
