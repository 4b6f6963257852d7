// CUDA backend: prefix scans of device memory (device-pointer API) and of host containers.
//
// This header compiles with any C++20 compiler (no nvcc needed): it declares the scans, and
// the library instantiates them for the built-in element types and operators. To scan with
// your own monoid, include "scankit/cuda/scan.cuh" from a .cu file instead; it holds the
// kernels and instantiates whatever you call.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "scankit/cuda/detail/scan/tuning_override.hpp"
#include "scankit/error.hpp"
#include "scankit/ops.hpp"

namespace scankit::cuda {

/// Every scan algorithm, each selectable by name (see docs/ALGORITHMS.md).
enum class scan_algorithm {
  hillis_steele_global,    // naive O(n log n), one launch per step, in global memory
  hillis_steele_shared,    // double-buffered Hillis-Steele per block in shared memory
  blelloch,                // work-efficient up/down-sweep per block, 2 items per thread
  blelloch_conflict_free,  // the same with padding against shared-memory bank conflicts
  work_efficient_global,   // up/down-sweep in global memory, one launch per level
  reduce_then_scan,        // tiled three-phase scan with vectorised loads
  decoupled_lookback,      // single-pass scan with decoupled look-back (the default)
};

inline constexpr std::array all_scan_algorithms{
    scan_algorithm::hillis_steele_global,  scan_algorithm::hillis_steele_shared,
    scan_algorithm::blelloch,              scan_algorithm::blelloch_conflict_free,
    scan_algorithm::work_efficient_global, scan_algorithm::reduce_then_scan,
    scan_algorithm::decoupled_lookback};

constexpr std::string_view name(scan_algorithm a) {
  switch (a) {
    case scan_algorithm::hillis_steele_global: return "hillis-steele-global";
    case scan_algorithm::hillis_steele_shared: return "hillis-steele-shared";
    case scan_algorithm::blelloch: return "blelloch";
    case scan_algorithm::blelloch_conflict_free: return "blelloch-conflict-free";
    case scan_algorithm::work_efficient_global: return "work-efficient-global";
    case scan_algorithm::reduce_then_scan: return "reduce-then-scan";
    case scan_algorithm::decoupled_lookback: return "decoupled-lookback";
  }
  return "?";
}

inline std::optional<scan_algorithm> parse_scan_algorithm(std::string_view s) {
  for (auto a : all_scan_algorithms)
    if (name(a) == s) return a;
  return std::nullopt;
}

inline constexpr scan_algorithm default_scan_algorithm = scan_algorithm::decoupled_lookback;

/// Which algorithm and block size a scan uses. block_size 0 picks the algorithm's tuned
/// default; otherwise it must be a power of two in [32, 1024] (a multiple of 32 for the
/// algorithms that do not need a power of two). Asking for the tuned size itself (256 for
/// decoupled-lookback) is the same as 0: the algorithm may then pick other shapes by input
/// size (decoupled-lookback's one-launch, one-tile-per-SM and warp-specialized tiles).
/// Out-of-range values throw invalid_argument (from scan_workspace_bytes and scan).
struct scan_config {
  scan_algorithm algorithm = default_scan_algorithm;
  int block_size = 0;
  /// decoupled-lookback's internals (forced path, thresholds), for tests and tuning runs; the
  /// default leaves the tuning alone.
  detail::scan_tuning_override tuning{};
};

/// Bytes of device workspace a scan of n items of `item_bytes` bytes needs with `cfg`.
/// Throws invalid_argument for a bad n or block size.
std::size_t scan_workspace_bytes(std::int64_t n, std::size_t item_bytes, const scan_config& cfg = {});

/// How decoupled-lookback is tuned for items of `item_bytes` bytes on the current device (a
/// compute capability 9.0 device with 132 SMs where there is none): the tuning table's fields by name,
/// and the path (plan_scan) that 16-byte-aligned inputs of a range of sizes take with `cfg`.
/// Printed by `scankit bench scan`.
std::string scan_tuning_description(std::size_t item_bytes, const scan_config& cfg = {});

/// The path decoupled-lookback takes for n items of `item_bytes` bytes with `cfg` on the current
/// device, with pointers 16-byte aligned or not, in words (e.g. "blocked: 768 threads x 8
/// vectors, 512 tiles, load window 256"). For tests and the CLI.
std::string scan_path_description(std::int64_t n, std::size_t item_bytes, bool aligned, const scan_config& cfg = {});

/// Device-pointer scan, stream-ordered, no allocation, no synchronisation.
///   d_in, d_out: n items in device memory; d_out == d_in (in place) is allowed.
///   init:        carry-in, combined before the first item (op(init, x0)); pass op.identity()
///                for none. An exclusive scan writes init at position 0.
///   d_total:     optional device pointer that receives the carry-out op(init, x0, ..., xn-1).
///   d_workspace: at least scan_workspace_bytes(n, sizeof(T), cfg) bytes of device memory,
///                16-byte aligned, as cudaMalloc's (256-byte aligned) pointers are: the
///                look-back's status words are read as aligned 8-byte words (checked).
/// Arguments are checked before anything is launched; a failure throws and leaves d_in intact.
template <class Op>
void scan(const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t n, Op op, scan_kind kind,
          value_t<Op> init, void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
          const scan_config& cfg = {}, value_t<Op>* d_total = nullptr);

/// Device memory owned by the library, for callers who do not manage workspace themselves.
/// Grows on demand (outside any timed region if you call reserve() first).
class workspace {
 public:
  workspace() = default;
  explicit workspace(std::size_t bytes) { reserve(bytes); }
  workspace(const workspace&) = delete;
  workspace& operator=(const workspace&) = delete;
  workspace(workspace&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) { o.ptr_ = nullptr, o.bytes_ = 0; }
  workspace& operator=(workspace&& o) noexcept;
  ~workspace();
  void reserve(std::size_t bytes);
  void* data() const { return ptr_; }
  std::size_t size() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

/// Device-pointer scan with library-managed workspace (grown as needed; may allocate).
template <class Op>
void scan(const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t n, Op op, scan_kind kind,
          value_t<Op> init, workspace& ws, cudaStream_t stream, const scan_config& cfg = {},
          value_t<Op>* d_total = nullptr) {
  ws.reserve(scan_workspace_bytes(n, sizeof(value_t<Op>), cfg));
  scan(d_in, d_out, n, op, kind, init, ws.data(), ws.size(), stream, cfg, d_total);
}

/// Options of the host-container scans.
struct host_scan_options {
  scan_config config{};
  /// Upper bound on device memory the call may use (0: no bound). Arrays larger than the
  /// bound are streamed through the GPU in chunks, carrying the running total between them.
  std::size_t device_memory_limit = 0;
};

/// Host-container scan: streams `in` through the GPU in chunks (copy in, scan, copy out, on
/// three streams so the copies and the scans overlap; pageable memory goes through pinned
/// staging buffers) and writes the result to `out` (which may be `in`). Returns the carry-out.
/// Synchronises. Throws no_device_error without a GPU. The streams and buffers are kept per
/// host thread for later calls (allocating pinned memory costs more than the copies); see
/// release_host_buffers().
template <class Op>
value_t<Op> scan_host(const value_t<Op>* in, value_t<Op>* out, std::int64_t n, Op op,
                      scan_kind kind, value_t<Op> init, const host_scan_options& opts = {});

template <class T, monoid Op = sum<T>>
  requires std::same_as<value_t<Op>, T>
T inclusive_scan(std::span<const T> in, std::span<T> out, Op op = {},
                 std::optional<T> init = std::nullopt, const host_scan_options& opts = {}) {
  if (out.size() < in.size()) throw invalid_argument("scankit::cuda::inclusive_scan: output shorter than input");
  return scan_host(in.data(), out.data(), static_cast<std::int64_t>(in.size()), op,
                   scan_kind::inclusive, init ? *init : op.identity(), opts);
}

template <class T, monoid Op = sum<T>>
  requires std::same_as<value_t<Op>, T>
T exclusive_scan(std::span<const T> in, std::span<T> out, Op op = {},
                 std::optional<T> init = std::nullopt, const host_scan_options& opts = {}) {
  if (out.size() < in.size()) throw invalid_argument("scankit::cuda::exclusive_scan: output shorter than input");
  return scan_host(in.data(), out.data(), static_cast<std::int64_t>(in.size()), op,
                   scan_kind::exclusive, init ? *init : op.identity(), opts);
}

/// Frees the calling thread's cached streaming buffers (device and pinned host memory) of the
/// host-container scans. They are also freed when the thread exits.
void release_host_buffers() noexcept;

/// Number of CUDA devices visible (0 when there is no driver or no GPU; never throws).
int device_count() noexcept;

}  // namespace scankit::cuda
