// Distributed radix sort on GPU ranks (sort_config::split radix): every rank sorts one range of
// top digits (the keys' top 8 bits, ordered as the sort orders them).
//
//   phase 1  histogram: each rank counts its keys' top digits; ncclAllGather of the 256 counts;
//            wait. Every rank cuts the digits into p ranges, each nearest the balanced shares
//            (radix_plan.hpp), and lays out its buffer: the keys that leave, then its pieces
//   phase 2  partition: one stable onesweep pass by the top digit puts every key at its place
//            in that buffer (the rank's own piece where the exchange would put it)
//   phase 3  all-to-all: grouped ncclSend/ncclRecv of the ranges that leave; each received
//            piece lands in its place, so the pieces of every top digit arrive in rank order
//   phase 4  local sort: per top digit (a bucket), segmented onesweep passes over the digits
//            below it (cuda::detail::sort_buckets, bucket_sort.cuh): the first pass reads the
//            pieces, piece j's keys of a digit after those of pieces < j, which keeps the sort
//            stable in the global input order. The last pass writes the buckets inside the
//            part of this rank's range that stays here straight into the output, the others
//            into scratch
//   Phases 3 and 4 overlap: the exchange moves each rank's digits in sort_config::exchange_parts
//   consecutive parts on a stream of its own (high priority), and a rank sorts part g once it
//   has arrived, while part g + 1 crosses the interconnect.
//   phase 5  balance: grouped ncclSend/ncclRecv of the difference to the balanced layout (the
//            cuts' error, about half a digit's keys per boundary)
//
// The keys cross the interconnect once, as in the sample sort, but the local work is one pass
// (the split) before the exchange and the digits below the top one after it, instead of a full
// sort before it and a merge after it.
// Phase timing: "records" (by the caller), "histogram", "partition", "all-to-all", "local
// sort", "balance".
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "scankit/cuda/sort.hpp"
#include "scankit/dist/detail/nccl/bucket_sort.cuh"
#include "scankit/dist/detail/nccl/exchange.cuh"
#include "scankit/dist/detail/radix_plan.hpp"
#include "scankit/dist/nccl_communicator.hpp"
#include "scankit/dist/types.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::dist::detail::nccl {

/// Whether the radix sort can take these keys at all: 2 bytes or more over the whole width,
/// every shard within one split.
template <class K>
bool radix_sort_applies(int begin, int end, std::span<const std::int64_t> sizes, std::size_t value_bytes) {
  if (sizeof(K) < 2 || begin != 0 || end != radix_traits<K>::bits) return false;
  const std::int64_t limit = scankit::cuda::detail::top_digit_split_limit(sizeof(K), value_bytes);
  return std::all_of(sizes.begin(), sizes.end(), [&](std::int64_t n) { return n <= limit; });
}

