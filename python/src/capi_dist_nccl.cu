// The C ABI of the distributed primitives on GPU ranks, one process driving several GPUs
// (capi_dist.h, sk_nccl_*): each entry checks its arguments, orders the communicator's streams
// after the callers' streams, dispatches on the element type, calls scankit::dist over NCCL,
// and orders the callers' streams after the outputs; exceptions become status codes.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "capi_dist.h"
#include "capi_internal.hpp"
#include "scankit/dist/nccl.cuh"

namespace scankit::capi::dist_nccl {
namespace {

namespace sd = scankit::dist;
using sd::detail::check_cuda;
using sd::detail::device_guard;

thread_local std::string last_error;

template <class F>
int guarded(F&& f) noexcept {
  return guarded_collective(last_error, std::forward<F>(f));
}

sd::nccl_communicator& comm_of(void* handle, const char* where) {
  check_out(handle, "the communicator", where);
  return *static_cast<sd::nccl_communicator*>(handle);
}

/// Work queued on `after` from now on waits for the work queued on `before` so far (one event
/// on `device`).
void order_after(int device, cudaStream_t before, cudaStream_t after, const char* where) {
  if (before == after) return;
  device_guard g(device);
  cudaEvent_t e{};
  check_cuda(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreateWithFlags", where);
  const cudaError_t r1 = cudaEventRecord(e, before);
  const cudaError_t r2 = r1 == cudaSuccess ? cudaStreamWaitEvent(after, e, 0) : r1;
  cudaEventDestroy(e);  // released once the wait has been satisfied
  check_cuda(r2, r1 == cudaSuccess ? "cudaStreamWaitEvent" : "cudaEventRecord", where);
}

cudaStream_t as_stream(std::uintptr_t s) {
  return reinterpret_cast<cudaStream_t>(s);
}

/// Runs `call` on the communicator's streams, ordered after each rank's caller stream and
/// before what the callers queue next.
template <class F>
void stream_ordered(sd::nccl_communicator& c, const std::uintptr_t* streams, const char* where, F&& call) {
  check_out(streams, "the streams", where);
  for (int i = 0; i < c.local_count(); ++i)
    order_after(c.local(i).device, as_stream(streams[i]), c.local(i).stream, where);
  call();
  for (int i = 0; i < c.local_count(); ++i)
    order_after(c.local(i).device, c.local(i).stream, as_stream(streams[i]), where);
}

template <class T>
std::vector<sd::device_shard<T>> shards_of(sd::nccl_communicator& c, const std::uintptr_t* p, const std::int64_t* n,
                                           const char* what, const char* where) {
  check_out(p, what, where);
  check_out(n, "the shard sizes", where);
  std::vector<sd::device_shard<T>> s;
  for (int i = 0; i < c.local_count(); ++i)
    s.push_back({reinterpret_cast<T*>(p[i]), n[i]});
  return s;
}

inline constexpr unsigned compact_types = mask_of({SK_I32, SK_I64, SK_U32, SK_U64, SK_F32, SK_F64});
inline constexpr unsigned gpu_sort_types =
    mask_of({SK_I8, SK_I16, SK_I32, SK_I64, SK_U8, SK_U16, SK_U32, SK_U64, SK_F32, SK_F64});

}  // namespace
}  // namespace scankit::capi::dist_nccl

using namespace scankit::capi;
using namespace scankit::capi::dist_nccl;

extern "C" {

const char* sk_nccl_last_error(void) {
  return last_error.c_str();
}

static int nccl_all_devices(const int* devices, int count, void** comm) {
  return guarded([&] {
    check_out(comm, "the result pointer", "sk_nccl_all_devices");
    std::vector<int> d;
    if (count > 0) {
      check_out(devices, "the devices", "sk_nccl_all_devices");
      d.assign(devices, devices + count);
    }
    *comm = new sd::nccl_communicator(sd::nccl_communicator::all_devices(d));
  });
}

void sk_nccl_free(void* comm) {
  delete static_cast<sd::nccl_communicator*>(comm);
}

int sk_nccl_size(void* comm) {
  return comm ? static_cast<sd::nccl_communicator*>(comm)->size() : 0;
}

static int nccl_scan(void* comm, int dtype, int op, int exclusive, const void* init, const uintptr_t* in,
                 const uintptr_t* out, const int64_t* n, const uintptr_t* streams, void* total) {
  constexpr const char* where = "sk_nccl_scan";
  return guarded([&] {
    auto& c = comm_of(comm, where);
    check_out(total, "the total", where);
    visit_types<scan_types>(dtype, "scankit.dist.scan", [&](auto tag) {
      using T = typename decltype(tag)::type;
      visit_op<T>(op, [&](auto m) {
        const auto i = shards_of<const T>(c, in, n, "the inputs", where);
        const auto o = shards_of<T>(c, out, n, "the outputs", where);
        const T first = init ? *static_cast<const T*>(init) : m.identity();
        stream_ordered(c, streams, where, [&] {
          *static_cast<T*>(total) = exclusive ? sd::exclusive_scan<T>(c, i, o, m, first)
                                              : sd::inclusive_scan<T>(c, i, o, m, first);
        });
      });
    });
  });
}

static int nccl_select_if(void* comm, int dtype, int pred, const void* threshold, const uintptr_t* in,
                      const uintptr_t* out, const int64_t* n, const uintptr_t* streams, int64_t* result) {
  constexpr const char* where = "sk_nccl_select_if";
  return guarded([&] {
    auto& c = comm_of(comm, where);
    check_out(result, "the result", where);
    visit_types<compact_types>(dtype, "scankit.dist.select", [&](auto tag) {
      using T = typename decltype(tag)::type;
      visit_pred<T>(pred, threshold, "sk_nccl_select_if", [&](auto p) {
        const auto i = shards_of<const T>(c, in, n, "the inputs", where);
        const auto o = shards_of<T>(c, out, n, "the outputs", where);
        stream_ordered(c, streams, where, [&] {
          const auto r = sd::select_if<T>(c, i, o, p);
          for (std::size_t k = 0; k < r.size(); ++k) {
            result[3 * k] = r[k].count;
            result[3 * k + 1] = r[k].offset;
            result[3 * k + 2] = r[k].global_count;
          }
        });
      });
    });
  });
}

static int nccl_histogram_even(void* comm, int dtype, const uintptr_t* samples, const int64_t* n, const uintptr_t* counts,
                           int64_t bins, double lower, double upper, const uintptr_t* streams) {
  constexpr const char* where = "sk_nccl_histogram_even";
  return guarded([&] {
    auto& c = comm_of(comm, where);
    std::vector<std::int64_t> nb(static_cast<std::size_t>(c.local_count()), bins);
    visit_types<histogram_types>(dtype, "scankit.dist.histogram", [&](auto tag) {
      using T = typename decltype(tag)::type;
      using L = scankit::histogram_level_t<T>;
      const auto s = shards_of<const T>(c, samples, n, "the samples", where);
      const auto k = shards_of<std::uint64_t>(c, counts, nb.data(), "the counts", where);
      stream_ordered(c, streams, where, [&] {
        sd::histogram_even<T, std::uint64_t>(c, s, k, static_cast<L>(lower), static_cast<L>(upper));
      });
    });
  });
}

static int nccl_bincount(void* comm, int dtype, const uintptr_t* keys, const int64_t* n, const uintptr_t* counts,
                     int64_t bins, const uintptr_t* streams) {
  constexpr const char* where = "sk_nccl_bincount";
  return guarded([&] {
    auto& c = comm_of(comm, where);
    std::vector<std::int64_t> nb(static_cast<std::size_t>(c.local_count()), bins);
    visit_types<bincount_types>(dtype, "scankit.dist.bincount", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const auto s = shards_of<const T>(c, keys, n, "the keys", where);
      const auto k = shards_of<std::uint64_t>(c, counts, nb.data(), "the counts", where);
      stream_ordered(c, streams, where, [&] { sd::bincount<T, std::uint64_t>(c, s, k); });
    });
  });
}

static int nccl_sort(void* comm, int dtype, const uintptr_t* in, const int64_t* n, const uintptr_t* out,
                 const int64_t* capacity, int descending, const uintptr_t* streams, int64_t* sizes) {
  constexpr const char* where = "sk_nccl_sort";
  return guarded([&] {
    auto& c = comm_of(comm, where);
    check_out(sizes, "the sizes", where);
    visit_types<gpu_sort_types>(dtype, "scankit.dist.sort", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const auto i = shards_of<const T>(c, in, n, "the inputs", where);
      const auto o = shards_of<T>(c, out, capacity, "the outputs", where);
      stream_ordered(c, streams, where, [&] {
        const auto r = sd::sort_keys<T>(c, i, o, scankit::sort_options{.descending = descending != 0});
        for (std::size_t k = 0; k < r.size(); ++k) sizes[k] = r[k];
      });
    });
  });
}

}  // extern "C"

