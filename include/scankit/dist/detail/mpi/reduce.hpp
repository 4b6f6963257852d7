// Distributed reductions on CPU ranks: reduce over any monoid, argmin, argmax, min_max.
//
//   phase 1  local reduce: the rank's own result (one read of the shard)
//   phase 2  exchange: all-gather of the call records carrying the rank results and sizes
//   phase 3  every rank combines the rank results in rank order
//
// The rank results are combined in rank order, op(earlier, later), so the operator need not be
// commutative, and every rank returns the same bits. The arg reductions carry each rank's
// shard size, so that a rank's first position becomes a global one.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "scankit/cpu/reduce.hpp"
#include "scankit/cpu/scan.hpp"
#include "scankit/dist/detail/mpi/exchange.hpp"
#include "scankit/dist/detail/signature.hpp"
#include "scankit/dist/mpi_communicator.hpp"
#include "scankit/ops.hpp"
#include "scankit/reduce_ops.hpp"

namespace scankit::dist::detail::mpi {

/// in[0] . ... . in[n-1] from the identity, in parallel over fixed blocks whose totals are
/// then combined in order: deterministic for any thread count, and in order for operators
/// that do not commute.
template <monoid Op>
value_t<Op> local_reduce(const value_t<Op>* in, std::int64_t n, const Op& op) {
  using T = value_t<Op>;
  const std::int64_t block = cpu::parallel_block_items<T>();
  if (n <= 2 * block) return cpu::detail::reduce_block(in, n, op);
  const std::int64_t blocks = (n + block - 1) / block;
  std::vector<T> part(static_cast<std::size_t>(blocks), op.identity());
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, blocks, 1),
                    [&](const tbb::blocked_range<std::int64_t>& r) {
                      for (auto b = r.begin(); b != r.end(); ++b) {
                        const std::int64_t lo = b * block, len = std::min(block, n - lo);
                        part[static_cast<std::size_t>(b)] =
                            cpu::detail::reduce_block(in + lo, len, op);
                      }
                    });
  T acc = op.identity();
  for (const auto& t : part) acc = op(acc, t);
  return acc;
}

/// Throws invalid_argument unless (in, n) is a valid shard.
template <class T>
void check_shard(const T* in, std::int64_t n, const char* where) {
  scankit::detail::check_size(n, where);
  scankit::detail::check_pointer(in, n, "input", where);
}

template <monoid Op>
value_t<Op> reduce(mpi_communicator& comm, const value_t<Op>* in, std::int64_t n, Op op) {
  using T = value_t<Op>;
  static_assert(std::is_trivially_copyable_v<T>, "distributed reductions exchange values as bytes");
  constexpr const char* where = "scankit::dist::reduce";
  // ---- phase 1: local reduce ------------------------------------------------------------
  T mine = op.identity();
  const auto failed = capture([&] {
    check_shard(in, n, where);
    mine = local_reduce(in, n, op);
  });
  // ---- phase 2: exchange -----------------------------------------------------------------
  signature sig("reduce");
  sig.add_type<Op>();
  const std::vector<T> all = exchange(comm, sig.value(), mine, failed, where);
  // ---- phase 3: the rank results in rank order ---------------------------------------------
  T r = op.identity();
  for (const T& x : all) r = op(r, x);
  return r;
}

/// One rank's part of an arg reduction: its best item (a shard position) and its shard size.
template <class T>
struct arg_part {
  indexed<T> best;
  std::int64_t n;
};

/// The first global position of the best item under ArgOp (argmin_op or argmax_op of T);
/// `extreme` names it in the error of an empty sequence.
template <class ArgOp, class T>
std::int64_t arg_reduce(mpi_communicator& comm, const T* in, std::int64_t n, const char* where,
                        const char* extreme) {
  static_assert(std::is_trivially_copyable_v<T>);
  const ArgOp op{};
  // Field by field over zeroed bytes: the padding goes over MPI too.
  arg_part<T> mine;
  std::memset(static_cast<void*>(&mine), 0, sizeof(mine));
  const indexed<T> none = op.identity();
  mine.best.value = none.value, mine.best.index = none.index, mine.n = n;
  const auto failed = capture([&] {
    check_shard(in, n, where);
    if (n > 0) {
      const indexed<T> r = cpu::transform_reduce(in, n, as_indexed{}, op);
      mine.best.value = r.value, mine.best.index = r.index;
    }
  });
  signature sig(ArgOp::name);
  sig.add_type<T>();
  const std::vector<arg_part<T>> all = exchange(comm, sig.value(), mine, failed, where);
  indexed<T> best = op.identity();
  std::int64_t offset = 0;
  for (const arg_part<T>& p : all) {
    if (p.n > 0) best = op(best, indexed<T>{p.best.value, offset + p.best.index});
    offset += p.n;
  }
  // Every rank sees the same sizes, so every rank throws.
  if (offset == 0)
    throw invalid_argument(std::string(where) + ": an empty sequence has no " + extreme);
  return best.index;
}

template <class T>
min_max_value<T> min_max(mpi_communicator& comm, const T* in, std::int64_t n) {
  constexpr const char* where = "scankit::dist::min_max";
  const min_max_op<T> op{};
  min_max_value<T> mine = op.identity();
  const auto failed = capture([&] {
    check_shard(in, n, where);
    if (n > 0) mine = cpu::transform_reduce(in, n, as_min_max{}, op);
  });
  signature sig("min_max");
  sig.add_type<T>();
  const std::vector<min_max_value<T>> all = exchange(comm, sig.value(), mine, failed, where);
  min_max_value<T> r = op.identity();
  for (const auto& x : all) r = op(r, x);
  return r;
}

}  // namespace scankit::dist::detail::mpi
