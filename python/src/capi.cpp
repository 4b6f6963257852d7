// The C ABI's entry points (errors to status codes) and its CPU backend (oneTBB).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <numeric>
#include <string>
#include <vector>

#include "capi_internal.hpp"
#include "half_keys.hpp"
#include "numpy_bins.hpp"
#include "scankit/cpu/compact.hpp"
#include "scankit/cpu/histogram.hpp"
#include "scankit/cpu/scan.hpp"
#include "scankit/cpu/sort.hpp"
#include "scankit/scankit.hpp"

namespace scankit::capi {
namespace {

thread_local std::string last_error;

/// Runs f, turning every exception into a status code and a message.
template <class F>
int guarded(F&& f) noexcept {
  try {
    f();
    return SK_OK;
  } catch (const type_error& e) {
    last_error = e.what();
    return SK_ETYPE;
  } catch (const scankit::invalid_argument& e) {
    last_error = e.what();
    return SK_EVALUE;
  } catch (const scankit::no_device_error& e) {
    last_error = e.what();
    return SK_ENODEVICE;
  } catch (const scankit::cuda_error& e) {
    last_error = e.what();
    // cudaErrorMemoryAllocation is 2 in every CUDA runtime; this file needs no CUDA headers.
    return e.code() == 2 ? SK_ENOMEM : SK_ECUDA;
  } catch (const std::bad_alloc&) {
    last_error = "out of host memory";
    return SK_ENOMEM;
  } catch (const std::length_error& e) {
    last_error = std::string("out of host memory (") + e.what() + ")";
    return SK_ENOMEM;
  } catch (const std::exception& e) {
    last_error = e.what();
    return SK_EOTHER;
  } catch (...) {
    last_error = "unknown error";
    return SK_EOTHER;
  }
}

std::string str(const char* s) { return s ? std::string(s) : std::string(); }

void check_n(std::int64_t n, const char* where) { scankit::detail::check_size(n, where); }

void check_out(const void* p, const char* what, const char* where) {
  if (p == nullptr) throw scankit::invalid_argument(std::string(where) + ": " + what + " is a null pointer");
}

/// A CPU algorithm name: "" picks `fallback`; GPU names are refused with the CPU ones listed.
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
      gpu_name ? "algorithm '" + a + "' runs on the GPU; host (NumPy) arrays take " + list
               : "unknown " + std::string(primitive) + " algorithm '" + a + "'; choose from " + all);
}

// ---- scan ---------------------------------------------------------------------------------

enum cpu_scan_algo { scan_serial = 0, scan_parallel = 1, scan_tbb = 2 };

int threads() { return std::max(1, tbb::this_task_arena::max_concurrency()); }

