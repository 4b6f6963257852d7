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

/// The streams, events, device buffers and pinned staging buffers of the streamed host scans.
/// One pool per host thread, kept between calls and grown on demand: pinning host memory costs
/// more than the copies it serves, so a scan that allocated them every time would lose to the
/// CPU. scankit::cuda::release_host_buffers() frees the calling thread's pool.
struct host_stream_pool {
  static constexpr int slots = 3;
  struct slot_buffers {
    cudaStream_t stream{};
    cudaEvent_t done{}, carry_ready{};
    void* buf = nullptr;        // one chunk on the device
    void* ws = nullptr;         // the chunk scan's workspace
    void* total = nullptr;      // the chunk's carry-out
    void* stage_in = nullptr;   // pinned copies of pageable chunks
    void* stage_out = nullptr;
    std::size_t buf_bytes = 0, ws_bytes = 0, stage_bytes = 0;
  };
  int device = -1;
  slot_buffers slot[slots];
  void* carries = nullptr;  // running carry after each chunk
  std::size_t carries_bytes = 0;

  host_stream_pool() = default;
  host_stream_pool(const host_stream_pool&) = delete;
  host_stream_pool& operator=(const host_stream_pool&) = delete;
  ~host_stream_pool() { release(); }

  /// Frees everything (errors ignored: this also runs at thread exit, possibly after the
  /// CUDA runtime has shut down).
  void release() noexcept {
    if (device < 0) return;
    int current = 0;
    cudaGetDevice(&current);
    cudaSetDevice(device);
    for (auto& s : slot) {
      if (s.stream) cudaStreamSynchronize(s.stream), cudaStreamDestroy(s.stream);
      if (s.done) cudaEventDestroy(s.done);
      if (s.carry_ready) cudaEventDestroy(s.carry_ready);
      cudaFree(s.buf), cudaFree(s.ws), cudaFree(s.total);
      cudaFreeHost(s.stage_in), cudaFreeHost(s.stage_out);
      s = slot_buffers{};
    }
    cudaFree(carries);
    carries = nullptr, carries_bytes = 0;
    cudaSetDevice(current);
    (void)cudaGetLastError();
    device = -1;
  }

  static void grow_device(void*& p, std::size_t& have, std::size_t want) {
    if (want <= have) return;
    if (p) {
      void* old = p;
      p = nullptr, have = 0;
      SCANKIT_CUDA_CHECK(cudaFree(old));
    }
    SCANKIT_CUDA_CHECK(cudaMalloc(&p, want));
    have = want;
  }

  /// Makes the pool ready on the current device with at least these sizes.
  void prepare(std::size_t buf_bytes, std::size_t ws_bytes, std::size_t carry_bytes,
               std::size_t stage_bytes) {
    int dev = 0;
    SCANKIT_CUDA_CHECK(cudaGetDevice(&dev));
    if (dev != device) {
      release();
      device = dev;
      for (auto& s : slot) {
        SCANKIT_CUDA_CHECK(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
        SCANKIT_CUDA_CHECK(cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming));
        SCANKIT_CUDA_CHECK(cudaEventCreateWithFlags(&s.carry_ready, cudaEventDisableTiming));
        SCANKIT_CUDA_CHECK(cudaMalloc(&s.total, workspace_alignment));
      }
    }
    for (auto& s : slot) {
      // A call that failed part-way may have left work queued: finish it before reuse.
      SCANKIT_CUDA_CHECK(cudaStreamSynchronize(s.stream));
      grow_device(s.buf, s.buf_bytes, buf_bytes);
      std::size_t ws_have = s.ws_bytes;
      grow_device(s.ws, ws_have, ws_bytes);
      s.ws_bytes = ws_have;
      if (stage_bytes > s.stage_bytes) {
        void* old_in = s.stage_in;
        void* old_out = s.stage_out;
        s.stage_in = s.stage_out = nullptr, s.stage_bytes = 0;
        SCANKIT_CUDA_CHECK(cudaFreeHost(old_in));
        SCANKIT_CUDA_CHECK(cudaFreeHost(old_out));
        SCANKIT_CUDA_CHECK(cudaMallocHost(&s.stage_in, stage_bytes));
        SCANKIT_CUDA_CHECK(cudaMallocHost(&s.stage_out, stage_bytes));
        s.stage_bytes = stage_bytes;
      }
    }
    grow_device(carries, carries_bytes, carry_bytes);
  }
};

inline host_stream_pool& thread_host_stream_pool() {
  thread_local host_stream_pool pool;
  return pool;
}

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
  constexpr int slots = host_stream_pool::slots;
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

  // Only the slots live on the device; they come from this thread's pool (see above).
  host_stream_pool& pool = thread_host_stream_pool();
  const std::size_t ws_bytes = scan_workspace_bytes(chunk, sizeof(T), opts.config);
  pool.prepare(align_up(chunk * sizeof(T)), ws_bytes, align_up((chunks + 1) * sizeof(T)),
               (stage_in || stage_out) ? chunk * sizeof(T) : 0);
  struct slot_state {
    cudaStream_t stream;
    cudaEvent_t done, carry_ready;
    T* buf;
    void* ws;
    T* total;
    T* stage_in;
    T* stage_out;
    std::int64_t pending = -1;  // chunk still on its way out through this slot
  };
  std::vector<slot_state> slot;
  for (auto& b : pool.slot)
    slot.push_back({b.stream, b.done, b.carry_ready, static_cast<T*>(b.buf), b.ws,
                    static_cast<T*>(b.total), static_cast<T*>(b.stage_in),
                    static_cast<T*>(b.stage_out)});
  T* carries = static_cast<T*>(pool.carries);
  // If anything below throws, let the queued work finish before the buffers are reused.
  struct sync_on_exit {
    std::vector<slot_state>& slots;
    ~sync_on_exit() {
      for (auto& s : slots) cudaStreamSynchronize(s.stream);
    }
  } guard{slot};
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
    scan(s.buf, s.buf, len, op, kind, op.identity(), s.ws, ws_bytes, s.stream, opts.config, s.total);
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
