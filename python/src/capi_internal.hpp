// What the C ABI's translation units share: the element types behind the SK_* codes, the
// type dispatch, and the GPU backend's entry points (capi_cuda.cpp, or capi_nocuda.cpp in a
// build without CUDA).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "capi.h"
#include "capi_guard.hpp"
#include "scankit/error.hpp"
#include "scankit/ops.hpp"
#include "scankit/predicates.hpp"

namespace scankit::capi {

/// Half-precision keys travel as their 16 bits; the sorts map them to ordered bits themselves.
struct half_bits {
  std::uint16_t bits;
};
struct bfloat16_bits {
  std::uint16_t bits;
};

/// Opaque items of N bytes, for the operations that only move items.
template <int N>
struct alignas(N < 16 ? N : 16) bytes_of {
  unsigned char b[N];
};

inline const char* dtype_name(int t) {
  switch (t) {
    case SK_I8:
      return "int8";
    case SK_I16:
      return "int16";
    case SK_I32:
      return "int32";
    case SK_I64:
      return "int64";
    case SK_U8:
      return "uint8";
    case SK_U16:
      return "uint16";
    case SK_U32:
      return "uint32";
    case SK_U64:
      return "uint64";
    case SK_F16:
      return "float16";
    case SK_BF16:
      return "bfloat16";
    case SK_F32:
      return "float32";
    case SK_F64:
      return "float64";
  }
  return "unknown";
}

inline int dtype_size(int t) {
  switch (t) {
    case SK_I8:
    case SK_U8:
      return 1;
    case SK_I16:
    case SK_U16:
    case SK_F16:
    case SK_BF16:
      return 2;
    case SK_I32:
    case SK_U32:
    case SK_F32:
      return 4;
    case SK_I64:
    case SK_U64:
    case SK_F64:
      return 8;
  }
  return 0;
}

/// A set of SK_* codes as a bit mask, and its names for error messages.
constexpr unsigned mask_of(std::initializer_list<int> ts) {
  unsigned m = 0;
  for (int t : ts) m |= 1u << t;
  return m;
}
inline std::string mask_names(unsigned m) {
  std::string s;
  for (int t = SK_I8; t <= SK_F64; ++t)
    if (m & (1u << t)) s += (s.empty() ? "" : ", ") + std::string(dtype_name(t));
  return s;
}

inline constexpr unsigned scan_types = mask_of({SK_I32, SK_I64, SK_U32, SK_U64, SK_F32, SK_F64});
inline constexpr unsigned all_number_types =
    mask_of({SK_I8, SK_I16, SK_I32, SK_I64, SK_U8, SK_U16, SK_U32, SK_U64, SK_F32, SK_F64});
inline constexpr unsigned sort_types = all_number_types | mask_of({SK_F16, SK_BF16});
inline constexpr unsigned gpu_compact_types =
    mask_of({SK_I32, SK_I64, SK_U32, SK_U64, SK_F32, SK_F64, SK_U8});
inline constexpr unsigned histogram_types =
    mask_of({SK_U8, SK_U16, SK_I32, SK_U32, SK_I64, SK_F32, SK_F64});
inline constexpr unsigned bincount_types = mask_of({SK_U8, SK_U16, SK_I32, SK_U32, SK_I64});

inline void require_type(int t, unsigned allowed, const char* what) {
  if (t < SK_I8 || t > SK_F64 || !(allowed & (1u << t)))
    throw type_error(std::string(what) + " does not take " + dtype_name(t) +
                     " items; supported: " + mask_names(allowed));
}

/// Calls f(std::type_identity<T>{}) for the numeric type of code t (not float16/bfloat16).
template <class F>
decltype(auto) visit_number(int t, F&& f) {
  switch (t) {
    case SK_I8:
      return f(std::type_identity<std::int8_t>{});
    case SK_I16:
      return f(std::type_identity<std::int16_t>{});
    case SK_I32:
      return f(std::type_identity<std::int32_t>{});
    case SK_I64:
      return f(std::type_identity<std::int64_t>{});
    case SK_U8:
      return f(std::type_identity<std::uint8_t>{});
    case SK_U16:
      return f(std::type_identity<std::uint16_t>{});
    case SK_U32:
      return f(std::type_identity<std::uint32_t>{});
    case SK_U64:
      return f(std::type_identity<std::uint64_t>{});
    case SK_F32:
      return f(std::type_identity<float>{});
    case SK_F64:
      return f(std::type_identity<double>{});
  }
  throw type_error(std::string("unsupported element type ") + dtype_name(t));
}

/// The SK_* code of an element type (-1 for a type without one).
template <class T>
constexpr int code_of() {
  if constexpr (std::is_same_v<T, std::int8_t>) return SK_I8;
  else if constexpr (std::is_same_v<T, std::int16_t>) return SK_I16;
  else if constexpr (std::is_same_v<T, std::int32_t>) return SK_I32;
  else if constexpr (std::is_same_v<T, std::int64_t>) return SK_I64;
  else if constexpr (std::is_same_v<T, std::uint8_t>) return SK_U8;
  else if constexpr (std::is_same_v<T, std::uint16_t>) return SK_U16;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return SK_U32;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return SK_U64;
  else if constexpr (std::is_same_v<T, float>) return SK_F32;
  else if constexpr (std::is_same_v<T, double>) return SK_F64;
  else return -1;
}

/// Calls f(std::type_identity<T>{}) for the numeric type of code t, which must be one of the
/// `Allowed` mask (type_error naming them otherwise). f is instantiated for those types only,
/// so it may call templates the library instantiates for them alone.
template <unsigned Allowed, class F>
void visit_types(int t, const char* what, F&& f) {
  require_type(t, Allowed, what);
  visit_number(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    constexpr int code = code_of<T>();
    if constexpr (code >= 0 && ((Allowed >> code) & 1u)) f(tag);
  });
}