/// Scans every (outer, inner) line of [A][L][B] along L.
template <class Op>
void scan_axis(const value_t<Op>* in, value_t<Op>* out, std::int64_t A, std::int64_t L, std::int64_t B,
               Op op, bool excl, value_t<Op> init, int algo) {
  using T = value_t<Op>;
  const auto kind = excl ? scan_kind::exclusive : scan_kind::inclusive;
  if (A == 0 || L == 0 || B == 0) return;
  if (A * B == 1) {
    if (algo == scan_serial) cpu::scan_serial(in, out, L, op, kind, init);
    else if (algo == scan_tbb) cpu::tbb_parallel_scan(in, out, L, op, kind, init);
    else cpu::scan_parallel(in, out, L, op, kind, init);
    return;
  }
  if (B == 1) {
    // Rows: long rows one after the other, each with every thread; short rows side by side.
    if (algo != scan_serial && L >= (std::int64_t{1} << 20) && A < 4 * threads()) {
      for (std::int64_t a = 0; a < A; ++a)
        cpu::scan_parallel(in + a * L, out + a * L, L, op, kind, init);
      return;
    }
    auto rows = [&](std::int64_t r0, std::int64_t r1) {
      for (std::int64_t a = r0; a < r1; ++a) cpu::scan_serial(in + a * L, out + a * L, L, op, kind, init);
    };
    if (algo == scan_serial) return rows(0, A);
    const std::int64_t grain = std::max<std::int64_t>(1, (std::int64_t{1} << 15) / L);
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, A, grain),
                      [&](const tbb::blocked_range<std::int64_t>& r) { rows(r.begin(), r.end()); });
    return;
  }
  // Columns: line b of plane a is in[(a*L + l)*B + b], l = 0..L-1. Work is cut into blocks of
  // columns (contiguous in every row, so the inner loop runs along memory) and, when that
  // gives too few pieces, chunks of rows: the chunks' totals are scanned serially in between.
  const std::int64_t bw = 4096;
  const std::int64_t nbb = (B + bw - 1) / bw;
  std::int64_t nchunks = 1;
  if (algo != scan_serial && A * nbb < 4 * threads())
    nchunks = std::min<std::int64_t>((4 * threads() + A * nbb - 1) / (A * nbb), std::max<std::int64_t>(1, L / 64));
  const std::int64_t rows_per_chunk = (L + nchunks - 1) / nchunks;
  nchunks = (L + rows_per_chunk - 1) / rows_per_chunk;

  // Rows [l0, l1) of plane a, columns [b0, b1), carried from carry[0, b1 - b0).
  auto run = [&](std::int64_t a, std::int64_t l0, std::int64_t l1, std::int64_t b0, std::int64_t b1, T* carry,
                 bool write) {
    const std::int64_t w = b1 - b0;
    for (std::int64_t l = l0; l < l1; ++l) {
      const T* x = in + (a * L + l) * B + b0;
      T* y = out + (a * L + l) * B + b0;
      if (!write) {
        for (std::int64_t b = 0; b < w; ++b) carry[b] = op(carry[b], x[b]);
      } else if (excl) {
        for (std::int64_t b = 0; b < w; ++b) {
          const T c = carry[b], v = x[b];
          y[b] = c;
          carry[b] = op(c, v);
        }
      } else {
        for (std::int64_t b = 0; b < w; ++b) {
          carry[b] = op(carry[b], x[b]);
          y[b] = carry[b];
        }
      }
    }
  };
  const std::int64_t tasks = A * nchunks * nbb;
  auto for_tasks = [&](std::int64_t count, auto&& body) {
    if (algo == scan_serial) {
      for (std::int64_t t = 0; t < count; ++t) body(t);
    } else {
      tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, count, 1),
                        [&](const tbb::blocked_range<std::int64_t>& r) {
                          for (std::int64_t t = r.begin(); t < r.end(); ++t) body(t);
                        });
    }
  };
  // Task t: plane a, chunk c, column block bb.
  auto decode = [&](std::int64_t t, std::int64_t& a, std::int64_t& c, std::int64_t& bb) {
    bb = t % nbb;
    c = (t / nbb) % nchunks;
    a = t / (nbb * nchunks);
  };
  std::vector<T> carries;  // [a][c][b]: chunk c's carry-in (after the middle step)
  if (nchunks > 1) {
    carries.assign(static_cast<std::size_t>(A * nchunks * B), op.identity());
    for_tasks(tasks, [&](std::int64_t t) {
      std::int64_t a, c, bb;
      decode(t, a, c, bb);
      if (c == nchunks - 1) return;  // the last chunk's total is not needed
      const std::int64_t b0 = bb * bw, b1 = std::min(B, b0 + bw);
      run(a, c * rows_per_chunk, std::min(L, (c + 1) * rows_per_chunk), b0, b1,
          carries.data() + (a * nchunks + c) * B + b0, false);
    });
    // Totals to carry-ins: carry[0] = init, carry[c] = carry[c-1] . total[c-1].
    for_tasks(A * nbb, [&](std::int64_t t) {
      const std::int64_t a = t / nbb, b0 = (t % nbb) * bw, b1 = std::min(B, b0 + bw);
      for (std::int64_t b = b0; b < b1; ++b) {
        T running = init;
        for (std::int64_t c = 0; c < nchunks; ++c) {
          T& slot = carries[static_cast<std::size_t>((a * nchunks + c) * B + b)];
          const T total = slot;
          slot = running;
          running = op(running, total);
        }
      }
    });
  }
  for_tasks(tasks, [&](std::int64_t t) {
    std::int64_t a, c, bb;
    decode(t, a, c, bb);
    const std::int64_t b0 = bb * bw, b1 = std::min(B, b0 + bw);
    std::vector<T> carry(static_cast<std::size_t>(b1 - b0), init);
    if (nchunks > 1)
      std::copy_n(carries.data() + (a * nchunks + c) * B + b0, b1 - b0, carry.data());
    run(a, c * rows_per_chunk, std::min(L, (c + 1) * rows_per_chunk), b0, b1, carry.data(), true);
  });
}

