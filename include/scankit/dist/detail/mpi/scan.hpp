// Distributed scan on CPU ranks.
//
//   phase 1  local reduce: the rank's total t_r (one read of the shard)
//   phase 2  exchange: all-gather of the call records carrying t_r (one small collective)
//   phase 3  local scan from the carry-in init . t_0 . ... . t_(r-1) (a read and a write)
//
// The totals are combined in rank order, op(earlier, later), so the operator need not be
// commutative. Every rank returns the global carry-out init . t_0 . ... . t_(p-1).
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "scankit/cpu/scan.hpp"
#include "scankit/dist/detail/mpi/exchange.hpp"
#include "scankit/dist/detail/mpi/reduce.hpp"  // local_reduce
#include "scankit/dist/detail/signature.hpp"
#include "scankit/dist/mpi_communicator.hpp"
#include "scankit/ops.hpp"

namespace scankit::dist::detail::mpi {

template <monoid Op>
value_t<Op> scan(mpi_communicator& comm, const value_t<Op>* in, std::int64_t n, value_t<Op>* out,
                 std::int64_t out_size, Op op, scan_kind kind, value_t<Op> init) {
  using T = value_t<Op>;
  static_assert(std::is_trivially_copyable_v<T>, "distributed scans exchange items as bytes");
  constexpr const char* where = "scankit::dist::scan";

  // ---- phase 1: local reduce ------------------------------------------------------------
  T total = op.identity();
  const auto failed = capture([&] {
    check_output(n, out_size, where);
    cpu::detail::check_scan_args<Op>(in, out, n, where);
    total = local_reduce(in, n, op);
  });

  // ---- phase 2: exchange of the rank totals ----------------------------------------------
  // The signature covers the operator's type and (for types without padding bytes) the
  // carry-in, which must agree on every rank.
  signature sig("scan");
  sig.add_type<Op>();
  sig.add_value(kind);
  if constexpr (std::is_arithmetic_v<T> || std::has_unique_object_representations_v<T>) sig.add_value(init);
  const std::vector<T> totals = exchange(comm, sig.value(), total, failed, where);

  T carry = init;
  for (int q = 0; q < comm.rank(); ++q) carry = op(carry, totals[static_cast<std::size_t>(q)]);
  T global = carry;
  for (int q = comm.rank(); q < comm.size(); ++q) global = op(global, totals[static_cast<std::size_t>(q)]);

  // ---- phase 3: local scan with the rank's carry-in ----------------------------------------
  cpu::scan_parallel(in, out, n, op, kind, carry);
  return global;
}

}  // namespace scankit::dist::detail::mpi
