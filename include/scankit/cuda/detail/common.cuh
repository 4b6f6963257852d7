// Shared machinery of the CUDA scans: error checking, workspace carving, warp primitives for
// any trivially copyable type, and the multi-level driver that turns a "scan each tile" kernel
// into a scan of any length.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>

#include "scankit/error.hpp"
#include "scankit/ops.hpp"

namespace scankit::cuda::detail {

[[noreturn]] inline void throw_cuda(cudaError_t e, const char* call, const char* file, int line) {
  // A failed call also sets the runtime's last error; reset it, or the next launch's check
  // (cudaGetLastError) reports this failure again against the wrong kernel (a failed histogram
  // launch would resurface as a failed clear_kernel launch in the next sort).
  (void)cudaGetLastError();
  throw cuda_error(static_cast<int>(e), std::string("CUDA error in ") + call + " (" + file + ":" +
                                            std::to_string(line) + "): " + cudaGetErrorName(e) +
                                            ": " + cudaGetErrorString(e));
}

}  // namespace scankit::cuda::detail

/// Checks a CUDA runtime call; throws scankit::cuda_error naming the call on failure.
#define SCANKIT_CUDA_CHECK(call)                                                       \
  do {                                                                                 \
    cudaError_t scankit_err_ = (call);                                                 \
    if (scankit_err_ != cudaSuccess)                                                   \
      ::scankit::cuda::detail::throw_cuda(scankit_err_, #call, __FILE__, __LINE__);    \
  } while (0)

/// Checks the launch just made (configuration errors surface here, not at the next sync).
#define SCANKIT_LAUNCH_CHECK(kernel_name)                                              \
  do {                                                                                 \
    cudaError_t scankit_err_ = cudaGetLastError();                                     \
    if (scankit_err_ != cudaSuccess)                                                   \
      ::scankit::cuda::detail::throw_cuda(scankit_err_, "launch of " kernel_name,      \
                                          __FILE__, __LINE__);                         \
  } while (0)

namespace scankit::cuda::detail {

inline constexpr std::size_t workspace_alignment = 256;

constexpr std::size_t align_up(std::size_t x, std::size_t a = workspace_alignment) {
  return (x + a - 1) / a * a;
}

constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

/// Carves typed arrays out of the caller's workspace. The size was checked up front by the
/// entry point, so running out here is a library bug and reported as such.
class arena {
 public:
  arena(void* base, std::size_t bytes) : base_(static_cast<char*>(base)), bytes_(bytes) {}
  template <class T>
  T* take(std::int64_t count) {
    std::size_t need = align_up(static_cast<std::size_t>(count) * sizeof(T));
    if (used_ + need > bytes_)
      throw error("scankit internal error: workspace estimate too small");
    T* p = reinterpret_cast<T*>(base_ + used_);
    used_ += need;
    return p;
  }

 private:
  char* base_;
  std::size_t bytes_;
  std::size_t used_ = 0;
};

/// Programmatic dependent launch (Hopper and later): a kernel launched with launch_after() may
/// be scheduled while the kernel before it in the stream is still finishing, so the launch
/// latency between the short kernels of a small sort overlaps the previous kernel's tail.
/// Such a kernel must call wait_for_previous_grid() before it touches memory the previous
/// kernel writes: it returns once that kernel has finished and its writes are visible.
/// allow_next_grid() lets the next kernel be scheduled before this one finishes (without it,
/// that happens as this one's blocks exit). On older GPUs both are no-ops and launch_after()
/// is an ordinary launch.
__device__ __forceinline__ void wait_for_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void allow_next_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/// Asks L2 to fetch the 16-byte-aligned part of [p, p + bytes) (Hopper: one bulk prefetch;
/// elsewhere nothing). A hint: nothing waits for it, and L2 is where global memory is
/// coherent, so a prefetched line is never stale. The range is rounded inwards, so no byte
/// outside [p, p + bytes) is touched.
__device__ __forceinline__ void prefetch_l2(const void* p, std::size_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t first = (a + 15) & ~std::uintptr_t{15}, last = (a + bytes) & ~std::uintptr_t{15};
  if (last > first)
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(first), "r"(static_cast<unsigned>(last - first)));
#else
  (void)p;
  (void)bytes;
#endif
}

inline int current_device() {
  int dev = 0;
  SCANKIT_CUDA_CHECK(cudaGetDevice(&dev));
  return dev;
}

/// An attribute of the current device, looked up once per device and attribute: small sorts
/// take a few microseconds, and driver calls made on every launch show in their time.
int device_attribute(cudaDeviceAttr attr);
/// The current device's multiprocessor count.
inline int device_sm_count() { return std::max(1, device_attribute(cudaDevAttrMultiProcessorCount)); }

/// Lets `kernel` use `bytes` of dynamic shared memory on the current device. The runtime call
/// is made only when the kernel's limit there is lower (remembered per kernel and device).
void allow_dynamic_shared_memory_impl(const void* kernel, std::size_t bytes);
template <class... Params>
void allow_dynamic_shared_memory(void (*kernel)(Params...), std::size_t bytes) {
  allow_dynamic_shared_memory_impl(reinterpret_cast<const void*>(kernel), bytes);
}

/// Whether `kernel` with `bytes` of dynamic shared memory (plus its static shared memory) fits
/// the current device's per-block limit. Kernels sized for the H100's 227 KiB check this before
/// allow_dynamic_shared_memory, so that a GPU with less (compute capability 12.x: 99 KiB) takes
/// another path instead of failing.
bool fits_shared_memory_impl(const void* kernel, std::size_t bytes);
template <class... Params>
bool fits_shared_memory(void (*kernel)(Params...), std::size_t bytes) {
  return fits_shared_memory_impl(reinterpret_cast<const void*>(kernel), bytes);
}

/// Blocks of `kernel` with `threads` threads and `dynamic_bytes` of dynamic shared memory that
/// fit one SM of the current device (cudaOccupancyMaxActiveBlocksPerMultiprocessor, remembered
/// per kernel, device and shape: the query takes microseconds, a small scan not many more).
int blocks_per_sm_impl(const void* kernel, int threads, std::size_t dynamic_bytes);
template <class... Params>
int blocks_per_sm(void (*kernel)(Params...), int threads, std::size_t dynamic_bytes) {
  return blocks_per_sm_impl(reinterpret_cast<const void*>(kernel), threads, dynamic_bytes);
}

/// The virtual architecture `kernel`'s code on the current device was compiled for, as
/// __CUDA_ARCH__ / 10 (80 for compute_80, 90 for compute_90), remembered per kernel and device.
/// Hopper-only paths (bulk copies, dependent launch) are taken only where this is 90 or more:
/// the device's compute capability alone does not say whether the code has them: a
/// compute_80 PTX build that the driver compiles for an H100 has none.
int kernel_arch_impl(const void* kernel);
template <class... Params>
int kernel_arch(void (*kernel)(Params...)) {
  return kernel_arch_impl(reinterpret_cast<const void*>(kernel));
}
/// Whether `kernel` was compiled with the Hopper instructions (bulk copies, mbarrier
/// transactions, griddepcontrol) that sm_90 code paths rely on.
template <class... Params>
bool kernel_has_hopper_code(void (*kernel)(Params...)) {
  return kernel_arch(kernel) >= 90;
}

/// Launches kernel<<<grid, block, smem, stream>>>(args...) as a programmatic dependent of the
/// previous work in the stream (see wait_for_previous_grid) where the kernel's code can wait for
/// it, as an ordinary launch elsewhere; checks the launch.
template <class... Params, class... Args>
void launch_after(const char* name, void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem,
                  cudaStream_t stream, Args... args) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = kernel_has_hopper_code(kernel) ? 1 : 0;
  const cudaError_t e = cudaLaunchKernelEx(&cfg, kernel, static_cast<Params>(args)...);
  if (e != cudaSuccess) throw_cuda(e, name, __FILE__, __LINE__);
}