void cpu_scan(int dtype, int op, bool excl, const void* init, const void* in, void* out, std::int64_t A,
              std::int64_t L, std::int64_t B, const std::string& algorithm) {
  const char* where = "scankit scan";
  require_type(dtype, scan_types, "scan");
  if (A < 0 || L < 0 || B < 0) throw scankit::invalid_argument("scan: negative shape");
  const std::int64_t n = A * L * B;
  check_n(n, where);
  if (n > 0) {
    check_out(in, "input", where);
    check_out(out, "output", where);
  }
  const int algo = cpu_choice(algorithm, {"cpu-serial", "cpu-parallel", "cpu-tbb"}, scan_parallel, "scan");
  visit_number(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    visit_op<T>(op, [&](auto m) {
      const T first = init ? *static_cast<const T*>(init) : m.identity();
      scan_axis(static_cast<const T*>(in), static_cast<T*>(out), A, L, B, m, excl, first, algo);
    });
  });
}

// ---- sort ---------------------------------------------------------------------------------

void copy_bytes(void* dst, const void* src, std::int64_t bytes) {
  if (dst == src || bytes == 0) return;
  if (bytes >= (std::int64_t{1} << 22)) cpu::parallel_copy(dst, src, bytes);
  else std::memcpy(dst, src, static_cast<std::size_t>(bytes));
}

template <class F>
void parallel_range(std::int64_t n, F&& f) {
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n, std::int64_t{1} << 16),
                    [&](const tbb::blocked_range<std::int64_t>& r) { f(r.begin(), r.end()); });
}

template <class K>
void cpu_sort_typed(K* keys, const void* values_in, void* values_out, int value_bytes, bool indices,
                    std::int64_t n, const sort_options& opts, bool serial) {
  auto sort_with = [&](auto* vals) {
    if (serial) cpu::sort_pairs_serial(keys, vals, n, opts);
    else cpu::sort_pairs_parallel(keys, vals, n, opts);
  };
  if (indices) {
    auto* idx = static_cast<std::int64_t*>(values_out);
    parallel_range(n, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) idx[i] = i;
    });
    sort_with(idx);
  } else if (value_bytes > 0) {
    visit_bytes(value_bytes, sizes_cpu, [&](auto tag) {
      using V = typename decltype(tag)::type;
      copy_bytes(values_out, values_in, n * static_cast<std::int64_t>(sizeof(V)));
      sort_with(static_cast<V*>(values_out));
    });
  } else if (serial) {
    cpu::sort_keys_serial(keys, n, opts);
  } else {
    cpu::sort_keys_parallel(keys, n, opts);
  }
}

void cpu_sort(int dtype, const void* keys_in, void* keys_out, const void* values_in, void* values_out,
              int value_bytes, bool indices, std::int64_t n, bool descending, const std::string& algorithm) {
  const char* where = "scankit sort";
  require_type(dtype, sort_types, "sort");
  check_n(n, where);
  if (n > 0) {
    check_out(keys_in, "keys", where);
    check_out(keys_out, "sorted keys", where);
    if (indices || value_bytes > 0) check_out(values_out, "values output", where);
    if (!indices && value_bytes > 0) check_out(values_in, "values", where);
  }
  if (!indices && value_bytes > 0) visit_bytes(value_bytes, sizes_cpu, [](auto) {});
  const bool serial = cpu_choice(algorithm, {"cpu-radix", "cpu-serial"}, 0, "sort") == 1;
  sort_options opts;
  opts.descending = descending;
  const std::int64_t key_bytes = dtype_size(dtype);
  copy_bytes(keys_out, keys_in, n * key_bytes);
  if (dtype == SK_F16 || dtype == SK_BF16) {
    const int mant = dtype == SK_F16 ? 10 : 7;
    auto* k = static_cast<std::uint16_t*>(keys_out);
    parallel_range(n, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) k[i] = half_to_ordered(k[i], mant);
    });
    cpu_sort_typed(k, values_in, values_out, value_bytes, indices, n, opts, serial);
    parallel_range(n, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) k[i] = half_from_ordered(k[i], mant);
    });
    return;
  }
  visit_number(dtype, [&](auto tag) {
    using K = typename decltype(tag)::type;
    cpu_sort_typed(static_cast<K*>(keys_out), values_in, values_out, value_bytes, indices, n, opts, serial);
  });
}

