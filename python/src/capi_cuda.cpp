// The C ABI's GPU backend: the library's device-pointer calls (and the kernels of
// capi_kernels.hpp) on the caller's device and stream. Nothing here allocates device memory:
// the Python side passes workspace from the caller's array library, so its allocator is used.
#include <cuda_runtime_api.h>

#include <string>
#include <type_traits>

#include "capi_gpu_scope.hpp"
#include "capi_internal.hpp"
#include "capi_kernels.hpp"
#include "scankit/cuda/compact.hpp"
#include "scankit/cuda/histogram.hpp"
#include "scankit/cuda/scan.hpp"
#include "scankit/cuda/segmented_sort.hpp"
#include "scankit/cuda/sort.hpp"
#include "scankit/cuda/topk.hpp"

namespace scankit::capi::gpu {
namespace {

namespace sc = scankit::cuda;

void check(cudaError_t e, const char* what) {
  kernels::check_cuda(e, what);
}

using scope::as_stream;
using scope::device_scope;

using kernels::sm_count;

/// A GPU algorithm name ("" = the default); CPU names are refused with the GPU ones listed.
template <class Parse, class Default>
auto gpu_choice(const std::string& a, Parse parse, Default fallback, const char* primitive) {
  if (a.empty()) return fallback;
  if (auto v = parse(a)) return *v;
  const std::string all = algorithm_list(primitive);
  if (a.rfind("cpu-", 0) == 0)
    throw scankit::invalid_argument("algorithm '" + a +
                                    "' runs on the CPU; GPU arrays take one of " +
                                    all.substr(0, all.find(",cpu-")));
  throw scankit::invalid_argument("unknown " + std::string(primitive) + " algorithm '" + a +
                                  "'; choose from " + all);
}

sc::scan_config scan_config_of(const std::string& a) {
  sc::scan_config cfg;
  cfg.algorithm = gpu_choice(a, sc::parse_scan_algorithm, sc::default_scan_algorithm, "scan");
  return cfg;
}
sc::sort_config sort_config_of(const std::string& a) {
  sc::sort_config cfg;
  cfg.algorithm = gpu_choice(a, sc::parse_sort_algorithm, sc::default_sort_algorithm, "sort");
  return cfg;
}
sc::compact_config compact_config_of(const std::string& a) {
  sc::compact_config cfg;
  cfg.algorithm =
      gpu_choice(a, sc::parse_compact_algorithm, sc::compact_algorithm::single_pass, "compact");
  return cfg;
}
sc::histogram_options histogram_options_of(const std::string& a) {
  sc::histogram_options o;
  o.algorithm =
      gpu_choice(a, sc::parse_histogram_algorithm, sc::default_histogram_algorithm, "histogram");
  return o;
}

/// f(type_identity<K>) for the key type a sort (or top-k: `what`) of dtype runs on:
/// float16/bfloat16 keys as the uint16 ordered bits sort() maps them to, every other type as
/// itself.
template <class F>
void visit_sort_key(int dtype, F&& f, const char* what = "sort") {
  require_type(dtype, sort_types, what);
  if (dtype == SK_F16 || dtype == SK_BF16) return f(std::type_identity<std::uint16_t>{});
  visit_number(dtype, f);
}

void check_workspace(std::int64_t have, std::int64_t need, const char* where) {
  if (have < need)
    throw scankit::invalid_argument(std::string(where) + ": workspace of " + std::to_string(have) +
                                    " bytes is smaller than the " + std::to_string(need) +
                                    " needed");
}

/// Whether a scan over [outer][len][inner] runs as the library's 1-D scan once per line: one
/// line; contiguous lines with an algorithm other than the default (only the default has a
/// batched form); or a few long contiguous lines, which the single-pass 1-D scan reads once
/// where the batched kernels read twice.
bool library_per_line(std::int64_t outer, std::int64_t len, std::int64_t inner,
                      const std::string& algorithm, const sc::scan_config& cfg) {
  if (outer * inner == 1) return true;
  if (inner != 1) return false;
  if (!algorithm.empty() && cfg.algorithm != sc::default_scan_algorithm) return true;
  return outer <= 16 && len >= (std::int64_t{1} << 20);
}

constexpr std::size_t align256(std::size_t b) {
  return (b + 255) / 256 * 256;
}

/// Whether an argsort of n keys sorts 32-bit positions and widens them to the int64 indices in
/// one more pass: where the library's int64 argsort carries int64 throughout (below the
/// tuning's size for 32-bit positions) and n <= 2^32. Elsewhere the library's int64 argsort
/// carries 32-bit positions and writes int64 from its last pass, with no widening pass.
bool widen_after(int dtype, std::int64_t n, const sc::sort_config& cfg) {
  return n > 1 && n <= (std::int64_t{1} << 32) &&
         !sc::plan_argsort(n, static_cast<std::size_t>(dtype_size(dtype)), 8, {}, cfg)
              .narrow_positions;
}

/// The 32-bit argsort's own workspace: the 32-bit positions follow it.
std::size_t narrow_sort_bytes(int dtype, std::int64_t n, const sc::sort_config& cfg) {
  return align256(sc::sort_workspace_bytes(n, static_cast<std::size_t>(dtype_size(dtype)), 4, cfg));
}

std::size_t sort_bytes(int dtype, std::int64_t n, int value_bytes, bool indices,
                       const sc::sort_config& cfg) {
  const auto key_bytes = static_cast<std::size_t>(dtype_size(dtype));
  if (indices && widen_after(dtype, n, cfg))
    return narrow_sort_bytes(dtype, n, cfg) + static_cast<std::size_t>(n) * sizeof(std::uint32_t);
  if (indices) return sc::argsort_workspace_bytes(n, key_bytes, 8, cfg);
  return sc::sort_workspace_bytes(n, key_bytes, static_cast<std::size_t>(value_bytes), cfg);
}

/// Bytes at the start of a float16/bfloat16 top-k's workspace: the rows x cols ordered keys.
std::size_t topk_half_bytes(int dtype, std::int64_t rows, std::int64_t cols) {
  if (dtype != SK_F16 && dtype != SK_BF16) return 0;
  return align256(static_cast<std::size_t>(rows * cols) * sizeof(std::uint16_t));
}

/// The library's top-k workspace: one array for one row, else the rows'.
std::size_t topk_library_bytes(int dtype, std::int64_t rows, std::int64_t cols, std::int64_t k) {
  const auto key_bytes = static_cast<std::size_t>(dtype_size(dtype));
  if (rows == 1) return sc::topk_workspace_bytes(cols, k, key_bytes);
  return sc::topk_rows_workspace_bytes(rows, cols, k, key_bytes);
}

}  // namespace

bool built() {
  return true;
}

int device_count() {
  // Counted once: the devices a process sees are fixed when CUDA initialises.
  static const int count = sc::device_count();
  return count;
}

std::int64_t scan_workspace(int device, int dtype, std::int64_t outer, std::int64_t len,
                            std::int64_t inner, const std::string& algorithm) {
  device_scope scope(device);
  require_type(dtype, scan_types, "scan");
  if (outer < 0 || len < 0 || inner < 0) throw scankit::invalid_argument("scan: negative shape");
  const auto cfg = scan_config_of(algorithm);
  const auto item = static_cast<std::size_t>(dtype_size(dtype));
  if (library_per_line(outer, len, inner, algorithm, cfg))
    return static_cast<std::int64_t>(sc::scan_workspace_bytes(len, item, cfg));
  return kernels::batched_scan_plan(outer, len, inner, static_cast<int>(item), sm_count(device))
      .workspace_bytes;
}

void scan(int device, int dtype, int op, bool exclusive, const void* init, const void* in,
          void* out, std::int64_t outer, std::int64_t len, std::int64_t inner,
          const std::string& algorithm, void* ws, std::int64_t ws_bytes, std::uintptr_t stream,
          bool kept_workspace) {
  device_scope scope(device);
  if (kept_workspace) {
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    check(cudaStreamIsCapturing(as_stream(stream), &capture), "cudaStreamIsCapturing");
    if (capture != cudaStreamCaptureStatusNone)
      throw capturing_error("scan: the stream is capturing a CUDA graph; the kept workspace may not be captured");
  }
  require_type(dtype, scan_types, "scan");
  if (outer < 0 || len < 0 || inner < 0) throw scankit::invalid_argument("scan: negative shape");
  scankit::detail::check_size(outer * len * inner, "scan");
  const auto cfg = scan_config_of(algorithm);
  const auto item = static_cast<std::size_t>(dtype_size(dtype));
  const cudaStream_t s = as_stream(stream);
  if (library_per_line(outer, len, inner, algorithm, cfg)) {
    // The library's scan, once per line (one line for a 1-D array): any algorithm.
    visit_types<scan_types>(dtype, "scan", [&](auto tag) {
      using T = typename decltype(tag)::type;
      visit_op<T>(op, [&](auto m) {
        const T first = init ? *static_cast<const T*>(init) : m.identity();
        const auto kind =
            exclusive ? scankit::scan_kind::exclusive : scankit::scan_kind::inclusive;
        for (std::int64_t a = 0; a < outer; ++a)
          sc::scan(static_cast<const T*>(in) + a * len, static_cast<T*>(out) + a * len, len, m,
                   kind, first, ws, static_cast<std::size_t>(ws_bytes), s, cfg);
      });
    });
    return;
  }
  if (!algorithm.empty() && cfg.algorithm != sc::default_scan_algorithm)
    throw scankit::invalid_argument(
        "scan: algorithm '" + algorithm +
        "' scans one contiguous line at a time; move the axis last first");
  const auto plan =
      kernels::batched_scan_plan(outer, len, inner, static_cast<int>(item), sm_count(device));
  check_workspace(ws_bytes, plan.workspace_bytes, "scan");
  if (plan.workspace_bytes > 0 && ws == nullptr)
    throw scankit::invalid_argument("scan: workspace is a null pointer");
  if (outer * len * inner > 0 && (in == nullptr || out == nullptr))
    throw scankit::invalid_argument("scan: null input or output");
  kernels::batched_scan(dtype, op, exclusive, init, in, out, outer, len, inner, plan, ws, s);
}

std::int64_t sort_workspace(int device, int dtype, std::int64_t n, int value_bytes, bool indices,
                            const std::string& algorithm) {
  device_scope scope(device);
  require_type(dtype, sort_types, "sort");
  if (!indices && value_bytes > 0) visit_bytes(value_bytes, sizes_gpu_sort, [](auto) {});
  return static_cast<std::int64_t>(
      sort_bytes(dtype, n, value_bytes, indices, sort_config_of(algorithm)));
}

void sort(int device, int dtype, const void* keys_in, void* keys_out, const void* values_in,
          void* values_out, int value_bytes, bool indices, bool discard_keys, std::int64_t n,
          bool descending, const std::string& algorithm, void* ws, std::int64_t ws_bytes,
          std::uintptr_t stream) {
  device_scope scope(device);
  require_type(dtype, sort_types, "sort");
  if (!indices && value_bytes > 0) visit_bytes(value_bytes, sizes_gpu_sort, [](auto) {});
  scankit::detail::check_size(n, "sort");
  const auto cfg = sort_config_of(algorithm);
  const cudaStream_t s = as_stream(stream);
  scankit::sort_options opts;
  opts.descending = descending;
  const bool half = dtype == SK_F16 || dtype == SK_BF16;
  const int mant = dtype == SK_F16 ? 10 : 7;
  if (half && n > 0) {
    // Sort the ordered bits as uint16 in keys_out, then map them back.
    if (keys_in == nullptr || keys_out == nullptr)
      throw scankit::invalid_argument("sort: null keys");
    kernels::half_keys(static_cast<const std::uint16_t*>(keys_in),
                       static_cast<std::uint16_t*>(keys_out), n, mant, true, s);
    keys_in = keys_out;
  }
  const auto wsb = static_cast<std::size_t>(ws_bytes);
  visit_sort_key(dtype, [&](auto tag) {
    using K = typename decltype(tag)::type;
    const K* kin = static_cast<const K*>(keys_in);
    K* kout = static_cast<K*>(keys_out);
    if (indices && widen_after(dtype, n, cfg)) {
      // 32-bit positions after the sort's workspace, widened into the int64 output.
      const std::size_t part = narrow_sort_bytes(dtype, n, cfg);
      check_workspace(ws_bytes, static_cast<std::int64_t>(sort_bytes(dtype, n, 0, true, cfg)),
                      "sort");
      if (ws == nullptr) throw scankit::invalid_argument("sort: workspace is a null pointer");
      if (values_out == nullptr) throw scankit::invalid_argument("sort: null indices");
      auto* narrow = reinterpret_cast<std::uint32_t*>(static_cast<char*>(ws) + part);
      // Every pass writes the keys here (uint32 positions), so discard_keys would save nothing.
      sc::argsort(kin, kout, narrow, n, ws, part, s, opts, cfg);
      kernels::widen_indices(narrow, static_cast<std::int64_t*>(values_out), n, s);
    } else if (indices) {
      // One call: 32-bit positions between the passes and int64 written by the last one (int64
      // throughout beyond 2^32 keys).
      auto* idx = static_cast<std::int64_t*>(values_out);
      if (discard_keys) sc::argsort_without_keys(kin, kout, idx, n, ws, wsb, s, opts, cfg);
      else sc::argsort(kin, kout, idx, n, ws, wsb, s, opts, cfg);
    } else if (value_bytes > 0) {
      visit_bytes(value_bytes, sizes_gpu_sort, [&](auto vtag) {
        using V = typename decltype(vtag)::type;
        if constexpr (sizeof(V) == 4 || sizeof(V) == 8 || sizeof(V) == 16)
          sc::sort_pairs(kin, kout, static_cast<const V*>(values_in), static_cast<V*>(values_out),
                         n, ws, wsb, s, opts, cfg);
      });
    } else {
      sc::sort_keys(kin, kout, n, ws, wsb, s, opts, cfg);
    }
  });
  if (half && n > 0 && !(indices && discard_keys))
    kernels::half_keys(static_cast<const std::uint16_t*>(keys_out),
                       static_cast<std::uint16_t*>(keys_out), n, mant, false, s);
}

namespace {
/// sort_rows' workspace: the row offsets, the positions moved with the keys (with indices), then
/// the segmented sort's own.
std::size_t rows_offsets_bytes(std::int64_t rows) { return align256(static_cast<std::size_t>(rows + 1) * 8); }
std::size_t rows_positions_bytes(std::int64_t n, bool indices) {
  return indices ? align256(static_cast<std::size_t>(n) * 8) : 0;
}
std::size_t rows_library_bytes(int dtype, std::int64_t rows, std::int64_t cols, bool indices) {
  std::size_t b = 0;
  visit_sort_key(dtype, [&](auto tag) {
    using K = typename decltype(tag)::type;
    b = sc::segmented_sort_workspace_bytes(rows * cols, rows, sizeof(K), indices ? 8 : 0);
  });
  return b;
}
}  // namespace

std::int64_t sort_rows_workspace(int device, int dtype, std::int64_t rows, std::int64_t cols, bool indices) {
  device_scope scope(device);
  require_type(dtype, sort_types, "sort");
  if (rows * cols == 0) return 0;
  return static_cast<std::int64_t>(rows_offsets_bytes(rows) + rows_positions_bytes(rows * cols, indices) +
                                   rows_library_bytes(dtype, rows, cols, indices));
}

void sort_rows(int device, int dtype, const void* keys_in, void* keys_out, std::int64_t* indices, std::int64_t rows,
               std::int64_t cols, bool descending, void* ws, std::int64_t ws_bytes, std::uintptr_t stream) {
  device_scope scope(device);
  require_type(dtype, sort_types, "sort");
  const std::int64_t n = rows * cols;
  if (n == 0) return;
  const bool want = indices != nullptr;
  const std::size_t off_b = rows_offsets_bytes(rows), pos_b = rows_positions_bytes(n, want);
  const std::size_t lib_b = rows_library_bytes(dtype, rows, cols, want);
  check_workspace(ws_bytes, static_cast<std::int64_t>(off_b + pos_b + lib_b), "sort");
  if (ws == nullptr) throw scankit::invalid_argument("sort: workspace is a null pointer");
  const cudaStream_t s = as_stream(stream);
  auto* offsets = static_cast<std::int64_t*>(ws);
  auto* positions = want ? reinterpret_cast<std::int64_t*>(static_cast<char*>(ws) + off_b) : nullptr;
  void* lib = static_cast<char*>(ws) + off_b + pos_b;
  kernels::row_segments(offsets, positions, rows, cols, s);
  const bool half = dtype == SK_F16 || dtype == SK_BF16;
  const int mant = dtype == SK_F16 ? 10 : 7;
  if (half) {  // sorted as their ordered bits in keys_out, mapped back afterwards
    kernels::half_keys(static_cast<const std::uint16_t*>(keys_in), static_cast<std::uint16_t*>(keys_out), n, mant,
                       true, s);
    keys_in = keys_out;
  }
  scankit::sort_options opts;
  opts.descending = descending;
  const scankit::segment_bounds seg{scankit::segment_offsets{offsets, rows}};
  visit_sort_key(dtype, [&](auto tag) {
    using K = typename decltype(tag)::type;
    const K* kin = static_cast<const K*>(keys_in);
    K* kout = static_cast<K*>(keys_out);
    if (want)
      sc::segmented_sort_pairs(kin, kout, reinterpret_cast<const std::uint64_t*>(positions),
                               reinterpret_cast<std::uint64_t*>(indices), n, seg, lib, lib_b, s, opts);
    else
      sc::segmented_sort_keys(kin, kout, n, seg, lib, lib_b, s, opts);
  });
  if (half)
    kernels::half_keys(static_cast<const std::uint16_t*>(keys_out), static_cast<std::uint16_t*>(keys_out), n, mant,
                       false, s);
}

std::int64_t topk_workspace(int device, int dtype, std::int64_t rows, std::int64_t cols,
                            std::int64_t k) {
  device_scope scope(device);
  require_type(dtype, sort_types, "topk");
  if (rows == 0 || k == 0) return 0;
  return static_cast<std::int64_t>(topk_half_bytes(dtype, rows, cols) +
                                   topk_library_bytes(dtype, rows, cols, k));
}

void topk(int device, int dtype, const void* in, void* values, std::int64_t* indices,
          std::int64_t rows, std::int64_t cols, std::int64_t k, bool largest, void* ws,
          std::int64_t ws_bytes, std::uintptr_t stream) {
  device_scope scope(device);
  require_type(dtype, sort_types, "topk");
  // Nothing to write.
  if (rows == 0 || k == 0) return;
  const std::size_t half_bytes = topk_half_bytes(dtype, rows, cols);
  check_workspace(ws_bytes,
                  static_cast<std::int64_t>(half_bytes + topk_library_bytes(dtype, rows, cols, k)),
                  "topk");
  if (ws_bytes > 0 && ws == nullptr) throw scankit::invalid_argument("topk: workspace is a null pointer");
  const cudaStream_t s = as_stream(stream);
  const bool half = half_bytes > 0;
  const int mant = dtype == SK_F16 ? 10 : 7;
  if (half) {
    // The ordered bits of the keys at the start of the workspace, selected as uint16; the
    // selected values are mapped back in place.
    auto* keys = static_cast<std::uint16_t*>(ws);
    kernels::half_keys(static_cast<const std::uint16_t*>(in), keys, rows * cols, mant, true, s);
    in = keys;
    ws = static_cast<char*>(ws) + half_bytes;
    ws_bytes -= static_cast<std::int64_t>(half_bytes);
  }
  sc::topk_options opts;
  opts.largest = largest;
  const auto wsb = static_cast<std::size_t>(ws_bytes);
  visit_sort_key(
      dtype,
      [&](auto tag) {
        using K = typename decltype(tag)::type;
        const K* kin = static_cast<const K*>(in);
        K* kout = static_cast<K*>(values);
        if (rows == 1)
          sc::topk(kin, cols, k, kout, indices, ws, wsb, s, opts);
        else
          sc::topk_rows(kin, rows, cols, k, kout, indices, ws, wsb, s, opts);
      },
      "topk");
  if (half)
    kernels::half_keys(static_cast<const std::uint16_t*>(values), static_cast<std::uint16_t*>(values),
                       rows * k, mant, false, s);
}

std::int64_t compact_workspace(int device, std::int64_t n, int item_bytes,
                               const std::string& algorithm) {
  device_scope scope(device);
  const auto cfg = compact_config_of(algorithm);
  return static_cast<std::int64_t>(
      sc::compact_workspace_bytes(n, static_cast<std::size_t>(item_bytes), cfg));
}

void select_flagged(int device, int item_bytes, const void* in, const std::uint8_t* flags,
                    void* out, std::int64_t n, std::int64_t* count, const std::string& algorithm,
                    void* ws, std::int64_t ws_bytes, std::uintptr_t stream) {
  device_scope scope(device);
  const auto cfg = compact_config_of(algorithm);
  visit_bytes(item_bytes, (1u << 1) | (1u << 4) | (1u << 8), [&](auto tag) {
    using V = typename decltype(tag)::type;
    if constexpr (sizeof(V) == 1 || sizeof(V) == 4 || sizeof(V) == 8)
      sc::select_flagged(static_cast<const V*>(in), flags, static_cast<V*>(out), n, count, ws,
                         static_cast<std::size_t>(ws_bytes), as_stream(stream), cfg);
  });
}

void select_if(int device, int dtype, int pred, const void* threshold, bool remove, const void* in,
               void* out, std::int64_t n, std::int64_t* count, const std::string& algorithm,
               void* ws, std::int64_t ws_bytes, std::uintptr_t stream) {
  device_scope scope(device);
  const auto cfg = compact_config_of(algorithm);
  visit_types<gpu_compact_types>(dtype, "select", [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto go = [&](auto p) {
      if (remove)
        sc::remove_if(static_cast<const T*>(in), static_cast<T*>(out), n, p, count, ws,
                      static_cast<std::size_t>(ws_bytes), as_stream(stream), cfg);
      else
        sc::select_if(static_cast<const T*>(in), static_cast<T*>(out), n, p, count, ws,
                      static_cast<std::size_t>(ws_bytes), as_stream(stream), cfg);
    };
    visit_pred<T>(pred, threshold, "select", go);
  });
}

void partition(int device, int dtype, int pred, const void* threshold, bool stable, const void* in,
               void* out, std::int64_t n, std::int64_t* count, const std::string& algorithm,
               void* ws, std::int64_t ws_bytes, std::uintptr_t stream) {
  device_scope scope(device);
  const auto cfg = compact_config_of(algorithm);
  const auto order = stable ? scankit::rejected_order::original : scankit::rejected_order::reversed;
  visit_types<gpu_compact_types>(dtype, "partition", [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto go = [&](auto p) {
      sc::partition(static_cast<const T*>(in), static_cast<T*>(out), n, p, order, count, ws,
                    static_cast<std::size_t>(ws_bytes), as_stream(stream), cfg);
    };
    visit_pred<T>(pred, threshold, "partition", go);
  });
}

void nonzero(int device, int dtype, const void* in, std::int64_t* indices, std::int64_t n,
             std::int64_t* count, const std::string& algorithm, void* ws, std::int64_t ws_bytes,
             std::uintptr_t stream) {
  device_scope scope(device);
  const auto cfg = compact_config_of(algorithm);
  visit_types<gpu_compact_types>(dtype, "nonzero", [&](auto tag) {
    using T = typename decltype(tag)::type;
    sc::nonzero(static_cast<const T*>(in), indices, n, count, ws,
                static_cast<std::size_t>(ws_bytes), as_stream(stream), cfg);
  });
}

void unique(int device, int dtype, const void* in, void* values, std::int64_t* counts,
            std::int64_t n, bool equal_nan, std::int64_t* count, const std::string& algorithm,
            void* ws, std::int64_t ws_bytes, std::uintptr_t stream) {
  device_scope scope(device);
  const auto cfg = compact_config_of(algorithm);
  const auto run = [&](const auto* typed_in, auto eq) {
    using T = std::remove_cvref_t<decltype(*typed_in)>;
    if (counts)
      sc::unique_count(typed_in, static_cast<T*>(values), counts, n, eq, count, ws,
                       static_cast<std::size_t>(ws_bytes), as_stream(stream), cfg);
    else
      sc::unique(typed_in, static_cast<T*>(values), n, eq, count, ws,
                 static_cast<std::size_t>(ws_bytes), as_stream(stream), cfg);
  };
  visit_types<gpu_compact_types>(dtype, "unique", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T>) {
      // Instantiated by capi_unique.cu (the library instantiates equal_to only).
      if (equal_nan) return run(static_cast<const T*>(in), scankit::equal_or_both_nan<T>{});
    }
    run(static_cast<const T*>(in), scankit::equal_to<T>{});
  });
}

