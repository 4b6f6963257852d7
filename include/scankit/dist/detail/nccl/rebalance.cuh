// Moving a distributed array to the balanced layout on GPU ranks, keeping its global order.
//
//   phase 1  exchange: ncclAllGather of the call records carrying each rank's size and output
//            capacity; a bounded wait
//   phase 2  plan: the overlap of each current shard with each balanced shard (plan_transfer);
//            every rank checks every rank's capacity, so a short output fails on all of them
//   phase 3  grouped ncclSend/ncclRecv of the overlaps
#pragma once

#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "scankit/dist/detail/nccl/exchange.cuh"
#include "scankit/dist/detail/plan.hpp"
#include "scankit/dist/detail/signature.hpp"
#include "scankit/dist/nccl_communicator.hpp"

namespace scankit::dist::detail::nccl {

struct size_and_capacity {
  std::int64_t size, capacity;
};

/// Throws invalid_argument on every rank if some rank's capacity is below its target.
inline void check_capacities(const std::vector<size_and_capacity>& all, const std::vector<std::int64_t>& target,
                             const char* where) {
  for (std::size_t q = 0; q < all.size(); ++q)
    if (all[q].capacity < target[q])
      throw invalid_argument(std::string(where) + ": rank " + std::to_string(q) + "'s output holds " +
                             std::to_string(all[q].capacity) + " items but receives " + std::to_string(target[q]));
}

/// Every rank's size and capacity, exchanged in the call records (phase 1 of rebalance and
/// sort): sizes[q] is rank q's item count and target[q] its share of the balanced layout of
/// the total, which every rank's output is checked to hold.
struct balanced_layout {
  std::vector<std::int64_t> sizes, target;
};

inline balanced_layout balance(const std::vector<call_record>& records, const char* where) {
  const auto all = payloads<size_and_capacity>(records);
  balanced_layout b;
  std::int64_t total = 0;
  for (const auto& a : all) {
    b.sizes.push_back(a.size);
    total += a.size;
  }
  b.target = balanced_sizes(total, static_cast<int>(all.size()));
  check_capacities(all, b.target, where);
  return b;
}

template <class T>
std::vector<std::int64_t> rebalance(nccl_communicator& c, std::span<const device_shard<const T>> in,
                                    std::span<const device_shard<T>> out) {
  static_assert(std::is_trivially_copyable_v<T>, "rebalancing moves items as bytes");
  constexpr const char* where = "scankit::dist::rebalance";
  check_call(c, in.size(), out.size(), where);
  signature sig("rebalance");
  sig.add_type<T>();

  // ---- phase 1: exchange of sizes and capacities ------------------------------------------------
  const auto failed = local_phase(
      c, sig.value(),
      [&](int i) {
        scankit::detail::check_size(at(in, i).size, where);
        scankit::detail::check_pointer(at(in, i).data, at(in, i).size, "input", where);
        scankit::detail::check_size(at(out, i).size, where);
      },
      [&](int i) { return size_and_capacity{at(in, i).size, at(out, i).size}; }, [](nccl_local_rank&, int, call_record*) {},
      where);

  // ---- phase 2: plan ----------------------------------------------------------------------------
  const auto layout = balance(gather_records(c, sig.value(), failed, where), where);
  const auto& from = layout.sizes;
  const auto& to = layout.target;

  // ---- phase 3: ncclSend/ncclRecv ---------------------------------------------------------------
  std::vector<const void*> src;
  std::vector<void*> dst;
  std::vector<std::int64_t> sizes;
  for (int i = 0; i < c.local_count(); ++i) {
    src.push_back(at(in, i).data);
    dst.push_back(at(out, i).data);
    sizes.push_back(to[static_cast<std::size_t>(c.local(i).rank)]);
  }
  move_layout(c, src, dst, sizeof(T), from, to, where);
  return sizes;
}

}  // namespace scankit::dist::detail::nccl