// ---- compaction ---------------------------------------------------------------------------

cpu::compact_config cpu_compact_config(const std::string& algorithm) {
  cpu::compact_config cfg;
  switch (cpu_choice(algorithm, {"cpu-parallel", "cpu-serial", "cpu-serial-scan"}, 0, "compact")) {
    case 1: cfg.algorithm = cpu::compact_algorithm::serial_loop; break;
    case 2: cfg.algorithm = cpu::compact_algorithm::serial_scan; break;
    default: cfg.algorithm = cpu::compact_algorithm::parallel; break;
  }
  return cfg;
}

template <class T, class F>
void with_pred(int pred, const void* threshold, F&& f) {
  switch (pred) {
    case SK_PRED_NONZERO: return f(scankit::is_nonzero<T>{});
    case SK_PRED_LESS:
      if (!threshold) throw scankit::invalid_argument("a less-than predicate needs a threshold");
      return f(scankit::less_than<T>{*static_cast<const T*>(threshold)});
    case SK_PRED_GREATER:
      if (!threshold) throw scankit::invalid_argument("a greater-than predicate needs a threshold");
      return f(scankit::greater_than<T>{*static_cast<const T*>(threshold)});
  }
  throw scankit::invalid_argument("unknown predicate code " + std::to_string(pred));
}

constexpr unsigned cpu_value_types = all_number_types;

// ---- histograms ---------------------------------------------------------------------------

template <class F>
void visit_histogram(int dtype, unsigned allowed, const char* what, F&& f) {
  require_type(dtype, allowed, what);
  visit_number(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (scankit::histogram_sample<T>) f(tag);
  });
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

