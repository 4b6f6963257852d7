// The CUDA compactions' definitions. Include from a .cu file to compact your own item types
// (trivially copyable) with your own predicates (functors with a __device__ operator()):
//
//   #include "scankit/cuda/compact.cuh"
//   struct hot { __host__ __device__ bool operator()(const particle& p) const { return p.e > 1; } };
//   scankit::cuda::select_if(d_in, d_out, n, hot{}, d_count, d_ws, ws_bytes, stream);
//
// Layering: public function (checks arguments, builds a selector and an output description)
// -> detail::compact::dispatch (workspace, algorithm) -> single_pass / scan_scatter drivers
// -> kernels (detail/compact_*.cuh).
#pragma once

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>
#include <type_traits>

#include "scankit/cuda/compact.hpp"
#include "scankit/cuda/detail/compact/scan_scatter.cuh"
#include "scankit/cuda/detail/compact/launch.cuh"

namespace scankit::cuda {

namespace detail::compact {

/// The block size a compaction runs with (checked).
int resolve_block_size(const compact_config& cfg);

inline bool overlaps(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
  if (a == nullptr || b == nullptr || a_bytes == 0 || b_bytes == 0) return false;
  const auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
  return x < y + b_bytes && y < x + a_bytes;
}

/// Argument checks shared by every entry point; throw before anything is launched.
struct checker {
  const char* where;
  std::int64_t n;
  void size() const { scankit::detail::check_size(n, where); }
  void pointer(const void* p, const char* what) const { scankit::detail::check_pointer(p, n, what, where); }
  void count(const void* p) const {
    if (p == nullptr) throw invalid_argument(std::string(where) + ": the device count pointer is null");
  }
  /// out may equal in (in place) but not overlap it otherwise; with in_place false, no overlap.
  void in_out(const void* in, const void* out, std::size_t item, bool in_place_ok) const {
    const std::size_t bytes = static_cast<std::size_t>(n) * item;
    if (in_place_ok && in == out) return;
    if (overlaps(in, bytes, out, bytes))
      throw invalid_argument(std::string(where) + (in_place_ok ? ": input and output overlap without being the same array"
                                                               : ": input and output overlap"));
  }
  void disjoint(const void* a, std::size_t a_item, const void* b, std::size_t b_item, const char* what) const {
    if (overlaps(a, static_cast<std::size_t>(n) * a_item, b, static_cast<std::size_t>(n) * b_item))
      throw invalid_argument(std::string(where) + ": " + what + " overlap");
  }
  void workspace(void* ws, std::size_t have, std::size_t item_bytes, const compact_config& cfg) const {
    const std::size_t need = compact_workspace_bytes(n, item_bytes, cfg);
    if (have < need)
      throw invalid_argument(std::string(where) + ": workspace of " + std::to_string(have) +
                             " bytes is too small; " + std::string(name(cfg.algorithm)) + " needs " +
                             std::to_string(need) + " for n = " + std::to_string(n));
    detail::check_workspace_pointer(ws, need, where);
  }
  void algorithm(const compact_config& cfg) const {
    if (cfg.algorithm != compact_algorithm::scan_scatter && cfg.algorithm != compact_algorithm::single_pass)
      throw invalid_argument(std::string(where) + ": unknown algorithm");
    if (std::find(std::begin(all_compact_tiles), std::end(all_compact_tiles), cfg.tile) == std::end(all_compact_tiles))
      throw invalid_argument(std::string(where) + ": unknown tile size");
    (void)resolve_block_size(cfg);
    single_pass::check_config(cfg);
  }
};

/// Runs one compaction (arguments already checked). Unique-count's run lengths are derived
/// from the run starts written to out.indices.
template <class Sel>
void dispatch(const typename Sel::item_type* in, std::int64_t n, const Sel& sel,
              outputs<typename Sel::item_type> out, bool run_lengths, void* d_ws, std::size_t ws_bytes,
              cudaStream_t s, const compact_config& cfg) {
  static_assert(std::is_trivially_copyable_v<typename Sel::item_type>, "compacted items must be trivially copyable");
  if (n == 0) {
    SCANKIT_CUDA_CHECK(cudaMemsetAsync(out.count, 0, sizeof(std::int64_t), s));
    return;
  }
  arena ws(d_ws, ws_bytes);
  std::int64_t* chunk_ends = run_lengths ? ws.take<std::int64_t>(ceil_div(n, diff_chunk) + 1) : nullptr;
  if (cfg.algorithm == compact_algorithm::scan_scatter) {
    scan_scatter::run(in, n, sel, out, ws, cfg.scan, s);
  } else {
    if (out.mode == layout::partition_original) {
      auto* total = ws.take<std::int64_t>(1);
      SCANKIT_CUDA_CHECK(cudaMemsetAsync(total, 0, sizeof(std::int64_t), s));
      count_selected_kernel<<<grid_for(ceil_div(n, 256 * 16), 16384), 256, 0, s>>>(in, n, sel, total);
      SCANKIT_LAUNCH_CHECK("count_selected_kernel");
      out.selected_total = total;
    }
    single_pass::run(in, n, sel, out, ws, resolve_block_size(cfg), cfg, s);
  }
  if (run_lengths) starts_to_counts(out.indices, out.count, n, chunk_ends, s);
}

}  // namespace detail::compact

namespace detail::compact {
/// select_if (Keep) and remove_if (!Keep): the same checks and dispatch, opposite predicate.
template <bool Keep, class T, class Pred>
void select_by_predicate(const char* where, const T* d_in, T* d_out, std::int64_t n, Pred pred,
                         std::int64_t* d_count, void* d_workspace, std::size_t workspace_bytes,
                         cudaStream_t stream, const compact_config& cfg) {
  const checker c{where, n};
  c.size(), c.pointer(d_in, "input"), c.pointer(d_out, "output"), c.count(d_count), c.algorithm(cfg);
  c.in_out(d_in, d_out, sizeof(T), cfg.algorithm == compact_algorithm::single_pass);
  c.workspace(d_workspace, workspace_bytes, sizeof(T), cfg);
  outputs<T> out;
  out.items = d_out, out.count = d_count;
  dispatch(d_in, n, pred_selector<T, Pred, Keep>{pred}, out, false, d_workspace, workspace_bytes, stream, cfg);
}
}  // namespace detail::compact

template <class T, class Pred>
void select_if(const T* d_in, T* d_out, std::int64_t n, Pred pred, std::int64_t* d_count,
               void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
               const compact_config& cfg) {
  detail::compact::select_by_predicate<true>("scankit::cuda::select_if", d_in, d_out, n, pred, d_count,
                                             d_workspace, workspace_bytes, stream, cfg);
}

template <class T, class Pred>
void remove_if(const T* d_in, T* d_out, std::int64_t n, Pred pred, std::int64_t* d_count,
               void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
               const compact_config& cfg) {
  detail::compact::select_by_predicate<false>("scankit::cuda::remove_if", d_in, d_out, n, pred, d_count,
                                              d_workspace, workspace_bytes, stream, cfg);
}

template <class T, class F>
void select_flagged(const T* d_in, const F* d_flags, T* d_out, std::int64_t n, std::int64_t* d_count,
                    void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
                    const compact_config& cfg) {
  namespace dc = detail::compact;
  const dc::checker c{"scankit::cuda::select_flagged", n};
  c.size(), c.pointer(d_in, "input"), c.pointer(d_flags, "flags"), c.pointer(d_out, "output");
  c.count(d_count), c.algorithm(cfg);
  c.in_out(d_in, d_out, sizeof(T), cfg.algorithm == compact_algorithm::single_pass);
  c.disjoint(d_flags, sizeof(F), d_out, sizeof(T), "flags and output");
  c.workspace(d_workspace, workspace_bytes, sizeof(T), cfg);
  dc::outputs<T> out;
  out.items = d_out, out.count = d_count;
  dc::dispatch(d_in, n, dc::flag_selector<T, F>{d_flags}, out, false, d_workspace, workspace_bytes, stream, cfg);
}

template <class T, class Pred>
void partition(const T* d_in, T* d_out, std::int64_t n, Pred pred, rejected_order order,
               std::int64_t* d_count, void* d_workspace, std::size_t workspace_bytes,
               cudaStream_t stream, const compact_config& cfg) {
  namespace dc = detail::compact;
  const dc::checker c{"scankit::cuda::partition", n};
  c.size(), c.pointer(d_in, "input"), c.pointer(d_out, "output"), c.count(d_count), c.algorithm(cfg);
  c.in_out(d_in, d_out, sizeof(T), false);
  if (order != rejected_order::reversed && order != rejected_order::original)
    throw invalid_argument("scankit::cuda::partition: unknown rejected_order");
  c.workspace(d_workspace, workspace_bytes, sizeof(T), cfg);
  dc::outputs<T> out;
  out.items = d_out, out.count = d_count;
  out.mode = order == rejected_order::reversed ? dc::layout::partition_reversed : dc::layout::partition_original;
  dc::dispatch(d_in, n, dc::pred_selector<T, Pred>{pred}, out, false, d_workspace, workspace_bytes, stream, cfg);
}

template <class T, class Eq>
void unique(const T* d_in, T* d_out, std::int64_t n, Eq eq, std::int64_t* d_count,
            void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
            const compact_config& cfg) {
  namespace dc = detail::compact;
  const dc::checker c{"scankit::cuda::unique", n};
  c.size(), c.pointer(d_in, "input"), c.pointer(d_out, "output"), c.count(d_count), c.algorithm(cfg);
  // Not in place: a tile reads the item before it, which the previous tile may be writing.
  c.in_out(d_in, d_out, sizeof(T), false);
  c.workspace(d_workspace, workspace_bytes, sizeof(T), cfg);
  dc::outputs<T> out;
  out.items = d_out, out.count = d_count;
  dc::dispatch(d_in, n, dc::run_start_selector<T, Eq>{eq}, out, false, d_workspace, workspace_bytes, stream, cfg);
}

template <class T, class Eq>
void unique_count(const T* d_in, T* d_values, std::int64_t* d_counts, std::int64_t n, Eq eq,
                  std::int64_t* d_runs, void* d_workspace, std::size_t workspace_bytes,
                  cudaStream_t stream, const compact_config& cfg) {
  namespace dc = detail::compact;
  const dc::checker c{"scankit::cuda::unique_count", n};
  c.size(), c.pointer(d_in, "input"), c.pointer(d_values, "values output");
  c.pointer(d_counts, "counts output"), c.count(d_runs), c.algorithm(cfg);
  c.in_out(d_in, d_values, sizeof(T), false);  // not in place: see unique
  c.disjoint(d_counts, sizeof(std::int64_t), d_in, sizeof(T), "counts output and input");
  c.disjoint(d_counts, sizeof(std::int64_t), d_values, sizeof(T), "counts output and values output");
  c.workspace(d_workspace, workspace_bytes, sizeof(T), cfg);
  dc::outputs<T> out;
  out.items = d_values, out.indices = d_counts, out.count = d_runs;
  dc::dispatch(d_in, n, dc::run_start_selector<T, Eq>{eq}, out, true, d_workspace, workspace_bytes, stream, cfg);
}

template <class T>
void nonzero(const T* d_in, std::int64_t* d_indices, std::int64_t n, std::int64_t* d_count,
             void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
             const compact_config& cfg) {
  namespace dc = detail::compact;
  const dc::checker c{"scankit::cuda::nonzero", n};
  c.size(), c.pointer(d_in, "input"), c.pointer(d_indices, "output"), c.count(d_count), c.algorithm(cfg);
  c.disjoint(d_in, sizeof(T), d_indices, sizeof(std::int64_t), "input and output");
  c.workspace(d_workspace, workspace_bytes, sizeof(T), cfg);
  dc::outputs<T> out;
  out.indices = d_indices, out.count = d_count;
  dc::dispatch(d_in, n, dc::pred_selector<T, is_nonzero<T>>{{}}, out, false, d_workspace, workspace_bytes,
               stream, cfg);
}

template <class Pred>
void select_indices(std::int64_t n, Pred pred, std::int64_t* d_indices, std::int64_t* d_count,
                    void* d_workspace, std::size_t workspace_bytes, cudaStream_t stream,
                    const compact_config& cfg) {
  namespace dc = detail::compact;
  const dc::checker c{"scankit::cuda::select_indices", n};
  c.size(), c.pointer(d_indices, "output"), c.count(d_count), c.algorithm(cfg);
  c.workspace(d_workspace, workspace_bytes, 0, cfg);
  dc::outputs<unsigned> out;
  out.indices = d_indices, out.count = d_count;
  dc::dispatch(static_cast<const unsigned*>(nullptr), n, dc::index_selector<Pred>{pred}, out, false, d_workspace,
               workspace_bytes, stream, cfg);
}

// ---- host containers --------------------------------------------------------------------

namespace detail::compact {

/// Device memory for one host call, freed on scope exit (also when an exception leaves).
struct host_call {
  void* p[5] = {};
  cudaStream_t stream{};
  host_call() { SCANKIT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)); }
  host_call(const host_call&) = delete;
  host_call& operator=(const host_call&) = delete;
  ~host_call() {
    cudaStreamSynchronize(stream);
    for (void* q : p) cudaFree(q);
    cudaStreamDestroy(stream);
  }
  template <class U>
  U* alloc(int slot, std::size_t bytes) {
    SCANKIT_CUDA_CHECK(cudaMalloc(&p[slot], bytes < 16 ? 16 : bytes));
    return static_cast<U*>(p[slot]);
  }
  template <class U>
  U* upload(int slot, const U* src, std::int64_t count) {
    U* d = alloc<U>(slot, static_cast<std::size_t>(count) * sizeof(U));
    if (count > 0)
      SCANKIT_CUDA_CHECK(cudaMemcpyAsync(d, src, static_cast<std::size_t>(count) * sizeof(U),
                                         cudaMemcpyHostToDevice, stream));
    return d;
  }
  template <class U>
  void download(U* dst, const U* src, std::int64_t count) {
    if (count > 0)
      SCANKIT_CUDA_CHECK(cudaMemcpyAsync(dst, src, static_cast<std::size_t>(count) * sizeof(U),
                                         cudaMemcpyDeviceToHost, stream));
  }
  void sync() { SCANKIT_CUDA_CHECK(cudaStreamSynchronize(stream)); }
};

