// Distributed histograms on GPU ranks: even bins, bins between edges, bincount.
//
//   phase 1  local counts (scankit::cuda's histogram) into the counts, or into scratch when
//            they accumulate or only the root receives them
//   phase 2  ncclAllReduce of the counts (or ncclReduce to the root), grouped over the local
//            ranks
//   phase 3  accumulate: counts += the global counts (a small kernel)
//
// Everything is stream-ordered and the call does not wait: the host never sees the counts. So
// no call records are exchanged, and calls that differ between ranks (types, bin counts) are
// not detected here, unlike on CPU ranks (detecting them would cost a host round trip, about a
// tenth of a 2^28-sample histogram); nccl_communicator::synchronize() bounds the wait for them.
//
// Phase timing (nccl_communicator::record_phases): "local counts", "all-reduce" (or "reduce"),
// and, when the counts go through scratch, "accumulate" or "copy".
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <type_traits>

#include "scankit/cuda/histogram.hpp"
#include "scankit/dist/detail/nccl/exchange.cuh"
#include "scankit/dist/detail/nccl/kernels.cuh"
#include "scankit/dist/nccl_communicator.hpp"
#include "scankit/dist/types.hpp"
#include "scankit/histogram_bins.hpp"

namespace scankit::dist::detail::nccl {

template <class C>
ncclDataType_t counter_type() {
  static_assert(std::is_same_v<C, std::uint32_t> || std::is_same_v<C, std::uint64_t>);
  return std::is_same_v<C, std::uint32_t> ? ncclUint32 : ncclUint64;
}

/// count_local(local rank, index, C* into) writes the rank's own counts (not accumulating).
template <class C, class Count>
void histogram(nccl_communicator& c, std::span<const device_shard<C>> counts, const histogram_config& cfg,
               Count count_local, const char* where) {
  c.check_usable(where);
  check_shard_count(c, counts.size(), "count arrays", where);
  const std::int64_t bins = counts[0].size;
  for (const auto& s : counts)
    if (s.size != bins || (bins > 0 && s.data == nullptr))
      throw invalid_argument(std::string(where) + ": the local ranks' count arrays differ in size, or one is null");
  if (cfg.root < -1 || cfg.root >= c.size())
    throw invalid_argument(std::string(where) + ": root " + std::to_string(cfg.root) + " is not -1 or a rank");
  const bool direct = cfg.root < 0 && !cfg.accumulate;

  // ---- phase 1: local counts ---------------------------------------------------------------
  c.mark_phase("local counts", true);
  std::vector<C*> into(static_cast<std::size_t>(c.local_count()));
  for_each_local(c, [&](nccl_local_rank& l, int i) {
    into[static_cast<std::size_t>(i)] = direct ? counts[static_cast<std::size_t>(i)].data : l.buffer<C>(slot_a, bins, where);
    count_local(l, i, into[static_cast<std::size_t>(i)]);
  });

  // ---- phase 2: all-reduce or reduce ----------------------------------------------------------
  c.mark_phase(cfg.root < 0 ? "all-reduce" : "reduce");
  grouped(c, cfg.root < 0 ? "ncclAllReduce" : "ncclReduce", where, [&](nccl_local_rank& l, int i) {
    C* x = into[static_cast<std::size_t>(i)];
    if (cfg.root < 0)
      check_nccl(ncclAllReduce(x, x, static_cast<std::size_t>(bins), counter_type<C>(), ncclSum, l.comm, l.stream), l.comm,
                 "ncclAllReduce", where);
    else
      check_nccl(ncclReduce(x, x, static_cast<std::size_t>(bins), counter_type<C>(), ncclSum, cfg.root, l.comm, l.stream),
                 l.comm, "ncclReduce", where);
  });

  // ---- phase 3: into the caller's counts --------------------------------------------------------
  if (direct) return c.end_phases();
  c.mark_phase(cfg.accumulate ? "accumulate" : "copy");
  for_each_local(c, [&](nccl_local_rank& l, int i) {
    if (cfg.root >= 0 && l.rank != cfg.root) return;
    C* dst = counts[static_cast<std::size_t>(i)].data;
    const C* src = into[static_cast<std::size_t>(i)];
    if (cfg.accumulate) {
      const int blocks = static_cast<int>(std::min<std::int64_t>((bins + 255) / 256, 1024));
      add_kernel<<<std::max(blocks, 1), 256, 0, l.stream>>>(dst, src, bins);
      check_launch("add_kernel", where);
    } else {
      check_cuda(cudaMemcpyAsync(dst, src, static_cast<std::size_t>(bins) * sizeof(C), cudaMemcpyDeviceToDevice, l.stream),
                 "cudaMemcpyAsync", where);
    }
  });
  c.end_phases();
}

}  // namespace scankit::dist::detail::nccl