/// Calls f(Op{}) with the scankit monoid for op over T.
template <class T, class F>
decltype(auto) visit_op(int op, F&& f) {
  switch (op) {
    case SK_OP_SUM:
      return f(scankit::sum<T>{});
    case SK_OP_PROD:
      return f(scankit::product<T>{});
    case SK_OP_MIN:
      return f(scankit::min<T>{});
    case SK_OP_MAX:
      return f(scankit::max<T>{});
    case SK_OP_AND:
    case SK_OP_OR:
    case SK_OP_XOR:
      if constexpr (std::is_integral_v<T>) {
        if (op == SK_OP_AND) return f(scankit::bit_and<T>{});
        if (op == SK_OP_OR) return f(scankit::bit_or<T>{});
        return f(scankit::bit_xor<T>{});
      } else {
        throw type_error("bitwise scans (and, or, xor) need integer items, not floating point");
      }
  }
  throw scankit::invalid_argument("unknown scan operator code " + std::to_string(op));
}

/// Calls f(p) with the scankit predicate over T of an SK_PRED_* code: x != 0, x < *threshold or
/// x > *threshold; `what` names the call in errors.
template <class T, class F>
void visit_pred(int pred, const void* threshold, const char* what, F&& f) {
  if (pred == SK_PRED_NONZERO) return f(scankit::is_nonzero<T>{});
  if (pred != SK_PRED_LESS && pred != SK_PRED_GREATER)
    throw scankit::invalid_argument(std::string(what) + ": unknown predicate code " + std::to_string(pred));
  if (threshold == nullptr)
    throw scankit::invalid_argument(std::string(what) + ": a threshold predicate needs a threshold");
  const T t = *static_cast<const T*>(threshold);
  if (pred == SK_PRED_LESS) return f(scankit::less_than<T>{t});
  return f(scankit::greater_than<T>{t});
}

/// Calls f(std::type_identity<V>{}) with an opaque item type of `bytes` bytes.
template <class F>
decltype(auto) visit_bytes(int bytes, unsigned allowed_sizes, F&& f) {
  if (bytes > 0 && bytes <= 16 && (allowed_sizes & (1u << bytes))) {
    switch (bytes) {
      case 1:
        return f(std::type_identity<std::uint8_t>{});
      case 2:
        return f(std::type_identity<std::uint16_t>{});
      case 4:
        return f(std::type_identity<std::uint32_t>{});
      case 8:
        return f(std::type_identity<std::uint64_t>{});
      case 16:
        return f(std::type_identity<bytes_of<16>>{});
    }
  }
  std::string sizes;
  for (int b : {1, 2, 4, 8, 16})
    if (allowed_sizes & (1u << b)) sizes += (sizes.empty() ? "" : ", ") + std::to_string(b);
  throw type_error("items of " + std::to_string(bytes) +
                   " bytes are not supported here; sizes: " + sizes);
}

