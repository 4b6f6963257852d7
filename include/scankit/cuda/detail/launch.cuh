// Launch helpers every primitive uses: grid sizes, and programmatic dependent launch.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "scankit/cuda/detail/device.cuh"
#include "scankit/cuda/detail/error.cuh"

namespace scankit::cuda::detail {

/// Programmatic dependent launch (Hopper and later): a kernel launched with launch_after() may
/// be scheduled while the kernel before it in the stream is still finishing, so the launch
/// latency between short kernels overlaps the previous kernel's tail.
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

/// Blocks of a grid-strided launch: `blocks_wanted`, at least 1 and at most `cap`.
inline unsigned grid_for(std::int64_t blocks_wanted, std::int64_t cap = 1 << 20) {
  if (blocks_wanted < 1) return 1;
  return static_cast<unsigned>(blocks_wanted < cap ? blocks_wanted : cap);
}

}  // namespace scankit::cuda::detail
