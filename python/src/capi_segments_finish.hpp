// The segmented reduction's last step on the GPU (capi_segments_finish.cu): init combined into
// every non-empty segment's result, and the mean, as capi.h's sk_segmented_reduce describes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace scankit::capi::kernels {

/// out[s] = op(*init, out[s]) (init non-null), then / (offsets[s+1] - offsets[s]) (mean), for
/// every segment of at least one item; empty segments are left as they are. init: one item in
/// host memory or null. op: SK_OP_SUM, PROD, MIN or MAX.
void finish_segments(int dtype, int op, bool mean, const void* init, const std::int64_t* offsets,
                     std::int64_t n_segments, void* out, cudaStream_t stream);

}  // namespace scankit::capi::kernels
