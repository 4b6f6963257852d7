// CUDA backend: stream compaction of device memory (device-pointer API) and of host containers.
//
//   select_if       items with pred(x) true, in order            -> count
//   remove_if       items with pred(x) false, in order           -> count
//   select_flagged  in[i] where flags[i] != 0, in order          -> count
//   partition       pred-true items first (in order), then the others (reversed by default,
//                   see scankit::rejected_order)                  -> number selected
//   unique          first item of each run of equivalent items   -> number of runs
//   unique_count    unique plus each run's length (run-length encoding)
//   nonzero         indices of the nonzero items (numpy.flatnonzero)
//   select_indices  indices i in [0, n) with pred(i) true        -> count
//
// Device-pointer functions are stream-ordered and neither allocate nor synchronise: the count
// goes to `d_count` (one std::int64_t in device memory), where later kernels on the stream can
// read it; read_count() brings it to the host. Host-container functions copy to the GPU and
// back and return the count. Arguments are checked before anything is launched (bad ones
// throw scankit::invalid_argument and leave every array intact).
//
// In place (d_out == d_in) is allowed for select_if, remove_if and select_flagged with the
// single-pass algorithm (each tile reads its items before any tile after it can write, and
// writes only below its own start). unique and unique_count are not in place on the GPU (a
// tile reads the item before its start, which the previous tile may be writing), and
// scan-scatter rejects in place for everything. Outputs must hold n items.
//
// This header compiles with any C++20 compiler. The library instantiates the functions for
// the built-in element types (int32/uint32/int64/uint64/float/double/uint8) with the
// predicates is_nonzero, less_than and greater_than, uint8 flags and equal_to; for your own
// item types (trivially copyable structs) and predicates (functors with a __device__ call
// operator), include "scankit/cuda/compact.cuh" from a .cu file. A predicate (and an equality
// for unique) must be a pure function of its arguments: the kernels may call it more than once
// per item (scan-scatter maps and scatters; the warp-specialized tile counts, then stages) and
// rely on getting the same answer.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "scankit/cuda/detail/compact/tuning_override.hpp"
#include "scankit/cuda/scan.hpp"
#include "scankit/error.hpp"
#include "scankit/predicates.hpp"