inline void host_checks(std::size_t in, std::size_t out, const char* where) {
  if (out < in) throw invalid_argument(std::string(where) + ": output shorter than input");
  if (device_count() == 0) throw no_device_error(std::string(where) + ": no CUDA GPU found");
}

/// Uploads `in`, runs `call(d_in, d_out, d_count, ws, ws_bytes, stream)`, downloads the
/// count and then `count` items (or all n with all_items) to `out`.
template <class T, class Call>
std::int64_t host_compact(std::span<const T> in, T* out, bool all_items, const compact_config& cfg, Call call) {
  const auto n = static_cast<std::int64_t>(in.size());
  host_call h;
  const T* d_in = h.upload<T>(0, in.data(), n);
  T* d_out = h.alloc<T>(1, static_cast<std::size_t>(n) * sizeof(T));
  auto* d_count = h.alloc<std::int64_t>(2, sizeof(std::int64_t));
  const std::size_t ws_bytes = compact_workspace_bytes(n, sizeof(T), cfg);
  void* ws = h.alloc<unsigned char>(3, ws_bytes);
  call(d_in, d_out, d_count, ws, ws_bytes, h.stream);
  std::int64_t count = 0;
  h.download(&count, d_count, 1);
  h.sync();
  h.download(out, d_out, all_items ? n : count);
  h.sync();
  return count;
}

}  // namespace detail::compact

