// CUDA backend: radix sorts of device memory (device-pointer API) and of host containers.
// Key order (IEEE total order for floats, NaNs last), stability and bit ranges: see
// scankit/sort_traits.hpp; the CPU sorts order identically.
//
// This header compiles with any C++20 compiler (no nvcc needed); the library instantiates the
// sorts for every key type (uint8..64, int8..64, float, double) and for values of 4, 8 and 16
// bytes (any trivially copyable type of that size, moved as opaque bytes).
//
//   std::size_t bytes = cuda::sort_workspace_bytes(n, sizeof(K), sizeof(V));
//   cuda::sort_pairs(d_keys, d_keys_sorted, d_vals, d_vals_sorted, n, d_ws, bytes, stream);
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "scankit/concepts.hpp"
#include "scankit/cuda/scan.hpp"  // workspace, device_count
#include "scankit/error.hpp"
#include "scankit/sort_traits.hpp"

namespace scankit::cuda {

/// Every sort algorithm, each selectable by name (see docs/ALGORITHMS.md).
enum class sort_algorithm {
  split_1bit,            // textbook: one bit per pass, a scan of the bit, a stable split
  lsd_reduce_then_scan,  // 8-bit digits: upsweep histograms, spine scan, downsweep scatter
  onesweep,              // one histogram read, then one look-back pass per 8-bit digit (default)
};

inline constexpr std::array all_sort_algorithms{sort_algorithm::split_1bit,
                                                sort_algorithm::lsd_reduce_then_scan,
                                                sort_algorithm::onesweep};

constexpr std::string_view name(sort_algorithm a) {
  switch (a) {
    case sort_algorithm::split_1bit: return "split-1bit";
    case sort_algorithm::lsd_reduce_then_scan: return "lsd-reduce-then-scan";
    case sort_algorithm::onesweep: return "onesweep";
  }
  return "?";
}

inline std::optional<sort_algorithm> parse_sort_algorithm(std::string_view s) {
  for (auto a : all_sort_algorithms)
    if (name(a) == s) return a;
  return std::nullopt;
}

inline constexpr sort_algorithm default_sort_algorithm = sort_algorithm::onesweep;

/// The path a onesweep sort takes (sort_config::tile; the other algorithms ignore it).
/// automatic takes the tuning table's choice for n, the key and value sizes, the bit range and
/// the device (plan_sort says which, sort_tuning_description prints the table). The others
/// force one path, for tests and measurements:
///   one_block  one block sorts every pass in shared memory (n up to a few thousand keys)
///   counting   one-byte keys alone over all 8 bits: the histogram alone places every key
///   small      onesweep's tile for small inputs (one-byte keys with 8- or 16-byte values)
///   main       onesweep's main tile (its smaller stand-in where the device's shared memory
///              per block cannot hold it)
///   large      onesweep's tile for large inputs (pairs)
/// A forced path that does not apply falls back to the automatic choice, never throws: no such
/// tile for these key and value sizes, n above the one-block limit, counting for anything but
/// one-byte keys alone over all their bits, or a tile whose shared memory per block the device
/// cannot give. plan_sort reports the path that runs.
enum class sort_tile { automatic, one_block, counting, small, main, large };

inline constexpr std::array all_sort_tiles{sort_tile::automatic, sort_tile::one_block, sort_tile::counting,
                                           sort_tile::small,     sort_tile::main,      sort_tile::large};

constexpr std::string_view name(sort_tile t) {
  switch (t) {
    case sort_tile::automatic: return "auto";
    case sort_tile::one_block: return "one-block";
    case sort_tile::counting: return "counting";
    case sort_tile::small: return "small";
    case sort_tile::main: return "main";
    case sort_tile::large: return "large";
  }
  return "?";
}

/// The positions an argsort with std::int64_t output carries between its digit passes
/// (sort_config::positions; other sorts ignore it).
///   narrow     32 bits: the first pass makes the positions from the item index, the passes
///              between move 4 bytes of position per key and the last pass writes the int64
///              positions straight into the output (no widening pass, no 32-bit buffer). It
///              runs on the onesweep tiles of 4-byte values (plan_argsort) and needs n <= 2^32
///              and a onesweep tile (not the one-block sort, not the other algorithms);
///              elsewhere it falls back to wide.
///   wide       64 bits in every pass: what n > 2^32 needs.
///   automatic  narrow from the tuning table's size for the key size (4- and 8-byte keys on
///              their large tiles), else wide.
enum class sort_positions { automatic, narrow, wide };

constexpr std::string_view name(sort_positions p) {
  switch (p) {
    case sort_positions::automatic: return "auto";
    case sort_positions::narrow: return "narrow";
    case sort_positions::wide: return "wide";
  }
  return "?";
}

struct sort_config {
  sort_algorithm algorithm = default_sort_algorithm;
  sort_tile tile = sort_tile::automatic;                   // onesweep only
  sort_positions positions = sort_positions::automatic;  // argsort with int64 positions only
};

/// What a sort runs (plan_sort).
struct sort_plan {
  sort_algorithm algorithm = default_sort_algorithm;
  bool copy_only = false;                 // n <= 1 or an empty bit range: keys and values are copied
  sort_tile tile = sort_tile::automatic;  // onesweep's path (automatic: another algorithm, or copy_only)
  bool reduced = false;                   // main's smaller stand-in: the device cannot hold main
  int block = 0;                          // threads per block of the path's sorting kernel
  int items = 0;                          // keys per thread
  int min_blocks = 0;                     // onesweep tiles: blocks per SM the register budget is for
  bool stage_early = false;               // onesweep tiles: keys staged in shared memory as ranked
  std::size_t shared_bytes = 0;           // dynamic shared memory per block
  int tuning_arch = 90;                   // the tuning table's entry (compute capability x 10)
  /// plan_argsort with int64 positions: they move as 32 bits between passes (sort_positions),
  /// and the tile is that of 4-byte values.
  bool narrow_positions = false;
  std::string describe() const;
};

/// The path a sort of n keys of `key_bytes` with values of `value_bytes` (0: keys only; argsort:
/// 8) takes with `opts` (its bit range) and `cfg` on the current device (the newest tuning
/// entry's limits without a device). Throws invalid_argument for bad sizes or bit ranges.
sort_plan plan_sort(std::int64_t n, std::size_t key_bytes, std::size_t value_bytes = 0,
                    const sort_options& opts = {}, const sort_config& cfg = {});

/// The path an argsort of n keys of `key_bytes` with positions of `index_bytes` (8: int64,
/// 4: uint32) takes: plan_sort's, and for int64 positions whether they move as 32 bits
/// between passes (narrow_positions; then the tile is that of 4-byte values). Throws
/// invalid_argument for bad sizes or bit ranges.
sort_plan plan_argsort(std::int64_t n, std::size_t key_bytes, std::size_t index_bytes = 8,
                       const sort_options& opts = {}, const sort_config& cfg = {});

/// Bytes of device workspace a sort of n keys of `key_bytes` bytes with values of
/// `value_bytes` bytes (0: keys only; argsort: 8) needs with `cfg`. Roughly one extra buffer
/// of the keys and values plus small tables (the benchmark reports bytes per key). With
/// value_bytes 8 it also covers an argsort (at least argsort_workspace_bytes).
std::size_t sort_workspace_bytes(std::int64_t n, std::size_t key_bytes, std::size_t value_bytes = 0,
                                 const sort_config& cfg = {});

/// Bytes of device workspace an argsort with positions of `index_bytes` (8 or 4) needs with
/// `cfg`: where int64 positions are carried as 32 bits (sort_positions, plan_argsort), one
/// alternate buffer of the keys and of 32-bit positions plus small tables, about n * 4 bytes
/// fewer than sort_workspace_bytes(n, key_bytes, 8, cfg). Exact for n, so it drops where the
/// 32-bit carry begins: a workspace reused for every n up to some size is sized with
/// sort_workspace_bytes, which never shrinks as n grows.
std::size_t argsort_workspace_bytes(std::int64_t n, std::size_t key_bytes, std::size_t index_bytes = 8,
                                    const sort_config& cfg = {});

/// The onesweep tuning for keys of `key_bytes` and values of `value_bytes` (0: keys only) on the
/// current device, in words, from the tuning table's fields: the one-block limit and each tile
/// (threads, keys per thread, blocks per SM the register budget allows, where the keys are
/// staged) with the sizes it runs at (printed by `scankit bench sort`).
std::string sort_tuning_description(std::size_t key_bytes, std::size_t value_bytes = 0);

namespace detail {
/// One sort request, type-erased over the value type (values move as opaque bytes).
struct sort_request {
  const void* keys_in = nullptr;
  void* keys_out = nullptr;
  const void* values_in = nullptr;  // nullptr with index_values: values are the input positions
  void* values_out = nullptr;
  std::size_t value_bytes = 0;      // 0: keys only
  bool index_values = false;        // argsort: values_out receives positions (int64, or uint32 with 4-byte values)
  bool discard_keys = false;        // argsort_without_keys: keys_out is scratch, its final contents unspecified
  std::int64_t n = 0;
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
  cudaStream_t stream = nullptr;
  sort_options options{};
  sort_config config{};
};
/// The device-pointer sort for key type K (explicitly instantiated by the library).
template <class K>
void sort_device(const sort_request& r);
/// The host-container sort for key type K: copies in, sorts, copies out; synchronises.
template <class K>
void sort_host(K* keys, void* values, std::size_t value_bytes, bool index_values, std::int64_t n,
               const sort_options& opts, const sort_config& cfg);

// The local steps of scankit::dist's radix sort (top_digit_starts, split_by_top_digit,
// sort_buckets) live with it: scankit/dist/detail/nccl/bucket_sort.cuh.

template <class V>
constexpr void check_value_type() {
  static_assert(std::is_trivially_copyable_v<V>, "sort values must be trivially copyable");
  static_assert(sizeof(V) == 4 || sizeof(V) == 8 || sizeof(V) == 16,
                "the CUDA sorts move values of 4, 8 or 16 bytes; for other types sort indices "
                "(argsort) and gather");
}
}  // namespace detail

/// Sorts n keys from d_keys_in into d_keys_out (stable; d_keys_out == d_keys_in is allowed).
/// Stream-ordered; no allocation, no synchronisation. d_workspace: at least
/// sort_workspace_bytes(n, sizeof(K), 0, cfg) bytes. Arguments are checked before anything is
/// launched; a failure throws and leaves the inputs intact.
template <class K>
void sort_keys(const K* d_keys_in, K* d_keys_out, std::int64_t n, void* d_workspace,
               std::size_t workspace_bytes, cudaStream_t stream, const sort_options& opts = {},
               const sort_config& cfg = {}) {
  detail::sort_request r;
  r.keys_in = d_keys_in, r.keys_out = d_keys_out, r.n = n, r.workspace = d_workspace;
  r.workspace_bytes = workspace_bytes, r.stream = stream, r.options = opts, r.config = cfg;
  detail::sort_device<K>(r);
}

/// Sorts key-value pairs: values move with their keys (stable). Values of 4, 8 or 16 bytes;
/// the value pointers must be aligned to min(sizeof(V), 8) bytes. In place is allowed for
/// keys and values. Workspace: sort_workspace_bytes(n, sizeof(K), sizeof(V), cfg).
template <class K, class V>
void sort_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                std::int64_t n, void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
                const sort_options& opts = {}, const sort_config& cfg = {}) {
  detail::check_value_type<V>();
  detail::sort_request r;
  r.keys_in = d_keys_in, r.keys_out = d_keys_out, r.values_in = d_values_in;
  r.values_out = d_values_out, r.value_bytes = sizeof(V), r.n = n, r.workspace = d_workspace;
  r.workspace_bytes = workspace_bytes, r.stream = stream, r.options = opts, r.config = cfg;
  detail::sort_device<K>(r);
}

