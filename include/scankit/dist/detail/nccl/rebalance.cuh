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

template <class T>
std::vector<std::int64_t> rebalance(nccl_communicator& c, std::span<const device_shard<const T>> in,
                                    std::span<const device_shard<T>> out) {
  static_assert(std::is_trivially_copyable_v<T>, "rebalancing moves items as bytes");
  constexpr const char* where = "scankit::dist::rebalance";
  c.check_usable(where);
  check_shard_count(c, in.size(), "input shards", where);
  check_shard_count(c, out.size(), "output shards", where);
  signature sig("rebalance");
  sig.add_type<T>();

  // ---- phase 1: exchange of sizes and capacities ------------------------------------------------
  std::vector<std::exception_ptr> failed(static_cast<std::size_t>(c.local_count()));
  for_each_local(c, [&](nccl_local_rank& l, int i) {
    const auto& s = in[static_cast<std::size_t>(i)];
    const auto& d = out[static_cast<std::size_t>(i)];
    failed[static_cast<std::size_t>(i)] = capture([&] {
      scankit::detail::check_size(s.size, where);
      scankit::detail::check_pointer(s.data, s.size, "input", where);
      scankit::detail::check_size(d.size, where);
    });
    stage_record(l, make_record(sig.value(), size_and_capacity{s.size, d.size}, failed[static_cast<std::size_t>(i)] != nullptr),
                 where);
  });
  const auto records = gather_records(c, sig.value(), failed, where);

  // ---- phase 2: plan ----------------------------------------------------------------------------
  std::vector<size_and_capacity> all;
  std::vector<std::int64_t> from;
  std::int64_t total = 0;
  for (const auto& r : records) {
    all.push_back(record_payload<size_and_capacity>(r));
    from.push_back(all.back().size);
    total += all.back().size;
  }
  const auto to = balanced_sizes(total, c.size());
  check_capacities(all, to, where);

  // ---- phase 3: ncclSend/ncclRecv ---------------------------------------------------------------
  std::vector<const void*> src;
  std::vector<void*> dst;
  std::vector<std::int64_t> sizes;
  for (int i = 0; i < c.local_count(); ++i) {
    src.push_back(in[static_cast<std::size_t>(i)].data);
    dst.push_back(out[static_cast<std::size_t>(i)].data);
    sizes.push_back(to[static_cast<std::size_t>(c.local(i).rank)]);
  }
  move_layout(c, src, dst, sizeof(T), from, to, where);
  return sizes;
}

}  // namespace scankit::dist::detail::nccl
