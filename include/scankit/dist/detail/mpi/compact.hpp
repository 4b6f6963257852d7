// Distributed stream compaction on CPU ranks: select_if, remove_if, partition, unique.
//
//   phase 1  local compaction into the rank's output (scankit's CPU compaction)
//   phase 2  exchange: all-gather of the call records carrying the rank's count (unique: also
//            its shard size and first and last items)
//   phase 3  offsets: the exclusive scan of the counts gives the rank's global offset, their
//            sum the global count (computed on every rank from the gathered counts)
//
// unique compares each shard's first item with the last item of the nearest earlier rank that
// has items; a first item that continues that rank's run is dropped from the output (phase 3).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "scankit/cpu/compact.hpp"
#include "scankit/dist/detail/mpi/exchange.hpp"
#include "scankit/dist/detail/plan.hpp"
#include "scankit/dist/detail/signature.hpp"
#include "scankit/dist/mpi_communicator.hpp"
#include "scankit/dist/types.hpp"

namespace scankit::dist::detail::mpi {

/// select_if (keep = true) or remove_if (keep = false).
template <class T, class Pred>
compaction_result select(mpi_communicator& comm, const T* in, std::int64_t n, T* out, std::int64_t out_size,
                         Pred pred, bool keep) {
  const char* where = keep ? "scankit::dist::select_if" : "scankit::dist::remove_if";
  // ---- phase 1: local compaction -----------------------------------------------------------
  std::int64_t count = 0;
  const auto failed =
      capture([&] {
        check_output(n, out_size, where);
        count = keep ? cpu::select_if(in, out, n, pred) : cpu::remove_if(in, out, n, pred);
      });
  // ---- phase 2: exchange of the counts ---------------------------------------------------
  signature sig(keep ? "select_if" : "remove_if");
  sig.add_type<T>();
  sig.add_type<Pred>();
  const auto counts = exchange(comm, sig.value(), count, failed, where);
  // ---- phase 3: global offset and count ----------------------------------------------------
  return compaction_offsets(counts, comm.rank());
}

template <class T, class Pred>
partition_result partition(mpi_communicator& comm, const T* in, std::int64_t n, T* out, std::int64_t out_size,
                           Pred pred, rejected_order order) {
  constexpr const char* where = "scankit::dist::partition";
  // ---- phase 1: local partition ------------------------------------------------------------
  std::int64_t selected = 0;
  const auto failed = capture([&] {
    check_output(n, out_size, where);
    selected = cpu::partition(in, out, n, pred, order);
  });
  // ---- phase 2: exchange of the selected counts and shard sizes ------------------------------
  struct payload {
    std::int64_t selected, size;
  };
  signature sig("partition");
  sig.add_type<T>();
  sig.add_type<Pred>();
  const auto all = exchange(comm, sig.value(), payload{selected, n}, failed, where);
  // ---- phase 3: global offsets and counts --------------------------------------------------
  partition_result r;
  r.selected = selected;
  for (int q = 0; q < comm.size(); ++q) {
    const auto& a = all[static_cast<std::size_t>(q)];
    if (q < comm.rank()) {
      r.selected_offset += a.selected;
      r.rejected_offset += a.size - a.selected;
    }
    r.global_selected += a.selected;
    r.global_size += a.size;
  }
  return r;
}

template <class T, class Eq>
compaction_result unique(mpi_communicator& comm, const T* in, std::int64_t n, T* out, std::int64_t out_size, Eq eq) {
  static_assert(std::is_trivially_copyable_v<T>, "distributed unique exchanges boundary items as bytes");
  constexpr const char* where = "scankit::dist::unique";
  // ---- phase 1: local unique ----------------------------------------------------------------
  // The boundary items are read first: in place (out == in) the compaction overwrites them.
  struct payload {
    std::int64_t count, size;
    T first, last;
  };
  payload mine{};
  mine.size = n;
  const auto failed = capture([&] {
    check_output(n, out_size, where);
    scankit::detail::check_pointer(in, n, "input", where);
    if (n > 0) mine.first = in[0], mine.last = in[n - 1];
    mine.count = cpu::unique(in, out, n, eq);
  });
  // ---- phase 2: exchange of the counts and boundary items ------------------------------------
  signature sig("unique");
  sig.add_type<T>();
  sig.add_type<Eq>();
  const auto all = exchange(comm, sig.value(), mine, failed, where);
  // ---- phase 3: drop first items that continue an earlier rank's run, then offsets ----------
  std::vector<std::int64_t> counts(all.size());
  const T* last = nullptr;  // last item of the nearest earlier rank with items
  for (std::size_t q = 0; q < all.size(); ++q) {
    counts[q] = all[q].count;
    if (all[q].size == 0) continue;
    if (last != nullptr && eq(*last, all[q].first)) --counts[q];
    last = &all[q].last;
  }
  const auto me = static_cast<std::size_t>(comm.rank());
  if (counts[me] < all[me].count) std::copy(out + 1, out + all[me].count, out);
  return compaction_offsets(counts, comm.rank());
}

}  // namespace scankit::dist::detail::mpi
