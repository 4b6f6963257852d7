// compact_algorithm::parallel: the chained single-pass compaction on oneTBB.
//
// Compaction is bound by memory bandwidth, so the aim is to read every input byte once and
// write every output byte once. The input is cut into blocks of the scan's block size (they
// stay in a core's L2); worker threads take blocks in order from a ticket counter. For its
// block a worker
//   1. evaluates the predicate and copies the selected items (and for partition the rejected
//      ones) into its own staging buffers: one read of the input, writes that stay in cache;
//   2. waits for the previous block's running count (the chained hand-off of the parallel
//      scan, detail/chain.hpp), adds its own count and publishes the sum at once, so the
//      chain advances while the workers' step 1s overlap;
//   3. copies its staged items to their final place with one contiguous write per output
//      range (non-temporal stores for large outputs, so output lines are not first read).
// Because step 3 only reads the staging buffers, a later block can never overwrite input a
// worker still needs, which is what makes the in-place forms safe. The result is exactly the
// serial one (integers and positions: there is nothing to round).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <type_traits>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "scankit/cpu/detail/chain.hpp"
#include "scankit/cpu/detail/compact/compress.hpp"
#include "scankit/cpu/detail/compact/plan.hpp"
#include "scankit/cpu/detail/compact/spec.hpp"
#include "scankit/cpu/detail/compact/tuning.hpp"
#include "scankit/cpu/detail/parallel.hpp"
#include "scankit/cpu/detail/streaming.hpp"

namespace scankit::cpu::detail {

/// The chained parallel compaction (see the notes at the top of this file).
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
  static constexpr std::int64_t ring = compact_ring;
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
    constexpr std::int64_t chunk = compact_flag_chunk;
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

/// Runs a plan whose algorithm is compact_algorithm::parallel.
template <class V, class Flag, class Value>
std::int64_t run_parallel(const compact_spec<V, Flag, Value>& s, const compact_plan& plan) {
  static_assert(std::is_default_constructible_v<V>, "staged items must be default-constructible");
  const std::int64_t block = plan.block;
  chained_compact<V, Flag, Value> c(s, block);
  c.compress = c.compress && plan.simd;
  if (s.prev_source) {
    c.prev_snapshot.resize(static_cast<std::size_t>(c.blocks));
    for (std::int64_t k = 1; k < c.blocks; ++k) c.prev_snapshot[k] = s.prev_source[k * block - 1];
  }
  if (s.partition && s.order == rejected_order::original) c.selected_total = count_flags(s.n, s.flag, true);
  c.streaming = plan.streaming;
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

}  // namespace scankit::cpu::detail
