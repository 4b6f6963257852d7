// Distributed sort on GPU ranks: the radix sort of radix_sort.cuh where it applies
// (sort_config::split), else the sample sort with exact balance below, the phases of the CPU
// ranks' sort (detail/mpi/sort.hpp) with the local work on scankit::cuda:
//
//   phase 1  exchange: ncclAllGather of the call records (shard size, output capacity); wait
//   phase 2  local sort of the shard into scratch (onesweep; stable)
//   phase 3  samples: a kernel draws S regular samples of the sorted shard; ncclAllGather;
//            wait; every rank computes the same splitters on the host
//   phase 4  pieces: a kernel binary-searches the splitters in the sorted shard; ncclAllGather
//            of the piece sizes; wait (every rank then knows what it sends and receives)
//   phase 5  all-to-all: grouped ncclSend/ncclRecv of the pieces (keys, then values)
//   phase 6  merge of the received pieces: they arrive back to back in source-rank order, each
//            sorted, so merge-path passes (cuda/detail/merge/merge_path.cuh) that merge
//            neighbouring runs, earlier runs first among equal keys, give the stable sort of the
//            bucket (equal keys in rank order, the global input order): ceil(log2 p) passes of
//            one read and one write. The last pass writes the part of the bucket that belongs
//            to this rank's balanced share straight into the output, at its place there, and
//            only the rest into scratch. sort_config::merge_received = false: a full local sort
//            into scratch instead (into the output when the buckets are the balanced shares).
//   phase 7  balance: grouped ncclSend/ncclRecv of the difference to the balanced layout (after
//            the merge, only the items that leave the rank: no local copy)
//
// The keys cross the interconnect once in phase 5; phase 7 moves only the splitters' error
// (about n/S + p items per boundary, none when every shard has at most S items).
// Phase timing (nccl_communicator::record_phases): "records", "local sort" (and drawing the
// samples), "samples", "pieces", "all-to-all", "merge" (or "received sort"), "balance".
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "scankit/cuda/detail/merge/merge_path.cuh"
#include "scankit/cuda/sort.hpp"
#include "scankit/dist/detail/nccl/exchange.cuh"
#include "scankit/dist/detail/nccl/kernels.cuh"
#include "scankit/dist/detail/nccl/radix_sort.cuh"
#include "scankit/dist/detail/nccl/rebalance.cuh"
#include "scankit/dist/detail/plan.hpp"
#include "scankit/dist/detail/signature.hpp"
#include "scankit/dist/detail/splitters.hpp"
#include "scankit/dist/nccl_communicator.hpp"
#include "scankit/dist/types.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::dist::detail::nccl {