/// Bytes the multi-level driver needs for the tile sums of every level, for tiles of `tile`.
inline std::size_t tile_sums_bytes(std::int64_t n, std::int64_t tile, std::size_t item_bytes) {
  std::size_t total = 0;
  while (n > 0) {  // n == 1 still takes one tile sum
    std::int64_t tiles = ceil_div(n, tile);
    total += align_up(static_cast<std::size_t>(tiles) * item_bytes);
    if (tiles == 1) break;
    n = tiles;
  }
  return total;
}

// ---------------------------------------------------------------------------------------
// Warp primitives for any trivially copyable T (shuffled one 32-bit word at a time when the
// hardware shuffle has no overload for T).

/// Applies a 32-bit shuffle to every word of v (for types the hardware shuffle has no
/// overload for).
template <class T, class Shuffle>
__device__ __forceinline__ T shuffle_words(T v, Shuffle shuffle) {
  static_assert(std::is_trivially_copyable_v<T>, "scan items must be trivially copyable");
  constexpr int words = (sizeof(T) + 3) / 4;
  unsigned w[words] = {};
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < words; ++i) w[i] = shuffle(w[i]);
  T r;
  memcpy(&r, w, sizeof(T));
  return r;
}

template <class T>
inline constexpr bool native_shuffle = std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);

