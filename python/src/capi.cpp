// The C ABI's entry points: arguments checked, the CPU (host::) or GPU (gpu::) backend called,
// exceptions turned into status codes.
#include <algorithm>
#include <cmath>
#include <cstring>
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

std::string str(const char* s) {
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

int sk_scan_workspace(int device, int dtype, int64_t outer, int64_t len, int64_t inner,
                      const char* algorithm, int64_t* bytes) {
  return guarded([&] {
    check_out(bytes, "bytes", "sk_scan_workspace");
    *bytes = device < 0 ? 0 : gpu::scan_workspace(device, dtype, outer, len, inner, str(algorithm));
  });
}

int sk_scan(const sk_scan_args* a) {
  return guarded([&] {
    check_out(a, "the argument block", "sk_scan");
    const auto p = [](std::uint64_t address) { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(address)); };
    const auto* algorithm = static_cast<const char*>(p(a->algorithm));
    const int device = static_cast<int>(a->device), dtype = static_cast<int>(a->dtype);
    const int op = static_cast<int>(a->op);
    if (device < 0)
      host::scan(dtype, op, a->exclusive != 0, p(a->init), p(a->in), p(a->out), a->outer, a->len,
                 a->inner, str(algorithm));
    else
      gpu::scan(device, dtype, op, a->exclusive != 0, p(a->init), p(a->in), p(a->out), a->outer,
                a->len, a->inner, str(algorithm), p(a->workspace), a->workspace_bytes,
                static_cast<std::uintptr_t>(a->stream), (a->flags & SK_SCAN_KEPT_WORKSPACE) != 0);
  });
}

int sk_time_scan(int device, int dtype, int64_t n, int calls, uintptr_t stream, double* mean_us) {
  return guarded([&] {
    check_out(mean_us, "the result pointer", "time_scan");
    *mean_us = gpu::time_scan(device, dtype, n, calls, stream);
  });
}

int sk_sort_workspace(int device, int dtype, int64_t n, int value_bytes, int indices,
                      const char* algorithm, int64_t* bytes) {
  return guarded([&] {
    check_out(bytes, "bytes", "sk_sort_workspace");
    *bytes = device < 0
                 ? 0
                 : gpu::sort_workspace(device, dtype, n, value_bytes, indices != 0, str(algorithm));
  });
}

int sk_sort(int device, int dtype, const void* keys_in, void* keys_out, const void* values_in,
            void* values_out, int value_bytes, int indices, int64_t n, int descending,
            const char* algorithm, void* workspace, int64_t workspace_bytes, uintptr_t stream) {
  return guarded([&] {
    if (device < 0)
      host::sort(dtype, keys_in, keys_out, values_in, values_out, value_bytes, indices != 0, n,
                 descending != 0, str(algorithm));
    else
      gpu::sort(device, dtype, keys_in, keys_out, values_in, values_out, value_bytes, indices != 0,
                indices == 2, n, descending != 0, str(algorithm), workspace, workspace_bytes, stream);
  });
}

int sk_compact_workspace(int device, int64_t n, int item_bytes, const char* algorithm,
                         int64_t* bytes) {
  return guarded([&] {
    check_out(bytes, "bytes", "sk_compact_workspace");
    *bytes = device < 0 ? 0 : gpu::compact_workspace(device, n, item_bytes, str(algorithm));
  });
}

int sk_select_flagged(int device, int item_bytes, const void* in, const uint8_t* flags, void* out,
                      int64_t n, int64_t* count, const char* algorithm, void* workspace,
                      int64_t workspace_bytes, uintptr_t stream) {
  return guarded([&] {
    check_out(count, "count", "select");
    if (device >= 0)
      return gpu::select_flagged(device, item_bytes, in, flags, out, n, count, str(algorithm),
                                 workspace, workspace_bytes, stream);
    *count = host::select_flagged(item_bytes, in, flags, out, n, str(algorithm));
  });
}

int sk_select_if(int device, int dtype, int pred, const void* threshold, int remove, const void* in,
                 void* out, int64_t n, int64_t* count, const char* algorithm, void* workspace,
                 int64_t workspace_bytes, uintptr_t stream) {
  return guarded([&] {
    check_out(count, "count", "select");
    if (device >= 0)
      return gpu::select_if(device, dtype, pred, threshold, remove != 0, in, out, n, count,
                            str(algorithm), workspace, workspace_bytes, stream);
    *count = host::select_if(dtype, pred, threshold, remove != 0, in, out, n, str(algorithm));
  });
}

int sk_partition(int device, int dtype, int pred, const void* threshold, int stable, const void* in,
                 void* out, int64_t n, int64_t* count, const char* algorithm, void* workspace,
                 int64_t workspace_bytes, uintptr_t stream) {
  return guarded([&] {
    check_out(count, "count", "partition");
    if (device >= 0)
      return gpu::partition(device, dtype, pred, threshold, stable != 0, in, out, n, count,
                            str(algorithm), workspace, workspace_bytes, stream);
    *count = host::partition(dtype, pred, threshold, stable != 0, in, out, n, str(algorithm));
  });
}

