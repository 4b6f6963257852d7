// Distributed stream compaction on GPU ranks: select_if, remove_if, partition, unique.
//
//   phase 1  local compaction (scankit::cuda), its count written straight into the rank's call
//            record on the device (unique: also the shard's first and last items)
//   phase 2  exchange: ncclAllGather of the call records, copied to the host; a bounded wait
//   phase 3  offsets: the exclusive scan of the counts gives each rank's global offset, their
//            sum the global count (on the host, from the gathered counts)
//
// unique: a rank's first item that continues the run of the nearest earlier rank with items is
// dropped (the equality is evaluated on the host with the exchanged items) by moving the rank's
// output down one item. The outputs are stream-ordered; the results come back to the host.
//
// Phase timing (nccl_communicator::record_phases): "local compaction" (partition: "local
// partition"; unique: "local unique"), "exchange" (phases 2 and 3), unique also "boundaries".
#pragma once

#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "scankit/cuda/compact.hpp"
#include "scankit/dist/detail/nccl/exchange.cuh"
#include "scankit/dist/detail/plan.hpp"
#include "scankit/dist/detail/signature.hpp"
#include "scankit/dist/nccl_communicator.hpp"
#include "scankit/dist/types.hpp"

namespace scankit::dist::detail::nccl {

/// select_if (keep) or remove_if (!keep); one result per local rank.
template <class T, class Pred>
std::vector<compaction_result> select(nccl_communicator& c, std::span<const device_shard<const T>> in,
                                      std::span<const device_shard<T>> out, Pred pred, bool keep,
                                      const scankit::cuda::compact_config& cfg) {
  const char* where = keep ? "scankit::dist::select_if" : "scankit::dist::remove_if";
  check_call(c, in.size(), out.size(), where);
  signature sig(keep ? "select_if" : "remove_if");
  sig.add_type<T>();
  sig.add_type<Pred>();

  // ---- phase 1: local compaction, the count into the call record ------------------------------
  c.mark_phase("local compaction", true);
  const auto failed = local_phase(
      c, sig.value(), [&](int i) { check_in_out(at(in, i).data, at(in, i).size, at(out, i).data, at(out, i).size, where); },
      [](int) { return std::int64_t{0}; },
      [&](nccl_local_rank& l, int i, call_record* rec) {
        const auto s = at(in, i);
        const auto d = at(out, i);
        const std::size_t bytes = scankit::cuda::compact_workspace_bytes(s.size, sizeof(T), cfg);
        void* ws = l.buffer_bytes(slot_a, bytes, where);
        if (keep) scankit::cuda::select_if(s.data, d.data, s.size, pred, payload_of<std::int64_t>(rec), ws, bytes, l.stream, cfg);
        else scankit::cuda::remove_if(s.data, d.data, s.size, pred, payload_of<std::int64_t>(rec), ws, bytes, l.stream, cfg);
      },
      where);

  // ---- phases 2 and 3: exchange of the counts, offsets ------------------------------------------
  c.mark_phase("exchange");
  const auto counts = payloads<std::int64_t>(gather_records(c, sig.value(), failed, where));
  std::vector<compaction_result> result;
  for (int i = 0; i < c.local_count(); ++i) result.push_back(compaction_offsets(counts, c.local(i).rank));
  c.end_phases();
  return result;
}

template <class T, class Pred>
std::vector<partition_result> partition(nccl_communicator& c, std::span<const device_shard<const T>> in,
                                        std::span<const device_shard<T>> out, Pred pred, rejected_order order,
                                        const scankit::cuda::compact_config& cfg) {
  constexpr const char* where = "scankit::dist::partition";
  check_call(c, in.size(), out.size(), where);
  struct payload {
    std::int64_t selected, size;
  };
  signature sig("partition");
  sig.add_type<T>();
  sig.add_type<Pred>();

  // ---- phase 1: local partition, the selected count into the call record ----------------------
  c.mark_phase("local partition", true);
  const auto failed = local_phase(
      c, sig.value(), [&](int i) { check_in_out(at(in, i).data, at(in, i).size, at(out, i).data, at(out, i).size, where); },
      [&](int i) { return payload{0, at(in, i).size}; },
      [&](nccl_local_rank& l, int i, call_record* rec) {
        const auto s = at(in, i);
        const std::size_t bytes = scankit::cuda::compact_workspace_bytes(s.size, sizeof(T), cfg);
        void* ws = l.buffer_bytes(slot_a, bytes, where);
        scankit::cuda::partition(s.data, at(out, i).data, s.size, pred, order, payload_of<std::int64_t>(rec), ws, bytes,
                                 l.stream, cfg);
      },
      where);

  // ---- phases 2 and 3: exchange, offsets ---------------------------------------------------------
  c.mark_phase("exchange");
  const auto all = payloads<payload>(gather_records(c, sig.value(), failed, where));
  std::vector<partition_result> result;
  for (int i = 0; i < c.local_count(); ++i) {
    partition_result r;
    const int me = c.local(i).rank;
    for (int q = 0; q < c.size(); ++q) {
      const auto& a = all[static_cast<std::size_t>(q)];
      if (q == me) r.selected = a.selected;
      if (q < me) {
        r.selected_offset += a.selected;
        r.rejected_offset += a.size - a.selected;
      }
      r.global_selected += a.selected;
      r.global_size += a.size;
    }
    result.push_back(r);
  }
  c.end_phases();
  return result;
}

template <class T, class Eq>
std::vector<compaction_result> unique(nccl_communicator& c, std::span<const device_shard<const T>> in,
                                      std::span<const device_shard<T>> out, Eq eq, const scankit::cuda::compact_config& cfg) {
  static_assert(std::is_trivially_copyable_v<T>, "distributed unique exchanges boundary items as bytes");
  static_assert(sizeof(T) <= 16, "the GPU unique exchanges boundary items of at most 16 bytes");
  constexpr const char* where = "scankit::dist::unique";
  check_call(c, in.size(), out.size(), where);
  struct payload {
    std::int64_t count, size;
    T first, last;
  };
  signature sig("unique");
  sig.add_type<T>();
  sig.add_type<Eq>();

  // ---- phase 1: local unique; count and boundary items into the call record --------------------
  c.mark_phase("local unique", true);
  const auto failed = local_phase(
      c, sig.value(), [&](int i) { check_in_out(at(in, i).data, at(in, i).size, at(out, i).data, at(out, i).size, where); },
      [&](int i) {
        payload host{};
        host.size = at(in, i).size;
        return host;
      },
      [&](nccl_local_rank& l, int i, call_record* rec) {
        const auto s = at(in, i);
        if (s.size == 0) return;
        auto* p = payload_of<payload>(rec);
        check_cuda(cudaMemcpyAsync(&p->first, s.data, sizeof(T), cudaMemcpyDeviceToDevice, l.stream), "cudaMemcpyAsync", where);
        check_cuda(cudaMemcpyAsync(&p->last, s.data + s.size - 1, sizeof(T), cudaMemcpyDeviceToDevice, l.stream),
                   "cudaMemcpyAsync", where);
        const std::size_t bytes = scankit::cuda::compact_workspace_bytes(s.size, sizeof(T), cfg);
        void* ws = l.buffer_bytes(slot_a, bytes, where);
        scankit::cuda::unique(s.data, at(out, i).data, s.size, eq, &p->count, ws, bytes, l.stream, cfg);
      },
      where);

  // ---- phase 2: exchange -----------------------------------------------------------------------
  c.mark_phase("exchange");
  const auto all = payloads<payload>(gather_records(c, sig.value(), failed, where));

  // ---- phase 3: drop first items that continue an earlier rank's run, then offsets -------------
  c.mark_phase("boundaries");
  std::vector<std::int64_t> counts(all.size());
  const T* last = nullptr;
  for (std::size_t q = 0; q < all.size(); ++q) {
    counts[q] = all[q].count;
    if (all[q].size == 0) continue;
    if (last != nullptr && eq(*last, all[q].first)) --counts[q];
    last = &all[q].last;
  }
  std::vector<compaction_result> result;
  for_each_local(c, [&](nccl_local_rank& l, int i) {
    const auto me = static_cast<std::size_t>(l.rank);
    const std::int64_t keep = counts[me];
    if (keep < all[me].count && keep > 0) {
      // Move out[1, count) down to out[0, count - 1) through scratch (the ranges overlap).
      T* d = out[static_cast<std::size_t>(i)].data;
      T* tmp = l.buffer<T>(slot_b, keep, where);
      check_cuda(cudaMemcpyAsync(tmp, d + 1, static_cast<std::size_t>(keep) * sizeof(T), cudaMemcpyDeviceToDevice, l.stream),
                 "cudaMemcpyAsync", where);
      check_cuda(cudaMemcpyAsync(d, tmp, static_cast<std::size_t>(keep) * sizeof(T), cudaMemcpyDeviceToDevice, l.stream),
                 "cudaMemcpyAsync", where);
    }
    result.push_back(compaction_offsets(counts, l.rank));
  });
  c.end_phases();
  return result;
}

}  // namespace scankit::dist::detail::nccl