std::int64_t read_count(int device, const std::int64_t* d_count, std::uintptr_t stream) {
  device_scope scope(device);
  if (d_count == nullptr) throw scankit::invalid_argument("read_count: null pointer");
  // Into pinned memory, one word per host thread (portable: any device may write it): a copy to
  // pageable memory goes through a staging buffer, several microseconds of every exact-size
  // compaction's round trip. Kept for the thread's life (freeing it at exit could follow
  // CUDA's own teardown).
  thread_local std::int64_t* pinned = nullptr;
  if (pinned == nullptr) {
    void* p = nullptr;
    if (cudaHostAlloc(&p, sizeof(std::int64_t), cudaHostAllocPortable) != cudaSuccess) {
      (void)cudaGetLastError();
      return sc::read_count(d_count, as_stream(stream));
    }
    pinned = static_cast<std::int64_t*>(p);
  }
  check(cudaMemcpyAsync(pinned, d_count, sizeof(std::int64_t), cudaMemcpyDeviceToHost, as_stream(stream)),
        "cudaMemcpyAsync");
  check(cudaStreamSynchronize(as_stream(stream)), "cudaStreamSynchronize");
  return *pinned;
}

void fill_tail(int device, int item_bytes, void* out, const std::int64_t* count, std::int64_t size,
               const void* fill, std::uintptr_t stream) {
  device_scope scope(device);
  if (size > 0 && out == nullptr) throw scankit::invalid_argument("fill: null output");
  kernels::fill_tail(item_bytes, out, count, size, fill, as_stream(stream));
}