const char* algorithm_list(const std::string& primitive) {
  static const std::string scan = [] {
    std::string s;
    if (gpu::built()) s = "hillis-steele-global,hillis-steele-shared,blelloch,blelloch-conflict-free,"
                          "work-efficient-global,reduce-then-scan,decoupled-lookback,";
    return s + "cpu-parallel,cpu-serial,cpu-tbb";
  }();
  static const std::string sort = std::string(gpu::built() ? "onesweep,lsd-reduce-then-scan,split-1bit," : "") +
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

const char* sk_version(void) { return SCANKIT_VERSION_STRING; }

int sk_built_with_cuda(void) { return gpu::built() ? 1 : 0; }

int sk_device_count(void) {
  try {
    return gpu::device_count();
  } catch (...) {
    return 0;
  }
}

const char* sk_last_error(void) { return last_error.c_str(); }

const char* sk_algorithms(const char* primitive) { return primitive ? algorithm_list(primitive) : nullptr; }

int sk_scan_workspace(int device, int dtype, int64_t outer, int64_t len, int64_t inner, const char* algorithm,
                      int64_t* bytes) {
  return guarded([&] {
    check_out(bytes, "bytes", "sk_scan_workspace");
    *bytes = device < 0 ? 0 : gpu::scan_workspace(device, dtype, outer, len, inner, str(algorithm));
  });
}

int sk_scan(int device, int dtype, int op, int exclusive, const void* init, const void* in, void* out,
            int64_t outer, int64_t len, int64_t inner, const char* algorithm, void* workspace,
            int64_t workspace_bytes, uintptr_t stream) {
  return guarded([&] {
    if (device < 0) cpu_scan(dtype, op, exclusive != 0, init, in, out, outer, len, inner, str(algorithm));
    else gpu::scan(device, dtype, op, exclusive != 0, init, in, out, outer, len, inner, str(algorithm),
                   workspace, workspace_bytes, stream);
  });
}

int sk_sort_workspace(int device, int dtype, int64_t n, int value_bytes, int indices, const char* algorithm,
                      int64_t* bytes) {
  return guarded([&] {
    check_out(bytes, "bytes", "sk_sort_workspace");
    *bytes = device < 0 ? 0 : gpu::sort_workspace(device, dtype, n, value_bytes, indices != 0, str(algorithm));
  });
}

int sk_sort(int device, int dtype, const void* keys_in, void* keys_out, const void* values_in, void* values_out,
            int value_bytes, int indices, int64_t n, int descending, const char* algorithm, void* workspace,
            int64_t workspace_bytes, uintptr_t stream) {
  return guarded([&] {
    if (device < 0)
      cpu_sort(dtype, keys_in, keys_out, values_in, values_out, value_bytes, indices != 0, n, descending != 0,
               str(algorithm));
    else
      gpu::sort(device, dtype, keys_in, keys_out, values_in, values_out, value_bytes, indices != 0, n,
                descending != 0, str(algorithm), workspace, workspace_bytes, stream);
  });
}

int sk_compact_workspace(int device, int64_t n, int item_bytes, const char* algorithm, int64_t* bytes) {
  return guarded([&] {
    check_out(bytes, "bytes", "sk_compact_workspace");
    *bytes = device < 0 ? 0 : gpu::compact_workspace(device, n, item_bytes, str(algorithm));
  });
}

int sk_select_flagged(int device, int item_bytes, const void* in, const uint8_t* flags, void* out, int64_t n,
                      int64_t* count, const char* algorithm, void* workspace, int64_t workspace_bytes,
                      uintptr_t stream) {
  return guarded([&] {
    check_out(count, "count", "select");
    if (device >= 0)
      return gpu::select_flagged(device, item_bytes, in, flags, out, n, count, str(algorithm), workspace,
                                 workspace_bytes, stream);
    const auto cfg = cpu_compact_config(str(algorithm));
    visit_bytes(item_bytes, sizes_cpu, [&](auto tag) {
      using V = typename decltype(tag)::type;
      *count = sk::cpu::select_flagged(static_cast<const V*>(in), flags, static_cast<V*>(out), n, cfg);
    });
  });
}

int sk_select_if(int device, int dtype, int pred, const void* threshold, int remove, const void* in, void* out,
                 int64_t n, int64_t* count, const char* algorithm, void* workspace, int64_t workspace_bytes,
                 uintptr_t stream) {
  return guarded([&] {
    check_out(count, "count", "select");
    if (device >= 0)
      return gpu::select_if(device, dtype, pred, threshold, remove != 0, in, out, n, count, str(algorithm),
                            workspace, workspace_bytes, stream);
    require_type(dtype, cpu_value_types, "select");
    const auto cfg = cpu_compact_config(str(algorithm));
    visit_number(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      with_pred<T>(pred, threshold, [&](auto p) {
        *count = remove ? sk::cpu::remove_if(static_cast<const T*>(in), static_cast<T*>(out), n, p, cfg)
                        : sk::cpu::select_if(static_cast<const T*>(in), static_cast<T*>(out), n, p, cfg);
      });
    });
  });
}

int sk_partition(int device, int dtype, int pred, const void* threshold, int stable, const void* in, void* out,
                 int64_t n, int64_t* count, const char* algorithm, void* workspace, int64_t workspace_bytes,
                 uintptr_t stream) {
  return guarded([&] {
    check_out(count, "count", "partition");
    if (device >= 0)
      return gpu::partition(device, dtype, pred, threshold, stable != 0, in, out, n, count, str(algorithm),
                            workspace, workspace_bytes, stream);
    require_type(dtype, cpu_value_types, "partition");
    const auto cfg = cpu_compact_config(str(algorithm));
    const auto order = stable ? sk::rejected_order::original : sk::rejected_order::reversed;
    visit_number(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      with_pred<T>(pred, threshold, [&](auto p) {
        *count = sk::cpu::partition(static_cast<const T*>(in), static_cast<T*>(out), n, p, order, cfg);
      });
    });
  });
}

int sk_nonzero(int device, int dtype, const void* in, int64_t* indices, int64_t n, int64_t* count,
               const char* algorithm, void* workspace, int64_t workspace_bytes, uintptr_t stream) {
  return guarded([&] {
    check_out(count, "count", "nonzero");
    if (device >= 0)
      return gpu::nonzero(device, dtype, in, indices, n, count, str(algorithm), workspace, workspace_bytes,
                          stream);
    require_type(dtype, cpu_value_types, "nonzero");
    const auto cfg = cpu_compact_config(str(algorithm));
    visit_number(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      *count = sk::cpu::nonzero(static_cast<const T*>(in), indices, n, cfg);
    });
  });
}

