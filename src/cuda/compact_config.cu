// Non-template parts of the CUDA compactions: block-size rules, workspace sizes, read_count.
#include <cstdlib>
#include <limits>
#include <string_view>

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

int specialized_shape_index() {
  static const int shape = static_cast<int>(env_integer("SCANKIT_COMPACT_SPECIALIZED_SHAPE", 0, 1).value_or(0));
  return shape;
}

namespace single_pass {

bool prefetch_guessed_tile(std::int64_t input_bytes) {
  static const std::int64_t from = [] {
    const char* e = std::getenv("SCANKIT_COMPACT_PREFETCH_FROM");
    if (e != nullptr && std::string_view(e) == "off") return std::numeric_limits<std::int64_t>::max();
    return env_integer("SCANKIT_COMPACT_PREFETCH_FROM", 0, std::numeric_limits<std::int64_t>::max())
        .value_or(prefetch_from_bytes);
  }();
  return input_bytes >= from;
}

std::int64_t specialized_from_bytes(std::int64_t tuned) {
  static const std::optional<std::int64_t> from_env =
      env_integer("SCANKIT_COMPACT_SPECIALIZED_FROM", 0, std::numeric_limits<std::int64_t>::max());
  return from_env.value_or(tuned);
}

unsigned segmented_first_delay_ns(unsigned tuned) {
  static const std::optional<std::int64_t> from_env = env_integer("SCANKIT_COMPACT_FIRST_DELAY", 0, 1000000);
  return from_env ? static_cast<unsigned>(*from_env) : tuned;
}

}  // namespace single_pass

}  // namespace detail::compact

std::size_t compact_workspace_bytes(std::int64_t n, std::size_t item_bytes, const compact_config& cfg) {
  namespace dc = detail::compact;
  scankit::detail::check_size(n, "scankit::cuda::compact_workspace_bytes");
  const int block = dc::resolve_block_size(cfg);
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
