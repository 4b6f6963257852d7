// The reductions' host side: plan the call, check the workspace, launch the passes.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/reduce/kernels.cuh"
#include "scankit/cuda/detail/reduce/plan.hpp"

namespace scankit::cuda::detail::reduce {

/// One pass over `n` items of T at the plan's shape, writing grid results to out. The kernel
/// with item-by-item loads is compiled only where a plan may ask for it (WithScalar).
template <bool WithScalar, bool LastBlock, class T, class U, class F, class Op>
void launch_pass(const plan& p, const T* in, std::int64_t n, std::int64_t index_base, U* out, F f, Op op,
                 cudaStream_t s, U* result = nullptr, unsigned* ticket = nullptr) {
  constexpr int V = vector_items_for(sizeof(T));
  constexpr int unroll = unroll_for(sizeof(T));
  constexpr bool commutative = is_commutative_v<Op>;
  auto go = [&](auto kernel) {
    launch_after("reduce_kernel", kernel, dim3(static_cast<unsigned>(p.grid)), dim3(block_threads), 0, s, in, n,
                 p.head, p.rows, index_base, out, f, op, result, ticket);
  };
  // The in-order combine is compiled only for operators that need it.
  if (p.vector_items == V || !WithScalar) go(reduce_kernel<V, unroll, !commutative, LastBlock, T, U, F, Op>);
  else if constexpr (WithScalar && V > 1) go(reduce_kernel<1, unroll, !commutative, LastBlock, T, U, F, Op>);
}

/// The whole reduction: one block; or many, whose partial results the last of them (last_block)
/// or one more launch (two_pass) combines in order.
template <class T, class F, class Op>
void run(const T* d_in, std::int64_t n, std::int64_t index_base, F f, Op op, value_t<Op>* d_out, void* d_workspace,
         std::size_t workspace_bytes_given, cudaStream_t s, const reduce_config& cfg, const override_options& o) {
  using U = value_t<Op>;
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_copyable_v<U>,
                "reduced items and results must be trivially copyable");
  if (n < 0) throw invalid_argument("scankit::cuda::reduce: n must be >= 0");
  if (n > 0 && d_in == nullptr) throw invalid_argument("scankit::cuda::reduce: null input");
  if (d_out == nullptr) throw invalid_argument("scankit::cuda::reduce: null output");
  const device_info& d = current_device_info();
  const std::size_t need = workspace_bytes(sizeof(U), d);
  if (d_workspace == nullptr || workspace_bytes_given < need)
    throw invalid_argument("scankit::cuda::reduce: workspace of " + std::to_string(workspace_bytes_given) +
                           " bytes, needs " + std::to_string(need) + " (reduce_workspace_bytes)");
  check_workspace_pointer(d_workspace, need, "scankit::cuda::reduce");
  const auto misalignment = static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(d_in) % 16);
  const plan p = make_plan(n, sizeof(T), misalignment, is_commutative_v<Op>, cfg, o, d);
  U* partials = static_cast<U*>(d_workspace);
  if (p.last_block) {
    unsigned* ticket = reinterpret_cast<unsigned*>(static_cast<char*>(d_workspace) + ticket_offset(sizeof(U), d));
    clear_async(ticket, 8, s);
    launch_pass<true, true>(p, d_in, n, index_base, partials, f, op, s, d_out, ticket);
  } else if (p.two_pass) {
    launch_pass<true, false>(p, d_in, n, index_base, partials, f, op, s);
    const plan last =
        make_plan(p.grid, sizeof(U), 0, is_commutative_v<Op>, reduce_config{reduce_path::one_block}, {}, d);
    launch_pass<false, false>(last, static_cast<const U*>(partials), p.grid, 0, d_out, as_value{}, op, s);
  } else {
    launch_pass<true, false>(p, d_in, n, index_base, d_out, f, op, s);
  }
}

}  // namespace scankit::cuda::detail::reduce
