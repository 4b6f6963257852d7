// Hopper's bulk copies (the TMA engine's cp.async.bulk) and the shared-memory barriers
// (mbarrier) that signal their completion, as thin wrappers over PTX. Only compute capability
// 9.0 and later has them: elsewhere these compile to nothing, and the host code that launches
// a kernel using them must check that the kernel's code has them (kernel_has_hopper_code,
// device.cuh): a compute_80 PTX build JIT-compiled for an sm_90 device has none.
//
// The protocol the wrappers serve (the warp-specialized kernels of scan/specialized.cuh and
// compact/specialized.cuh):
// - a *load* is started by one thread with the bytes it will bring (expect_tx), completes on an
//   mbarrier, and whoever waits on that barrier's phase then sees the bytes in shared memory;
// - a *store* reads shared memory asynchronously: the threads that wrote the bytes must order
//   their writes before it (fence_proxy_async, then a barrier), and the thread that started it
//   must wait until it has read the buffer (bulk_wait_read) before the buffer is reused, and
//   until it has finished (bulk_wait_all) before the kernel exits.
#pragma once

#include <cstdint>

#include "scankit/cuda/detail/common.cuh"

namespace scankit::cuda::detail::bulk {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define SCANKIT_BULK_PTX(...) asm volatile(__VA_ARGS__)
#else
#define SCANKIT_BULK_PTX(...) ((void)0)
#endif

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

/// Makes `bar` a barrier whose phase completes after `count` arrivals (and the bytes any
/// load announced with expect_tx). Followed by fence_barrier_init and a __syncthreads.
__device__ __forceinline__ void barrier_init(std::uint64_t* bar, unsigned count) {
  SCANKIT_BULK_PTX("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void fence_barrier_init() {
  SCANKIT_BULK_PTX("fence.mbarrier_init.release.cluster;" ::: "memory");
}
/// One arrival, which also tells the barrier that `bytes` more will land before its phase ends.
__device__ __forceinline__ void arrive_expect_bytes(std::uint64_t* bar, unsigned bytes) {
  SCANKIT_BULK_PTX("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes)
                   : "memory");
}
/// One arrival (release: this thread's earlier shared-memory writes are seen by the waiters).
__device__ __forceinline__ void arrive(std::uint64_t* bar) {
  SCANKIT_BULK_PTX("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(bar)) : "memory");
}
/// Waits until the phase with this parity has completed (acquire).
__device__ __forceinline__ void wait(std::uint64_t* bar, unsigned parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  unsigned done = 0;
  while (!done) {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(shared_address(bar)), "r"(parity)
        : "memory");
  }
#else
  (void)bar;
  (void)parity;
#endif
}

/// Whether the phase with this parity has completed (acquire when it has); does not wait.
__device__ __forceinline__ bool test(std::uint64_t* bar, unsigned parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  unsigned done = 0;
  asm volatile(
      "{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
      : "=r"(done)
      : "r"(shared_address(bar)), "r"(parity)
      : "memory");
  return done != 0;
#else
  (void)bar;
  (void)parity;
  return true;
#endif
}

/// Starts copying `bytes` (a multiple of 16, both addresses 16-byte aligned) from global to
/// shared memory; completes on `bar`.
__device__ __forceinline__ void load(void* dst, const void* src, unsigned bytes, std::uint64_t* bar) {
  SCANKIT_BULK_PTX("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                       shared_address(dst)),
                   "l"(src), "r"(bytes), "r"(shared_address(bar))
                   : "memory");
}
/// Starts copying `bytes` from shared to global memory, as one bulk group of this thread.
__device__ __forceinline__ void store(void* dst, const void* src, unsigned bytes) {
  SCANKIT_BULK_PTX("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(shared_address(src)),
                   "r"(bytes)
                   : "memory");
  SCANKIT_BULK_PTX("cp.async.bulk.commit_group;" ::: "memory");
}
/// Waits until every store this thread started has read its shared memory.
__device__ __forceinline__ void wait_read() { SCANKIT_BULK_PTX("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
/// Waits until every store this thread started has finished.
__device__ __forceinline__ void wait_all() { SCANKIT_BULK_PTX("cp.async.bulk.wait_group 0;" ::: "memory"); }
/// Orders this thread's shared-memory writes before later bulk copies that read them.
__device__ __forceinline__ void fence_proxy_async() { SCANKIT_BULK_PTX("fence.proxy.async.shared::cta;" ::: "memory"); }

#undef SCANKIT_BULK_PTX

}  // namespace scankit::cuda::detail::bulk

namespace scankit::cuda::detail {
/// A barrier among the first `threads` threads of the block (a multiple of 32): named barrier
/// 1, so that it never meets __syncthreads (barrier 0).
__device__ __forceinline__ void sync_first_threads(int threads) {
  asm volatile("bar.sync 1, %0;" ::"r"(threads) : "memory");
}
/// Barrier `id` (2 .. 15; 0 is __syncthreads, 1 sync_first_threads) among `threads` threads,
/// whole warps, wherever they sit in the block.
__device__ __forceinline__ void sync_named(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
}  // namespace scankit::cuda::detail