// Host-container forms: each uploads the input, runs the device-pointer form, and copies
// back the count and the items written.
#define SCANKIT_COMPACT_HOST_CALL(body)                                                        \
  [&](const T* d_in, T* d_out, std::int64_t* d_count, void* ws, std::size_t ws_bytes,          \
      cudaStream_t s) { body; }

template <class T, class Pred>
std::int64_t select_if(std::span<const T> in, std::span<T> out, Pred pred, const compact_config& cfg) {
  detail::compact::host_checks(in.size(), out.size(), "scankit::cuda::select_if");
  const auto n = static_cast<std::int64_t>(in.size());
  return detail::compact::host_compact<T>(in, out.data(), false, cfg, SCANKIT_COMPACT_HOST_CALL(
      select_if(d_in, d_out, n, pred, d_count, ws, ws_bytes, s, cfg)));
}

template <class T, class Pred>
std::int64_t remove_if(std::span<const T> in, std::span<T> out, Pred pred, const compact_config& cfg) {
  detail::compact::host_checks(in.size(), out.size(), "scankit::cuda::remove_if");
  const auto n = static_cast<std::int64_t>(in.size());
  return detail::compact::host_compact<T>(in, out.data(), false, cfg, SCANKIT_COMPACT_HOST_CALL(
      remove_if(d_in, d_out, n, pred, d_count, ws, ws_bytes, s, cfg)));
}

