// Tiles with a chained hand-off, for the segmented operations whose second step over a tile
// needs a state carried from every tile before it (reduce_by_key: the runs begun before the
// tile and the value of the run open at its start).
//
// Each tile t first computes its own summary L_t (local), then takes the state S_t carried
// into it (S_0 = first), publishes S_{t+1} = combine(S_t, L_t) for tile t + 1 at once, and
// finishes with finish(t, S_t, L_t). Local and finish read the same tile, so the second read
// comes from the core's cache rather than from memory. Tiles are taken in order from a ticket
// counter, as the chained scan does (scan/chained.hpp): a thread only waits on a tile with a
// smaller ticket, whose owner is running, so the chain cannot deadlock on any number of
// threads. Every S_t is the same expression, combined in tile order, on every path and thread
// count, so floats keep their bits and non-commutative operators their order.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>

#include "scankit/cpu/detail/chain.hpp"
#include "scankit/cpu/detail/parallel.hpp"
#include "scankit/cpu/detail/segments/tuning.hpp"

namespace scankit::cpu::detail::segments {

/// Runs every tile as above, in order on the calling thread or chained on the thread pool;
/// returns S_tiles (first when there are no tiles).
template <class S, class Local, class Combine, class Finish>
S chain_tiles(std::int64_t tiles, bool parallel, S first, Local local, Combine combine, Finish finish) {
  if (!parallel) {
    S s = first;
    for (std::int64_t t = 0; t < tiles; ++t) {
      const auto l = local(t);
      S next = combine(s, l);
      finish(t, s, l);
      s = std::move(next);
    }
    return s;
  }
  struct shared {
    std::atomic<std::int64_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;  // written by the first failing worker, read after the join
    std::unique_ptr<prefix_slot<S>[]> slots{new prefix_slot<S>[chain_ring]};
  } sh;
  // Slot t % chain_ring holds S_{t+1} once its seq is t + 1. Tile t + chain_ring writes it
  // only after tile t + 1 has read it (it waits, through the chain, on tile t + 1's publish).
  auto wait_for = [&](std::int64_t t) -> const S& {
    prefix_slot<S>& s = sh.slots[static_cast<std::size_t>(t % chain_ring)];
    backoff b;
    while (s.seq.load(std::memory_order_acquire) != t + 1) {
      if (sh.failed.load(std::memory_order_relaxed)) throw abort_scan{};
      b.pause();
    }
    return *s.value;
  };
  auto process = [&](std::int64_t t) {
    const auto l = local(t);
    const S in = t == 0 ? first : wait_for(t - 1);
    prefix_slot<S>& out = sh.slots[static_cast<std::size_t>(t % chain_ring)];
    out.value.emplace(combine(in, l));
    out.seq.store(t + 1, std::memory_order_release);
    finish(t, in, l);
  };
  auto worker = [&] {
    for (;;) {
      if (sh.failed.load(std::memory_order_relaxed)) return;
      const std::int64_t t = sh.next.fetch_add(1, std::memory_order_relaxed);
      if (t >= tiles) return;
      try {
        // Isolated, so that an operator that runs TBB algorithms cannot make this thread take
        // up another tile of this call (which would wait on this one) while it waits for them.
        tbb::this_task_arena::isolate([&] { process(t); });
      } catch (const abort_scan&) {
        return;
      } catch (...) {
        if (!sh.failed.exchange(true)) sh.error = std::current_exception();
        return;
      }
    }
  };
  const auto workers = std::min<std::int64_t>(tiles, tbb::this_task_arena::max_concurrency());
  if (workers <= 1) {
    worker();
  } else {
    // One task per worker, each taking tickets; through the fence, as for_each_tile.
    fenced_region region([&worker](const tbb::blocked_range<std::int64_t>& r) {
      for (auto w = r.begin(); w != r.end(); ++w) worker();
    });
    tbb::this_task_arena::isolate([&] {
      typename decltype(region)::scope open(region);
      tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, workers, 1), region.template get_body<0>(),
                        tbb::simple_partitioner());
    });
  }
  if (sh.error) std::rethrow_exception(sh.error);
  return tiles == 0 ? first : *sh.slots[static_cast<std::size_t>((tiles - 1) % chain_ring)].value;
}

}  // namespace scankit::cpu::detail::segments
