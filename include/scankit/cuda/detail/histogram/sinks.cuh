// Where a histogram kernel sends each sample's bin ("sinks": global atomics, 32-bit shared
// sub-histograms, 16-bit shared counters) and how a thread aggregates runs of equal bins first.
#pragma once

#include "scankit/cuda/detail/histogram/input.cuh"

namespace scankit::cuda::detail::hist {

// ---- sinks: where a bin's count goes ----------------------------------------------------

// Every sink takes b = -1 for "not counted". The shared sinks send it to a spare counter after
// the last bin (the "trash" slot, never merged): min((unsigned)b, trash) is one instruction and
// keeps the per-sample code free of branches.

template <class C>
struct global_sink {
  C* counts;
  __device__ __forceinline__ void operator()(int b, unsigned k) const {
    if (b >= 0) global_add(counts + b, k);
  }
};

/// BinStride 1: h is this warp's sub-histogram (num_bins counters and the trash slot, in a
/// row). BinStride 32: h is this lane's column of the per-lane sub-histograms, whose counter
/// for bin b lies at b * 32 + lane: lane l always hits bank l, so a warp's 32 adds never
/// conflict on a bank whatever bins they fall in (uniform or skewed).
template <bool MaySkip, int BinStride>
struct shared32_sink {
  unsigned* h;
  unsigned trash;  // = num_bins
  __device__ __forceinline__ void operator()(int b, unsigned k) const {
    const auto ub = static_cast<unsigned>(b);
    const unsigned bin = !MaySkip || ub < trash ? ub : trash;
    atomicAdd(h + bin * BinStride, k);
  }
};

/// Two 16-bit counters per 32-bit word (the trash slot included). The add that takes a counter
/// from below 2^15 to 2^15 or more (exactly one add per crossing: atomics return distinct old
/// values) moves 2^15 of it to the global counter. Between two flush points a block adds at
/// most 2^15 to a counter that held at most 2^15 - 1, so no counter exceeds 2^16 - 1 or carries
/// into its neighbour, and at most one crossing per counter happens.
template <class C, bool MaySkip>
struct shared16_sink {
  unsigned* words;
  C* counts;
  unsigned trash;  // = num_bins
  __device__ __forceinline__ void operator()(int b, unsigned k) const {
    const auto ub = static_cast<unsigned>(b);
    const unsigned bin = !MaySkip || ub < trash ? ub : trash;
    const unsigned shift = (bin & 1u) * 16u;
    unsigned* w = words + (bin >> 1);
    const unsigned old = (atomicAdd(w, k << shift) >> shift) & 0xFFFFu;
    if (old < 0x8000u && old + k >= 0x8000u) {
      atomicSub(w, 0x8000u << shift);
      if (bin < trash) global_add(counts + bin, 0x8000u);
    }
  }
};

/// A thread's current run of equal bins (aggregation).
struct run_state {
  int bin = -1;
  unsigned count = 0;
};

/// How a thread aggregates before it adds: not at all (one add per sample), runs of equal
/// bins across its samples (one add per run), or whole vectors of one repeated value (one add
/// per such vector, carried as a run across vectors; mixed vectors add per sample).
enum class agg { none, runs, vectors };

template <class Sink>
__device__ __forceinline__ void extend_run(run_state& run, int b, unsigned k, const Sink& sink) {
  if (b != run.bin) {
    // Not at first (bin -1, count 0): a sink that never skips takes -1 as a real bin, and
    // adding 0 there would still touch a counter far outside the array.
    if (run.count > 0) sink(run.bin, run.count);
    run.bin = b;
    run.count = k;
  } else {
    run.count += k;
  }
}

template <class Sink>
__device__ __forceinline__ void flush(run_state& run, const Sink& sink) {
  if (run.count > 0) sink(run.bin, run.count);
  run.bin = -1;
  run.count = 0;
}

template <agg A, class T, class Bins, class Sink>
__device__ __forceinline__ void count_vector(const uint4& r, const Bins& bins, run_state& run,
                                             const Sink& sink) {
  if constexpr (A == agg::vectors) {
    if (all_equal<T>(r)) {
      extend_run(run, bins(sample_at<T>(r, 0)), static_cast<unsigned>(vec<T>), sink);
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < vec<T>; ++j) {
    const int b = bins(sample_at<T>(r, j));
    if constexpr (A == agg::runs) extend_run(run, b, 1u, sink);
    else sink(b, 1u);
  }
}

}  // namespace scankit::cuda::detail::hist