template <class T, class F>
std::int64_t select_flagged(std::span<const T> in, std::span<const F> flags, std::span<T> out,
                            const compact_config& cfg) {
  detail::compact::host_checks(in.size(), out.size(), "scankit::cuda::select_flagged");
  if (flags.size() < in.size()) throw invalid_argument("scankit::cuda::select_flagged: flags shorter than input");
  const auto n = static_cast<std::int64_t>(in.size());
  detail::compact::host_call fh;
  const F* d_flags = fh.upload<F>(0, flags.data(), n);
  fh.sync();
  return detail::compact::host_compact<T>(in, out.data(), false, cfg, SCANKIT_COMPACT_HOST_CALL(
      select_flagged(d_in, d_flags, d_out, n, d_count, ws, ws_bytes, s, cfg)));
}

template <class T, class Pred>
std::int64_t partition(std::span<const T> in, std::span<T> out, Pred pred, rejected_order order,
                       const compact_config& cfg) {
  detail::compact::host_checks(in.size(), out.size(), "scankit::cuda::partition");
  const auto n = static_cast<std::int64_t>(in.size());
  return detail::compact::host_compact<T>(in, out.data(), true, cfg, SCANKIT_COMPACT_HOST_CALL(
      partition(d_in, d_out, n, pred, order, d_count, ws, ws_bytes, s, cfg)));
}