inline constexpr unsigned sizes_cpu = (1u << 1) | (1u << 2) | (1u << 4) | (1u << 8) | (1u << 16);
inline constexpr unsigned sizes_gpu_sort = (1u << 4) | (1u << 8) | (1u << 16);

/// Calls f(Op{}) with the monoid of an SK_OP_* code a segmented operation takes (sum, product,
/// min, max: what the library instantiates them for).
template <class T, class F>
decltype(auto) visit_segment_op(int op, F&& f) {
  switch (op) {
    case SK_OP_SUM:
      return f(scankit::sum<T>{});
    case SK_OP_PROD:
      return f(scankit::product<T>{});
    case SK_OP_MIN:
      return f(scankit::min<T>{});
    case SK_OP_MAX:
      return f(scankit::max<T>{});
  }
  throw scankit::invalid_argument(
      "segmented operations take sum, prod, min or max, not operator code " + std::to_string(op));
}

/// Calls f(std::type_identity<B>{}) with the unsigned integer of a key's width (4 or 8 bytes):
/// the by-key operations compare keys by their bits.
template <class F>
void visit_key_bits(int key_bytes, F&& f) {
  if (key_bytes == 4) return f(std::type_identity<std::uint32_t>{});
  if (key_bytes == 8) return f(std::type_identity<std::uint64_t>{});
  throw type_error("keys must be of 4 or 8 bytes, not " + std::to_string(key_bytes));
}

/// What an empty segment of a segmented reduction gets (capi.h's sk_segmented_reduce).
template <class T, class Op>
T empty_segment_value(const Op& op, bool mean, const void* init, const void* empty) {
  if (empty) return *static_cast<const T*>(empty);
  if (init) return *static_cast<const T*>(init);
  if (mean) {
    if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::quiet_NaN();
    else return T(0);
  }
  return op.identity();
}

/// A non-empty segment's result from op over its items: init combined first, then the mean.
template <class T, class Op>
T finish_segment(const Op& op, bool mean, bool has_init, T init, T value, std::int64_t length) {
  if (has_init) value = op(init, value);
  if (mean) value = static_cast<T>(value / static_cast<T>(length));
  return value;
}

/// The algorithm names (GPU ones first, default first) of a primitive.
const char* algorithm_list(const std::string& primitive);

/// A CPU algorithm name's index in `names` ("" picks `fallback`); GPU names are refused with
/// the CPU ones listed, unknown names with every one.
int cpu_choice(const std::string& a, std::initializer_list<const char*> names, int fallback,
               const char* primitive);

inline void check_n(std::int64_t n, const char* where) {
  scankit::detail::check_size(n, where);
}

inline void check_out(const void* p, const char* what, const char* where) {
  if (p == nullptr)
    throw scankit::invalid_argument(std::string(where) + ": " + what + " is a null pointer");
}

/// sk_topk's shape: rows, cols >= 0, rows * cols representable, 0 <= k <= cols.
inline void check_topk_shape(std::int64_t rows, std::int64_t cols, std::int64_t k, const char* where) {
  if (rows < 0 || cols < 0)
    throw scankit::invalid_argument(std::string(where) + ": rows and cols must be >= 0");
  if (cols > 0 && rows > std::numeric_limits<std::int64_t>::max() / cols)
    throw scankit::invalid_argument(std::string(where) + ": rows * cols overflows");
  check_n(rows * cols, where);
  if (k < 0 || k > cols)
    throw scankit::invalid_argument(std::string(where) + ": k = " + std::to_string(k) +
                                    " is not in [0, " + std::to_string(cols) + "]");
}

