// The CPU reduction of one block, and of all blocks on a thread pool: each block's partial
// result, then the partial results folded in block order.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include <cstdint>
#include <vector>

#include "scankit/cpu/detail/parallel.hpp"
#include "scankit/cpu/detail/reduce/plan.hpp"
#include "scankit/ops.hpp"

namespace scankit::cpu::detail::reduce {

/// f(in[i], i) folded over [begin, end). Commutative operators run `lanes` independent
/// accumulators (vectorisable), folded in lane order at the end; others fold left to right.
template <class T, class F, class Op>
value_t<Op> fold_block(const T* in, std::int64_t begin, std::int64_t end, F f, Op op) {
  using U = value_t<Op>;
  if constexpr (is_commutative_v<Op>) {
    if (end - begin >= 2 * lanes) {
      U acc[lanes];
      for (int j = 0; j < lanes; ++j) acc[j] = op.identity();
      std::int64_t i = begin;
      for (; i + lanes <= end; i += lanes)
        for (int j = 0; j < lanes; ++j) acc[j] = op(acc[j], f(in[i + j], i + j));
      U r = acc[0];
      for (int j = 1; j < lanes; ++j) r = op(r, acc[j]);
      for (; i < end; ++i) r = op(r, f(in[i], i));
      return r;
    }
  }
  U r = op.identity();
  for (std::int64_t i = begin; i < end; ++i) r = op(r, f(in[i], i));
  return r;
}

/// The whole reduction at plan p.
template <class T, class F, class Op>
value_t<Op> fold_blocks(const T* in, std::int64_t n, F f, Op op, const plan& p) {
  using U = value_t<Op>;
  if (!p.parallel) {
    U r = op.identity();
    for (std::int64_t b = 0; b < p.blocks; ++b)
      r = op(r, fold_block(in, b * p.block_items, std::min(n, (b + 1) * p.block_items), f, op));
    return r;
  }
  std::vector<U> partial(static_cast<std::size_t>(p.blocks), op.identity());
  auto fold = [&](const tbb::blocked_range<std::int64_t>& r) {
    for (std::int64_t b = r.begin(); b < r.end(); ++b)
      partial[static_cast<std::size_t>(b)] = fold_block(in, b * p.block_items, std::min(n, (b + 1) * p.block_items), f, op);
  };
  // Through the fence: the tasks read the caller's captures, the caller their results.
  fenced_region<decltype(fold)> region(fold);
  {
    typename fenced_region<decltype(fold)>::scope open(region);
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, p.blocks), region.template get_body<0>());
  }
  U r = op.identity();
  for (const U& x : partial) r = op(r, x);
  return r;
}

}  // namespace scankit::cpu::detail::reduce