namespace detail {
/// argsort and argsort_without_keys (discard_keys: keys_out is scratch).
template <class K, class I>
void argsort_device(const K* keys_in, K* keys_out, I* indices_out, std::int64_t n, void* workspace,
                    std::size_t workspace_bytes, cudaStream_t stream, const sort_options& opts,
                    const sort_config& cfg, bool discard_keys) {
  sort_request r;
  r.keys_in = keys_in, r.keys_out = keys_out, r.values_out = indices_out, r.value_bytes = sizeof(I);
  r.index_values = true, r.discard_keys = discard_keys, r.n = n, r.workspace = workspace;
  r.workspace_bytes = workspace_bytes, r.stream = stream, r.options = opts, r.config = cfg;
  sort_device<K>(r);
}
}  // namespace detail

/// The stable sorting permutation: d_indices_out[i] is the input position of the i-th
/// smallest key; d_keys_out receives the sorted keys. Positions are std::int64_t, or
/// std::uint32_t for n <= 2^32. The first pass makes the positions itself (no index array is
/// read). std::uint32_t positions move 4 bytes per key and pass; std::int64_t ones do too on
/// the paths sort_positions says, the last pass writing them as int64. Workspace: argsort_workspace_bytes(n,
/// sizeof(K), sizeof(I), cfg), or sort_workspace_bytes(n, sizeof(K), sizeof(I), cfg), which
/// is at least as large.
template <class K, class I>
  requires std::same_as<I, std::int64_t> || std::same_as<I, std::uint32_t>