int sk_nonzero(int device, int dtype, const void* in, int64_t* indices, int64_t n, int64_t* count,
               const char* algorithm, void* workspace, int64_t workspace_bytes, uintptr_t stream) {
  return guarded([&] {
    check_out(count, "count", "nonzero");
    if (device >= 0)
      return gpu::nonzero(device, dtype, in, indices, n, count, str(algorithm), workspace,
                          workspace_bytes, stream);
    *count = host::nonzero(dtype, in, indices, n, str(algorithm));
  });
}

int sk_unique(int device, int dtype, const void* in, void* values, int64_t* counts, int64_t n,
              int equal_nan, int64_t* count, const char* algorithm, void* workspace,
              int64_t workspace_bytes, uintptr_t stream) {
  return guarded([&] {
    check_out(count, "count", "unique");
    if (device >= 0)
      return gpu::unique(device, dtype, in, values, counts, n, equal_nan != 0, count,
                         str(algorithm), workspace, workspace_bytes, stream);
    *count = host::unique(dtype, in, values, counts, n, equal_nan != 0, str(algorithm));
  });
}

int sk_read_count(int device, const int64_t* d_count, uintptr_t stream, int64_t* value) {
  return guarded([&] {
    check_out(value, "value", "sk_read_count");
    check_out(d_count, "count", "sk_read_count");
    *value = device < 0 ? *d_count : gpu::read_count(device, d_count, stream);
  });
}

int sk_fill_tail(int device, int item_bytes, void* out, const int64_t* count, int64_t size,
                 const void* fill, uintptr_t stream) {
  return guarded([&] {
    check_out(count, "count", "fill");
    check_out(fill, "fill value", "fill");
    check_n(size, "fill");
    if (device >= 0) return gpu::fill_tail(device, item_bytes, out, count, size, fill, stream);
    visit_bytes(item_bytes, sizes_cpu, [&](auto tag) {
      using V = typename decltype(tag)::type;
      V f;
      std::memcpy(&f, fill, sizeof(V));
      auto* o = static_cast<V*>(out);
      for (std::int64_t i = std::clamp<std::int64_t>(*count, 0, size); i < size; ++i) o[i] = f;
    });
  });
}

int sk_histogram_even(int device, int dtype, const void* samples, int64_t n, uint64_t* counts,
                      int64_t bins, double lower, double upper, int mode,
                      const char* algorithm, uintptr_t stream) {
  return guarded([&] {
    const char* where = "histogram";
    check_n(n, where);
    check_bins(bins, where);
    check_even_range(lower, upper, where);
    check_out(counts, "counts", where);
    if (device >= 0)
      return gpu::histogram_even(device, dtype, samples, n, counts, bins, lower, upper,
                                 mode, str(algorithm), stream);
    host::histogram_even(dtype, samples, n, counts, bins, lower, upper, mode, str(algorithm));
  });
}

int sk_histogram_edges(int device, int dtype, const void* samples, int64_t n, uint64_t* counts,
                       const void* edges, int64_t num_edges, const char* algorithm,
                       uintptr_t stream) {
  return guarded([&] {
    const char* where = "histogram";
    check_n(n, where);
    check_out(counts, "counts", where);
    if (device >= 0)
      return gpu::histogram_edges(device, dtype, samples, n, counts, edges, num_edges,
                                  str(algorithm), stream);
    host::histogram_edges(dtype, samples, n, counts, edges, num_edges, str(algorithm));
  });
}

int sk_bincount(int device, int dtype, const void* samples, int64_t n, uint64_t* counts,
                int64_t bins, const char* algorithm, uintptr_t stream) {
  return guarded([&] {
    const char* where = "bincount";
    check_n(n, where);
    check_out(counts, "counts", where);
    if (device >= 0)
      return gpu::bincount(device, dtype, samples, n, counts, bins, str(algorithm), stream);
    check_bins(bins, where);
    host::bincount(dtype, samples, n, counts, bins, str(algorithm));
  });
}

int sk_bincount_capped(int device, int dtype, const void* samples, int64_t n, uint64_t* counts,
                       int64_t capacity, const char* algorithm, uintptr_t stream,
                       int64_t* summary) {
  return guarded([&] {
    const char* where = "bincount";
    check_n(n, where);
    check_out(counts, "counts", where);
    check_out(summary, "summary", where);
    if (device < 0) throw scankit::invalid_argument("bincount: the capped count is GPU-only");
    gpu::bincount_capped(device, dtype, samples, n, counts, capacity, str(algorithm), stream,
                         summary);
  });
}

}  // extern "C"
