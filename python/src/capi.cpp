// The C ABI's entry points: arguments checked, the CPU (host::) or GPU (gpu::) backend called,
// exceptions turned into status codes.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <utility>

#include "capi_internal.hpp"
#include "scankit/histogram_bins.hpp"
#include "scankit/version.hpp"

namespace scankit::capi {
namespace {

thread_local std::string last_error;

/// Runs f, turning every exception into a status code and a message.
template <class F>
int guarded(F&& f) noexcept {
  return scankit::capi::guarded(last_error, std::forward<F>(f));
}

/// An address field of an argument block as a pointer (0: NULL).
void* at(std::uint64_t address) {
  return reinterpret_cast<void*>(static_cast<std::uintptr_t>(address));
}

/// The algorithm field of an argument block: the NUL-terminated name at that address ("" at 0).
std::string name_at(std::uint64_t address) {
  const auto* s = static_cast<const char*>(at(address));
  return s ? std::string(s) : std::string();
}

void check_bins(std::int64_t bins, const char* where) {
  if (bins < 1 || bins > scankit::max_histogram_bins)
    throw scankit::invalid_argument(std::string(where) + ": bins = " + std::to_string(bins) +
                                    " is outside [1, 2^24]");
}

void check_even_range(double lower, double upper, const char* where) {
  if (!(lower < upper) || !std::isfinite(lower) || !std::isfinite(upper))
    throw scankit::invalid_argument(std::string(where) + ": the range needs finite lower < upper");
}

}  // namespace

int cpu_choice(const std::string& a, std::initializer_list<const char*> names, int fallback,
               const char* primitive) {
  if (a.empty()) return fallback;
  int i = 0;
  for (const char* s : names) {
    if (a == s) return i;
    ++i;
  }
  std::string list;
  for (const char* s : names) list += (list.empty() ? "" : ", ") + std::string(s);
  const std::string all = algorithm_list(primitive);
  const bool gpu_name = ("," + all + ",").find("," + a + ",") != std::string::npos;
  throw scankit::invalid_argument(
      gpu_name
          ? "algorithm '" + a + "' runs on the GPU; host (NumPy) arrays take " + list
          : "unknown " + std::string(primitive) + " algorithm '" + a + "'; choose from " + all);
}

const char* algorithm_list(const std::string& primitive) {
  static const std::string scan = [] {
    std::string s;
    if (gpu::built())
      s = "hillis-steele-global,hillis-steele-shared,blelloch,blelloch-conflict-free,"
          "work-efficient-global,reduce-then-scan,decoupled-lookback,";
    return s + "cpu-parallel,cpu-serial,cpu-tbb";
  }();
  static const std::string sort =
      std::string(gpu::built() ? "onesweep,lsd-reduce-then-scan,split-1bit," : "") +
      "cpu-radix,cpu-serial";
  static const std::string compact = std::string(gpu::built() ? "single-pass,scan-scatter," : "") +
                                     "cpu-parallel,cpu-serial,cpu-serial-scan";
  static const std::string histogram =
      std::string(gpu::built() ? "adaptive,global-atomic-blocked,global-atomic-interleaved,"
                                 "shared-privatized,shared-aggregated,"
                               : "") +
      "cpu-parallel,cpu-serial";
  if (primitive == "scan") return scan.c_str();
  if (primitive == "sort") return sort.c_str();
  if (primitive == "compact") return compact.c_str();
  if (primitive == "histogram") return histogram.c_str();
  return nullptr;
}

}  // namespace scankit::capi

using namespace scankit::capi;
namespace sk = scankit;