template <class T, class Eq>
std::int64_t unique(std::span<const T> in, std::span<T> out, Eq eq, const compact_config& cfg) {
  detail::compact::host_checks(in.size(), out.size(), "scankit::cuda::unique");
  const auto n = static_cast<std::int64_t>(in.size());
  return detail::compact::host_compact<T>(in, out.data(), false, cfg, SCANKIT_COMPACT_HOST_CALL(
      unique(d_in, d_out, n, eq, d_count, ws, ws_bytes, s, cfg)));
}

template <class T, class Eq>
std::int64_t unique_count(std::span<const T> in, std::span<T> values, std::span<std::int64_t> counts,
                          Eq eq, const compact_config& cfg) {
  detail::compact::host_checks(in.size(), values.size(), "scankit::cuda::unique_count");
  if (counts.size() < in.size()) throw invalid_argument("scankit::cuda::unique_count: counts shorter than input");
  const auto n = static_cast<std::int64_t>(in.size());
  detail::compact::host_call ch;
  auto* d_counts = ch.alloc<std::int64_t>(0, static_cast<std::size_t>(n) * sizeof(std::int64_t));
  const std::int64_t runs = detail::compact::host_compact<T>(in, values.data(), false, cfg, SCANKIT_COMPACT_HOST_CALL(
      unique_count(d_in, d_out, d_counts, n, eq, d_count, ws, ws_bytes, s, cfg)));
  // host_compact synchronised its stream, so the counts are complete.
  SCANKIT_CUDA_CHECK(cudaMemcpy(counts.data(), d_counts, static_cast<std::size_t>(runs) * sizeof(std::int64_t),
                                cudaMemcpyDeviceToHost));
  return runs;
}

template <class T>
std::int64_t nonzero(std::span<const T> in, std::span<std::int64_t> indices, const compact_config& cfg) {
  if (indices.size() < in.size()) throw invalid_argument("scankit::cuda::nonzero: output shorter than input");
  if (device_count() == 0) throw no_device_error("scankit::cuda::nonzero: no CUDA GPU found");
  const auto n = static_cast<std::int64_t>(in.size());
  detail::compact::host_call h;
  const T* d_in = h.upload<T>(0, in.data(), n);
  auto* d_idx = h.alloc<std::int64_t>(1, static_cast<std::size_t>(n) * sizeof(std::int64_t));
  auto* d_count = h.alloc<std::int64_t>(2, sizeof(std::int64_t));
  const std::size_t ws_bytes = compact_workspace_bytes(n, sizeof(T), cfg);
  void* ws = h.alloc<unsigned char>(3, ws_bytes);
  nonzero(d_in, d_idx, n, d_count, ws, ws_bytes, h.stream, cfg);
  std::int64_t count = 0;
  h.download(&count, d_count, 1);
  h.sync();
  h.download(indices.data(), d_idx, count);
  h.sync();
  return count;
}

#undef SCANKIT_COMPACT_HOST_CALL

}  // namespace scankit::cuda

