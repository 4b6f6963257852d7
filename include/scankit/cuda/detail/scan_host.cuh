// Host-container scans: the array streams through the GPU in chunks.
//
// Each chunk is copied in, scanned in place on the device, combined with the running carry
// (the previous chunks' total, kept on the device), and copied out. Chunks rotate over a few
// "slots", each with its own stream, device buffer and (for pageable memory) pinned staging
// buffers, so the copy in of one chunk, the scan of another and the copy out of a third
// overlap. Arrays larger than the GPU's memory (or than host_scan_options::
// device_memory_limit) work because only the slots live on the device.
#pragma once

#include <tbb/parallel_for.h>

#include <cstring>
#include <vector>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/scan.hpp"

namespace scankit::cuda {

namespace detail {

/// data[i] = op(*carry_in, data[i]); one thread also writes *carry_out = op(*carry_in, *total).
template <class T, class Op>
__global__ void apply_carry_kernel(T* data, std::int64_t n, const T* carry_in, const T* total,
                                   T* carry_out, Op op) {
  const T c = *carry_in;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride)
    data[i] = op(c, data[i]);
  if (blockIdx.x == 0 && threadIdx.x == 0) *carry_out = op(c, *total);
}

/// Copies bytes with all CPU threads (a single thread cannot keep up with PCIe from pageable
/// memory).
inline void parallel_memcpy(void* dst, const void* src, std::size_t bytes) {
  constexpr std::size_t grain = std::size_t{1} << 20;
  if (bytes <= 4 * grain) {
    std::memcpy(dst, src, bytes);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, bytes, grain),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      std::memcpy(static_cast<char*>(dst) + r.begin(),
                                  static_cast<const char*>(src) + r.begin(), r.size());
                    });
}

inline bool is_pinned(const void* p) {
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
}

/// Owns every resource of one streamed scan; frees them all on any exit path.
struct stream_resources {
  std::vector<cudaStream_t> streams;
  std::vector<cudaEvent_t> events;
  std::vector<void*> device;
  std::vector<void*> pinned;
  ~stream_resources() {
    for (auto s : streams) cudaStreamSynchronize(s);
    for (auto s : streams) cudaStreamDestroy(s);
    for (auto e : events) cudaEventDestroy(e);
    for (auto p : device) cudaFree(p);
    for (auto p : pinned) cudaFreeHost(p);
  }
  cudaStream_t new_stream() {
    cudaStream_t s{};
    SCANKIT_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    streams.push_back(s);
    return s;
  }
  cudaEvent_t new_event() {
    cudaEvent_t e{};
    SCANKIT_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    events.push_back(e);
    return e;
  }
  void* new_device(std::size_t bytes) {
    void* p = nullptr;
    SCANKIT_CUDA_CHECK(cudaMalloc(&p, bytes));
    device.push_back(p);
    return p;
  }
  void* new_pinned(std::size_t bytes) {
    void* p = nullptr;
    SCANKIT_CUDA_CHECK(cudaMallocHost(&p, bytes));
    pinned.push_back(p);
    return p;
  }
};

}  // namespace detail