template <class T>
__device__ __forceinline__ T shfl_up(T v, unsigned delta) {
  if constexpr (native_shuffle<T>) return __shfl_up_sync(0xffffffffu, v, delta);
  else return shuffle_words(v, [delta](unsigned w) { return __shfl_up_sync(0xffffffffu, w, delta); });
}

template <class T>
__device__ __forceinline__ T shfl_idx(T v, int src) {
  if constexpr (native_shuffle<T>) return __shfl_sync(0xffffffffu, v, src);
  else return shuffle_words(v, [src](unsigned w) { return __shfl_sync(0xffffffffu, w, src); });
}

template <class T>
__device__ __forceinline__ T shfl_down(T v, unsigned delta) {
  if constexpr (native_shuffle<T>) return __shfl_down_sync(0xffffffffu, v, delta);
  else return shuffle_words(v, [delta](unsigned w) { return __shfl_down_sync(0xffffffffu, w, delta); });
}

/// Inclusive scan across the 32 lanes of a full warp (Kogge-Stone with shuffles).
template <class T, class Op>
__device__ __forceinline__ T warp_inclusive_scan(T v, Op op) {
  const unsigned lane = threadIdx.x & 31u;
#pragma unroll
  for (unsigned d = 1; d < 32; d <<= 1) {
    T other = shfl_up(v, d);
    if (lane >= d) v = op(other, v);
  }
  return v;
}

/// Reduction across the 32 lanes of a full warp; the result is valid in every lane.
/// The order is the lanes' order, so non-commutative operators are fine.
template <class T, class Op>
__device__ __forceinline__ T warp_reduce(T v, Op op) {
  return shfl_idx(warp_inclusive_scan(v, op), 31);
}

// ---------------------------------------------------------------------------------------
// Small kernels used by several algorithms.

template <class T>
__global__ void store_value_kernel(T* dst, T value) {
  *dst = value;
}

/// out[i] = op(prefix[t], out[i]) for every item of tile t >= 1 (tile 0 already holds its
/// final values). One block per tile-range; grid-strided over tiles so any count works.
template <class T, class Op>
__global__ void add_tile_prefix_kernel(T* out, std::int64_t n, std::int64_t tile,
                                       const T* prefix, Op op) {
  const std::int64_t tiles = ceil_div(n, tile);
  for (std::int64_t t = 1 + blockIdx.x; t < tiles; t += gridDim.x) {
    const T p = prefix[t];
    const std::int64_t begin = t * tile;
    const std::int64_t end = begin + tile < n ? begin + tile : n;
    for (std::int64_t i = begin + threadIdx.x; i < end; i += blockDim.x) out[i] = op(p, out[i]);
  }
}