// The entries below unpack their blocks and call the functions above.
namespace {
void* at(std::uint64_t address) {
  return reinterpret_cast<void*>(static_cast<std::uintptr_t>(address));
}
template <class T>
T* at(std::uint64_t address) {
  return static_cast<T*>(at(address));
}
template <class A, class F>
int unpacked(const A* a, const char* where, F&& f) {
  if (a == nullptr) return guarded([&] { check_out(a, "the argument block", where); });
  return f(*a);
}
}  // namespace

extern "C" {

int sk_nccl_all_devices(const sk_nccl_all_devices_args* args) {
  return unpacked(args, "sk_nccl_all_devices", [](const sk_nccl_all_devices_args& a) {
    return nccl_all_devices(at<const int>(a.devices), static_cast<int>(a.count), at<void*>(a.comm));
  });
}

int sk_nccl_scan(const sk_nccl_scan_args* args) {
  return unpacked(args, "sk_nccl_scan", [](const sk_nccl_scan_args& a) {
    return nccl_scan(at(a.comm), static_cast<int>(a.dtype), static_cast<int>(a.op), static_cast<int>(a.exclusive),
                     at(a.init), at<const uintptr_t>(a.in), at<const uintptr_t>(a.out), at<const int64_t>(a.n),
                     at<const uintptr_t>(a.streams), at(a.total));
  });
}

int sk_nccl_select_if(const sk_nccl_select_if_args* args) {
  return unpacked(args, "sk_nccl_select_if", [](const sk_nccl_select_if_args& a) {
    return nccl_select_if(at(a.comm), static_cast<int>(a.dtype), static_cast<int>(a.pred), at(a.threshold),
                          at<const uintptr_t>(a.in), at<const uintptr_t>(a.out), at<const int64_t>(a.n),
                          at<const uintptr_t>(a.streams), at<int64_t>(a.result));
  });
}

int sk_nccl_histogram_even(const sk_nccl_histogram_even_args* args) {
  return unpacked(args, "sk_nccl_histogram_even", [](const sk_nccl_histogram_even_args& a) {
    return nccl_histogram_even(at(a.comm), static_cast<int>(a.dtype), at<const uintptr_t>(a.samples),
                               at<const int64_t>(a.n), at<const uintptr_t>(a.counts), a.bins, a.lower, a.upper,
                               at<const uintptr_t>(a.streams));
  });
}

int sk_nccl_bincount(const sk_nccl_bincount_args* args) {
  return unpacked(args, "sk_nccl_bincount", [](const sk_nccl_bincount_args& a) {
    return nccl_bincount(at(a.comm), static_cast<int>(a.dtype), at<const uintptr_t>(a.keys), at<const int64_t>(a.n),
                         at<const uintptr_t>(a.counts), a.bins, at<const uintptr_t>(a.streams));
  });
}

int sk_nccl_sort(const sk_nccl_sort_args* args) {
  return unpacked(args, "sk_nccl_sort", [](const sk_nccl_sort_args& a) {
    return nccl_sort(at(a.comm), static_cast<int>(a.dtype), at<const uintptr_t>(a.in), at<const int64_t>(a.n),
                     at<const uintptr_t>(a.out), at<const int64_t>(a.capacity), static_cast<int>(a.descending),
                     at<const uintptr_t>(a.streams), at<int64_t>(a.sizes));
  });
}

}  // extern "C"
