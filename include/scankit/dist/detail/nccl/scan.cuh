// Distributed scan on GPU ranks.
//
//   phase 1  local reduce: the rank's total t_r, written into its call record on the device
//            (ordered reduction, one read of the shard)
//   phase 2  exchange: ncclAllGather of the call records (one small collective), copied to
//            the host; a bounded wait
//   phase 3  local scan (scankit::cuda::scan) from the carry-in init . t_0 . ... . t_(r-1),
//            enqueued on the rank's stream (a read and a write of the shard)
//
// Phase timing (nccl_communicator::record_phases): "local reduce", "exchange", "local scan".
//
// The wait in phase 2 is there because cuda::scan takes its carry-in as a host value; the
// scan's output is stream-ordered. Totals combine in rank order: the operator need not commute.
#pragma once

#include <cstdint>
#include <exception>
#include <span>
#include <type_traits>
#include <vector>

#include "scankit/cuda/scan.hpp"
#include "scankit/dist/detail/nccl/exchange.cuh"
#include "scankit/dist/detail/nccl/kernels.cuh"
#include "scankit/dist/detail/signature.hpp"
#include "scankit/dist/nccl_communicator.hpp"
#include "scankit/ops.hpp"

namespace scankit::dist::detail::nccl {

template <monoid Op>
value_t<Op> scan(nccl_communicator& c, std::span<const device_shard<const value_t<Op>>> in,
                 std::span<const device_shard<value_t<Op>>> out, Op op, scan_kind kind, value_t<Op> init,
                 const scankit::cuda::scan_config& cfg) {
  using T = value_t<Op>;
  static_assert(std::is_trivially_copyable_v<T>, "distributed scans exchange items as bytes");
  static_assert(sizeof(T) <= record_payload_bytes, "the GPU scan exchanges rank totals of at most 48 bytes");
  constexpr const char* where = "scankit::dist::scan";
  check_call(c, in.size(), out.size(), where);
  signature sig("scan");
  sig.add_type<Op>();
  sig.add_value(kind);
  if constexpr (std::is_arithmetic_v<T> || std::has_unique_object_representations_v<T>) sig.add_value(init);

  // ---- phase 1: local reduce into the call record --------------------------------------------
  c.mark_phase("local reduce", true);
  const auto failed = local_phase(
      c, sig.value(), [&](int i) { check_in_out(at(in, i).data, at(in, i).size, at(out, i).data, at(out, i).size, where); },
      [&](int) { return op.identity(); },
      [&](nccl_local_rank& l, int i, call_record* rec) {
        local_reduce(at(in, i).data, at(in, i).size, payload_of<T>(rec), op, l.scratch[slot_a], l.stream, where);
      },
      where);

  // ---- phase 2: exchange of the rank totals --------------------------------------------------
  c.mark_phase("exchange");
  const auto totals = payloads<T>(gather_records(c, sig.value(), failed, where));
  T global = init;
  for (const auto& t : totals) global = op(global, t);

  // ---- phase 3: local scan with the rank's carry-in --------------------------------------------
  c.mark_phase("local scan");
  for_each_local(c, [&](nccl_local_rank& l, int i) {
    T carry = init;
    for (int q = 0; q < l.rank; ++q) carry = op(carry, totals[static_cast<std::size_t>(q)]);
    const auto s = at(in, i);
    const std::size_t bytes = scankit::cuda::scan_workspace_bytes(s.size, sizeof(T), cfg);
    void* ws = l.buffer_bytes(slot_b, bytes, where);
    scankit::cuda::scan(s.data, at(out, i).data, s.size, op, kind, carry, ws, bytes, l.stream, cfg);
  });
  c.end_phases();
  return global;
}

}  // namespace scankit::dist::detail::nccl