extern "C" {

const char* sk_version(void) {
  return SCANKIT_VERSION_STRING;
}

int sk_built_with_cuda(void) {
  return gpu::built() ? 1 : 0;
}

int sk_device_count(void) {
  try {
    return gpu::device_count();
  } catch (...) {
    return 0;
  }
}

const char* sk_last_error(void) {
  return last_error.c_str();
}

const char* sk_algorithms(const char* primitive) {
  return primitive ? algorithm_list(primitive) : nullptr;
}

int sk_scan_workspace(const sk_scan_args* a, int64_t* bytes) {
  return guarded([&] {
    check_out(a, "the argument block", "sk_scan_workspace");
    check_out(bytes, "bytes", "sk_scan_workspace");
    const int device = static_cast<int>(a->device);
    *bytes = device < 0 ? 0
                        : gpu::scan_workspace(device, static_cast<int>(a->dtype), a->outer, a->len,
                                              a->inner, name_at(a->algorithm));
  });
}

int sk_scan(const sk_scan_args* a) {
  return guarded([&] {
    check_out(a, "the argument block", "sk_scan");
    const int device = static_cast<int>(a->device), dtype = static_cast<int>(a->dtype);
    const int op = static_cast<int>(a->op);
    if (device < 0)
      host::scan(dtype, op, a->exclusive != 0, at(a->init), at(a->in), at(a->out), a->outer, a->len,
                 a->inner, name_at(a->algorithm));
    else
      gpu::scan(device, dtype, op, a->exclusive != 0, at(a->init), at(a->in), at(a->out), a->outer,
                a->len, a->inner, name_at(a->algorithm), at(a->workspace), a->workspace_bytes,
                static_cast<std::uintptr_t>(a->stream), (a->flags & SK_SCAN_KEPT_WORKSPACE) != 0);
  });
}

int sk_sort_workspace(const sk_sort_args* a, int64_t* bytes) {
  return guarded([&] {
    check_out(a, "the argument block", "sk_sort_workspace");
    check_out(bytes, "bytes", "sk_sort_workspace");
    const int device = static_cast<int>(a->device);
    *bytes = device < 0 ? 0
                        : gpu::sort_workspace(device, static_cast<int>(a->dtype), a->n,
                                              static_cast<int>(a->value_bytes), a->indices != 0,
                                              name_at(a->algorithm));
  });
}

int sk_sort(const sk_sort_args* a) {
  return guarded([&] {
    check_out(a, "the argument block", "sk_sort");
    const int device = static_cast<int>(a->device), dtype = static_cast<int>(a->dtype);
    const int value_bytes = static_cast<int>(a->value_bytes);
    if (device < 0)
      host::sort(dtype, at(a->keys_in), at(a->keys_out), at(a->values_in), at(a->values_out),
                 value_bytes, a->indices != 0, a->n, a->descending != 0, name_at(a->algorithm));
    else
      gpu::sort(device, dtype, at(a->keys_in), at(a->keys_out), at(a->values_in),
                at(a->values_out), value_bytes, a->indices != 0, a->indices == 2, a->n,
                a->descending != 0, name_at(a->algorithm), at(a->workspace), a->workspace_bytes,
                static_cast<std::uintptr_t>(a->stream));
  });
}

namespace {
void check_rows_shape(std::int64_t rows, std::int64_t cols, const char* where) {
  if (rows < 0 || cols < 0)
    throw sk::invalid_argument(std::string(where) + ": rows and cols must be >= 0, not " + std::to_string(rows) +
                               " and " + std::to_string(cols));
  if (cols > 0 && rows > std::numeric_limits<std::int64_t>::max() / cols)
    throw sk::invalid_argument(std::string(where) + ": rows x cols overflows 64 bits");
}
}  // namespace

int sk_sort_rows_workspace(const sk_sort_rows_args* a, int64_t* bytes) {
  return guarded([&] {
    check_out(a, "the argument block", "sk_sort_rows_workspace");
    check_out(bytes, "bytes", "sk_sort_rows_workspace");
    check_rows_shape(a->rows, a->cols, "sort");
    const int device = static_cast<int>(a->device);
    *bytes = device < 0 ? 0
                        : gpu::sort_rows_workspace(device, static_cast<int>(a->dtype), a->rows, a->cols,
                                                   a->indices_out != 0);
  });
}

int sk_sort_rows(const sk_sort_rows_args* a) {
  return guarded([&] {
    const char* where = "sort";
    check_out(a, "the argument block", where);
    check_rows_shape(a->rows, a->cols, where);
    if (a->rows * a->cols > 0) {
      check_out(at(a->keys_in), "keys", where);
      check_out(at(a->keys_out), "sorted keys", where);
    }
    const int device = static_cast<int>(a->device), dtype = static_cast<int>(a->dtype);
    auto* indices = static_cast<std::int64_t*>(at(a->indices_out));
    if (device < 0)
      host::sort_rows(dtype, at(a->keys_in), at(a->keys_out), indices, a->rows, a->cols, a->descending != 0);
    else
      gpu::sort_rows(device, dtype, at(a->keys_in), at(a->keys_out), indices, a->rows, a->cols,
                     a->descending != 0, at(a->workspace), a->workspace_bytes,
                     static_cast<std::uintptr_t>(a->stream));
  });
}

int sk_topk_workspace(const sk_topk_args* a, int64_t* bytes) {
  return guarded([&] {
    check_out(a, "the argument block", "sk_topk_workspace");
    check_out(bytes, "bytes", "sk_topk_workspace");
    check_topk_shape(a->rows, a->cols, a->k, "topk");
    const int device = static_cast<int>(a->device);
    *bytes = device < 0 ? 0
                        : gpu::topk_workspace(device, static_cast<int>(a->dtype), a->rows, a->cols,
                                              a->k);
  });
}

int sk_topk(const sk_topk_args* a) {
  return guarded([&] {
    const char* where = "topk";
    check_out(a, "the argument block", where);
    check_topk_shape(a->rows, a->cols, a->k, where);
    if (a->rows * a->cols > 0) check_out(at(a->in), "in", where);
    if (a->rows * a->k > 0) {
      check_out(at(a->values_out), "values_out", where);
      check_out(at(a->indices_out), "indices_out", where);
    }
    const int device = static_cast<int>(a->device), dtype = static_cast<int>(a->dtype);
    auto* indices = static_cast<std::int64_t*>(at(a->indices_out));
    if (device >= 0)
      return gpu::topk(device, dtype, at(a->in), at(a->values_out), indices, a->rows, a->cols,
                       a->k, a->largest != 0, at(a->workspace), a->workspace_bytes,
                       static_cast<std::uintptr_t>(a->stream));
    host::topk(dtype, at(a->in), at(a->values_out), indices, a->rows, a->cols, a->k,
               a->largest != 0);
  });
}

int sk_compact_workspace(const sk_compact_workspace_args* a, int64_t* bytes) {
  return guarded([&] {
    check_out(a, "the argument block", "sk_compact_workspace");
    check_out(bytes, "bytes", "sk_compact_workspace");
    const int device = static_cast<int>(a->device);
    *bytes = device < 0 ? 0
                        : gpu::compact_workspace(device, a->n, static_cast<int>(a->item_bytes),
                                                 name_at(a->algorithm));
  });
}

int sk_select_flagged(const sk_select_flagged_args* a) {
  return guarded([&] {
    check_out(a, "the argument block", "select");
    auto* count = static_cast<std::int64_t*>(at(a->count));
    check_out(count, "count", "select");
    const int device = static_cast<int>(a->device), item_bytes = static_cast<int>(a->item_bytes);
    const auto* flags = static_cast<const std::uint8_t*>(at(a->flags));
    if (device >= 0)
      return gpu::select_flagged(device, item_bytes, at(a->in), flags, at(a->out), a->n, count,
                                 name_at(a->algorithm), at(a->workspace), a->workspace_bytes,
                                 static_cast<std::uintptr_t>(a->stream));
    *count = host::select_flagged(item_bytes, at(a->in), flags, at(a->out), a->n,
                                  name_at(a->algorithm));
  });
}

int sk_select_if(const sk_select_if_args* a) {
  return guarded([&] {
    check_out(a, "the argument block", "select");
    auto* count = static_cast<std::int64_t*>(at(a->count));
    check_out(count, "count", "select");
    const int device = static_cast<int>(a->device), dtype = static_cast<int>(a->dtype);
    const int pred = static_cast<int>(a->pred);
    if (device >= 0)
      return gpu::select_if(device, dtype, pred, at(a->threshold), a->remove != 0, at(a->in),
                            at(a->out), a->n, count, name_at(a->algorithm), at(a->workspace),
                            a->workspace_bytes, static_cast<std::uintptr_t>(a->stream));
    *count = host::select_if(dtype, pred, at(a->threshold), a->remove != 0, at(a->in), at(a->out),
                             a->n, name_at(a->algorithm));
  });
}

int sk_partition(const sk_partition_args* a) {
  return guarded([&] {
    check_out(a, "the argument block", "partition");
    auto* count = static_cast<std::int64_t*>(at(a->count));
    check_out(count, "count", "partition");
    const int device = static_cast<int>(a->device), dtype = static_cast<int>(a->dtype);
    const int pred = static_cast<int>(a->pred);
    if (device >= 0)
      return gpu::partition(device, dtype, pred, at(a->threshold), a->stable != 0, at(a->in),
                            at(a->out), a->n, count, name_at(a->algorithm), at(a->workspace),
                            a->workspace_bytes, static_cast<std::uintptr_t>(a->stream));
    *count = host::partition(dtype, pred, at(a->threshold), a->stable != 0, at(a->in), at(a->out),
                             a->n, name_at(a->algorithm));
  });
}

int sk_nonzero(const sk_nonzero_args* a) {
  return guarded([&] {
    check_out(a, "the argument block", "nonzero");
    auto* count = static_cast<std::int64_t*>(at(a->count));
    check_out(count, "count", "nonzero");
    const int device = static_cast<int>(a->device), dtype = static_cast<int>(a->dtype);
    auto* indices = static_cast<std::int64_t*>(at(a->indices));
    if (device >= 0)
      return gpu::nonzero(device, dtype, at(a->in), indices, a->n, count, name_at(a->algorithm),
                          at(a->workspace), a->workspace_bytes,
                          static_cast<std::uintptr_t>(a->stream));
    *count = host::nonzero(dtype, at(a->in), indices, a->n, name_at(a->algorithm));
  });
}

int sk_unique(const sk_unique_args* a) {
  return guarded([&] {
    check_out(a, "the argument block", "unique");
    auto* count = static_cast<std::int64_t*>(at(a->count));
    check_out(count, "count", "unique");
    const int device = static_cast<int>(a->device), dtype = static_cast<int>(a->dtype);
    auto* counts = static_cast<std::int64_t*>(at(a->counts));
    if (device >= 0)
      return gpu::unique(device, dtype, at(a->in), at(a->values), counts, a->n, a->equal_nan != 0,
                         count, name_at(a->algorithm), at(a->workspace), a->workspace_bytes,
                         static_cast<std::uintptr_t>(a->stream));
    *count = host::unique(dtype, at(a->in), at(a->values), counts, a->n, a->equal_nan != 0,
                          name_at(a->algorithm));
  });
}

int sk_read_count(const sk_read_count_args* a, int64_t* value) {
  return guarded([&] {
    check_out(a, "the argument block", "sk_read_count");
    check_out(value, "value", "sk_read_count");
    const auto* d_count = static_cast<const std::int64_t*>(at(a->count));
    check_out(d_count, "count", "sk_read_count");
    const int device = static_cast<int>(a->device);
    *value = device < 0 ? *d_count
                        : gpu::read_count(device, d_count, static_cast<std::uintptr_t>(a->stream));
  });
}

int sk_fill_tail(const sk_fill_tail_args* a) {
  return guarded([&] {
    check_out(a, "the argument block", "fill");
    const auto* count = static_cast<const std::int64_t*>(at(a->count));
    const void* fill = at(a->fill);
    check_out(count, "count", "fill");
    check_out(fill, "fill value", "fill");
    const std::int64_t size = a->size;
    check_n(size, "fill");
    const int device = static_cast<int>(a->device), item_bytes = static_cast<int>(a->item_bytes);
    void* out = at(a->out);
    if (device >= 0)
      return gpu::fill_tail(device, item_bytes, out, count, size, fill,
                            static_cast<std::uintptr_t>(a->stream));
    visit_bytes(item_bytes, sizes_cpu, [&](auto tag) {
      using V = typename decltype(tag)::type;
      V f;
      std::memcpy(&f, fill, sizeof(V));
      auto* o = static_cast<V*>(out);
      for (std::int64_t i = std::clamp<std::int64_t>(*count, 0, size); i < size; ++i) o[i] = f;
    });
  });
}

int sk_histogram_even(const sk_histogram_even_args* a) {
  return guarded([&] {
    const char* where = "histogram";
    check_out(a, "the argument block", where);
    check_n(a->n, where);
    check_bins(a->bins, where);
    check_even_range(a->lower, a->upper, where);
    auto* counts = static_cast<std::uint64_t*>(at(a->counts));
    check_out(counts, "counts", where);
    const int device = static_cast<int>(a->device), dtype = static_cast<int>(a->dtype);
    const int mode = static_cast<int>(a->mode);
    if (device >= 0)
      return gpu::histogram_even(device, dtype, at(a->samples), a->n, counts, a->bins, a->lower,
                                 a->upper, mode, name_at(a->algorithm),
                                 static_cast<std::uintptr_t>(a->stream));
    host::histogram_even(dtype, at(a->samples), a->n, counts, a->bins, a->lower, a->upper, mode,
                         name_at(a->algorithm));
  });
}

int sk_histogram_edges(const sk_histogram_edges_args* a) {
  return guarded([&] {
    const char* where = "histogram";
    check_out(a, "the argument block", where);
    check_n(a->n, where);
    auto* counts = static_cast<std::uint64_t*>(at(a->counts));
    check_out(counts, "counts", where);
    const int device = static_cast<int>(a->device), dtype = static_cast<int>(a->dtype);
    if (device >= 0)
      return gpu::histogram_edges(device, dtype, at(a->samples), a->n, counts, at(a->edges),
                                  a->num_edges, name_at(a->algorithm),
                                  static_cast<std::uintptr_t>(a->stream));
    host::histogram_edges(dtype, at(a->samples), a->n, counts, at(a->edges), a->num_edges,
                          name_at(a->algorithm));
  });
}

int sk_bincount(const sk_bincount_args* a) {
  return guarded([&] {
    const char* where = "bincount";
    check_out(a, "the argument block", where);
    check_n(a->n, where);
    auto* counts = static_cast<std::uint64_t*>(at(a->counts));
    check_out(counts, "counts", where);
    const int device = static_cast<int>(a->device), dtype = static_cast<int>(a->dtype);
    if (device >= 0)
      return gpu::bincount(device, dtype, at(a->samples), a->n, counts, a->bins,
                           name_at(a->algorithm), static_cast<std::uintptr_t>(a->stream));
    check_bins(a->bins, where);
    host::bincount(dtype, at(a->samples), a->n, counts, a->bins, name_at(a->algorithm));
  });
}

int sk_bincount_capped(const sk_bincount_capped_args* a) {
  return guarded([&] {
    const char* where = "bincount";
    check_out(a, "the argument block", where);
    check_n(a->n, where);
    auto* counts = static_cast<std::uint64_t*>(at(a->counts));
    auto* summary = static_cast<std::int64_t*>(at(a->summary));
    check_out(counts, "counts", where);
    check_out(summary, "summary", where);
    const int device = static_cast<int>(a->device);
    if (device < 0) throw scankit::invalid_argument("bincount: the capped count is GPU-only");
    gpu::bincount_capped(device, static_cast<int>(a->dtype), at(a->samples), a->n, counts,
                         a->capacity, name_at(a->algorithm),
                         static_cast<std::uintptr_t>(a->stream), summary);
  });
}

int sk_reduce_workspace(const sk_reduce_args* a, int64_t* bytes) {
  return guarded([&] {
    check_out(a, "the argument block", "sk_reduce_workspace");
    check_out(bytes, "bytes", "sk_reduce_workspace");
    const int device = static_cast<int>(a->device);
    *bytes = device < 0 ? 0
                        : gpu::reduce_workspace(device, static_cast<int>(a->dtype),
                                                static_cast<int>(a->op));
  });
}

int sk_reduce(const sk_reduce_args* a) {
  return guarded([&] {
    check_out(a, "the argument block", "reduce");
    check_n(a->n, "reduce");
    check_out(at(a->out), "out", "reduce");
    if (a->n > 0) check_out(at(a->in), "in", "reduce");
    const int device = static_cast<int>(a->device), dtype = static_cast<int>(a->dtype);
    const int op = static_cast<int>(a->op);
    if (a->n == 0 && (op == SK_REDUCE_ARGMIN || op == SK_REDUCE_ARGMAX))
      throw sk::invalid_argument(std::string(op == SK_REDUCE_ARGMIN ? "argmin" : "argmax") +
                                 ": an empty array has no extreme item");
    if (device >= 0)
      return gpu::reduce(device, dtype, op, at(a->in), a->n, at(a->out), at(a->workspace),
                         a->workspace_bytes, static_cast<std::uintptr_t>(a->stream));
    host::reduce(dtype, op, at(a->in), a->n, at(a->out));
  });
}

int sk_segments_workspace(const sk_segments_workspace_args* a, int64_t* bytes) {
  return guarded([&] {
    check_out(a, "the argument block", "sk_segments_workspace");
    check_out(bytes, "bytes", "sk_segments_workspace");
    check_n(a->n, "segments");
    check_n(a->n_segments, "segments");
    const int device = static_cast<int>(a->device);
    *bytes = device < 0 ? 0
                        : gpu::segments_workspace(device, a->n, a->n_segments,
                                                  static_cast<int>(a->value_bytes));
  });
}

int sk_segmented_reduce(const sk_segmented_reduce_args* a) {
  return guarded([&] {
    const char* where = "segment_reduce";
    check_out(a, "the argument block", where);
    check_n(a->n, where);
    check_n(a->n_segments, where);
    const auto* offsets = static_cast<const std::int64_t*>(at(a->offsets));
    check_out(offsets, "offsets", where);
    if (a->n_segments > 0) check_out(at(a->out), "out", where);
    if (a->n > 0) check_out(at(a->in), "in", where);
    const int device = static_cast<int>(a->device), dtype = static_cast<int>(a->dtype);
    const int op = static_cast<int>(a->op);
    if (a->mean != 0 && op != SK_OP_SUM)
      throw sk::invalid_argument("segment_reduce: the mean is a sum's (op SK_OP_SUM)");
    if (device >= 0)
      return gpu::segmented_reduce(device, dtype, op, a->mean != 0, at(a->in), a->n, offsets,
                                   a->n_segments, at(a->init), at(a->empty), at(a->out),
                                   static_cast<int>(a->check), at(a->workspace),
                                   a->workspace_bytes, static_cast<std::uintptr_t>(a->stream));
    host::segmented_reduce(dtype, op, a->mean != 0, at(a->in), a->n, offsets, a->n_segments,
                           at(a->init), at(a->empty), at(a->out), a->check == 2);
  });
}

int sk_segmented_scan(const sk_segmented_scan_args* a) {
  return guarded([&] {
    const char* where = "segmented_scan";
    check_out(a, "the argument block", where);
    check_n(a->n, where);
    check_n(a->n_segments, where);
    const auto* offsets = static_cast<const std::int64_t*>(at(a->offsets));
    const auto* flags = static_cast<const std::uint8_t*>(at(a->flags));
    if ((offsets == nullptr) == (flags == nullptr))
      throw sk::invalid_argument("segmented_scan: pass either offsets or flags");
    if (a->n > 0) {
      check_out(at(a->in), "in", where);
      check_out(at(a->out), "out", where);
    }
    const int device = static_cast<int>(a->device), dtype = static_cast<int>(a->dtype);
    const int op = static_cast<int>(a->op);
    if (device >= 0)
      return gpu::segmented_scan(device, dtype, op, a->exclusive != 0, at(a->init), at(a->in),
                                 at(a->out), a->n, offsets, a->n_segments, flags, a->check != 0,
                                 at(a->workspace), a->workspace_bytes,
                                 static_cast<std::uintptr_t>(a->stream));
    host::segmented_scan(dtype, op, a->exclusive != 0, at(a->init), at(a->in), at(a->out), a->n,
                         offsets, a->n_segments, flags);
  });
}

int sk_scan_by_key(const sk_scan_by_key_args* a) {
  return guarded([&] {
    const char* where = "scan_by_key";
    check_out(a, "the argument block", where);
    check_n(a->n, where);
    if (a->n > 0) {
      check_out(at(a->keys), "keys", where);
      check_out(at(a->in), "in", where);
      check_out(at(a->out), "out", where);
    }
    const int device = static_cast<int>(a->device), dtype = static_cast<int>(a->dtype);
    const int op = static_cast<int>(a->op), key_bytes = static_cast<int>(a->key_bytes);
    if (device >= 0)
      return gpu::scan_by_key(device, dtype, op, a->exclusive != 0, at(a->init), at(a->keys),
                              key_bytes, at(a->in), at(a->out), a->n, at(a->workspace),
                              a->workspace_bytes, static_cast<std::uintptr_t>(a->stream));
    host::scan_by_key(dtype, op, a->exclusive != 0, at(a->init), at(a->keys), key_bytes,
                      at(a->in), at(a->out), a->n);
  });
}

int sk_reduce_by_key(const sk_reduce_by_key_args* a) {
  return guarded([&] {
    const char* where = "reduce_by_key";
    check_out(a, "the argument block", where);
    check_n(a->n, where);
    auto* count = static_cast<std::int64_t*>(at(a->count));
    check_out(count, "count", where);
    if (a->n > 0) {
      check_out(at(a->keys), "keys", where);
      check_out(at(a->in), "in", where);
      check_out(at(a->unique_keys), "unique_keys", where);
      check_out(at(a->aggregates), "aggregates", where);
    }
    const int device = static_cast<int>(a->device), dtype = static_cast<int>(a->dtype);
    const int op = static_cast<int>(a->op), key_bytes = static_cast<int>(a->key_bytes);
    if (device >= 0)
      return gpu::reduce_by_key(device, dtype, op, at(a->keys), key_bytes, at(a->in), a->n,
                                at(a->unique_keys), at(a->aggregates), count, at(a->workspace),
                                a->workspace_bytes, static_cast<std::uintptr_t>(a->stream));
    *count = host::reduce_by_key(dtype, op, at(a->keys), key_bytes, at(a->in), a->n,
                                 at(a->unique_keys), at(a->aggregates));
  });
}

}  // extern "C"