/// Sorts keys (and values, for V other than void) from `keys_in` into `keys_out`; returns each
/// local rank's item count (its balanced share). Outputs may be the inputs.
template <class K, class V>
std::vector<std::int64_t> sort(nccl_communicator& c, std::span<const device_shard<const K>> keys_in,
                               std::span<const device_shard<K>> keys_out,
                               std::span<const device_shard<const std::conditional_t<std::is_void_v<V>, char, V>>> values_in,
                               std::span<const device_shard<std::conditional_t<std::is_void_v<V>, char, V>>> values_out,
                               const sort_options& opts, const sort_config& cfg, const scankit::cuda::sort_config& local_cfg) {
  static_assert(is_sort_key_v<K>, "scankit sorts 8..64-bit integers, float and double");
  constexpr bool pairs = !std::is_void_v<V>;
  using Val = std::conditional_t<pairs, V, char>;
  constexpr std::size_t vbytes = pairs ? sizeof(Val) : 0;
  if constexpr (pairs) scankit::cuda::detail::check_value_type<Val>();
  constexpr const char* where = pairs ? "scankit::dist::sort_pairs" : "scankit::dist::sort_keys";
  c.check_usable(where);
  check_shard_count(c, keys_in.size(), "key shards", where);
  check_shard_count(c, keys_out.size(), "output key shards", where);
  if constexpr (pairs) {
    check_shard_count(c, values_in.size(), "value shards", where);
    check_shard_count(c, values_out.size(), "output value shards", where);
  }
  const int p = c.size(), L = c.local_count();
  const std::int64_t per_rank = cfg.samples_per_rank > 0 ? cfg.samples_per_rank : default_samples_per_rank;
  signature sig(pairs ? "sort_pairs" : "sort_keys");
  sig.add_type<K>();
  if constexpr (pairs) sig.add_type<Val>();
  sig.add_value(opts.descending);
  sig.add_value(opts.begin_bit);
  sig.add_value(opts.end_bit);
  sig.add_value(per_rank);
  sig.add_value(static_cast<int>(cfg.split));
  // What else decides the path and the radix sort's layout, so that ranks that would take
  // different ones fail together instead of waiting on each other.
  sig.add_value(cfg.exchange_parts);
  sig.add_value(local_cfg.algorithm == scankit::cuda::sort_algorithm::onesweep);
  sig.add_value(c.recording_phases());

  // ---- phase 1: exchange of sizes and capacities -------------------------------------------------
  c.mark_phase("records", true);
  int begin = 0, end = 0;
  const auto failed = local_phase(
      c, sig.value(),
      [&](int i) {
        const auto k = at(keys_in, i);
        std::tie(begin, end) = scankit::detail::sort_bit_range(opts, radix_traits<K>::bits, where);
        if (cfg.samples_per_rank < 0) throw invalid_argument(std::string(where) + ": negative samples_per_rank");
        if (cfg.exchange_parts < 0) throw invalid_argument(std::string(where) + ": negative exchange_parts");
        scankit::detail::check_size(k.size, where);
        scankit::detail::check_pointer(k.data, k.size, "keys", where);
        if constexpr (pairs) {
          if (at(values_in, i).size != k.size) throw invalid_argument(std::string(where) + ": values and keys differ in number");
          scankit::detail::check_pointer(at(values_in, i).data, k.size, "values", where);
          // As the one-GPU sort requires (values move as words of up to 8 bytes).
          constexpr std::size_t align = std::min<std::size_t>(sizeof(Val), 8);
          if (reinterpret_cast<std::uintptr_t>(at(values_in, i).data) % align ||
              reinterpret_cast<std::uintptr_t>(at(values_out, i).data) % align)
            throw invalid_argument(std::string(where) + ": value pointers must be aligned to " + std::to_string(align) +
                                   " bytes");
        }
      },
      [&](int i) {
        std::int64_t capacity = at(keys_out, i).size;
        if constexpr (pairs) capacity = std::min(capacity, at(values_out, i).size);
        return size_and_capacity{at(keys_in, i).size, capacity};
      },
      [](nccl_local_rank&, int, call_record*) {}, where);
  const auto layout = balance(gather_records(c, sig.value(), failed, where), where);
  const auto& sizes = layout.sizes;
  const auto& target = layout.target;
  std::vector<std::int64_t> result;
  for (int i = 0; i < L; ++i) result.push_back(target[static_cast<std::size_t>(c.local(i).rank)]);

  // The radix sort where it applies (radix_sort.cuh); it declines skewed top digits.
  if (cfg.split != sort_config::split_kind::samples && local_cfg.algorithm == scankit::cuda::sort_algorithm::onesweep &&
      radix_sort_applies<K>(begin, end, sizes, vbytes) &&
      radix_sort<K, Val, pairs>(c, keys_in, keys_out, values_in, values_out, opts, cfg, sizes, target, where)) {
    c.end_phases();
    return result;
  }

  // ---- phases 2 and 3: local sort, samples ----------------------------------------------------------
  c.mark_phase("local sort");
  struct local_state {
    K* keys = nullptr;     // the sorted shard
    Val* values = nullptr;
    std::int64_t n = 0;
  };
  std::vector<local_state> st(static_cast<std::size_t>(L));
  for_each_local(c, [&](nccl_local_rank& l, int i) {
    auto& s = st[static_cast<std::size_t>(i)];
    s.n = at(keys_in, i).size;
    s.keys = l.buffer<K>(slot_a, s.n, where);
    const std::size_t ws_bytes = scankit::cuda::sort_workspace_bytes(s.n, sizeof(K), vbytes, local_cfg);
    void* ws = l.buffer_bytes(slot_c, ws_bytes, where);
    if constexpr (pairs) {
      s.values = l.buffer<Val>(slot_b, s.n, where);
      scankit::cuda::sort_pairs(at(keys_in, i).data, s.keys, at(values_in, i).data, s.values, s.n, ws, ws_bytes, l.stream,
                                opts, local_cfg);
    } else {
      scankit::cuda::sort_keys(at(keys_in, i).data, s.keys, s.n, ws, ws_bytes, l.stream, opts, local_cfg);
    }
    auto* samples = l.buffer<sample>(slot_d, per_rank, where);
    samples_kernel<<<static_cast<int>((per_rank + 255) / 256), 256, 0, l.stream>>>(s.keys, s.n, per_rank, l.rank, begin, end,
                                                                                  opts.descending, samples);
    check_launch("samples_kernel", where);
  });
  c.mark_phase("samples");
  grouped(c, "ncclAllGather of the samples", where, [&](nccl_local_rank& l, int) {
    check_nccl(ncclAllGather(l.buffer<sample>(slot_d, per_rank, where), l.buffer<sample>(slot_e, p * per_rank, where),
                             static_cast<std::size_t>(per_rank) * sizeof(sample), ncclUint8, l.comm, l.stream),
               l.comm, "ncclAllGather", where);
  });
  {
    auto& l = c.local(0);
    device_guard g(l.device);
    check_cuda(cudaMemcpyAsync(l.pinned[1].get<sample>(p * per_rank, where), l.buffer<sample>(slot_e, p * per_rank, where),
                               static_cast<std::size_t>(p * per_rank) * sizeof(sample), cudaMemcpyDeviceToHost, l.stream),
               "cudaMemcpyAsync", where);
  }
  c.synchronize(where);
  const sample* gathered = c.local(0).pinned[1].get<sample>(p * per_rank, where);
  const auto split = choose_splitters(std::span(gathered, static_cast<std::size_t>(p * per_rank)), sizes, per_rank);

  // ---- phase 4: pieces -------------------------------------------------------------------------------
  c.mark_phase("pieces");
  for_each_local(c, [&](nccl_local_rank& l, int i) {
    auto& s = st[static_cast<std::size_t>(i)];
    splitter* h = l.pinned[0].get<splitter>(std::max(p - 1, 1), where);
    std::copy(split.begin(), split.end(), h);
    auto* d = l.buffer<splitter>(slot_f, std::max(p - 1, 1), where);
    check_cuda(cudaMemcpyAsync(d, h, sizeof(splitter) * split.size(), cudaMemcpyHostToDevice, l.stream), "cudaMemcpyAsync", where);
    pieces_kernel<<<1, 256, sizeof(std::int64_t) * (p + 1), l.stream>>>(s.keys, s.n, d, p, l.rank, begin, end, opts.descending,
                                                                        l.buffer<std::int64_t>(slot_g, p, where));
    check_launch("pieces_kernel", where);
  });
  grouped(c, "ncclAllGather of the piece sizes", where, [&](nccl_local_rank& l, int) {
    check_nccl(ncclAllGather(l.buffer<std::int64_t>(slot_g, p, where), l.buffer<std::int64_t>(slot_h, p * p, where),
                             static_cast<std::size_t>(p), ncclInt64, l.comm, l.stream),
               l.comm, "ncclAllGather", where);
  });
  {
    auto& l = c.local(0);
    device_guard g(l.device);
    check_cuda(cudaMemcpyAsync(l.pinned[1].get<std::int64_t>(p * p, where), l.buffer<std::int64_t>(slot_h, p * p, where),
                               sizeof(std::int64_t) * static_cast<std::size_t>(p * p), cudaMemcpyDeviceToHost, l.stream),
               "cudaMemcpyAsync", where);
  }
  c.synchronize(where);
  const std::int64_t* hm = c.local(0).pinned[1].get<std::int64_t>(p * p, where);
  const std::vector<std::int64_t> matrix(hm, hm + p * p);  // [from][to]
  const std::vector<std::int64_t> bucket = received_counts(matrix, p);
  const bool balanced = bucket == target;

  // ---- phase 5: all-to-all -------------------------------------------------------------------------
  c.mark_phase("all-to-all"), note_sent_pieces(c, matrix, sizeof(K) + vbytes);
  std::vector<K*> rkeys(static_cast<std::size_t>(L));
  std::vector<Val*> rvalues(static_cast<std::size_t>(L));
  for_each_local(c, [&](nccl_local_rank& l, int i) {
    const auto b = bucket[static_cast<std::size_t>(l.rank)];
    rkeys[static_cast<std::size_t>(i)] = l.buffer<K>(slot_i, b, where);
    if constexpr (pairs) rvalues[static_cast<std::size_t>(i)] = l.buffer<Val>(slot_j, b, where);
  });
  // Rank me sends its q-th piece (the sorted shard's items between splitters q - 1 and q) to
  // rank q and receives rank q's piece for it.
  std::vector<transfer_plan> plans;
  for (int i = 0; i < L; ++i) plans.push_back(plan_all_to_all(matrix, p, c.local(i).rank));
  auto exchange_items = [&](std::size_t item_bytes, auto source, auto dest) {
    std::vector<const void*> in;
    std::vector<void*> out;
    for (int i = 0; i < L; ++i) in.push_back(source(i)), out.push_back(dest(i));
    exchange_pieces(c, in, out, item_bytes, plans, "ncclSend/ncclRecv of the pieces", where);
  };
  exchange_items(sizeof(K), [&](int i) { return st[static_cast<std::size_t>(i)].keys; },
                 [&](int i) { return rkeys[static_cast<std::size_t>(i)]; });
  if constexpr (pairs)
    exchange_items(sizeof(Val), [&](int i) { return st[static_cast<std::size_t>(i)].values; },
                   [&](int i) { return rvalues[static_cast<std::size_t>(i)]; });

  // ---- phase 6: merge of the received pieces ---------------------------------------------------------
  c.mark_phase(cfg.merge_received ? "merge" : "received sort");
  // The p pieces lie back to back in source-rank order, each sorted: merged stably in that order
  // (ceil(log2 p) merge-path passes, ping-ponging through the samples' scratch), they are the
  // stable sort of the bucket. Phase 7 moves the buckets to the balanced shares; the piece of
  // that move a rank keeps, the merge's last pass writes straight into the output and the rest
  // into the sorted shard's scratch (free again), which phase 7 sends on, so the part a rank
  // keeps is written once. With merge_received off, a full local sort into the output when the
  // buckets are the balanced shares, else into that scratch.
  std::vector<transfer_plan> moves;
  for (int i = 0; i < L; ++i) moves.push_back(plan_transfer(bucket, target, c.local(i).rank));
  std::vector<const void*> sorted_keys(static_cast<std::size_t>(L)), sorted_values(static_cast<std::size_t>(L));
  for_each_local(c, [&](nccl_local_rank& l, int i) {
    const auto r = static_cast<std::size_t>(l.rank);
    const auto b = bucket[r];
    if (cfg.merge_received) {
      namespace mp = scankit::cuda::detail::merge;
      auto* runs = l.buffer<std::int64_t>(slot_f, p + 1, where);
      receive_offsets_kernel<<<1, 1, 0, l.stream>>>(l.buffer<std::int64_t>(slot_h, p * p, where), p, l.rank, runs);
      check_launch("receive_offsets_kernel", where);
      auto* splits = l.buffer<std::int64_t>(slot_c, mp::merge_split_count(b), where);
      const bool alt = mp::merge_needs_alternate(p);
      K* alt_keys = alt ? l.buffer<K>(slot_d, b, where) : nullptr;
      const scankit::detail::sort_key_less<K> less{begin, end, opts.descending};
      // The bucket's items [kept.offset, kept.offset + kept.count) stay here, from output
      // position at_out on.
      const piece kept = moves[static_cast<std::size_t>(i)].send[r];
      const std::int64_t at_out = moves[static_cast<std::size_t>(i)].recv[r].offset;
      // Scratch for the rest, and for the passes before the last when there are three or more.
      const bool side = kept.count < b || mp::merge_passes(p) > 2;
      auto split = [&](auto* out, auto* scratch) {
        using T = std::remove_pointer_t<decltype(out)>;
        return mp::split_output<T>{out + at_out, scratch, kept.offset, kept.offset + kept.count};
      };
      const auto kd = split(at(keys_out, i).data, side ? l.buffer<K>(slot_a, b, where) : static_cast<K*>(nullptr));
      if constexpr (pairs) {
        const auto vd = split(at(values_out, i).data, side ? l.buffer<Val>(slot_b, b, where) : static_cast<Val*>(nullptr));
        mp::merge_runs(rkeys[static_cast<std::size_t>(i)], rvalues[static_cast<std::size_t>(i)], alt_keys,
                       alt ? l.buffer<Val>(slot_e, b, where) : nullptr, kd, vd, b, runs, p, less, splits, l.stream);
        sorted_values[static_cast<std::size_t>(i)] = vd.side;
      } else {
        mp::merge_runs<K, void>(rkeys[static_cast<std::size_t>(i)], nullptr, alt_keys, nullptr, kd, nullptr, b, runs, p, less,
                                splits, l.stream);
      }
      sorted_keys[static_cast<std::size_t>(i)] = kd.side;
      return;
    }
    K* kd = balanced ? at(keys_out, i).data : l.buffer<K>(slot_a, b, where);
    const std::size_t ws_bytes = scankit::cuda::sort_workspace_bytes(b, sizeof(K), vbytes, local_cfg);
    void* ws = l.buffer_bytes(slot_c, ws_bytes, where);
    if constexpr (pairs) {
      Val* vd = balanced ? at(values_out, i).data : l.buffer<Val>(slot_b, b, where);
      scankit::cuda::sort_pairs(rkeys[static_cast<std::size_t>(i)], kd, rvalues[static_cast<std::size_t>(i)], vd, b, ws, ws_bytes,
                                l.stream, opts, local_cfg);
      sorted_values[static_cast<std::size_t>(i)] = vd;
    } else {
      scankit::cuda::sort_keys(rkeys[static_cast<std::size_t>(i)], kd, b, ws, ws_bytes, l.stream, opts, local_cfg);
    }
    sorted_keys[static_cast<std::size_t>(i)] = kd;
  });

  // ---- phase 7: exact balance ----------------------------------------------------------------------
  c.mark_phase("balance");
  if (!balanced) {
    std::vector<void*> kout, vout;
    for (int i = 0; i < L; ++i) {
      kout.push_back(at(keys_out, i).data);
      if constexpr (pairs) vout.push_back(at(values_out, i).data);
      // What the merge wrote into the output already stays where it is.
      if (cfg.merge_received) {
        const auto r = static_cast<std::size_t>(c.local(i).rank);
        moves[static_cast<std::size_t>(i)].send[r] = moves[static_cast<std::size_t>(i)].recv[r] = piece{};
      }
    }
    exchange_pieces(c, sorted_keys, kout, sizeof(K), moves, "ncclSend/ncclRecv", where);
    if constexpr (pairs) exchange_pieces(c, sorted_values, vout, sizeof(Val), moves, "ncclSend/ncclRecv", where);
  }
  c.end_phases();
  return result;
}

}  // namespace scankit::dist::detail::nccl
