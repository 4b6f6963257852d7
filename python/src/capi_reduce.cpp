// The C ABI's GPU reductions: scankit::cuda's device-pointer reduce, argmin, argmax and
// min_max, the result left in device memory (stream-ordered, no synchronisation), workspace
// from the caller.
#include <cstddef>
#include <cstdint>
#include <string>

#include "capi_gpu_scope.hpp"
#include "capi_internal.hpp"
#include "scankit/cuda/reduce.hpp"
#include "scankit/reduce_ops.hpp"

namespace scankit::capi::gpu {
namespace {

namespace sc = scankit::cuda;

/// Bytes of the result of op over dtype items (capi.h's layout of sk_reduce's out).
std::size_t result_bytes(int dtype, int op) {
  const auto item = static_cast<std::size_t>(dtype_size(dtype));
  if (op == SK_REDUCE_ARGMIN || op == SK_REDUCE_ARGMAX) return 16;
  if (op == SK_REDUCE_MIN_MAX) return 2 * item;
  if (op < SK_OP_SUM || op > SK_OP_XOR)
    throw scankit::invalid_argument("reduce: unknown operator code " + std::to_string(op));
  return item;
}

}  // namespace

std::int64_t reduce_workspace(int device, int dtype, int op) {
  scope::device_scope guard(device);
  require_type(dtype, scan_types, "reduce");
  return static_cast<std::int64_t>(sc::reduce_workspace_bytes(result_bytes(dtype, op)));
}

void reduce(int device, int dtype, int op, const void* in, std::int64_t n, void* out, void* ws,
            std::int64_t ws_bytes, std::uintptr_t stream) {
  scope::device_scope guard(device);
  require_type(dtype, scan_types, "reduce");
  const std::size_t need = sc::reduce_workspace_bytes(result_bytes(dtype, op));
  if (ws_bytes < 0 || static_cast<std::size_t>(ws_bytes) < need || ws == nullptr)
    throw scankit::invalid_argument("reduce: a workspace of " + std::to_string(need) +
                                    " bytes is needed, " + std::to_string(ws_bytes) + " given");
  const cudaStream_t s = scope::as_stream(stream);
  const auto wsb = static_cast<std::size_t>(ws_bytes);
  visit_types<scan_types>(dtype, "reduce", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* x = static_cast<const T*>(in);
    // indexed<T>: the item at byte 0, the int64 position at byte 8 (capi.h).
    static_assert(sizeof(indexed<T>) == 16 && offsetof(indexed<T>, index) == 8);
    static_assert(sizeof(min_max_value<T>) == 2 * sizeof(T));
    if (op == SK_REDUCE_ARGMIN)
      sc::argmin(x, n, static_cast<indexed<T>*>(out), ws, wsb, s);
    else if (op == SK_REDUCE_ARGMAX)
      sc::argmax(x, n, static_cast<indexed<T>*>(out), ws, wsb, s);
    else if (op == SK_REDUCE_MIN_MAX)
      sc::min_max(x, n, static_cast<min_max_value<T>*>(out), ws, wsb, s);
    else
      visit_op<T>(op, [&](auto m) { sc::reduce(x, n, m, static_cast<T*>(out), ws, wsb, s); });
  });
}

}  // namespace scankit::capi::gpu