namespace scankit::cuda {

enum class compact_algorithm {
  scan_scatter,  // map to 0/1, exclusive scan (any scan algorithm), scatter: three launches
  single_pass,   // per-tile counts with decoupled look-back, scatter in the same pass (default)
};

inline constexpr std::array all_compact_algorithms{compact_algorithm::scan_scatter,
                                                   compact_algorithm::single_pass};

constexpr std::string_view name(compact_algorithm a) {
  switch (a) {
    case compact_algorithm::scan_scatter: return "scan-scatter";
    case compact_algorithm::single_pass: return "single-pass";
  }
  return "?";
}

inline std::optional<compact_algorithm> parse_compact_algorithm(std::string_view s) {
  for (auto a : all_compact_algorithms)
    if (name(a) == s) return a;
  return std::nullopt;
}

/// Tile of single-pass. automatic picks one by item size, input size, selector, outputs and
/// device (plan_compact); the others force one. A forced
/// tile that does not apply to a call runs what automatic would pick for it.
/// - small: 4 16-byte vectors per thread (4,096 items of 4 bytes at 256 threads); automatic takes
///   it below 32 MiB of input (more, shorter tiles: more parallelism for a short input).
/// - medium: 8 vectors per thread (8,192 items of 4 bytes); automatic takes it from 32 MiB.
/// - segmented: 12 vectors per lane, each warp compacting its own contiguous segment. Applies to
///   4- and 8-byte items written without indices, 256 threads, 16-byte-aligned input and output.
///   automatic takes it from 512 MiB of 4-byte items, 16 MiB for select_flagged, 128 MiB of
///   8-byte items.
/// - specialized: the warp-specialized tile (a producer warp bulk-loads tiles into shared memory
///   and counts them while other warps look back and write). Applies to 4- and 8-byte items
///   selected by a predicate, as run starts or by flags, written without indices, 256 threads,
///   16-byte-aligned input and output, more than one tile, and kernel code with Hopper's bulk
///   copies (sm_90 or later code on a device of compute capability 9.0 or later). automatic
///   takes it from 32 MiB of input where it applies, before the segmented tile's thresholds,
///   except for flags (select_flagged), where it is taken from its own threshold
///   (compact/tuning.cuh) or when forced.
enum class compact_tile { automatic, small, medium, segmented, specialized };

inline constexpr compact_tile all_compact_tiles[] = {compact_tile::automatic, compact_tile::small,
                                                     compact_tile::medium, compact_tile::segmented,
                                                     compact_tile::specialized};

constexpr std::string_view name(compact_tile t) {
  switch (t) {
    case compact_tile::automatic: return "auto";
    case compact_tile::small: return "small";
    case compact_tile::medium: return "medium";
    case compact_tile::segmented: return "segmented";
    case compact_tile::specialized: return "specialized";
  }
  return "?";
}

/// Which algorithm a compaction uses. block_size 0: the default (256); otherwise a power of
/// two in [64, 256]. `scan` is the scan scan-scatter runs (any of the foundation's). `tile`
/// belongs to single-pass. Out-of-range values throw invalid_argument (from
/// compact_workspace_bytes and every compaction).
struct compact_config {
  compact_algorithm algorithm = compact_algorithm::single_pass;
  int block_size = 0;
  scan_config scan{};
  compact_tile tile = compact_tile::automatic;
  /// single-pass's internals (prefetch, warp-specialized shape, thresholds), for tests and
  /// tuning runs; the default leaves the tuning alone.
  detail::compact_tuning_override tuning{};
};

/// Bytes of device workspace a compaction of n items of `item_bytes` bytes needs (for
/// select_indices pass 0). The same for every operation. Throws for a bad n or config.
std::size_t compact_workspace_bytes(std::int64_t n, std::size_t item_bytes, const compact_config& cfg = {});

/// Waits for `stream` and returns the count a device-pointer call wrote to d_count.
std::int64_t read_count(const std::int64_t* d_count, cudaStream_t stream);

// ---- device-pointer API (definitions in scankit/cuda/compact.cuh) ------------------------
// Common trailing parameters: d_count (device, receives the count), d_workspace of at least
// compact_workspace_bytes(n, sizeof(T), cfg) bytes, stream, cfg.

template <class T, class Pred>
void select_if(const T* d_in, T* d_out, std::int64_t n, Pred pred, std::int64_t* d_count,
               void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
               const compact_config& cfg = {});

template <class T, class Pred>
void remove_if(const T* d_in, T* d_out, std::int64_t n, Pred pred, std::int64_t* d_count,
               void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
               const compact_config& cfg = {});

template <class T, class F>
void select_flagged(const T* d_in, const F* d_flags, T* d_out, std::int64_t n, std::int64_t* d_count,
                    void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
                    const compact_config& cfg = {});

/// d_out must not overlap d_in. d_count receives the number selected.
template <class T, class Pred>
void partition(const T* d_in, T* d_out, std::int64_t n, Pred pred, rejected_order order,
               std::int64_t* d_count, void* d_workspace, std::size_t workspace_bytes,
               cudaStream_t stream, const compact_config& cfg = {});

template <class T, class Eq = equal_to<T>>
void unique(const T* d_in, T* d_out, std::int64_t n, Eq eq, std::int64_t* d_count,
            void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
            const compact_config& cfg = {});

/// d_counts (n int64) receives the run lengths; it must not overlap d_in or d_values.
template <class T, class Eq = equal_to<T>>
void unique_count(const T* d_in, T* d_values, std::int64_t* d_counts, std::int64_t n, Eq eq,
                  std::int64_t* d_runs, void* d_workspace, std::size_t workspace_bytes,
                  cudaStream_t stream, const compact_config& cfg = {});

template <class T>
void nonzero(const T* d_in, std::int64_t* d_indices, std::int64_t n, std::int64_t* d_count,
             void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
             const compact_config& cfg = {});

/// Indices i in [0, n) with pred(i) true (pred takes a std::int64_t).
template <class Pred>
void select_indices(std::int64_t n, Pred pred, std::int64_t* d_indices, std::int64_t* d_count,
                    void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
                    const compact_config& cfg = {});

// ---- host-container API: copies in, compacts, copies the result back; synchronises ----------
// Outputs must be at least as long as the input. Returns the count. Throws no_device_error
// without a GPU.

template <class T, class Pred>
std::int64_t select_if(std::span<const T> in, std::span<T> out, Pred pred, const compact_config& cfg = {});

template <class T, class Pred>
std::int64_t remove_if(std::span<const T> in, std::span<T> out, Pred pred, const compact_config& cfg = {});

template <class T, class F>
std::int64_t select_flagged(std::span<const T> in, std::span<const F> flags, std::span<T> out,
                            const compact_config& cfg = {});

template <class T, class Pred>
std::int64_t partition(std::span<const T> in, std::span<T> out, Pred pred,
                       rejected_order order = rejected_order::reversed, const compact_config& cfg = {});

template <class T, class Eq = equal_to<T>>
std::int64_t unique(std::span<const T> in, std::span<T> out, Eq eq = {}, const compact_config& cfg = {});

template <class T, class Eq = equal_to<T>>
std::int64_t unique_count(std::span<const T> in, std::span<T> values, std::span<std::int64_t> counts,
                          Eq eq = {}, const compact_config& cfg = {});

template <class T>
std::int64_t nonzero(std::span<const T> in, std::span<std::int64_t> indices, const compact_config& cfg = {});

}  // namespace scankit::cuda
