// The C ABI's GPU segmented operations: scankit::cuda's device-pointer segmented reduce and
// scans and the by-key operations, stream-ordered with the caller's workspace. Only the check
// of the segments (check != 0) synchronises.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "capi_gpu_scope.hpp"
#include "capi_internal.hpp"
#include "capi_segments_finish.hpp"
#include "scankit/cuda/segments.hpp"
#include "scankit/segments.hpp"

namespace scankit::capi::gpu {
namespace {

namespace sc = scankit::cuda;

scan_kind kind_of(bool exclusive) {
  return exclusive ? scan_kind::exclusive : scan_kind::inclusive;
}

template <class T, class Op>
T init_or_identity(const void* init, const Op& op) {
  return init ? *static_cast<const T*>(init) : op.identity();
}

void check_workspace(std::int64_t n, std::int64_t n_segments, int dtype, void* ws,
                     std::int64_t ws_bytes, const char* where) {
  const std::size_t need =
      sc::segments_workspace_bytes(n, n_segments, static_cast<std::size_t>(dtype_size(dtype)));
  if (ws_bytes < 0 || static_cast<std::size_t>(ws_bytes) < need || (need > 0 && ws == nullptr))
    throw scankit::invalid_argument(std::string(where) + ": a workspace of " +
                                    std::to_string(need) + " bytes is needed, " +
                                    std::to_string(ws_bytes) + " given");
}

}  // namespace

std::int64_t segments_workspace(int device, std::int64_t n, std::int64_t n_segments,
                                int value_bytes) {
  scope::device_scope guard(device);
  return static_cast<std::int64_t>(
      sc::segments_workspace_bytes(n, n_segments, static_cast<std::size_t>(value_bytes)));
}

void segmented_reduce(int device, int dtype, int op, bool mean, const void* in, std::int64_t n,
                      const std::int64_t* offsets, std::int64_t n_segments, const void* init,
                      const void* empty, void* out, int check, void* ws, std::int64_t ws_bytes,
                      std::uintptr_t stream) {
  scope::device_scope guard(device);
  const cudaStream_t s = scope::as_stream(stream);
  visit_types<scan_types>(dtype, "segment_reduce", [&](auto tag) {
    using T = typename decltype(tag)::type;
    visit_segment_op<T>(op, [&](auto m) {
      const segment_offsets seg{offsets, n_segments};
      check_workspace(n, n_segments, dtype, ws, ws_bytes, "segment_reduce");
      if (check != 0) sc::check_segments(segment_bounds(seg), n, s, check == 2);
      if (n_segments == 0) return;
      const T e = empty_segment_value<T>(m, mean, init, empty);
      sc::segmented_reduce(static_cast<const T*>(in), n, segment_bounds(seg), m, e,
                           static_cast<T*>(out), ws, static_cast<std::size_t>(ws_bytes), s);
      kernels::finish_segments(dtype, op, mean, init, offsets, n_segments, out, s);
    });
  });
}

void segmented_scan(int device, int dtype, int op, bool exclusive, const void* init, const void* in,
                    void* out, std::int64_t n, const std::int64_t* offsets, std::int64_t n_segments,
                    const std::uint8_t* flags, bool check, void* ws, std::int64_t ws_bytes,
                    std::uintptr_t stream) {
  scope::device_scope guard(device);
  const cudaStream_t s = scope::as_stream(stream);
  visit_types<scan_types>(dtype, "segmented_scan", [&](auto tag) {
    using T = typename decltype(tag)::type;
    visit_segment_op<T>(op, [&](auto m) {
      const T first = init_or_identity<T>(init, m);
      const auto* x = static_cast<const T*>(in);
      auto* y = static_cast<T*>(out);
      const auto wsb = static_cast<std::size_t>(ws_bytes);
      if (offsets) {
        const segment_offsets seg{offsets, n_segments};
        check_workspace(n, n_segments, dtype, ws, ws_bytes, "segmented_scan");
        if (check) sc::check_segments(segment_bounds(seg), n, s, true);
        if (n == 0) return;
        sc::segmented_scan(x, y, n, seg, m, kind_of(exclusive), first, ws, wsb, s);
      } else {
        check_workspace(n, 0, dtype, ws, ws_bytes, "segmented_scan");
        if (n == 0) return;
        sc::segmented_scan(x, y, n, head_flags{flags}, m, kind_of(exclusive), first, ws, wsb, s);
      }
    });
  });
}

void scan_by_key(int device, int dtype, int op, bool exclusive, const void* init, const void* keys,
                 int key_bytes, const void* in, void* out, std::int64_t n, void* ws,
                 std::int64_t ws_bytes, std::uintptr_t stream) {
  scope::device_scope guard(device);
  const cudaStream_t s = scope::as_stream(stream);
  visit_key_bits(key_bytes, [&](auto ktag) {
    using K = typename decltype(ktag)::type;
    visit_types<scan_types>(dtype, "scan_by_key", [&](auto tag) {
      using T = typename decltype(tag)::type;
      visit_segment_op<T>(op, [&](auto m) {
        check_workspace(n, 0, dtype, ws, ws_bytes, "scan_by_key");
        if (n == 0) return;
        sc::scan_by_key(static_cast<const K*>(keys), static_cast<const T*>(in),
                        static_cast<T*>(out), n, m, kind_of(exclusive),
                        init_or_identity<T>(init, m), ws, static_cast<std::size_t>(ws_bytes), s);
      });
    });
  });
}

void reduce_by_key(int device, int dtype, int op, const void* keys, int key_bytes, const void* in,
                   std::int64_t n, void* unique_keys, void* aggregates, std::int64_t* count,
                   void* ws, std::int64_t ws_bytes, std::uintptr_t stream) {
  scope::device_scope guard(device);
  const cudaStream_t s = scope::as_stream(stream);
  visit_key_bits(key_bytes, [&](auto ktag) {
    using K = typename decltype(ktag)::type;
    visit_types<scan_types>(dtype, "reduce_by_key", [&](auto tag) {
      using T = typename decltype(tag)::type;
      visit_segment_op<T>(op, [&](auto m) {
        check_workspace(n, 0, dtype, ws, ws_bytes, "reduce_by_key");
        if (n == 0) {
          kernels::check_cuda(cudaMemsetAsync(count, 0, sizeof(std::int64_t), s),
                              "cudaMemsetAsync");
          return;
        }
        sc::reduce_by_key(static_cast<const K*>(keys), static_cast<const T*>(in), n, m,
                          static_cast<K*>(unique_keys), static_cast<T*>(aggregates), count, ws,
                          static_cast<std::size_t>(ws_bytes), s);
      });
    });
  });
}

}  // namespace scankit::capi::gpu
