// scan_parallel's chained scan: a single pass over fixed-size blocks.
//
// A scan has to read every input item and write every output item once, so on a multicore
// machine it is bound by memory bandwidth; the goal is to touch DRAM no more than a memcpy.
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
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "scankit/cpu/detail/chain.hpp"
#include "scankit/cpu/detail/parallel.hpp"
#include "scankit/cpu/detail/scan/block.hpp"
#include "scankit/cpu/detail/scan/plan.hpp"
#include "scankit/cpu/detail/scan/tuning.hpp"
#include "scankit/ops.hpp"

namespace scankit::cpu::detail {

template <monoid Op>
struct chained_scan {
  using T = value_t<Op>;
  static constexpr std::int64_t ring = scan_ring;

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

/// Runs the chained scan of a plan with path scan_path::chained; returns the carry-out.
template <monoid Op>
value_t<Op> run_chained_scan(const value_t<Op>* in, value_t<Op>* out, std::int64_t n, Op op, scan_kind kind,
                             value_t<Op> init, const scan_plan& plan) {
  using T = value_t<Op>;
  const int threads = tbb::this_task_arena::max_concurrency();
  if (plan.touch_output) touch_pages(out, n * static_cast<std::int64_t>(sizeof(T)), threads);
  chained_scan<Op> s(in, out, n, plan.block, op, kind, init, plan.streaming);
  const auto workers = std::min<std::int64_t>(s.blocks, threads);
  if (workers <= 1) {
    s.worker();
  } else {
    // One task per worker; each loops over tickets. Isolation keeps a waiting thread from
    // picking up unrelated outer tasks while it owns a block.
    fenced_region region([&s](const tbb::blocked_range<std::int64_t>& r) {
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

}  // namespace scankit::cpu::detail