// ---- the CPU backend (cpu_*.cpp, one translation unit per primitive) -----------------------
namespace host {
void scan(int dtype, int op, bool exclusive, const void* init, const void* in, void* out,
          std::int64_t outer, std::int64_t len, std::int64_t inner, const std::string& algorithm);
void sort(int dtype, const void* keys_in, void* keys_out, const void* values_in, void* values_out,
          int value_bytes, bool indices, std::int64_t n, bool descending,
          const std::string& algorithm);
/// sk_topk (cpu_topk.cpp): the arguments checked by sk_topk (check_topk_shape) first.
/// sk_sort_rows on the CPU: each row sorted by the library's parallel segmented sort.
void sort_rows(int dtype, const void* keys_in, void* keys_out, std::int64_t* indices, std::int64_t rows,
               std::int64_t cols, bool descending);
void topk(int dtype, const void* in, void* values, std::int64_t* indices, std::int64_t rows,
          std::int64_t cols, std::int64_t k, bool largest);
std::int64_t select_flagged(int item_bytes, const void* in, const std::uint8_t* flags, void* out,
                            std::int64_t n, const std::string& algorithm);
std::int64_t select_if(int dtype, int pred, const void* threshold, bool remove, const void* in,
                       void* out, std::int64_t n, const std::string& algorithm);
std::int64_t partition(int dtype, int pred, const void* threshold, bool stable, const void* in,
                       void* out, std::int64_t n, const std::string& algorithm);
std::int64_t nonzero(int dtype, const void* in, std::int64_t* indices, std::int64_t n,
                     const std::string& algorithm);
std::int64_t unique(int dtype, const void* in, void* values, std::int64_t* counts, std::int64_t n,
                    bool equal_nan, const std::string& algorithm);
void histogram_even(int dtype, const void* samples, std::int64_t n, std::uint64_t* counts,
                    std::int64_t bins, double lower, double upper, int mode,
                    const std::string& algorithm);
void histogram_edges(int dtype, const void* samples, std::int64_t n, std::uint64_t* counts,
                     const void* edges, std::int64_t num_edges, const std::string& algorithm);
void bincount(int dtype, const void* samples, std::int64_t n, std::uint64_t* counts,
              std::int64_t bins, const std::string& algorithm);
/// sk_reduce (cpu_reduce.cpp): op an SK_OP_* or SK_REDUCE_* code, out as capi.h lays it out.
void reduce(int dtype, int op, const void* in, std::int64_t n, void* out);
/// The segmented operations (cpu_segments.cpp); segments checked first (check_segments_host).
void segmented_reduce(int dtype, int op, bool mean, const void* in, std::int64_t n,
                      const std::int64_t* offsets, std::int64_t n_segments, const void* init,
                      const void* empty, void* out, bool covering);
void segmented_scan(int dtype, int op, bool exclusive, const void* init, const void* in, void* out,
                    std::int64_t n, const std::int64_t* offsets, std::int64_t n_segments,
                    const std::uint8_t* flags);
void scan_by_key(int dtype, int op, bool exclusive, const void* init, const void* keys,
                 int key_bytes, const void* in, void* out, std::int64_t n);
std::int64_t reduce_by_key(int dtype, int op, const void* keys, int key_bytes, const void* in,
                           std::int64_t n, void* unique_keys, void* aggregates);
}  // namespace host