template <class Op>
value_t<Op> scan_host(const value_t<Op>* in, value_t<Op>* out, std::int64_t n, Op op,
                      scan_kind kind, value_t<Op> init, const host_scan_options& opts) {
  using T = value_t<Op>;
  using namespace detail;
  scankit::detail::check_size(n, "scankit::cuda::scan_host");
  scankit::detail::check_pointer(in, n, "input", "scankit::cuda::scan_host");
  scankit::detail::check_pointer(out, n, "output", "scankit::cuda::scan_host");
  if (device_count() == 0) throw no_device_error("scankit::cuda::scan_host: no CUDA GPU found");
  if (n == 0) return init;

  // Chunking: 3 slots of up to 2^23 items (32 MiB of int32) each, shrunk to fit the limit.
  constexpr int slots = 3;
  std::int64_t chunk = std::int64_t{1} << 23;
  if (n < chunk * slots) chunk = std::max<std::int64_t>(ceil_div(n, slots), 1 << 16);
  chunk = std::min(chunk, n);
  auto footprint = [&](std::int64_t c) {
    return slots * (align_up(c * sizeof(T)) + scan_workspace_bytes(c, sizeof(T), opts.config) +
                    align_up(sizeof(T))) + align_up((ceil_div(n, c) + 1) * sizeof(T));
  };
  if (opts.device_memory_limit != 0) {
    while (chunk > 1024 && footprint(chunk) > opts.device_memory_limit) chunk /= 2;
    if (footprint(chunk) > opts.device_memory_limit)
      throw invalid_argument("scankit::cuda::scan_host: device_memory_limit of " +
                             std::to_string(opts.device_memory_limit) + " bytes is too small");
  }
  const std::int64_t chunks = ceil_div(n, chunk);
  const bool stage_in = !is_pinned(in);
  const bool stage_out = !is_pinned(out);

  stream_resources res;
  struct slot_state {
    cudaStream_t stream;
    cudaEvent_t done, carry_ready;
    T* buf;
    void* ws;
    std::size_t ws_bytes;
    T* total;
    T* stage_in;
    T* stage_out;
    std::int64_t pending = -1;  // chunk whose output still sits in stage_out
  };
  std::vector<slot_state> slot(slots);
  T* carries = static_cast<T*>(res.new_device(align_up((chunks + 1) * sizeof(T))));
  for (auto& s : slot) {
    s.stream = res.new_stream();
    s.done = res.new_event();
    s.carry_ready = res.new_event();
    s.buf = static_cast<T*>(res.new_device(align_up(chunk * sizeof(T))));
    s.ws_bytes = scan_workspace_bytes(chunk, sizeof(T), opts.config);
    s.ws = s.ws_bytes ? res.new_device(s.ws_bytes) : nullptr;
    s.total = static_cast<T*>(res.new_device(align_up(sizeof(T))));
    s.stage_in = stage_in ? static_cast<T*>(res.new_pinned(chunk * sizeof(T))) : nullptr;
    s.stage_out = stage_out ? static_cast<T*>(res.new_pinned(chunk * sizeof(T))) : nullptr;
  }
  store_value(carries, init, slot[0].stream);

  auto drain = [&](slot_state& s) {
    if (s.pending < 0) return;
    SCANKIT_CUDA_CHECK(cudaEventSynchronize(s.done));
    const std::int64_t begin = s.pending * chunk, len = std::min(chunk, n - begin);
    if (stage_out) parallel_memcpy(out + begin, s.stage_out, len * sizeof(T));
    s.pending = -1;
  };

  for (std::int64_t c = 0; c < chunks; ++c) {
    slot_state& s = slot[c % slots];
    const std::int64_t begin = c * chunk, len = std::min(chunk, n - begin);
    // The slot's previous chunk must have left the device (and its staging) first.
    // (Unstaged device buffers need no wait: the slot's stream orders their reuse.)
    if (stage_in || stage_out) drain(s);
    const T* src = in + begin;
    if (stage_in) {
      parallel_memcpy(s.stage_in, src, len * sizeof(T));
      src = s.stage_in;
    }
    SCANKIT_CUDA_CHECK(cudaMemcpyAsync(s.buf, src, len * sizeof(T), cudaMemcpyHostToDevice, s.stream));
    scan(s.buf, s.buf, len, op, kind, op.identity(), s.ws, s.ws_bytes, s.stream, opts.config, s.total);
    if (c > 0) SCANKIT_CUDA_CHECK(cudaStreamWaitEvent(s.stream, slot[(c - 1) % slots].carry_ready, 0));
    apply_carry_kernel<<<grid_for(ceil_div(len, 256), 2048), 256, 0, s.stream>>>(
        s.buf, len, carries + c, s.total, carries + c + 1, op);
    SCANKIT_LAUNCH_CHECK("apply_carry_kernel");
    SCANKIT_CUDA_CHECK(cudaEventRecord(s.carry_ready, s.stream));
    SCANKIT_CUDA_CHECK(cudaMemcpyAsync(stage_out ? s.stage_out : out + begin, s.buf,
                                       len * sizeof(T), cudaMemcpyDeviceToHost, s.stream));
    SCANKIT_CUDA_CHECK(cudaEventRecord(s.done, s.stream));
    s.pending = c;
  }
  for (auto& s : slot) drain(s);
  T total{};
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(&total, carries + chunks, sizeof(T), cudaMemcpyDeviceToHost,
                                     slot[(chunks - 1) % slots].stream));
  for (auto& s : slot) SCANKIT_CUDA_CHECK(cudaStreamSynchronize(s.stream));
  return total;
}

}  // namespace scankit::cuda
