// Non-template parts of the CUDA scan: block-size rules, workspace sizes, the workspace class.
#include <algorithm>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "scankit/cuda/scan.cuh"

namespace scankit::cuda {

namespace detail {

static int default_block_size(scan_algorithm a) {
  switch (a) {
    case scan_algorithm::hillis_steele_global: return hillis_steele_global::default_block_size;
    case scan_algorithm::hillis_steele_shared: return hillis_steele_shared::default_block_size;
    case scan_algorithm::blelloch:
    case scan_algorithm::blelloch_conflict_free: return blelloch::default_block_size;
    case scan_algorithm::work_efficient_global: return work_efficient_global::default_block_size;
    case scan_algorithm::reduce_then_scan: return reduce_then_scan::default_block_size;
    case scan_algorithm::decoupled_lookback: return decoupled_lookback::default_block_size;
  }
  throw invalid_argument("scankit::cuda: unknown scan algorithm");
}

int resolve_block_size(const scan_config& cfg) {
  if (cfg.block_size == 0) return default_block_size(cfg.algorithm);
  const int b = cfg.block_size;
  if (b < 32 || b > 1024 || (b & (b - 1)) != 0)
    throw invalid_argument("scankit::cuda: block size " + std::to_string(b) +
                           " is not a power of two in [32, 1024]");
  return b;
}

}  // namespace detail

std::size_t scan_workspace_bytes(std::int64_t n, std::size_t item_bytes, const scan_config& cfg) {
  scankit::detail::check_size(n, "scankit::cuda::scan_workspace_bytes");
  const int b = detail::resolve_block_size(cfg);
  switch (cfg.algorithm) {
    case scan_algorithm::hillis_steele_global:
      return detail::hillis_steele_global::workspace_bytes(n, item_bytes, b);
    case scan_algorithm::hillis_steele_shared:
      return detail::hillis_steele_shared::workspace_bytes(n, item_bytes, b);
    case scan_algorithm::blelloch:
    case scan_algorithm::blelloch_conflict_free:
      return detail::blelloch::workspace_bytes(n, item_bytes, b);
    case scan_algorithm::work_efficient_global:
      return detail::work_efficient_global::workspace_bytes(n, item_bytes, b);
    case scan_algorithm::reduce_then_scan:
      return detail::reduce_then_scan::workspace_bytes(n, item_bytes, b);
    case scan_algorithm::decoupled_lookback:
      return detail::decoupled_lookback::workspace_bytes(n, item_bytes, b);
  }
  throw invalid_argument("scankit::cuda: unknown scan algorithm");
}

template <std::size_t ItemBytes>
static std::string describe_lookback_tuning() {
  namespace dl = detail::decoupled_lookback;
  constexpr auto tu = dl::tuning_for<ItemBytes>();
  constexpr bool vec = 16 % ItemBytes == 0 && ItemBytes < 16;
  constexpr int v = vec ? static_cast<int>(16 / ItemBytes) : 1;
  const std::string threads = std::to_string(tu.block_size) + " threads";
  if constexpr (!vec) {
    const int items = tu.blocked_vectors_per_thread;
    std::string s = std::to_string(ItemBytes) + "-byte items: ";
    if constexpr (ItemBytes == 16)
      s += "from " + std::to_string(dl::blocked_from_items(tu.blocked_from_items)) + " items (16-byte aligned), blocked tiles of " +
           threads + " x " + std::to_string(items) + " items in shared memory, first look-back read after " +
           std::to_string(dl::first_delay_ns(tu.first_delay_ns)) + " ns; below, ";
    return s + threads + " x " + std::to_string(items) + " items in registers = " +
           std::to_string(tu.block_size * items) + " items per tile";
  } else {
    const int big = tu.block_size * tu.blocked_vectors_per_thread * v;
    const int one_per_sm = dl::one_tile_per_sm_up_to_threads(tu.one_tile_per_sm_up_to_threads);
    const int window = dl::load_window_tiles(tu.load_window_tiles);
    const int small = tu.block_size * tu.vectors_per_thread * v;
    std::string specialized;
    if constexpr (ItemBytes == 4 || ItemBytes == 8) {
      constexpr auto sh = dl::specialized_shape_for<ItemBytes>();
      specialized = "from " + std::to_string(dl::specialized_from_items(sh.from_items)) +
                    " items on Hopper, warp-specialized persistent tiles of " + std::to_string(sh.consumers) +
                    " consumer threads + " + std::to_string(sh.producers) +
                    (sh.producers == 1 ? " producer warp" : " producer warps") + " x " + std::to_string(sh.vectors_per_thread) +
                    " 16-byte vectors = " + std::to_string(sh.consumers * sh.vectors_per_thread * v) + " items, " +
                    std::to_string(sh.stages) + " bulk-copy buffers per block, " +
                    std::to_string(sh.min_blocks_per_sm) + " blocks per SM; below, ";
    }
    return std::to_string(ItemBytes) + "-byte items: " + specialized + "from " +
           std::to_string(dl::blocked_from_items(tu.blocked_from_items)) + " items, blocked tiles of " +
           threads + " x " + std::to_string(tu.blocked_vectors_per_thread) +
           " 16-byte vectors in shared memory = " + std::to_string(big) +
           " items, first look-back read after " + std::to_string(dl::first_delay_ns(tu.first_delay_ns)) + " ns" +
           (one_per_sm > tu.block_size ? ", with the default block size blocks of up to " + std::to_string(one_per_sm) +
                                             " threads where that makes one tile per SM instead of more"
                                       : std::string()) +
           (window > 0 ? ", at most " + std::to_string(window) + " tiles' loads in flight (default block size)"
                       : std::string()) +
           "; below, striped tiles of " + threads + " x " + std::to_string(tu.vectors_per_thread) +
           " vectors in registers = " + std::to_string(small) + " items (block scan: " +
           (tu.raking_block_scan ? "raking through shared memory" : "one warp scan per vector") +
           "); compiled for " + std::to_string(tu.min_blocks_per_sm) + " blocks per SM; " +
           (tu.prefetch_up_to_tiles > 0
                ? "launches of up to " + std::to_string(tu.prefetch_up_to_tiles) + " tiles prefetch their guessed tile; "
                : std::string()) +
           (ItemBytes == 4 || ItemBytes == 8
                ? "one launch of 1024 threads x 1-2 vectors up to " + std::to_string(2048 * v) +
                      " items (16-byte aligned, default block size; else up to " +
                      std::to_string(tu.single_block_tiles) + " tile(s))"
                : "one launch up to " + std::to_string(tu.single_block_tiles) + " tile(s)") +
           "; look-back back-off " + std::to_string(tu.backoff_ns) + " ns";
  }
}

std::string lookback_tuning_description(std::size_t item_bytes) {
  switch (item_bytes) {
    case 1: return describe_lookback_tuning<1>();
    case 2: return describe_lookback_tuning<2>();
    case 4: return describe_lookback_tuning<4>();
    case 8: return describe_lookback_tuning<8>();
    case 16: return describe_lookback_tuning<16>();
    default: return std::to_string(item_bytes) + "-byte items: 256 threads, 12 items per thread in registers";
  }
}

workspace& workspace::operator=(workspace&& o) noexcept {
  if (this != &o) {
    if (ptr_) cudaFree(ptr_);
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    o.ptr_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

workspace::~workspace() {
  if (ptr_) cudaFree(ptr_);  // never throw from a destructor; a failure here is unreportable
}

void workspace::reserve(std::size_t bytes) {
  if (bytes <= bytes_) return;
  void* p = nullptr;
  cudaError_t e = cudaMalloc(&p, bytes);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky-free error so later calls are not affected
    throw cuda_error(static_cast<int>(e), "scankit::cuda::workspace: cudaMalloc of " +
                                              std::to_string(bytes) + " bytes failed: " +
                                              cudaGetErrorString(e));
  }
  if (ptr_) cudaFree(ptr_);
  ptr_ = p;
  bytes_ = bytes;
}

void release_host_buffers() noexcept { detail::thread_host_stream_pool().release(); }

int device_count() noexcept {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
}

}  // namespace scankit::cuda
