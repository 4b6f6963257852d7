// The C ABI of the distributed primitives on CPU ranks (capi_dist.h): each entry checks its
// arguments, dispatches on the element type and calls scankit::dist over the handle's
// mpi_communicator; exceptions become status codes.
#include "capi_dist.h"

#include <mpi.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "capi_internal.hpp"
#include "scankit/dist/mpi.hpp"

namespace scankit::capi::dist_mpi {
namespace {

namespace sd = scankit::dist;

thread_local std::string last_error;

template <class F>
int guarded(F&& f) noexcept {
  return guarded_collective(last_error, std::forward<F>(f));
}

sd::mpi_communicator& comm_of(void* handle, const char* where) {
  check_out(handle, "the communicator", where);
  return *static_cast<sd::mpi_communicator*>(handle);
}

bool mpi_finalized() {
  int done = 0;
  MPI_Finalized(&done);
  return done != 0;
}

/// MPI_Init_thread unless MPI is up; MPI_Finalize at exit if it was this library's doing.
void ensure_mpi() {
  int up = 0;
  MPI_Initialized(&up);
  if (up) {
    if (mpi_finalized()) throw scankit::invalid_argument("scankit.dist: MPI was finalized already");
    return;
  }
  // MPI is called from the calling thread only; the local work's oneTBB threads never call it.
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    throw std::runtime_error("scankit.dist: MPI_Init_thread failed");
  std::atexit([] {
    if (!mpi_finalized()) MPI_Finalize();
  });
}

/// A sort's result, held until sk_dist_take copies it out.
struct sorted_shard {
  virtual ~sorted_shard() = default;
  virtual void copy_to(void* dst) const = 0;
};
template <class K>
struct sorted_keys final : sorted_shard {
  std::vector<K> keys;
  void copy_to(void* dst) const override {
    if (!keys.empty()) std::memcpy(dst, keys.data(), keys.size() * sizeof(K));
  }
};

inline constexpr unsigned dist_histogram_types =
    mask_of({SK_U8, SK_U16, SK_I32, SK_U32, SK_I64, SK_F32, SK_F64});

}  // namespace
}  // namespace scankit::capi::dist_mpi

using namespace scankit::capi;
using namespace scankit::capi::dist_mpi;

extern "C" {

const char* sk_dist_last_error(void) {
  return last_error.c_str();
}

int sk_dist_world(void** comm) {
  return guarded([&] {
    check_out(comm, "the result pointer", "sk_dist_world");
    ensure_mpi();
    *comm = new sd::mpi_communicator(MPI_COMM_WORLD);
  });
}

int sk_dist_adopt(uintptr_t mpi_comm, void** comm) {
  return guarded([&] {
    check_out(comm, "the result pointer", "sk_dist_adopt");
    int up = 0;
    MPI_Initialized(&up);
    if (!up || mpi_finalized()) throw scankit::invalid_argument("sk_dist_adopt: MPI is not running");
    MPI_Comm c{};
    static_assert(sizeof(MPI_Comm) <= sizeof(uintptr_t), "an MPI_Comm handle fits an integer");
    std::memcpy(&c, &mpi_comm, sizeof(MPI_Comm));
    if (c == MPI_COMM_NULL) throw scankit::invalid_argument("sk_dist_adopt: MPI_COMM_NULL");
    *comm = new sd::mpi_communicator(c);
  });
}

void sk_dist_free(void* comm) {
  // After MPI_Finalize the duplicate cannot be freed any more: it goes with the process.
  if (comm != nullptr && !mpi_finalized()) delete static_cast<sd::mpi_communicator*>(comm);
}

int sk_dist_rank(void* comm) {
  return comm ? static_cast<sd::mpi_communicator*>(comm)->rank() : -1;
}

int sk_dist_size(void* comm) {
  return comm ? static_cast<sd::mpi_communicator*>(comm)->size() : 0;
}

static int dist_scan(void* comm, int dtype, int op, int exclusive, const void* init, const void* in, void* out,
                 int64_t n, void* total) {
  return guarded([&] {
    auto& c = comm_of(comm, "sk_dist_scan");
    check_out(total, "the total", "sk_dist_scan");
    visit_types<scan_types>(dtype, "scankit.dist.scan", [&](auto tag) {
      using T = typename decltype(tag)::type;
      visit_op<T>(op, [&](auto m) {
        const T first = init ? *static_cast<const T*>(init) : m.identity();
        const auto kind = exclusive ? scankit::scan_kind::exclusive : scankit::scan_kind::inclusive;
        *static_cast<T*>(total) = sd::detail::mpi::scan(c, static_cast<const T*>(in), n, static_cast<T*>(out), n,
                                                        m, kind, first);
      });
    });
  });
}

static int dist_reduce(void* comm, int dtype, int op, const void* in, int64_t n, void* result) {
  return guarded([&] {
    auto& c = comm_of(comm, "sk_dist_reduce");
    check_out(result, "the result", "sk_dist_reduce");
    // The extremes take every number type; the monoids the scans' types.
    const bool extreme = op == SK_REDUCE_ARGMIN || op == SK_REDUCE_ARGMAX || op == SK_REDUCE_MIN_MAX;
    if (!extreme) require_type(dtype, scan_types, "scankit.dist.reduce");
    visit_types<all_number_types>(dtype, "scankit.dist.reduce", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = static_cast<const T*>(in);
      if (op == SK_REDUCE_ARGMIN) {
        *static_cast<int64_t*>(result) =
            sd::detail::mpi::arg_reduce<scankit::argmin_op<T>>(c, x, n, "scankit.dist.argmin", "minimum");
      } else if (op == SK_REDUCE_ARGMAX) {
        *static_cast<int64_t*>(result) =
            sd::detail::mpi::arg_reduce<scankit::argmax_op<T>>(c, x, n, "scankit.dist.argmax", "maximum");
      } else if (op == SK_REDUCE_MIN_MAX) {
        const auto r = sd::detail::mpi::min_max(c, x, n);
        static_cast<T*>(result)[0] = r.min;
        static_cast<T*>(result)[1] = r.max;
      } else if constexpr (((scan_types >> code_of<T>()) & 1u) != 0) {
        visit_op<T>(op, [&](auto m) { *static_cast<T*>(result) = sd::detail::mpi::reduce(c, x, n, m); });
      }
    });
  });
}

