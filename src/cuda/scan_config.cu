// Non-template parts of the CUDA scan: block-size rules, workspace sizes, the workspace class.
#include <algorithm>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "scankit/cuda/scan.cuh"

namespace scankit::cuda {

namespace detail {

int library_kernel_arch();  // src/cuda/device.cu

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
      detail::decoupled_lookback::check_config(cfg);
      return detail::decoupled_lookback::workspace_bytes(n, item_bytes, b);
  }
  throw invalid_argument("scankit::cuda: unknown scan algorithm");
}

namespace {

namespace dl = detail::decoupled_lookback;

/// The device a description is made for: the current one, or, where there is none,
/// reference_device_info.
struct described_device {
  detail::device_info info;
  dl::scan_kernels kernels;
};

/// The warp-specialized tile runs where the library's kernels carry sm_90 code for the device
/// (a compute_80 PTX build on an sm_90 device has none), for 4- and 8-byte items.
described_device describe_device(std::size_t item_bytes) {
  described_device d;
  d.info = detail::reference_device_info;
  int code_arch = d.info.arch;
  if (device_count() > 0) {
    d.info = detail::current_device_info();
    code_arch = detail::library_kernel_arch();
  }
  d.kernels.specialized_code = code_arch >= 90 && (item_bytes == 4 || item_bytes == 8);
  return d;
}

std::string plan_line(std::int64_t n, std::size_t item_bytes, bool aligned, const scan_config& cfg,
                      const described_device& d) {
  const dl::scan_request req{n, item_bytes, aligned, detail::resolve_block_size(cfg), d.kernels, cfg.tuning};
  return dl::describe(dl::plan_scan(req, d.info));
}

}  // namespace

std::string scan_tuning_description(std::size_t item_bytes, const scan_config& cfg) {
  if (item_bytes == 0) throw invalid_argument("scankit::cuda::scan_tuning_description: zero item size");
  dl::check_config(cfg);
  const described_device d = describe_device(item_bytes);
  const dl::scan_tuning t = dl::tuning_for_size(item_bytes, d.info);
  auto items = [](std::int64_t v) { return v == dl::never ? std::string("never") : std::to_string(v); };
  std::string s = std::to_string(item_bytes) + "-byte items on sm_" + std::to_string(d.info.arch) + " (" +
                  std::to_string(d.info.sm_count) + " SMs, " + detail::name_of(detail::class_of(d.info)) +
                  " class): block_size=" + std::to_string(t.block_size) +
                  " striped_vectors=" + std::to_string(t.striped_vectors) +
                  " striped_raking=" + (t.striped_raking ? "true" : "false") +
                  " blocked_vectors=" + std::to_string(t.blocked_vectors) +
                  " min_blocks_per_sm=" + std::to_string(t.min_blocks_per_sm) +
                  " one_launch_tiles=" + std::to_string(t.one_launch_tiles) +
                  " one_launch_wide_vectors=" + std::to_string(t.one_launch_wide_vectors) +
                  " blocked_from_items=" + items(t.blocked_from_items) +
                  " specialized_from_items=" + items(t.specialized_from_items) +
                  " prefetch_up_to_tiles=" + std::to_string(t.prefetch_up_to_tiles) +
                  " one_tile_per_sm_up_to_threads=" + std::to_string(t.one_tile_per_sm_up_to_threads) +
                  " load_window_tiles=" + std::to_string(t.load_window_tiles) +
                  " backoff_ns=" + std::to_string(t.backoff_ns) + " first_delay_ns=" + std::to_string(t.first_delay_ns);
  if (const dl::specialized_shape sh = dl::specialized_shape_for_size(item_bytes); sh.consumers > 0)
    s += "; specialized: consumers=" + std::to_string(sh.consumers) +
         " vectors_per_thread=" + std::to_string(sh.vectors_per_thread) + " stages=" + std::to_string(sh.stages) +
         " min_blocks_per_sm=" + std::to_string(sh.min_blocks_per_sm) + " producers=" + std::to_string(sh.producers);
  s += "; paths (aligned):";
  for (int log2n : {10, 14, 16, 18, 20, 22, 24, 26, 28}) {
    const std::int64_t n = std::int64_t{1} << log2n;
    s += " 2^" + std::to_string(log2n) + " " + plan_line(n, item_bytes, true, cfg, d) + ";";
  }
  return s;
}

std::string scan_path_description(std::int64_t n, std::size_t item_bytes, bool aligned, const scan_config& cfg) {
  scankit::detail::check_size(n, "scankit::cuda::scan_path_description");
  if (item_bytes == 0) throw invalid_argument("scankit::cuda::scan_path_description: zero item size");
  dl::check_config(cfg);
  if (cfg.algorithm != scan_algorithm::decoupled_lookback) return std::string(name(cfg.algorithm));
  if (n == 0) return "none: the carry-out is the carry-in";
  return plan_line(n, item_bytes, aligned, cfg, describe_device(item_bytes));
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
