// The CUDA segmented operations' definitions (instantiated by the library in
// src/cuda/segments_<type>.cu; include this from a .cu file for your own monoids or types).
//
// Layering: the entries below -> detail/segments/launch.cuh (checks, workspace, launches) ->
// plan.hpp (the shape of the call, from tuning.hpp) -> kernels.cuh (partition, tile engine,
// block per segment).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "scankit/cuda/detail/segments/launch.cuh"
#include "scankit/cuda/segments.hpp"

namespace scankit::cuda {

template <class Op>
void segmented_reduce(const value_t<Op>* d_in, std::int64_t n, const segment_bounds& seg, Op op,
                      value_t<Op> empty_value, value_t<Op>* d_out, void* d_workspace, std::size_t workspace_bytes,
                      cudaStream_t stream, const segments_config& cfg) {
  namespace ds = detail::segments;
  constexpr const char* who = "scankit::cuda::segmented_reduce";
  const ds::plan p = ds::checked_plan(who, ds::operation::reduce, n, seg.count, sizeof(value_t<Op>), d_workspace,
                                      workspace_bytes, cfg);
  ds::require(n == 0 || d_in != nullptr, who, "null input");
  ds::require(seg.count == 0 || (seg.begin != nullptr && seg.end != nullptr), who, "null segment offsets");
  ds::require(seg.count == 0 || d_out != nullptr, who, "null output");
  if (seg.count == 0) return;
  if (p.block_per_segment) {
    ds::run_block_per_segment(d_in, n, seg, op, empty_value, d_out, stream);
    return;
  }
  ds::tile_args<value_t<Op>> a;
  a.in = d_in;
  a.n = n;
  a.h.source = ds::head_source::bounds;
  a.h.begin = seg.begin;
  a.h.end = seg.end;
  a.h.segments = seg.count;
  a.out = d_out;
  a.empty_value = empty_value;
  if (p.two_pass) ds::run_two_pass(p, a, op, d_workspace, workspace_bytes, stream);
  else ds::run_tiles<ds::sink::segments>(p, a, op, d_workspace, workspace_bytes, stream);
}

template <class Op>
void segmented_scan(const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t n, const segment_offsets& seg, Op op,
                    scan_kind kind, value_t<Op> init, void* d_workspace, std::size_t workspace_bytes,
                    cudaStream_t stream, const segments_config& cfg) {
  namespace ds = detail::segments;
  constexpr const char* who = "scankit::cuda::segmented_scan";
  const ds::plan p = ds::checked_plan(who, ds::operation::scan_offsets, n, seg.count, sizeof(value_t<Op>),
                                      d_workspace, workspace_bytes, cfg);
  ds::require(n == 0 || (d_in != nullptr && d_out != nullptr), who, "null input or output");
  ds::require(seg.offsets != nullptr, who, "null segment offsets");
  if (n == 0) return;
  ds::tile_args<value_t<Op>> a;
  a.in = d_in;
  a.n = n;
  a.h.source = ds::head_source::bounds;
  a.h.begin = seg.offsets;
  a.h.end = seg.offsets + 1;
  a.h.segments = seg.count;
  a.out = d_out;
  a.exclusive = kind == scan_kind::exclusive;
  a.init = init;
  ds::run_tiles<ds::sink::items>(p, a, op, d_workspace, workspace_bytes, stream);
}

template <class Op>
void segmented_scan(const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t n, head_flags flags, Op op,
                    scan_kind kind, value_t<Op> init, void* d_workspace, std::size_t workspace_bytes,
                    cudaStream_t stream, const segments_config& cfg) {
  namespace ds = detail::segments;
  constexpr const char* who = "scankit::cuda::segmented_scan";
  const ds::plan p = ds::checked_plan(who, ds::operation::scan_heads, n, 0, sizeof(value_t<Op>), d_workspace,
                                      workspace_bytes, cfg);
  ds::require(n == 0 || (d_in != nullptr && d_out != nullptr && flags.flags != nullptr), who,
              "null input, output or flags");
  if (n == 0) return;
  ds::tile_args<value_t<Op>> a;
  a.in = d_in;
  a.n = n;
  a.h.source = ds::head_source::flags;
  a.h.flags = flags.flags;
  a.out = d_out;
  a.exclusive = kind == scan_kind::exclusive;
  a.init = init;
  ds::run_tiles<ds::sink::items>(p, a, op, d_workspace, workspace_bytes, stream);
}

namespace detail::segments {

template <class Bits, class Op>
void scan_by_key(const Bits* d_keys, const value_t<Op>* d_in, value_t<Op>* d_out, std::int64_t n, Op op,
                 scan_kind kind, value_t<Op> init, void* d_workspace, std::size_t workspace_bytes,
                 cudaStream_t stream, const segments_config& cfg) {
  constexpr const char* who = "scankit::cuda::scan_by_key";
  const plan p =
      checked_plan(who, operation::scan_heads, n, 0, sizeof(value_t<Op>), d_workspace, workspace_bytes, cfg);
  require(n == 0 || (d_keys != nullptr && d_in != nullptr && d_out != nullptr), who, "null keys, input or output");
  if (n == 0) return;
  tile_args<value_t<Op>> a;
  a.in = d_in;
  a.n = n;
  a.h.source = head_source::keys;
  a.h.keys = d_keys;
  a.h.key_bytes = sizeof(Bits);
  a.out = d_out;
  a.exclusive = kind == scan_kind::exclusive;
  a.init = init;
  run_tiles<sink::items>(p, a, op, d_workspace, workspace_bytes, stream);
}

template <class Bits, class Op>
void reduce_by_key(const Bits* d_keys, const value_t<Op>* d_in, std::int64_t n, Op op, Bits* d_unique_keys,
                   value_t<Op>* d_aggregates, std::int64_t* d_num_runs, void* d_workspace,
                   std::size_t workspace_bytes, cudaStream_t stream, const segments_config& cfg) {
  constexpr const char* who = "scankit::cuda::reduce_by_key";
  const plan p =
      checked_plan(who, operation::reduce_by_key, n, 0, sizeof(value_t<Op>), d_workspace, workspace_bytes, cfg);
  require(d_num_runs != nullptr, who, "null run count");
  require(n == 0 || (d_keys != nullptr && d_in != nullptr && d_unique_keys != nullptr && d_aggregates != nullptr),
          who, "null keys, values or outputs");
  if (n == 0) {
    store_value(d_num_runs, std::int64_t{0}, stream);
    return;
  }
  tile_args<value_t<Op>> a;
  a.in = d_in;
  a.n = n;
  a.h.source = head_source::keys;
  a.h.keys = d_keys;
  a.h.key_bytes = sizeof(Bits);
  a.out = d_aggregates;
  a.unique_keys = d_unique_keys;
  a.num_runs = d_num_runs;
  run_tiles<sink::runs>(p, a, op, d_workspace, workspace_bytes, stream);
}

/// Device memory and a stream of one host-container call, released on every way out.
class host_call {
 public:
  explicit host_call(const char* who) {
    if (device_count() == 0) throw no_device_error(std::string(who) + ": no CUDA device");
    SCANKIT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  host_call(const host_call&) = delete;
  host_call& operator=(const host_call&) = delete;
  ~host_call() {
    for (void* p : buffers_) cudaFree(p);
    cudaStreamDestroy(stream_);
  }
  template <class T>
  T* alloc(std::int64_t count) {
    void* p = nullptr;
    SCANKIT_CUDA_CHECK(cudaMalloc(&p, std::max<std::size_t>(static_cast<std::size_t>(count) * sizeof(T), 1)));
    buffers_.push_back(p);
    return static_cast<T*>(p);
  }
  template <class T>
  T* upload(const T* host, std::int64_t count) {
    T* d = alloc<T>(count);
    if (count > 0)
      SCANKIT_CUDA_CHECK(cudaMemcpyAsync(d, host, static_cast<std::size_t>(count) * sizeof(T), cudaMemcpyHostToDevice,
                                         stream_));
    return d;
  }
  template <class T>
  void download(T* host, const T* d, std::int64_t count) {
    if (count > 0)
      SCANKIT_CUDA_CHECK(cudaMemcpyAsync(host, d, static_cast<std::size_t>(count) * sizeof(T), cudaMemcpyDeviceToHost,
                                         stream_));
  }
  void sync() { SCANKIT_CUDA_CHECK(cudaStreamSynchronize(stream_)); }
  cudaStream_t stream() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
  std::vector<void*> buffers_;
};

}  // namespace detail::segments

template <class T, monoid Op>
  requires std::same_as<value_t<Op>, T>
std::vector<T> segmented_reduce(std::span<const T> in, std::span<const std::int64_t> offsets, Op op,
                                std::optional<std::type_identity_t<T>> empty_value, const segments_config& cfg) {
  constexpr const char* who = "scankit::cuda::segmented_reduce";
  if (offsets.empty()) throw invalid_argument(std::string(who) + ": offsets needs at least one entry");
  const auto n = static_cast<std::int64_t>(in.size());
  const auto count = static_cast<std::int64_t>(offsets.size()) - 1;
  check_segments_host(segment_offsets{offsets.data(), count}, n, who);
  detail::segments::host_call call(who);
  const T* d_in = call.upload(in.data(), n);
  const std::int64_t* d_offsets = call.upload(offsets.data(), count + 1);
  T* d_out = call.alloc<T>(count);
  const std::size_t ws_bytes = segments_workspace_bytes(n, count, sizeof(T), cfg);
  void* ws = call.alloc<char>(static_cast<std::int64_t>(ws_bytes));
  segmented_reduce(d_in, n, segment_offsets{d_offsets, count}, op, empty_value ? *empty_value : op.identity(), d_out,
                   ws, ws_bytes, call.stream(), cfg);
  std::vector<T> out(static_cast<std::size_t>(count));
  call.download(out.data(), d_out, count);
  call.sync();
  return out;
}

template <class T, monoid Op>
  requires std::same_as<value_t<Op>, T>
void segmented_scan(std::span<const T> in, std::span<T> out, std::span<const std::int64_t> offsets, Op op,
                    scan_kind kind, std::optional<std::type_identity_t<T>> init, const segments_config& cfg) {
  constexpr const char* who = "scankit::cuda::segmented_scan";
  if (offsets.empty()) throw invalid_argument(std::string(who) + ": offsets needs at least one entry");
  if (out.size() < in.size()) throw invalid_argument(std::string(who) + ": output shorter than input");
  const auto n = static_cast<std::int64_t>(in.size());
  const auto count = static_cast<std::int64_t>(offsets.size()) - 1;
  check_covering_offsets_host(segment_offsets{offsets.data(), count}, n, who);
  detail::segments::host_call call(who);
  const T* d_in = call.upload(in.data(), n);
  const std::int64_t* d_offsets = call.upload(offsets.data(), count + 1);
  T* d_out = call.alloc<T>(n);
  const std::size_t ws_bytes = segments_workspace_bytes(n, count, sizeof(T), cfg);
  void* ws = call.alloc<char>(static_cast<std::int64_t>(ws_bytes));
  segmented_scan(d_in, d_out, n, segment_offsets{d_offsets, count}, op, kind, init ? *init : op.identity(), ws,
                 ws_bytes, call.stream(), cfg);
  call.download(out.data(), d_out, n);
  call.sync();
}

namespace detail::segments {

template <class Bits, class Op>
void scan_by_key_host(const Bits* keys, const value_t<Op>* in, value_t<Op>* out, std::int64_t n, Op op,
                      scan_kind kind, value_t<Op> init, const segments_config& cfg) {
  using T = value_t<Op>;
  host_call call("scankit::cuda::scan_by_key");
  const Bits* d_keys = call.upload(keys, n);
  const T* d_in = call.upload(in, n);
  T* d_out = call.alloc<T>(n);
  const std::size_t ws_bytes = segments_workspace_bytes(n, 0, sizeof(T), cfg);
  void* ws = call.alloc<char>(static_cast<std::int64_t>(ws_bytes));
  scan_by_key(d_keys, d_in, d_out, n, op, kind, init, ws, ws_bytes, call.stream(), cfg);
  call.download(out, d_out, n);
  call.sync();
}

template <class Bits, class Op>
std::pair<std::vector<Bits>, std::vector<value_t<Op>>> reduce_by_key_host(const Bits* keys, const value_t<Op>* in,
                                                                         std::int64_t n, Op op,
                                                                         const segments_config& cfg) {
  using T = value_t<Op>;
  host_call call("scankit::cuda::reduce_by_key");
  const Bits* d_keys = call.upload(keys, n);
  const T* d_in = call.upload(in, n);
  Bits* d_unique = call.alloc<Bits>(n);
  T* d_aggregates = call.alloc<T>(n);
  std::int64_t* d_runs = call.alloc<std::int64_t>(1);
  const std::size_t ws_bytes = segments_workspace_bytes(n, 0, sizeof(T), cfg);
  void* ws = call.alloc<char>(static_cast<std::int64_t>(ws_bytes));
  reduce_by_key(d_keys, d_in, n, op, d_unique, d_aggregates, d_runs, ws, ws_bytes, call.stream(), cfg);
  std::int64_t runs = 0;
  call.download(&runs, d_runs, 1);
  call.sync();
  std::pair<std::vector<Bits>, std::vector<T>> result;
  result.first.resize(static_cast<std::size_t>(runs));
  result.second.resize(static_cast<std::size_t>(runs));
  call.download(result.first.data(), d_unique, runs);
  call.download(result.second.data(), d_aggregates, runs);
  call.sync();
  return result;
}

}  // namespace detail::segments

}  // namespace scankit::cuda

/// Explicit instantiations of every segmented operation for one monoid (src/cuda/segments_*.cu).
#define SCANKIT_INSTANTIATE_SEGMENTS(...)                                                                       \
  template void scankit::cuda::segmented_reduce<__VA_ARGS__>(                                                  \
      const scankit::value_t<__VA_ARGS__>*, std::int64_t, const scankit::segment_bounds&, __VA_ARGS__,         \
      scankit::value_t<__VA_ARGS__>, scankit::value_t<__VA_ARGS__>*, void*, std::size_t, cudaStream_t,         \
      const scankit::cuda::segments_config&);                                                                  \
  template void scankit::cuda::segmented_scan<__VA_ARGS__>(                                                    \
      const scankit::value_t<__VA_ARGS__>*, scankit::value_t<__VA_ARGS__>*, std::int64_t,                      \
      const scankit::segment_offsets&, __VA_ARGS__, scankit::scan_kind, scankit::value_t<__VA_ARGS__>, void*,   \
      std::size_t, cudaStream_t, const scankit::cuda::segments_config&);                                       \
  template void scankit::cuda::segmented_scan<__VA_ARGS__>(                                                    \
      const scankit::value_t<__VA_ARGS__>*, scankit::value_t<__VA_ARGS__>*, std::int64_t, scankit::head_flags, \
      __VA_ARGS__, scankit::scan_kind, scankit::value_t<__VA_ARGS__>, void*, std::size_t, cudaStream_t,        \
      const scankit::cuda::segments_config&);                                                                  \
  SCANKIT_INSTANTIATE_SEGMENTS_BY_KEY(std::uint32_t, __VA_ARGS__)                                              \
  SCANKIT_INSTANTIATE_SEGMENTS_BY_KEY(std::uint64_t, __VA_ARGS__)                                              \
  template std::vector<scankit::value_t<__VA_ARGS__>> scankit::cuda::segmented_reduce(                         \
      std::span<const scankit::value_t<__VA_ARGS__>>, std::span<const std::int64_t>, __VA_ARGS__,              \
      std::optional<scankit::value_t<__VA_ARGS__>>, const scankit::cuda::segments_config&);                    \
  template void scankit::cuda::segmented_scan(std::span<const scankit::value_t<__VA_ARGS__>>,                  \
                                              std::span<scankit::value_t<__VA_ARGS__>>,                        \
                                              std::span<const std::int64_t>, __VA_ARGS__, scankit::scan_kind,  \
                                              std::optional<scankit::value_t<__VA_ARGS__>>,                    \
                                              const scankit::cuda::segments_config&);

/// The by-key operations for one key width (key bits type) and monoid.
#define SCANKIT_INSTANTIATE_SEGMENTS_BY_KEY(BITS, ...)                                                          \
  template void scankit::cuda::detail::segments::scan_by_key<BITS, __VA_ARGS__>(                               \
      const BITS*, const scankit::value_t<__VA_ARGS__>*, scankit::value_t<__VA_ARGS__>*, std::int64_t,          \
      __VA_ARGS__, scankit::scan_kind, scankit::value_t<__VA_ARGS__>, void*, std::size_t, cudaStream_t,        \
      const scankit::cuda::segments_config&);                                                                  \
  template void scankit::cuda::detail::segments::reduce_by_key<BITS, __VA_ARGS__>(                             \
      const BITS*, const scankit::value_t<__VA_ARGS__>*, std::int64_t, __VA_ARGS__, BITS*,                      \
      scankit::value_t<__VA_ARGS__>*, std::int64_t*, void*, std::size_t, cudaStream_t,                         \
      const scankit::cuda::segments_config&);                                                                  \
  template void scankit::cuda::detail::segments::scan_by_key_host<BITS, __VA_ARGS__>(                          \
      const BITS*, const scankit::value_t<__VA_ARGS__>*, scankit::value_t<__VA_ARGS__>*, std::int64_t,          \
      __VA_ARGS__, scankit::scan_kind, scankit::value_t<__VA_ARGS__>, const scankit::cuda::segments_config&);  \
  template std::pair<std::vector<BITS>, std::vector<scankit::value_t<__VA_ARGS__>>>                            \
  scankit::cuda::detail::segments::reduce_by_key_host<BITS, __VA_ARGS__>(                                      \
      const BITS*, const scankit::value_t<__VA_ARGS__>*, std::int64_t, __VA_ARGS__,                             \
      const scankit::cuda::segments_config&);