// ---- the GPU backend (capi_cuda.cpp; capi_nocuda.cpp throws no_device_error) --------------
namespace gpu {
bool built();
int device_count();
std::int64_t scan_workspace(int device, int dtype, std::int64_t outer, std::int64_t len,
                            std::int64_t inner, const std::string& algorithm);
/// kept_workspace: throws capturing_error, queueing nothing, when `stream` is capturing a graph.
void scan(int device, int dtype, int op, bool exclusive, const void* init, const void* in,
          void* out, std::int64_t outer, std::int64_t len, std::int64_t inner,
          const std::string& algorithm, void* ws, std::int64_t ws_bytes, std::uintptr_t stream,
          bool kept_workspace);
std::int64_t sort_workspace(int device, int dtype, std::int64_t n, int value_bytes, bool indices,
                            const std::string& algorithm);
/// discard_keys (argsort only): keys_out is scratch; its contents are unspecified afterwards.
void sort(int device, int dtype, const void* keys_in, void* keys_out, const void* values_in,
          void* values_out, int value_bytes, bool indices, bool discard_keys, std::int64_t n,
          bool descending, const std::string& algorithm, void* ws, std::int64_t ws_bytes,
          std::uintptr_t stream);
/// sk_sort_rows_workspace and sk_sort_rows on a GPU (capi_cuda.cpp).
std::int64_t sort_rows_workspace(int device, int dtype, std::int64_t rows, std::int64_t cols, bool indices);
void sort_rows(int device, int dtype, const void* keys_in, void* keys_out, std::int64_t* indices, std::int64_t rows,
               std::int64_t cols, bool descending, void* ws, std::int64_t ws_bytes, std::uintptr_t stream);
/// sk_topk_workspace and sk_topk (capi_cuda.cpp): the shape checked by check_topk_shape first.
std::int64_t topk_workspace(int device, int dtype, std::int64_t rows, std::int64_t cols,
                            std::int64_t k);
void topk(int device, int dtype, const void* in, void* values, std::int64_t* indices,
          std::int64_t rows, std::int64_t cols, std::int64_t k, bool largest, void* ws,
          std::int64_t ws_bytes, std::uintptr_t stream);
std::int64_t compact_workspace(int device, std::int64_t n, int item_bytes,
                               const std::string& algorithm);
void select_flagged(int device, int item_bytes, const void* in, const std::uint8_t* flags,
                    void* out, std::int64_t n, std::int64_t* count, const std::string& algorithm,
                    void* ws, std::int64_t ws_bytes, std::uintptr_t stream);
void select_if(int device, int dtype, int pred, const void* threshold, bool remove, const void* in,
               void* out, std::int64_t n, std::int64_t* count, const std::string& algorithm,
               void* ws, std::int64_t ws_bytes, std::uintptr_t stream);
void partition(int device, int dtype, int pred, const void* threshold, bool stable, const void* in,
               void* out, std::int64_t n, std::int64_t* count, const std::string& algorithm,
               void* ws, std::int64_t ws_bytes, std::uintptr_t stream);
void nonzero(int device, int dtype, const void* in, std::int64_t* indices, std::int64_t n,
             std::int64_t* count, const std::string& algorithm, void* ws, std::int64_t ws_bytes,
             std::uintptr_t stream);
void unique(int device, int dtype, const void* in, void* values, std::int64_t* counts,
            std::int64_t n, bool equal_nan, std::int64_t* count, const std::string& algorithm,
            void* ws, std::int64_t ws_bytes, std::uintptr_t stream);
std::int64_t read_count(int device, const std::int64_t* d_count, std::uintptr_t stream);
void fill_tail(int device, int item_bytes, void* out, const std::int64_t* count, std::int64_t size,
               const void* fill, std::uintptr_t stream);
void histogram_even(int device, int dtype, const void* samples, std::int64_t n,
                    std::uint64_t* counts, std::int64_t bins, double lower, double upper,
                    int mode, const std::string& algorithm, std::uintptr_t stream);
void histogram_edges(int device, int dtype, const void* samples, std::int64_t n,
                     std::uint64_t* counts, const void* edges, std::int64_t num_edges,
                     const std::string& algorithm, std::uintptr_t stream);
void bincount(int device, int dtype, const void* samples, std::int64_t n, std::uint64_t* counts,
              std::int64_t bins, const std::string& algorithm, std::uintptr_t stream);
void bincount_capped(int device, int dtype, const void* samples, std::int64_t n,
                     std::uint64_t* counts, std::int64_t capacity, const std::string& algorithm,
                     std::uintptr_t stream, std::int64_t* summary);
// Reductions and segments (capi_reduce.cpp, capi_segments.cpp): the arguments as capi.h's.
std::int64_t reduce_workspace(int device, int dtype, int op);
void reduce(int device, int dtype, int op, const void* in, std::int64_t n, void* out, void* ws,
            std::int64_t ws_bytes, std::uintptr_t stream);
std::int64_t segments_workspace(int device, std::int64_t n, std::int64_t n_segments,
                                int value_bytes);
void segmented_reduce(int device, int dtype, int op, bool mean, const void* in, std::int64_t n,
                      const std::int64_t* offsets, std::int64_t n_segments, const void* init,
                      const void* empty, void* out, int check, void* ws, std::int64_t ws_bytes,
                      std::uintptr_t stream);
void segmented_scan(int device, int dtype, int op, bool exclusive, const void* init,
                    const void* in, void* out, std::int64_t n, const std::int64_t* offsets,
                    std::int64_t n_segments, const std::uint8_t* flags, bool check, void* ws,
                    std::int64_t ws_bytes, std::uintptr_t stream);
void scan_by_key(int device, int dtype, int op, bool exclusive, const void* init,
                 const void* keys, int key_bytes, const void* in, void* out, std::int64_t n,
                 void* ws, std::int64_t ws_bytes, std::uintptr_t stream);
void reduce_by_key(int device, int dtype, int op, const void* keys, int key_bytes, const void* in,
                   std::int64_t n, void* unique_keys, void* aggregates, std::int64_t* count,
                   void* ws, std::int64_t ws_bytes, std::uintptr_t stream);
}  // namespace gpu

}  // namespace scankit::capi