static int dist_topk(void* comm, int dtype, const void* in, int64_t n, int64_t k, int largest, void* values,
                     int64_t* indices) {
  return guarded([&] {
    auto& c = comm_of(comm, "sk_dist_topk");
    if (k > 0) {
      check_out(values, "the values", "sk_dist_topk");
      check_out(indices, "the indices", "sk_dist_topk");
    }
    visit_types<all_number_types>(dtype, "scankit.dist.topk", [&](auto tag) {
      using T = typename decltype(tag)::type;
      std::vector<T> v;
      std::vector<std::int64_t> ix;
      sd::detail::mpi::topk(c, static_cast<const T*>(in), n, k, v, ix, scankit::cpu::topk_options{largest != 0});
      if (!v.empty()) {
        std::memcpy(values, v.data(), v.size() * sizeof(T));
        std::memcpy(indices, ix.data(), ix.size() * sizeof(std::int64_t));
      }
    });
  });
}

static int dist_select_if(void* comm, int dtype, int pred, const void* threshold, int remove, const void* in,
                      void* out, int64_t n, int64_t* result) {
  return guarded([&] {
    auto& c = comm_of(comm, "sk_dist_select_if");
    check_out(result, "the result", "sk_dist_select_if");
    visit_types<all_number_types>(dtype, "scankit.dist.select", [&](auto tag) {
      using T = typename decltype(tag)::type;
      visit_pred<T>(pred, threshold, "sk_dist_select_if", [&](auto p) {
        const auto r = sd::detail::mpi::select(c, static_cast<const T*>(in), n, static_cast<T*>(out), n, p,
                                               remove == 0);
        result[0] = r.count;
        result[1] = r.offset;
        result[2] = r.global_count;
      });
    });
  });
}

static int dist_histogram_even(void* comm, int dtype, const void* samples, int64_t n, uint64_t* counts, int64_t bins,
                           double lower, double upper) {
  return guarded([&] {
    auto& c = comm_of(comm, "sk_dist_histogram_even");
    visit_types<dist_histogram_types>(dtype, "scankit.dist.histogram", [&](auto tag) {
      using T = typename decltype(tag)::type;
      using L = scankit::histogram_level_t<T>;
      sd::detail::mpi::histogram_even(c, static_cast<const T*>(samples), n, counts, bins, static_cast<L>(lower),
                                      static_cast<L>(upper), sd::histogram_config{});
    });
  });
}

static int dist_bincount(void* comm, int dtype, const void* keys, int64_t n, uint64_t* counts, int64_t bins) {
  return guarded([&] {
    auto& c = comm_of(comm, "sk_dist_bincount");
    visit_types<bincount_types>(dtype, "scankit.dist.bincount", [&](auto tag) {
      using T = typename decltype(tag)::type;
      sd::detail::mpi::bincount(c, static_cast<const T*>(keys), n, counts, bins, sd::histogram_config{});
    });
  });
}