/// Phases 1 to 5 (the records are exchanged by the caller). Returns false, having moved
/// nothing, where the top digits cannot be cut well enough for `cfg` (a top digit with more
/// keys than a bucket sort takes; with split automatic, a rank more than 1/16 of its share
/// away from it): the caller then takes the sample sort.
template <class K, class Val, bool Pairs>
bool radix_sort(nccl_communicator& c, std::span<const device_shard<const K>> keys_in, std::span<const device_shard<K>> keys_out,
                std::span<const device_shard<const Val>> values_in, std::span<const device_shard<Val>> values_out,
                const sort_options& opts, const sort_config& cfg, const std::vector<std::int64_t>& sizes,
                const std::vector<std::int64_t>& target, const char* where) {
  namespace cd = scankit::cuda::detail;
  const int p = c.size(), L = c.local_count();
  constexpr std::size_t kb = sizeof(K), vb = Pairs ? sizeof(Val) : 0;
  const auto ui = [](int i) { return static_cast<std::size_t>(i); };

  // ---- phase 1: the top digits' counts, the cuts ---------------------------------------------------
  c.mark_phase("histogram");
  std::vector<const unsigned long long*> starts(ui(L));
  for_each_local(c, [&](nccl_local_rank& l, int i) {
    const auto k = at(keys_in, i);
    const std::size_t ws_bytes = cd::top_digit_split_workspace_bytes(k.size, kb, vb);
    starts[ui(i)] = cd::top_digit_starts<K>(k.data, k.size, opts, l.buffer_bytes(slot_c, ws_bytes, where), ws_bytes, l.stream);
  });
  grouped(c, "ncclAllGather of the top digits' counts", where, [&](nccl_local_rank& l, int i) {
    check_nccl(ncclAllGather(starts[ui(i)], l.buffer<unsigned long long>(slot_e, p * top_digits, where), top_digits,
                             ncclUint64, l.comm, l.stream),
               l.comm, "ncclAllGather", where);
  });
  {
    auto& l = c.local(0);
    device_guard g(l.device);
    check_cuda(cudaMemcpyAsync(l.pinned[1].get<unsigned long long>(p * top_digits, where),
                               l.buffer<unsigned long long>(slot_e, p * top_digits, where),
                               sizeof(unsigned long long) * ui(p * top_digits), cudaMemcpyDeviceToHost, l.stream),
               "cudaMemcpyAsync", where);
  }
  c.synchronize(where);
  // The starts of each rank's digits, into counts.
  std::vector<std::int64_t> counts(ui(p * top_digits));
  {
    const unsigned long long* st = c.local(0).pinned[1].get<unsigned long long>(p * top_digits, where);
    for (int q = 0; q < p; ++q)
      for (int d = 0; d < top_digits; ++d) {
        const auto at_d = static_cast<std::int64_t>(st[ui(q * top_digits + d)]);
        const auto next = d + 1 < top_digits ? static_cast<std::int64_t>(st[ui(q * top_digits + d + 1)]) : sizes[ui(q)];
        counts[ui(q * top_digits + d)] = next - at_d;
      }
  }
  const radix_split_plan split = plan_radix_split(counts, target);
  if (std::any_of(split.digit.begin(), split.digit.end(), [](std::int64_t n) { return n > cd::bucket_sort_limit; }))
    return false;
  if (cfg.split == sort_config::split_kind::automatic &&
      split.imbalance * 16 > *std::max_element(target.begin(), target.end()))
    return false;
  // The exchange in parts that overlap the sort of the parts before (one part while phases
  // are timed, so that each phase is timed alone).
  // At most one part per top digit (more cannot be sorted apart).
  const int parts = c.recording_phases()       ? 1
                    : cfg.exchange_parts > 0 ? std::min(cfg.exchange_parts, top_digits)
                                             : radix_exchange_parts;
  std::vector<radix_rank_layout> layout;
  for (int i = 0; i < L; ++i) layout.push_back(plan_radix_rank(counts, split, c.local(i).rank, parts));
  // Pinned staging for the split's digit bases and each part's bucket sort tables, taken here
  // (nothing is in flight from it after the wait above, so it may grow) and written at
  // disjoint places: the copy of one may still be pending when the next is written.
  constexpr std::size_t base_bytes = sizeof(unsigned long long) * top_digits;
  const auto part_buckets = [&](int i, int g) {
    return layout[ui(i)].group_bucket[ui(g) + 1] - layout[ui(i)].group_bucket[ui(g)];
  };
  std::vector<std::vector<unsigned char*>> staging(ui(L));
  for (int i = 0; i < L; ++i) {
    std::size_t bytes = base_bytes;
    for (int g = 0; g < parts; ++g) bytes += cd::bucket_sort_staging_bytes(part_buckets(i, g), p);
    unsigned char* at = c.local(i).pinned[1].get<unsigned char>(static_cast<std::int64_t>(bytes), where);
    staging[ui(i)].push_back(at);
    at += base_bytes;
    for (int g = 0; g < parts; ++g) staging[ui(i)].push_back(at), at += cd::bucket_sort_staging_bytes(part_buckets(i, g), p);
  }

  // ---- phase 2: the split by the top digit ------------------------------------------------------------
  c.mark_phase("partition");
  std::vector<K*> keys(ui(L));
  std::vector<Val*> values(ui(L));
  for_each_local(c, [&](nccl_local_rank& l, int i) {
    const auto& lay = layout[ui(i)];
    const auto n = at(keys_in, i).size;
    keys[ui(i)] = l.buffer<K>(slot_a, lay.size, where);
    if constexpr (Pairs) values[ui(i)] = l.buffer<Val>(slot_b, lay.size, where);
    auto* h = reinterpret_cast<unsigned long long*>(staging[ui(i)][0]);
    std::copy(lay.digit_base.begin(), lay.digit_base.end(), h);
    auto* base = l.buffer<unsigned long long>(slot_f, top_digits, where);
    check_cuda(cudaMemcpyAsync(base, h, sizeof(unsigned long long) * top_digits, cudaMemcpyHostToDevice, l.stream),
               "cudaMemcpyAsync", where);
    cd::top_digit_split r;
    r.keys_in = at(keys_in, i).data, r.keys_out = keys[ui(i)];
    if constexpr (Pairs) r.values_in = at(values_in, i).data, r.values_out = values[ui(i)];
    r.value_bytes = vb, r.n = n, r.digit_base = base, r.stream = l.stream, r.options = opts;
    r.workspace_bytes = cd::top_digit_split_workspace_bytes(n, kb, vb);
    r.workspace = l.buffer_bytes(slot_c, r.workspace_bytes, where);
    cd::split_by_top_digit<K>(r);
  });

  // ---- phases 3 and 4: all-to-all, the sort of each top digit's bucket --------------------------------
  // Part g's exchange on the side stream, then its sort on the rank's stream once it has arrived.
  c.mark_phase("all-to-all"), note_sent_pieces(c, split.matrix, kb + vb);
  std::vector<cudaStream_t> side(ui(L));
  std::vector<cudaEvent_t> events;  // per local rank: the split done, then each part arrived
  struct event_guard {
    std::vector<cudaEvent_t>& e;
    ~event_guard() {
      for (cudaEvent_t x : e) cudaEventDestroy(x);
    }
  } release_events{events};
  const auto event = [&](int i, int k) { return events[ui(i * (parts + 1) + k)]; };
  if (parts > 1) {
    for_each_local(c, [&](nccl_local_rank& l, int i) {
      side[ui(i)] = l.side->get(where);
      for (int k = 0; k <= parts; ++k) {
        cudaEvent_t e = nullptr;
        check_cuda(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreateWithFlags", where);
        events.push_back(e);
      }
      check_cuda(cudaEventRecord(event(i, 0), l.stream), "cudaEventRecord", where);
      check_cuda(cudaStreamWaitEvent(side[ui(i)], event(i, 0)), "cudaStreamWaitEvent", where);
    });
  }
  for (int g = 0; g < parts; ++g) {
    std::vector<transfer_plan> plans;
    for (const auto& lay : layout) plans.push_back(lay.exchange[ui(g)]);
    const std::span<const cudaStream_t> streams = parts > 1 ? std::span<const cudaStream_t>(side) : std::span<const cudaStream_t>();
    // Within each rank's buffer: the ranges sent and received do not overlap.
    const auto exchange = [&](const auto& buffers, std::size_t item_bytes) {
      const std::vector<const void*> in(buffers.begin(), buffers.end());
      const std::vector<void*> out(buffers.begin(), buffers.end());
      exchange_pieces(c, in, out, item_bytes, plans, "ncclSend/ncclRecv of the pieces", where, streams);
    };
    exchange(keys, kb);
    if constexpr (Pairs) exchange(values, vb);
    if (parts > 1)
      for_each_local(c, [&](nccl_local_rank&, int i) {
        check_cuda(cudaEventRecord(event(i, g + 1), side[ui(i)]), "cudaEventRecord", where);
      });
  }

  c.mark_phase("local sort");
  std::vector<transfer_plan> moves;
  for (int i = 0; i < L; ++i) moves.push_back(plan_transfer(split.bucket, target, c.local(i).rank));
  std::vector<const void*> side_keys(ui(L)), side_values(ui(L));
  for_each_local(c, [&](nccl_local_rank& l, int i) {
    const auto r = ui(l.rank);
    const auto& lay = layout[ui(i)];
    const std::int64_t b = split.bucket[r];
    K* side_k = l.buffer<K>(slot_d, b, where);
    Val* side_v = Pairs ? l.buffer<Val>(slot_e, b, where) : nullptr;
    side_keys[ui(i)] = side_k, side_values[ui(i)] = side_v;
    // The bucket's items [kept.offset, kept.offset + kept.count) stay on this rank, from output
    // position at_out on: top digits wholly inside go straight there, the others to the side
    // buffer (the last pass's free alternate), from which the straddling ones are copied.
    const piece kept = moves[ui(i)].send[r];
    const std::int64_t at_out = moves[ui(i)].recv[r].offset;
    const auto inside = [&](std::int64_t s0, std::int64_t s1) { return s0 >= kept.offset && s1 <= kept.offset + kept.count; };
    const auto kept_at = [&](auto* out, std::int64_t s) { return out + at_out + (s - kept.offset); };  // bucket item s
    std::vector<void*> kdst(ui(lay.buckets)), vdst(ui(lay.buckets));
    for (int d = 0; d < lay.buckets; ++d) {
      const std::int64_t s0 = lay.bucket_start[ui(d)], s1 = lay.bucket_start[ui(d) + 1];
      const bool in_out = s1 > s0 && inside(s0, s1);
      const auto dst = [&](auto* out, auto* side) -> void* { return in_out ? kept_at(out, s0) : side + s0; };
      kdst[ui(d)] = dst(at(keys_out, i).data, side_k);
      if constexpr (Pairs) vdst[ui(d)] = dst(at(values_out, i).data, side_v);
    }
    std::size_t ws_bytes = 0;
    for (int g = 0; g < parts; ++g) {
      const int b0 = lay.group_bucket[ui(g)], b1 = lay.group_bucket[ui(g) + 1];
      ws_bytes = std::max(ws_bytes, cd::bucket_sort_workspace_bytes(lay.bucket_start[ui(b1)] - lay.bucket_start[ui(b0)], b1 - b0,
                                                                    p, kb, vb));
    }
    void* ws = l.buffer_bytes(slot_c, ws_bytes, where);
    // Part g: its pieces lie from group_at[g] on, which is also its scratch once read.
    for (int g = 0; g < parts; ++g) {
      const int b0 = lay.group_bucket[ui(g)], b1 = lay.group_bucket[ui(g) + 1];
      const std::int64_t from = lay.group_at[ui(g)], first = lay.bucket_start[ui(b0)];
      std::vector<std::int64_t> offset(lay.piece_offset.begin() + b0 * p, lay.piece_offset.begin() + b1 * p);
      for (auto& o : offset) o -= from;
      if (parts > 1) check_cuda(cudaStreamWaitEvent(l.stream, event(i, g + 1)), "cudaStreamWaitEvent", where);
      cd::bucket_sort bs;
      bs.keys = keys[ui(i)] + from, bs.keys_alt = side_k + first, bs.value_bytes = vb;
      if constexpr (Pairs) bs.values = values[ui(i)] + from, bs.values_alt = side_v + first;
      bs.buckets = b1 - b0, bs.pieces = p;
      bs.piece_offset = offset.data(), bs.piece_count = lay.piece_count.data() + b0 * p;
      bs.key_dst = kdst.data() + b0, bs.value_dst = vdst.data() + b0;
      bs.staging_bytes = cd::bucket_sort_staging_bytes(b1 - b0, p);
      bs.staging = staging[ui(i)][ui(g) + 1];
      bs.workspace = ws, bs.workspace_bytes = ws_bytes;
      bs.stream = l.stream, bs.options = opts;
      cd::sort_buckets<K>(bs);
    }
    // The buckets across an end of the kept part: their kept items, from the side buffer.
    for (int d = 0; d < lay.buckets; ++d) {
      const std::int64_t s0 = lay.bucket_start[ui(d)], s1 = lay.bucket_start[ui(d) + 1];
      const std::int64_t k0 = std::max(s0, kept.offset), k1 = std::min(s1, kept.offset + kept.count);
      if (k1 <= k0 || inside(s0, s1)) continue;
      const auto copy = [&](auto* out, const auto* side) {
        check_cuda(cudaMemcpyAsync(kept_at(out, k0), side + k0, sizeof(*side) * static_cast<std::size_t>(k1 - k0),
                                   cudaMemcpyDeviceToDevice, l.stream),
                   "cudaMemcpyAsync", where);
      };
      copy(at(keys_out, i).data, side_k);
      if constexpr (Pairs) copy(at(values_out, i).data, side_v);
    }
  });

  // ---- phase 5: exact balance ------------------------------------------------------------------------
  c.mark_phase("balance");
  if (split.bucket != target) {
    std::vector<void*> kout, vout;
    for (int i = 0; i < L; ++i) {
      kout.push_back(at(keys_out, i).data);
      if constexpr (Pairs) vout.push_back(at(values_out, i).data);
      const auto r = ui(c.local(i).rank);
      moves[ui(i)].send[r] = moves[ui(i)].recv[r] = piece{};  // written by phase 4
    }
    exchange_pieces(c, side_keys, kout, kb, moves, "ncclSend/ncclRecv", where);
    if constexpr (Pairs) exchange_pieces(c, side_values, vout, vb, moves, "ncclSend/ncclRecv", where);
  }
  return true;
}

}  // namespace scankit::dist::detail::nccl