/// Instantiates the predicate-taking compactions (device and host forms) for item type T and
/// predicate type Pred.
#define SCANKIT_COMPACT_PRED_FORMS(X, T, Pred)                                                  \
  X template void scankit::cuda::select_if<T, Pred>(const T*, T*, std::int64_t, Pred, std::int64_t*, \
                                                  void*, std::size_t, cudaStream_t,               \
                                                  const scankit::cuda::compact_config&);          \
  X template void scankit::cuda::remove_if<T, Pred>(const T*, T*, std::int64_t, Pred, std::int64_t*, \
                                                  void*, std::size_t, cudaStream_t,               \
                                                  const scankit::cuda::compact_config&);          \
  X template void scankit::cuda::partition<T, Pred>(const T*, T*, std::int64_t, Pred,               \
                                                  scankit::rejected_order, std::int64_t*, void*,  \
                                                  std::size_t, cudaStream_t,                      \
                                                  const scankit::cuda::compact_config&);          \
  X template std::int64_t scankit::cuda::select_if<T, Pred>(std::span<const T>, std::span<T>, Pred, \
                                                          const scankit::cuda::compact_config&);  \
  X template std::int64_t scankit::cuda::remove_if<T, Pred>(std::span<const T>, std::span<T>, Pred, \
                                                          const scankit::cuda::compact_config&);  \
  X template std::int64_t scankit::cuda::partition<T, Pred>(std::span<const T>, std::span<T>, Pred, \
                                                          scankit::rejected_order,                \
                                                          const scankit::cuda::compact_config&);

/// Instantiates select_flagged (uint8 flags), unique and unique_count (equal_to) and nonzero
/// for item type T.
#define SCANKIT_COMPACT_TYPE_FORMS(X, T)                                                        \
  X template void scankit::cuda::select_flagged<T, std::uint8_t>(                                   \
      const T*, const std::uint8_t*, T*, std::int64_t, std::int64_t*, void*, std::size_t,         \
      cudaStream_t, const scankit::cuda::compact_config&);                                        \
  X template void scankit::cuda::unique<T, scankit::equal_to<T>>(                                   \
      const T*, T*, std::int64_t, scankit::equal_to<T>, std::int64_t*, void*, std::size_t,        \
      cudaStream_t, const scankit::cuda::compact_config&);                                        \
  X template void scankit::cuda::unique_count<T, scankit::equal_to<T>>(                             \
      const T*, T*, std::int64_t*, std::int64_t, scankit::equal_to<T>, std::int64_t*, void*,      \
      std::size_t, cudaStream_t, const scankit::cuda::compact_config&);                           \
  X template void scankit::cuda::nonzero<T>(const T*, std::int64_t*, std::int64_t, std::int64_t*,   \
                                          void*, std::size_t, cudaStream_t,                       \
                                          const scankit::cuda::compact_config&);                  \
  X template std::int64_t scankit::cuda::select_flagged<T, std::uint8_t>(                           \
      std::span<const T>, std::span<const std::uint8_t>, std::span<T>,                            \
      const scankit::cuda::compact_config&);                                                      \
  X template std::int64_t scankit::cuda::unique<T, scankit::equal_to<T>>(                           \
      std::span<const T>, std::span<T>, scankit::equal_to<T>, const scankit::cuda::compact_config&); \
  X template std::int64_t scankit::cuda::unique_count<T, scankit::equal_to<T>>(                     \
      std::span<const T>, std::span<T>, std::span<std::int64_t>, scankit::equal_to<T>,            \
      const scankit::cuda::compact_config&);                                                      \
  X template std::int64_t scankit::cuda::nonzero<T>(std::span<const T>, std::span<std::int64_t>,    \
                                                  const scankit::cuda::compact_config&);

/// Every built-in predicate (is_nonzero, less_than, greater_than) and the type-only forms.
#define SCANKIT_COMPACT_BUILTIN_FORMS(X, T)                      \
  SCANKIT_COMPACT_PRED_FORMS(X, T, scankit::is_nonzero<T>)   \
  SCANKIT_COMPACT_PRED_FORMS(X, T, scankit::less_than<T>)    \
  SCANKIT_COMPACT_PRED_FORMS(X, T, scankit::greater_than<T>) \
  SCANKIT_COMPACT_TYPE_FORMS(X, T)

#define SCANKIT_COMPACT_NOTHING
/// Explicit instantiation of every built-in form for T (what src/cuda/compact_<type>.cu do).
#define SCANKIT_INSTANTIATE_COMPACT(T) SCANKIT_COMPACT_BUILTIN_FORMS(SCANKIT_COMPACT_NOTHING, T)
/// `extern template` declarations of the same, for .cu files that include this header but
/// should use the library's instantiations instead of compiling them again.
#define SCANKIT_EXTERN_COMPACT(T) SCANKIT_COMPACT_BUILTIN_FORMS(extern, T)