int sk_unique(int device, int dtype, const void* in, void* values, int64_t* counts, int64_t n, int64_t* count,
              const char* algorithm, void* workspace, int64_t workspace_bytes, uintptr_t stream) {
  return guarded([&] {
    check_out(count, "count", "unique");
    if (device >= 0)
      return gpu::unique(device, dtype, in, values, counts, n, count, str(algorithm), workspace, workspace_bytes,
                         stream);
    require_type(dtype, cpu_value_types, "unique");
    const auto cfg = cpu_compact_config(str(algorithm));
    visit_number(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      *count = counts ? sk::cpu::unique_count(static_cast<const T*>(in), static_cast<T*>(values), counts, n,
                                              sk::equal_to<T>{}, cfg)
                      : sk::cpu::unique(static_cast<const T*>(in), static_cast<T*>(values), n,
                                        sk::equal_to<T>{}, cfg);
    });
  });
}

int sk_read_count(int device, const int64_t* d_count, uintptr_t stream, int64_t* value) {
  return guarded([&] {
    check_out(value, "value", "sk_read_count");
    check_out(d_count, "count", "sk_read_count");
    *value = device < 0 ? *d_count : gpu::read_count(device, d_count, stream);
  });
}

int sk_fill_tail(int device, int item_bytes, void* out, const int64_t* count, int64_t size, const void* fill,
                 uintptr_t stream) {
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

int sk_histogram_even(int device, int dtype, const void* samples, int64_t n, uint64_t* counts, int64_t bins,
                      double lower, double upper, const char* algorithm, uintptr_t stream) {
  return guarded([&] {
    const char* where = "histogram";
    check_n(n, where);
    check_bins(bins, where);
    check_even_range(lower, upper, where);
    check_out(counts, "counts", where);
    if (device >= 0)
      return gpu::histogram_even(device, dtype, samples, n, counts, bins, lower, upper, str(algorithm), stream);
    const bool serial = cpu_choice(str(algorithm), {"cpu-parallel", "cpu-serial"}, 0, "histogram") == 1;
    visit_histogram(dtype, histogram_types, where, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const auto b = numpy_even_bins<T>::make(static_cast<int>(bins), lower, upper);
      std::fill(counts, counts + bins, std::uint64_t{0});
      if (n == 0) return;
      check_out(samples, "samples", where);
      if (serial) sk::cpu::detail::count_serial(static_cast<const T*>(samples), n, counts, b);
      else sk::cpu::detail::count_parallel(static_cast<const T*>(samples), n, counts, static_cast<int>(bins), b);
    });
  });
}

int sk_histogram_edges(int device, int dtype, const void* samples, int64_t n, uint64_t* counts, const void* edges,
                       int64_t num_edges, const char* algorithm, uintptr_t stream) {
  return guarded([&] {
    const char* where = "histogram";
    check_n(n, where);
    check_out(counts, "counts", where);
    if (device >= 0)
      return gpu::histogram_edges(device, dtype, samples, n, counts, edges, num_edges, str(algorithm), stream);
    const bool serial = cpu_choice(str(algorithm), {"cpu-parallel", "cpu-serial"}, 0, "histogram") == 1;
    visit_histogram(dtype, histogram_types, where, [&](auto tag) {
      using T = typename decltype(tag)::type;
      using L = sk::histogram_level_t<T>;
      const auto* s = static_cast<const T*>(samples);
      const auto* e = static_cast<const L*>(edges);
      if (serial) sk::cpu::histogram_range_serial(s, n, counts, e, num_edges);
      else sk::cpu::histogram_range_parallel(s, n, counts, e, num_edges);
    });
  });
}

int sk_bincount(int device, int dtype, const void* samples, int64_t n, uint64_t* counts, int64_t bins,
                const char* algorithm, uintptr_t stream) {
  return guarded([&] {
    const char* where = "bincount";
    check_n(n, where);
    check_out(counts, "counts", where);
    if (device >= 0) return gpu::bincount(device, dtype, samples, n, counts, bins, str(algorithm), stream);
    const bool serial = cpu_choice(str(algorithm), {"cpu-parallel", "cpu-serial"}, 0, "histogram") == 1;
    visit_histogram(dtype, bincount_types, where, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_integral_v<T>) {
        const auto* s = static_cast<const T*>(samples);
        if (serial) sk::cpu::bincount_serial(s, n, counts, bins);
        else sk::cpu::bincount_parallel(s, n, counts, bins);
      }
    });
  });
}

}  // extern "C"
