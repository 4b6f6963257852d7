// The histogram kernels. Every kernel reads the samples as 16-byte vectors (the unaligned
// head and the ragged tail, at most 15 samples each, go straight to global atomics from
// block 0) and hands each sample's bin to a "sink": global atomics, 32-bit shared-memory
// sub-histograms, or 16-bit shared counters that move 2^15 to global memory each time one
// of them reaches 2^15. With aggregation a thread keeps the run of equal bins it is in and
// adds the run's length once when the run ends (one atomic for a whole run of a skewed input).
//
// One file per part under detail/histogram/: input.cuh (vectors, head and tail), sinks.cuh
// (the sinks and aggregation), global_kernel.cuh, shared_kernel.cuh, tuning.cuh (adaptive's
// table, applied by plan.hpp), launch.cuh (the host side), capped.cuh (bincount_capped's
// bins and summary).
#pragma once

#include "scankit/cuda/detail/histogram/capped.cuh"
#include "scankit/cuda/detail/histogram/global_kernel.cuh"
#include "scankit/cuda/detail/histogram/input.cuh"
#include "scankit/cuda/detail/histogram/shared_kernel.cuh"
#include "scankit/cuda/detail/histogram/sinks.cuh"
#include "scankit/cuda/detail/histogram/tuning.cuh"