static int dist_sort(void* comm, int dtype, const void* keys, int64_t n, int descending, void** result,
                 int64_t* result_n) {
  return guarded([&] {
    auto& c = comm_of(comm, "sk_dist_sort");
    check_out(result, "the result pointer", "sk_dist_sort");
    check_out(result_n, "the result size", "sk_dist_sort");
    scankit::detail::check_size(n, "sk_dist_sort");
    if (n > 0) check_out(keys, "the keys", "sk_dist_sort");
    visit_types<all_number_types>(dtype, "scankit.dist.sort", [&](auto tag) {
      using T = typename decltype(tag)::type;
      auto r = std::make_unique<sorted_keys<T>>();
      const T* k = static_cast<const T*>(keys);
      r->keys.assign(k, k + n);
      sd::sort_keys(c, r->keys, scankit::sort_options{.descending = descending != 0});
      *result_n = static_cast<int64_t>(r->keys.size());
      *result = static_cast<sorted_shard*>(r.release());
    });
  });
}

void sk_dist_take(void* result, void* dst) {
  auto* r = static_cast<sorted_shard*>(result);
  if (r == nullptr) return;
  if (dst != nullptr) r->copy_to(dst);
  delete r;
}

}  // extern "C"

// The entries below unpack their blocks and call the functions above.
namespace {
void* at(std::uint64_t address) {
  return reinterpret_cast<void*>(static_cast<std::uintptr_t>(address));
}
template <class A, class F>
int unpacked(const A* a, const char* where, F&& f) {
  if (a == nullptr) return guarded([&] { check_out(a, "the argument block", where); });
  return f(*a);
}
}  // namespace

extern "C" {

int sk_dist_scan(const sk_dist_scan_args* args) {
  return unpacked(args, "sk_dist_scan", [](const sk_dist_scan_args& a) {
    return dist_scan(at(a.comm), static_cast<int>(a.dtype), static_cast<int>(a.op), static_cast<int>(a.exclusive),
                     at(a.init), at(a.in), at(a.out), a.n, at(a.total));
  });
}

int sk_dist_reduce(const sk_dist_reduce_args* args) {
  return unpacked(args, "sk_dist_reduce", [](const sk_dist_reduce_args& a) {
    return dist_reduce(at(a.comm), static_cast<int>(a.dtype), static_cast<int>(a.op), at(a.in), a.n, at(a.result));
  });
}

int sk_dist_topk(const sk_dist_topk_args* args) {
  return unpacked(args, "sk_dist_topk", [](const sk_dist_topk_args& a) {
    return dist_topk(at(a.comm), static_cast<int>(a.dtype), at(a.in), a.n, a.k, static_cast<int>(a.largest),
                     at(a.values), static_cast<int64_t*>(at(a.indices)));
  });
}

int sk_dist_select_if(const sk_dist_select_if_args* args) {
  return unpacked(args, "sk_dist_select_if", [](const sk_dist_select_if_args& a) {
    return dist_select_if(at(a.comm), static_cast<int>(a.dtype), static_cast<int>(a.pred), at(a.threshold),
                          static_cast<int>(a.remove), at(a.in), at(a.out), a.n,
                          static_cast<int64_t*>(at(a.result)));
  });
}

int sk_dist_histogram_even(const sk_dist_histogram_even_args* args) {
  return unpacked(args, "sk_dist_histogram_even", [](const sk_dist_histogram_even_args& a) {
    return dist_histogram_even(at(a.comm), static_cast<int>(a.dtype), at(a.samples), a.n,
                               static_cast<uint64_t*>(at(a.counts)), a.bins, a.lower, a.upper);
  });
}

int sk_dist_bincount(const sk_dist_bincount_args* args) {
  return unpacked(args, "sk_dist_bincount", [](const sk_dist_bincount_args& a) {
    return dist_bincount(at(a.comm), static_cast<int>(a.dtype), at(a.keys), a.n,
                         static_cast<uint64_t*>(at(a.counts)), a.bins);
  });
}

int sk_dist_sort(const sk_dist_sort_args* args) {
  return unpacked(args, "sk_dist_sort", [](const sk_dist_sort_args& a) {
    return dist_sort(at(a.comm), static_cast<int>(a.dtype), at(a.keys), a.n, static_cast<int>(a.descending),
                     static_cast<void**>(at(a.result)), static_cast<int64_t*>(at(a.result_n)));
  });
}

}  // extern "C"
