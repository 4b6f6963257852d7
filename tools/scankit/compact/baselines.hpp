// CUB's compactions, the baselines of `scankit bench compact`: DeviceSelect::If, ::Flagged,
// ::Unique, DevicePartition::If, DeviceRunLengthEncode::Encode, and DeviceSelect::If over a
// counting iterator for nonzero. Baselines only, never part of scankit. Instantiated by nvcc
// in files generated from baselines.cu.in, one per element type (tools/CMakeLists.txt);
// callable from plain C++. CUDA builds only.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace scankit::tools {

/// The operations `bench compact --op` knows (the predicate is always x != 0).
enum class compact_op { select_if, remove_if, select_flagged, partition, unique, unique_count, nonzero };

/// Bytes of CUB temporary storage for `op` on n items.
template <class T>
std::size_t cub_compact_temp_bytes(compact_op op, std::int64_t n);

/// Runs CUB's counterpart of `op`: select_if keeps x != 0, remove_if keeps x == 0,
/// select_flagged uses d_flags, partition puts x != 0 first (rejected reversed, CUB's layout),
/// unique/unique_count use ==, nonzero writes indices to d_idx. unique_count writes run
/// lengths to d_idx. The count goes to d_count. Stream-ordered.
template <class T>
void cub_compact(compact_op op, const T* d_in, const std::uint8_t* d_flags, T* d_out, std::int64_t* d_idx,
                 std::int64_t* d_count, std::int64_t n, void* d_temp, std::size_t temp_bytes,
                 cudaStream_t stream);

}  // namespace scankit::tools