void histogram_even(int device, int dtype, const void* samples, std::int64_t n,
                    std::uint64_t* counts, std::int64_t bins, double lower, double upper,
                    int mode, const std::string& algorithm, std::uintptr_t stream) {
  device_scope scope(device);
  const auto o = histogram_options_of(algorithm);
  kernels::numpy_histogram(dtype, samples, n, counts, bins, lower, upper, mode,
                           static_cast<int>(o.algorithm), as_stream(stream));
}

void histogram_edges(int device, int dtype, const void* samples, std::int64_t n,
                     std::uint64_t* counts, const void* edges, std::int64_t num_edges,
                     const std::string& algorithm, std::uintptr_t stream) {
  device_scope scope(device);
  const auto o = histogram_options_of(algorithm);
  visit_types<histogram_types>(dtype, "histogram", [&](auto tag) {
    using T = typename decltype(tag)::type;
    sc::histogram_range(static_cast<const T*>(samples), n, counts,
                        static_cast<const scankit::histogram_level_t<T>*>(edges), num_edges,
                        as_stream(stream), o);
  });
}

void bincount(int device, int dtype, const void* samples, std::int64_t n, std::uint64_t* counts,
              std::int64_t bins, const std::string& algorithm, std::uintptr_t stream) {
  device_scope scope(device);
  const auto o = histogram_options_of(algorithm);
  visit_types<bincount_types>(dtype, "bincount", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>)
      sc::bincount(static_cast<const T*>(samples), n, counts, bins, as_stream(stream), o);
  });
}

void bincount_capped(int device, int dtype, const void* samples, std::int64_t n,
                     std::uint64_t* counts, std::int64_t capacity, const std::string& algorithm,
                     std::uintptr_t stream, std::int64_t* summary) {
  device_scope scope(device);
  const auto o = histogram_options_of(algorithm);
  kernels::bincount_capped(dtype, samples, n, counts, capacity, static_cast<int>(o.algorithm),
                           as_stream(stream), summary);
}

}  // namespace scankit::capi::gpu