inline unsigned grid_for(std::int64_t blocks_wanted, std::int64_t cap = 1 << 20) {
  if (blocks_wanted < 1) return 1;
  return static_cast<unsigned>(blocks_wanted < cap ? blocks_wanted : cap);
}

/// Zeroes `words` 8-byte words at p, as cudaMemsetAsync would, but as a kernel: the kernel
/// after it can then be launched as its programmatic dependent (launch_after), and it lets
/// that one launch at once (it still waits for the zeroes before it reads them).
template <int = 0>
__global__ void clear_kernel(unsigned long long* p, std::int64_t words) {
  allow_next_grid();
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < words; i += stride) p[i] = 0;
}

/// Clears `bytes` at p on stream s (clear_kernel when p and bytes are whole 8-byte words).
inline void clear_async(void* p, std::size_t bytes, cudaStream_t s) {
  if (bytes == 0) return;
  if (reinterpret_cast<std::uintptr_t>(p) % 8 != 0 || bytes % 8 != 0) {
    SCANKIT_CUDA_CHECK(cudaMemsetAsync(p, 0, bytes, s));
    return;
  }
  const auto words = static_cast<std::int64_t>(bytes / 8);
  clear_kernel<><<<grid_for(ceil_div(words, 256 * 8), 2048), 256, 0, s>>>(static_cast<unsigned long long*>(p), words);
  SCANKIT_LAUNCH_CHECK("clear_kernel");
}

/// Writes init to d_total (n == 0: the carry-out is the carry-in).
template <class T>
void store_value(T* d_dst, T value, cudaStream_t s) {
  store_value_kernel<<<1, 1, 0, s>>>(d_dst, value);
  SCANKIT_LAUNCH_CHECK("store_value_kernel");
}

/// The multi-level driver. `scan_tiles(in, out, n, init, sums)` must launch a kernel that, for
/// each tile t of `tile` items, writes the tile's local scan (of `kind`) to out and the tile's
/// aggregate to sums[t], with init folded into tile 0 only (its items and its aggregate).
/// The driver then scans the tile sums exclusively (recursively, with the same tile kernel)
/// and adds each tile's prefix back. In place (in == out) is fine if scan_tiles reads a tile
/// completely before writing it.
template <class T, class Op, class ScanTiles>
void scan_multilevel(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init,
                     T* d_total, arena& ws, std::int64_t tile, int add_block, cudaStream_t s,
                     const ScanTiles& scan_tiles) {
  if (n == 0) {
    if (d_total) store_value(d_total, init, s);
    return;
  }
  const std::int64_t tiles = ceil_div(n, tile);
  T* sums = ws.take<T>(tiles);
  scan_tiles(in, out, n, kind, init, sums);
  if (tiles == 1) {
    if (d_total)
      SCANKIT_CUDA_CHECK(cudaMemcpyAsync(d_total, sums, sizeof(T), cudaMemcpyDeviceToDevice, s));
    return;
  }
  // sums[t] := op(init, a0, ..., a(t-1)) for t >= 1; the carry-out goes to d_total.
  scan_multilevel<T>(sums, sums, tiles, op, scan_kind::exclusive, op.identity(), d_total, ws,
                     tile, add_block, s, scan_tiles);
  add_tile_prefix_kernel<<<grid_for(tiles - 1), add_block, 0, s>>>(out, n, tile, sums, op);
  SCANKIT_LAUNCH_CHECK("add_tile_prefix_kernel");
}

}  // namespace scankit::cuda::detail
