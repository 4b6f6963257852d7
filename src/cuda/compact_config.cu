// Non-template parts of the CUDA compactions: block-size rules, workspace sizes, read_count.
#include <algorithm>
#include <iterator>
#include <string>

#include "scankit/cuda/compact.cuh"

namespace scankit::cuda {

namespace detail::compact {

int resolve_block_size(const compact_config& cfg) {
  if (cfg.block_size == 0) return default_block_size;
  const int b = cfg.block_size;
  if (b < 64 || b > 256 || (b & (b - 1)) != 0)
    throw invalid_argument("scankit::cuda compaction: block size " + std::to_string(b) +
                           " is not a power of two in [64, 256]");
  return b;
}

namespace single_pass {

void check_config(const compact_config& cfg) {
  auto bad = [](const std::string& what) { throw invalid_argument("scankit::cuda::compact_config: " + what); };
  const compact_tuning_override& o = cfg.tuning;
  if (std::find(std::begin(all_compact_prefetches), std::end(all_compact_prefetches), o.prefetch) ==
      std::end(all_compact_prefetches))
    bad("unknown prefetch setting");
  if (o.specialized_shape != 0 && o.specialized_shape != 1) bad("specialized_shape is neither 0 nor 1");
  if (o.specialized_from_bytes.value_or(0) < 0) bad("specialized_from_bytes is negative");
  if (o.first_delay_ns.value_or(0) > 1000000u) bad("first_delay_ns is over 1,000,000");
}

}  // namespace single_pass

}  // namespace detail::compact

std::size_t compact_workspace_bytes(std::int64_t n, std::size_t item_bytes, const compact_config& cfg) {
  namespace dc = detail::compact;
  scankit::detail::check_size(n, "scankit::cuda::compact_workspace_bytes");
  const int block = dc::resolve_block_size(cfg);
  dc::single_pass::check_config(cfg);
  if (n == 0) return 0;
  // Every operation gets the same size: the run-length scratch of unique_count and the count
  // of a stable partition are included for all.
  std::size_t bytes = dc::chunk_ends_bytes(n) + detail::align_up(sizeof(std::int64_t));
  switch (cfg.algorithm) {
    case compact_algorithm::scan_scatter: return bytes + dc::scan_scatter::workspace_bytes(n, cfg.scan);
    case compact_algorithm::single_pass: return bytes + dc::single_pass::workspace_bytes(n, item_bytes, block, cfg.tile);
  }
  throw invalid_argument("scankit::cuda::compact_workspace_bytes: unknown algorithm");
}

std::int64_t read_count(const std::int64_t* d_count, cudaStream_t stream) {
  if (d_count == nullptr) throw invalid_argument("scankit::cuda::read_count: null pointer");
  std::int64_t v = 0;
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(&v, d_count, sizeof(v), cudaMemcpyDeviceToHost, stream));
  SCANKIT_CUDA_CHECK(cudaStreamSynchronize(stream));
  return v;
}

}  // namespace scankit::cuda
