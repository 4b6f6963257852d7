// PLACEHOLDER: being written.
#pragma once
#include "scankit/cuda/detail/common.cuh"
namespace scankit::cuda::detail::decoupled_lookback {
inline constexpr int default_block_size = 256;
inline std::size_t workspace_bytes(std::int64_t n, std::size_t item_bytes, int block_size) { return 0; }
template <class T, class Op>
void run(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total, arena& ws, int block_size, cudaStream_t s) {
  throw error("decoupled_lookback: not implemented yet");
}
}