void argsort(const K* d_keys_in, K* d_keys_out, I* d_indices_out, std::int64_t n, void* d_workspace,
             std::size_t workspace_bytes, cudaStream_t stream, const sort_options& opts = {},
             const sort_config& cfg = {}) {
  detail::argsort_device(d_keys_in, d_keys_out, d_indices_out, n, d_workspace, workspace_bytes, stream, opts, cfg,
                         false);
}

/// argsort for a caller that does not want the sorted keys: d_keys_scratch (n keys) holds keys
/// between the passes and is left with unspecified contents. Where the int64 positions move
/// as 32 bits (sort_positions), the last pass then writes only the positions: one write of
/// the keys less than argsort. Same workspace as argsort.
template <class K, class I>
  requires std::same_as<I, std::int64_t> || std::same_as<I, std::uint32_t>
void argsort_without_keys(const K* d_keys_in, K* d_keys_scratch, I* d_indices_out, std::int64_t n, void* d_workspace,
                          std::size_t workspace_bytes, cudaStream_t stream, const sort_options& opts = {},
                          const sort_config& cfg = {}) {
  detail::argsort_device(d_keys_in, d_keys_scratch, d_indices_out, n, d_workspace, workspace_bytes, stream, opts, cfg,
                         true);
}

/// Host containers: copies to the GPU, sorts, copies back (allocates; synchronises). Throws
/// no_device_error without a GPU.
template <sort_key K>
void sort_keys(std::span<K> keys, const sort_options& opts = {}, const sort_config& cfg = {}) {
  detail::sort_host<K>(keys.data(), nullptr, 0, false, static_cast<std::int64_t>(keys.size()), opts, cfg);
}

template <sort_key K, class V>
void sort_pairs(std::span<K> keys, std::span<V> values, const sort_options& opts = {},
                const sort_config& cfg = {}) {
  detail::check_value_type<V>();
  if (values.size() < keys.size())
    throw invalid_argument("scankit::cuda::sort_pairs: values are shorter than the keys");
  detail::sort_host<K>(keys.data(), values.data(), sizeof(V), false,
                       static_cast<std::int64_t>(keys.size()), opts, cfg);
}

/// The stable sorting permutation of host keys (the keys are left unchanged).
template <sort_key K>
std::vector<std::int64_t> argsort(std::span<const K> keys, const sort_options& opts = {},
                                  const sort_config& cfg = {}) {
  std::vector<K> copy(keys.begin(), keys.end());
  std::vector<std::int64_t> idx(keys.size());
  detail::sort_host<K>(copy.data(), idx.data(), 8, true, static_cast<std::int64_t>(keys.size()), opts, cfg);
  return idx;
}

}  // namespace scankit::cuda
