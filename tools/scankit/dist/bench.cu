// `bench <primitive> --gpus N`: the distributed primitives of scankit/dist/nccl.cuh, timed in
// one process driving the first N GPUs (nccl_communicator::all_devices) or, when an MPI
// launcher started the process, one process per GPU (nccl_from_mpi; rank 0 prints).
//
// Per row: the call's time (median of the timed repetitions; CUDA events on every GPU around
// the call and comm.synchronize(), the largest over the GPUs), the phase times
// (nccl_communicator::record_phases, separate repetitions so that the total is timed without
// the phase events), the bytes each GPU sends in the exchange and their bandwidth, the same
// bytes through a grouped ncclSend/ncclRecv all-to-all timed the same way, and scankit's
// one-GPU time of the matching one-GPU problem. Scan, compaction and histogram scale weakly
// (-n items on every GPU; the one-GPU problem is -n items); the sort takes -n keys in all (the
// one-GPU problem sorts all of them). Each row's output is first checked against scankit's
// one-GPU calls on the same inputs (every GPU regenerates the inputs of the others from the
// seed); a wrong output fails the row without timing it.
#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common/dist.hpp"
#include "common/report.hpp"
#include "common/system.hpp"
#include "common/timing.hpp"
#include "common/util.hpp"
#include "scankit/dist/nccl.cuh"
#ifdef SCANKIT_TOOLS_HAS_MPI
#include <mpi.h>

#include "scankit/dist/mpi_communicator.hpp"
#include "scankit/dist/nccl_mpi.hpp"
#endif

namespace scankit::tools {

namespace {

namespace sd = scankit::dist;

/// The arguments written one after the other (fmt's headers do not compile under nvcc).
template <class... A>
std::string cat(const A&... a) {
  std::ostringstream s;
  (s << ... << a);
  return s.str();
}

// ---- the launcher --------------------------------------------------------------------------------

/// The job size an MPI launcher announces in the environment (Open MPI, MPICH/Hydra and Slurm's
/// PMI, MVAPICH), or 0 when no launcher started this process.
int launcher_size() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE"})
    if (const char* v = std::getenv(name); v && *v) return std::max(std::atoi(v), 1);
  return 0;
}

/// The processes of the job (one in the single-process mode): the max over ranks, rank 0 prints.
struct job {
  bool mpi = false;
  int rank = 0;     // process rank
  int procs = 1;
  bool printer() const { return rank == 0; }

  void max_over_ranks(std::vector<double>& v) const {
#ifdef SCANKIT_TOOLS_HAS_MPI
    if (mpi && !v.empty()) check_mpi(MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD),
                                     "MPI_Allreduce");
#else
    (void)v;
#endif
  }
  double max_over_ranks(double x) const {
    std::vector<double> v{x};
    max_over_ranks(v);
    return v[0];
  }
  void barrier() const {
#ifdef SCANKIT_TOOLS_HAS_MPI
    if (mpi) check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
#endif
  }
#ifdef SCANKIT_TOOLS_HAS_MPI
  static void check_mpi(int rc, const char* call) {
    if (rc == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING] = {};
    int len = 0;
    MPI_Error_string(rc, text, &len);
    throw scankit::error(std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(len)));
  }
#endif
};

#define DIST_CUDA(call) SCANKIT_TOOLS_CUDA_CHECK(call)

void check_nccl(ncclResult_t r, const char* call) {
  if (r != ncclSuccess && r != ncclInProgress)
    throw scankit::error(std::string(call) + " failed: " + ncclGetErrorString(r));
}

// ---- inputs, generated on the device from the seed and the global index -------------------------

enum class keys_kind { uniform, equal, zipf, sorted };

__host__ __device__ inline std::uint64_t mix(std::uint64_t seed, std::uint64_t g) {
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + g + 0x632BE59BD9B4E019ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// out[i] = the item of global index offset + i.
///   scan (i32): -1..2; compact (u32), histogram (u8), sort uniform: random bits;
///   equal: 42; zipf: floor(2^(20u)) for u uniform in [0, 1), so value k has probability about
///   1/k (Zipf with s = 1 over 2^20 values); sorted: the global index.
template <class T>
__global__ void fill_kernel(T* out, std::int64_t n, std::int64_t offset, std::uint64_t seed, keys_kind kind, bool scan_values) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::uint64_t g = static_cast<std::uint64_t>(offset + i);
    const std::uint64_t h = mix(seed, g);
    T v;
    if (scan_values) v = static_cast<T>(static_cast<int>(h & 3) - 1);
    else if (kind == keys_kind::equal) v = static_cast<T>(42);
    else if (kind == keys_kind::zipf) v = static_cast<T>(exp2(20.0 * static_cast<double>(h >> 11) * 0x1.0p-53));
    else if (kind == keys_kind::sorted) v = static_cast<T>(g);
    else v = static_cast<T>(h);
    out[i] = v;
  }
}

/// Index values of the sort's pairs: the global index.
template <class V>
__global__ void index_kernel(V* out, std::int64_t n, std::int64_t offset) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<V>(offset + i);
}

template <class T>
__global__ void diff_kernel(const T* a, const T* b, std::int64_t n, unsigned long long* diffs) {
  unsigned long long d = 0;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    d += a[i] != b[i];
  if (d) atomicAdd(diffs, d);
}

constexpr int grid_blocks = 1024;

template <class T>
void fill(T* out, std::int64_t n, std::int64_t offset, std::uint64_t seed, keys_kind kind, bool scan_values, cudaStream_t s) {
  if (n == 0) return;
  fill_kernel<<<grid_blocks, 256, 0, s>>>(out, n, offset, seed, kind, scan_values);
  DIST_CUDA(cudaGetLastError());
}

template <class V>
void fill_index(V* out, std::int64_t n, std::int64_t offset, cudaStream_t s) {
  if (n == 0) return;
  index_kernel<<<grid_blocks, 256, 0, s>>>(out, n, offset);
  DIST_CUDA(cudaGetLastError());
}

/// Items where a and b (device) differ.
template <class T>
std::uint64_t count_diffs(const T* a, const T* b, std::int64_t n, cudaStream_t s) {
  if (n == 0) return 0;
  device_buffer d(sizeof(unsigned long long));
  DIST_CUDA(cudaMemsetAsync(d.data(), 0, sizeof(unsigned long long), s));
  diff_kernel<<<grid_blocks, 256, 0, s>>>(a, b, n, d.as<unsigned long long>());
  DIST_CUDA(cudaGetLastError());
  unsigned long long h = 0;
  DIST_CUDA(cudaMemcpyAsync(&h, d.data(), sizeof(h), cudaMemcpyDeviceToHost, s));
  DIST_CUDA(cudaStreamSynchronize(s));
  return h;
}

template <class T>
T read_one(const T* d, cudaStream_t s) {
  T h{};
  DIST_CUDA(cudaMemcpyAsync(&h, d, sizeof(T), cudaMemcpyDeviceToHost, s));
  DIST_CUDA(cudaStreamSynchronize(s));
  return h;
}

// ---- timing ------------------------------------------------------------------------------------------

/// What one row measures besides the total.
struct row_result {
  std::string label;       // the key distribution, or the input
  std::string check = check_pass;
  std::string message;
  std::vector<double> samples;  // total ms per repetition (the largest over the GPUs)
  double ms = NAN;
  std::vector<std::string> phase_names;
  std::vector<double> phase_ms;  // medians, the largest over the GPUs
  double sent_bytes = 0;         // per GPU, in the exchange
  double exchange_ms = NAN;      // the phase that moves the data
  double nccl_ms = NAN;          // the same bytes through a NCCL all-to-all
  double one_gpu_ms = NAN;
};

/// The setting of every row: the communicator, the job, and one L2 flusher per local GPU.
struct context {
  job j;
  sd::nccl_communicator* comm = nullptr;
  std::vector<std::unique_ptr<l2_flusher>> flushers;
  int warmup = 2, reps = 10;
  std::uint64_t seed = 0;
  sd::sort_config sort_cfg;
  int ranks() const { return comm->size(); }

  template <class F>
  void each(F&& f) {
    for (int i = 0; i < comm->local_count(); ++i) {
      sd::detail::device_guard g(comm->local(i).device);
      f(comm->local(i), i);
    }
  }

  /// Times call() as the issue asks: L2 flushed and every GPU idle (and every process at a
  /// barrier) first; events on every local stream around call() and comm.synchronize(). Returns
  /// the largest time over all GPUs per repetition. after_each() runs outside the timing.
  template <class Call, class After>
  std::vector<double> time(int n_warmup, int n_reps, Call&& call, After&& after_each) {
    std::vector<cudaEvent_t> start(static_cast<std::size_t>(comm->local_count())), stop(start.size());
    each([&](sd::nccl_local_rank&, int i) {
      DIST_CUDA(cudaEventCreate(&start[static_cast<std::size_t>(i)]));
      DIST_CUDA(cudaEventCreate(&stop[static_cast<std::size_t>(i)]));
    });
    std::vector<double> samples;
    try {
      for (int r = 0; r < n_warmup + n_reps; ++r) {
        each([&](sd::nccl_local_rank& l, int i) { flushers[static_cast<std::size_t>(i)]->flush(l.stream); });
        comm->synchronize("scankit bench");
        j.barrier();
        each([&](sd::nccl_local_rank& l, int i) { DIST_CUDA(cudaEventRecord(start[static_cast<std::size_t>(i)], l.stream)); });
        call();
        comm->synchronize("scankit bench");
        each([&](sd::nccl_local_rank& l, int i) { DIST_CUDA(cudaEventRecord(stop[static_cast<std::size_t>(i)], l.stream)); });
        double worst = 0;
        each([&](sd::nccl_local_rank&, int i) {
          DIST_CUDA(cudaEventSynchronize(stop[static_cast<std::size_t>(i)]));
          float ms = 0;
          DIST_CUDA(cudaEventElapsedTime(&ms, start[static_cast<std::size_t>(i)], stop[static_cast<std::size_t>(i)]));
          worst = std::max(worst, static_cast<double>(ms));
        });
        worst = j.max_over_ranks(worst);
        if (r >= n_warmup) samples.push_back(worst), after_each();
      }
    } catch (...) {
      each([&](sd::nccl_local_rank&, int i) {
        cudaEventDestroy(start[static_cast<std::size_t>(i)]);
        cudaEventDestroy(stop[static_cast<std::size_t>(i)]);
      });
      throw;
    }
    each([&](sd::nccl_local_rank&, int i) {
      DIST_CUDA(cudaEventDestroy(start[static_cast<std::size_t>(i)]));
      DIST_CUDA(cudaEventDestroy(stop[static_cast<std::size_t>(i)]));
    });
    return samples;
  }

  /// The total, then the phases (in repetitions of their own, with record_phases on); the
  /// exchange phase `exchange` gives exchange_ms, its noted bytes sent_bytes unless
  /// `sent_bytes` is given (>= 0).
  template <class Call>
  void measure(row_result& row, Call&& call, const std::string& exchange, double sent_bytes) {
    row.samples = time(warmup, reps, call, [] {});
    row.ms = median(row.samples);
    std::map<std::string, std::vector<double>> per_phase;
    double noted = 0;
    comm->record_phases(true);
    try {
      time(1, reps, call, [&] {
        const auto phases = comm->last_phases();
        if (row.phase_names.empty())
          for (const auto& ph : phases) row.phase_names.push_back(ph.name);
        for (const auto& ph : phases) {
          per_phase[ph.name].push_back(ph.ms);
          noted = std::max(noted, static_cast<double>(ph.name == exchange ? ph.sent_bytes : 0));
        }
      });
    } catch (...) {
      comm->record_phases(false);
      throw;
    }
    comm->record_phases(false);
    for (const auto& name : row.phase_names) row.phase_ms.push_back(median(per_phase[name]));
    j.max_over_ranks(row.phase_ms);
    row.sent_bytes = sent_bytes >= 0 ? sent_bytes : j.max_over_ranks(noted);
    for (std::size_t k = 0; k < row.phase_names.size(); ++k)
      if (row.phase_names[k] == exchange) row.exchange_ms = row.phase_ms[k];
    row.nccl_ms = time_alltoall(row.sent_bytes);
  }

  /// Every rank sends `bytes` in all, bytes / (p - 1) to each other rank, and receives as much:
  /// grouped ncclSend/ncclRecv, timed as the distributed calls. NaN for one rank or no bytes.
  double time_alltoall(double bytes) {
    const int p = ranks();
    if (p < 2 || bytes <= 0) return NAN;
    const auto chunk = static_cast<std::size_t>(bytes / (p - 1));
    if (chunk == 0) return NAN;
    std::vector<device_buffer> send, recv;
    each([&](sd::nccl_local_rank&, int) {
      send.emplace_back(chunk * static_cast<std::size_t>(p - 1));
      recv.emplace_back(chunk * static_cast<std::size_t>(p - 1));
    });
    auto call = [&] {
      check_nccl(ncclGroupStart(), "ncclGroupStart");
      for (int i = 0; i < comm->local_count(); ++i) {
        auto& l = comm->local(i);
        sd::detail::device_guard g(l.device);
        std::size_t k = 0;
        for (int q = 0; q < p; ++q) {
          if (q == l.rank) continue;
          auto* s = static_cast<unsigned char*>(send[static_cast<std::size_t>(i)].data()) + k * chunk;
          auto* r = static_cast<unsigned char*>(recv[static_cast<std::size_t>(i)].data()) + k * chunk;
          check_nccl(ncclSend(s, chunk, ncclUint8, q, l.comm, l.stream), "ncclSend");
          check_nccl(ncclRecv(r, chunk, ncclUint8, q, l.comm, l.stream), "ncclRecv");
          ++k;
        }
      }
      check_nccl(ncclGroupEnd(), "ncclGroupEnd");
      comm->settle("ncclSend/ncclRecv", "scankit bench: NCCL all-to-all");
    };
    return median(time(warmup, reps, call, [] {}));
  }

  /// scankit's one-GPU time of `call` (which enqueues on the given stream) on this process's
  /// first GPU, on rank 0 only (the others wait at a barrier): median of reps after warm-up, L2
  /// flushed before each. NaN elsewhere.
  template <class Call>
  double time_one_gpu(Call&& call) {
    double ms = NAN;
    std::exception_ptr failed;  // rethrown after the barrier, which the other ranks wait at
    if (j.printer()) {
      try {
        sd::detail::device_guard g(comm->local(0).device);
        cuda_stream s;
        ms = median(time_gpu_ms(s.get(), warmup, reps, [&] { call(s.get()); }, [&] { flushers[0]->flush(s.get()); }));
      } catch (...) {
        failed = std::current_exception();
      }
    }
    j.barrier();
    if (failed) std::rethrow_exception(failed);
    return ms;
  }

  /// The row fails unless every rank's check passed (`failure` empty on this rank).
  bool agree(row_result& row, const std::string& failure) {
    const double bad = j.max_over_ranks(failure.empty() ? 0.0 : 1.0);
    if (bad == 0) return true;
    row.check = check_fail;
    row.message = failure.empty() ? "error: another rank's output differs from scankit's one-GPU result" : "error: " + failure;
    return false;
  }
};

/// Per local rank: a device array of `count` T.
template <class T>
struct per_gpu {
  std::vector<device_buffer> b;
  T* at(int i) const { return b[static_cast<std::size_t>(i)].as<T>(); }
  /// The arrays as the distributed calls take them: one shard per local rank, of counts[i] items.
  template <class U = T>
  std::vector<sd::device_shard<U>> shards(const std::vector<std::int64_t>& counts) const {
    std::vector<sd::device_shard<U>> s;
    for (std::size_t i = 0; i < counts.size(); ++i) s.push_back({at(static_cast<int>(i)), counts[i]});
    return s;
  }
};

template <class T>
per_gpu<T> allocate(context& cx, const std::vector<std::int64_t>& counts) {
  per_gpu<T> r;
  cx.each([&](sd::nccl_local_rank&, int i) {
    r.b.emplace_back(std::max<std::size_t>(static_cast<std::size_t>(counts[static_cast<std::size_t>(i)]) * sizeof(T), 1));
  });
  return r;
}

// ---- the primitives ------------------------------------------------------------------------------------

/// Weak scaling: m items on every rank; rank q's items are the global indices [q m, (q + 1) m).
row_result run_scan(context& cx, std::int64_t m) {
  using T = std::int32_t;
  row_result row;
  row.label = "i32 sum";
  const int L = cx.comm->local_count();
  const std::vector<std::int64_t> sizes(static_cast<std::size_t>(L), m);
  auto in = allocate<T>(cx, sizes), out = allocate<T>(cx, sizes);
  cx.each([&](sd::nccl_local_rank& l, int i) { fill(in.at(i), m, l.rank * m, cx.seed, keys_kind::uniform, true, l.stream); });
  const auto ins = in.shards<const T>(sizes);
  const auto outs = out.shards(sizes);
  auto call = [&] { sd::inclusive_scan<T>(*cx.comm, ins, outs); };
  call();
  cx.comm->synchronize("scankit bench");

  // Check: each rank scans the earlier ranks' inputs on its own GPU (one-GPU scankit) for its
  // carry-in, then its own input from it.
  std::string failure;
  const std::size_t ws_bytes = cuda::scan_workspace_bytes(m, sizeof(T));
  try {
    cx.each([&](sd::nccl_local_rank& l, int i) {
      device_buffer tmp(static_cast<std::size_t>(m) * sizeof(T) + 1), ref(static_cast<std::size_t>(m) * sizeof(T) + 1), ws(ws_bytes + 1);
      T carry = 0;
      for (int q = 0; q < l.rank && m > 0; ++q) {
        fill(tmp.as<T>(), m, q * m, cx.seed, keys_kind::uniform, true, l.stream);
        cuda::scan(tmp.as<T>(), ref.as<T>(), m, sum<T>{}, scan_kind::inclusive, carry, ws.data(), ws_bytes, l.stream);
        carry = read_one(ref.as<T>() + m - 1, l.stream);
      }
      cuda::scan(in.at(i), ref.as<T>(), m, sum<T>{}, scan_kind::inclusive, carry, ws.data(), ws_bytes, l.stream);
      if (const auto d = count_diffs(ref.as<T>(), out.at(i), m, l.stream); d && failure.empty())
        failure = cat("rank ", l.rank, ": ", d, " items differ from scankit's one-GPU scan");
    });
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (!cx.agree(row, failure)) return row;

  const double record_bytes = 64.0 * (cx.ranks() - 1);  // one call record to every other rank
  cx.measure(row, call, "exchange", record_bytes);
  device_buffer ref(static_cast<std::size_t>(m) * sizeof(T) + 1), ws(ws_bytes + 1);
  row.one_gpu_ms = cx.time_one_gpu([&](cudaStream_t s) {
    cuda::scan(in.at(0), ref.as<T>(), m, sum<T>{}, scan_kind::inclusive, T{0}, ws.data(), ws_bytes, s);
  });
  return row;
}

row_result run_compact(context& cx, std::int64_t m, double selectivity) {
  using T = std::uint32_t;
  row_result row;
  row.label = cat("u32 select_if ", selectivity * 100, "%");
  const int L = cx.comm->local_count();
  const std::vector<std::int64_t> sizes(static_cast<std::size_t>(L), m);
  auto in = allocate<T>(cx, sizes), out = allocate<T>(cx, sizes);
  cx.each([&](sd::nccl_local_rank& l, int i) { fill(in.at(i), m, l.rank * m, cx.seed, keys_kind::uniform, false, l.stream); });
  const double t = std::min(selectivity * 4294967296.0, 4294967295.0);
  const less_than<T> pred{static_cast<T>(t)};
  const auto ins = in.shards<const T>(sizes);
  const auto outs = out.shards(sizes);
  std::vector<sd::compaction_result> got;
  auto call = [&] { got = sd::select_if<T>(*cx.comm, ins, outs, pred); };
  call();
  cx.comm->synchronize("scankit bench");

  // Check: one-GPU select_if of every rank's input on each GPU gives the counts (offset, global
  // count); the rank's own output is compared item by item.
  std::string failure;
  const std::size_t ws_bytes = cuda::compact_workspace_bytes(m, sizeof(T));
  try {
    cx.each([&](sd::nccl_local_rank& l, int i) {
      device_buffer tmp(static_cast<std::size_t>(m) * sizeof(T) + 1), ref(static_cast<std::size_t>(m) * sizeof(T) + 1), ws(ws_bytes + 1),
          count(sizeof(std::int64_t));
      std::int64_t offset = 0, global = 0, mine = 0;
      for (int q = 0; q < cx.ranks(); ++q) {
        const T* src = in.at(i);
        if (q != l.rank) fill(tmp.as<T>(), m, q * m, cx.seed, keys_kind::uniform, false, l.stream), src = tmp.as<T>();
        cuda::select_if(src, ref.as<T>(), m, pred, count.as<std::int64_t>(), ws.data(), ws_bytes, l.stream);
        const auto c = read_one(count.as<std::int64_t>(), l.stream);
        if (q < l.rank) offset += c;
        global += c;
        if (q == l.rank) {
          mine = c;
          if (const auto d = count_diffs(ref.as<T>(), out.at(i), std::min(c, got[static_cast<std::size_t>(i)].count), l.stream);
              d && failure.empty())
            failure = cat("rank ", l.rank, ": ", d, " kept items differ from scankit's one-GPU select_if");
        }
      }
      const auto& r = got[static_cast<std::size_t>(i)];
      if ((r.count != mine || r.offset != offset || r.global_count != global) && failure.empty())
        failure = cat("rank ", l.rank, ": count ", r.count, " offset ", r.offset, " of ", r.global_count,
                       " where scankit's one-GPU select_if gives ", mine, " ", offset, " of ", global);
    });
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (!cx.agree(row, failure)) return row;

  cx.measure(row, call, "exchange", 64.0 * (cx.ranks() - 1));
  device_buffer ref(static_cast<std::size_t>(m) * sizeof(T) + 1), ws(ws_bytes + 1), count(sizeof(std::int64_t));
  row.one_gpu_ms = cx.time_one_gpu([&](cudaStream_t s) {
    cuda::select_if(in.at(0), ref.as<T>(), m, pred, count.as<std::int64_t>(), ws.data(), ws_bytes, s);
  });
  return row;
}

row_result run_histogram(context& cx, std::int64_t m) {
  using T = std::uint8_t;
  using C = std::uint32_t;
  constexpr std::int64_t bins = 256;
  row_result row;
  row.label = "u8 256 bins";
  const int L = cx.comm->local_count();
  const std::vector<std::int64_t> sizes(static_cast<std::size_t>(L), m), bin_sizes(static_cast<std::size_t>(L), bins);
  auto in = allocate<T>(cx, sizes);
  auto counts = allocate<C>(cx, bin_sizes);
  cx.each([&](sd::nccl_local_rank& l, int i) { fill(in.at(i), m, l.rank * m, cx.seed, keys_kind::uniform, false, l.stream); });
  const auto ins = in.shards<const T>(sizes);
  const auto outs = counts.shards(bin_sizes);
  auto call = [&] { sd::histogram_even<T, C>(*cx.comm, ins, outs, 0, 256); };
  call();
  cx.comm->synchronize("scankit bench");

  // Check: one-GPU histograms of every rank's input, accumulated, on each GPU.
  std::string failure;
  try {
    cx.each([&](sd::nccl_local_rank& l, int i) {
      device_buffer tmp(static_cast<std::size_t>(m) + 1), ref(bins * sizeof(C));
      DIST_CUDA(cudaMemsetAsync(ref.data(), 0, bins * sizeof(C), l.stream));
      cuda::histogram_options o;
      o.accumulate = true;
      for (int q = 0; q < cx.ranks(); ++q) {
        fill(tmp.as<T>(), m, q * m, cx.seed, keys_kind::uniform, false, l.stream);
        cuda::histogram_even(tmp.as<T>(), m, ref.as<C>(), bins, 0, 256, l.stream, o);
      }
      if (const auto d = count_diffs(ref.as<C>(), counts.at(i), bins, l.stream); d && failure.empty())
        failure = cat("rank ", l.rank, ": ", d, " bins differ from scankit's one-GPU histograms");
    });
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (!cx.agree(row, failure)) return row;

  // A ring all-reduce sends 2 (p - 1) / p of the counts from every GPU.
  cx.measure(row, call, "all-reduce", 2.0 * (cx.ranks() - 1) / cx.ranks() * bins * sizeof(C));
  device_buffer ref(bins * sizeof(C));
  row.one_gpu_ms = cx.time_one_gpu([&](cudaStream_t s) { cuda::histogram_even(in.at(0), m, ref.as<C>(), bins, 0, 256, s); });
  return row;
}

/// Keys of type K (values V, or keys only for V = void), n in all, rank q holding the balanced
/// share of the global indices.
template <class K, class V>
row_result run_sort(context& cx, std::int64_t n, keys_kind kind, const char* label) {
  constexpr bool pairs = !std::is_void_v<V>;
  using Val = std::conditional_t<pairs, V, char>;
  row_result row;
  row.label = label;
  const int L = cx.comm->local_count(), p = cx.ranks();
  std::vector<std::int64_t> sizes, offsets;
  for (int i = 0; i < L; ++i) {
    sizes.push_back(sd::balanced_size(n, cx.comm->local(i).rank, p));
    offsets.push_back(sd::balanced_offset(n, cx.comm->local(i).rank, p));
  }
  auto kin = allocate<K>(cx, sizes), kout = allocate<K>(cx, sizes);
  auto vin = allocate<Val>(cx, pairs ? sizes : std::vector<std::int64_t>(sizes.size(), 0));
  auto vout = allocate<Val>(cx, pairs ? sizes : std::vector<std::int64_t>(sizes.size(), 0));
  cx.each([&](sd::nccl_local_rank& l, int i) {
    fill(kin.at(i), sizes[static_cast<std::size_t>(i)], offsets[static_cast<std::size_t>(i)], cx.seed, kind, false, l.stream);
    if constexpr (pairs) fill_index(vin.at(i), sizes[static_cast<std::size_t>(i)], offsets[static_cast<std::size_t>(i)], l.stream);
  });
  const auto kins = kin.template shards<const K>(sizes);
  const auto kouts = kout.shards(sizes);
  const auto vins = vin.template shards<const Val>(sizes);
  const auto vouts = vout.shards(sizes);
  auto call = [&] {
    if constexpr (pairs) sd::sort_pairs<K, V>(*cx.comm, kins, kouts, vins, vouts, {}, cx.sort_cfg);
    else sd::sort_keys<K>(*cx.comm, kins, kouts, {}, cx.sort_cfg);
  };
  call();
  cx.comm->synchronize("scankit bench");

  // Check: every GPU sorts all n keys (scankit's one-GPU stable sort) and compares its range.
  // Rank 0's GPU keeps them for the one-GPU timing.
  std::string failure;
  const std::size_t ws_bytes = cuda::sort_workspace_bytes(n, sizeof(K), pairs ? sizeof(Val) : 0);
  device_buffer all_k, all_ko, all_v, all_vo, ws;
  auto one_gpu = [&](cudaStream_t s) {
    if constexpr (pairs)
      cuda::sort_pairs(all_k.as<K>(), all_ko.as<K>(), all_v.as<Val>(), all_vo.as<Val>(), n, ws.data(), ws_bytes, s);
    else
      cuda::sort_keys(all_k.as<K>(), all_ko.as<K>(), n, ws.data(), ws_bytes, s);
  };
  try {
    cx.each([&](sd::nccl_local_rank& l, int i) {
      all_k = device_buffer(static_cast<std::size_t>(n) * sizeof(K) + 1);
      all_ko = device_buffer(static_cast<std::size_t>(n) * sizeof(K) + 1);
      if constexpr (pairs) {
        all_v = device_buffer(static_cast<std::size_t>(n) * sizeof(Val) + 1);
        all_vo = device_buffer(static_cast<std::size_t>(n) * sizeof(Val) + 1);
        fill_index(all_v.as<Val>(), n, 0, l.stream);
      }
      ws = device_buffer(ws_bytes + 1);
      fill(all_k.as<K>(), n, 0, cx.seed, kind, false, l.stream);
      one_gpu(l.stream);
      const auto s = sizes[static_cast<std::size_t>(i)], at = offsets[static_cast<std::size_t>(i)];
      auto d = count_diffs(all_ko.as<K>() + at, kout.at(i), s, l.stream);
      if constexpr (pairs) d += count_diffs(all_vo.as<Val>() + at, vout.at(i), s, l.stream);
      if (d && failure.empty())
        failure = cat("rank ", l.rank, ": ", d, " keys or values differ from scankit's one-GPU sort");
      if (i + 1 < L) all_k.release(), all_ko.release(), all_v.release(), all_vo.release(), ws.release();
    });
    // The last GPU's copies are kept; the one-GPU timing runs on the first GPU.
    if (L > 1) {
      sd::detail::device_guard g(cx.comm->local(L - 1).device);
      all_k.release(), all_ko.release(), all_v.release(), all_vo.release(), ws.release();
    }
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (!cx.agree(row, failure)) return row;

  cx.measure(row, call, "all-to-all", -1);
  if (L > 1 && cx.j.printer()) {
    sd::detail::device_guard g(cx.comm->local(0).device);
    cuda_stream s;
    all_k = device_buffer(static_cast<std::size_t>(n) * sizeof(K) + 1);
    all_ko = device_buffer(static_cast<std::size_t>(n) * sizeof(K) + 1);
    if constexpr (pairs) {
      all_v = device_buffer(static_cast<std::size_t>(n) * sizeof(Val) + 1);
      all_vo = device_buffer(static_cast<std::size_t>(n) * sizeof(Val) + 1);
      fill_index(all_v.as<Val>(), n, 0, s.get());
    }
    ws = device_buffer(ws_bytes + 1);
    fill(all_k.as<K>(), n, 0, cx.seed, kind, false, s.get());
    s.synchronize();
  }
  try {
    row.one_gpu_ms = cx.time_one_gpu(one_gpu);
  } catch (const std::exception& e) {
    row.message = std::string("one-GPU sort: ") + e.what();
  }
  return row;
}

// ---- the report ------------------------------------------------------------------------------------

struct run_setup {
  std::string primitive;
  std::int64_t n = 0;       // as given: per GPU (weak) or in all (sort)
  bool weak = true;
  std::string type_label;   // u32 keys, ...
};

int report(context& cx, const dist_bench_options& o, const run_setup& su, const std::vector<row_result>& rows,
           const std::string& devices) {
  if (!cx.j.printer()) return 0;
  std::vector<std::string> header{su.weak ? "input" : "keys", "ms"};
  // Every phase any row has, in order of appearance (the sort's rows may take different paths).
  std::vector<std::string> phases;
  for (const auto& r : rows)
    for (const auto& ph : r.phase_names)
      if (std::find(phases.begin(), phases.end(), ph) == phases.end()) phases.push_back(ph);
  for (const auto& ph : phases) header.push_back(ph + " ms");
  for (const char* h : {"exch B/GPU", "exch GB/s", "NCCL a2a ms", "NCCL GB/s", "vs NCCL", "1-GPU ms",
                        su.weak ? "efficiency" : "speed-up", "check"})
    header.push_back(h);
  text_table table(header);
  std::vector<report_row> out;
  const int p = cx.ranks();
  for (const auto& r : rows) {
    std::vector<std::string> cells{r.label, format_ms(r.ms)};
    for (const auto& ph : phases) {
      const auto k = static_cast<std::size_t>(std::find(r.phase_names.begin(), r.phase_names.end(), ph) - r.phase_names.begin());
      cells.push_back(k < r.phase_ms.size() ? format_ms(r.phase_ms[k]) : "-");
    }
    const double exch_gbps = r.sent_bytes / (r.exchange_ms * 1e6), nccl_gbps = r.sent_bytes / (r.nccl_ms * 1e6);
    const double vs_nccl = r.nccl_ms / r.exchange_ms, vs_one = r.one_gpu_ms / r.ms;
    cells.push_back(r.sent_bytes > 0 ? format_bytes(r.sent_bytes) : "0");
    cells.push_back(format_gbps(exch_gbps));
    cells.push_back(format_ms(r.nccl_ms));
    cells.push_back(format_gbps(nccl_gbps));
    cells.push_back(format_ratio(vs_nccl));
    cells.push_back(format_ms(r.one_gpu_ms));
    cells.push_back(format_ratio(vs_one));
    cells.push_back(check_cell(r.check, r.message));
    table.add_row(cells);

    report_row j;
    j.algorithm = "scankit-dist";
    j.group = "gpu";
    j.x = su.n;
    j.n = su.weak ? su.n * p : su.n;
    j.type = o.type;
    j.ms = r.ms;
    j.samples_ms = r.samples;
    j.check = r.check;
    j.message = r.message;
    j.extra["input"] = r.label;
    j.extra["ranks"] = p;
    j.extra["processes"] = cx.j.procs;
    j.extra["scaling"] = su.weak ? "weak" : "strong";
    j.extra["n_per_gpu"] = su.weak ? su.n : su.n / p;
    if (o.value_bytes) j.extra["value_bytes"] = o.value_bytes;
    nlohmann::json ph = nlohmann::json::object();
    for (std::size_t k = 0; k < r.phase_names.size() && k < r.phase_ms.size(); ++k) ph[r.phase_names[k]] = json_number(r.phase_ms[k]);
    j.extra["phases_ms"] = ph;
    j.extra["exchange_bytes_per_gpu"] = r.sent_bytes;
    j.extra["exchange_ms"] = json_number(r.exchange_ms);
    j.extra["exchange_gbps"] = json_number(exch_gbps);
    j.extra["nccl_alltoall_ms"] = json_number(r.nccl_ms);
    j.extra["nccl_alltoall_gbps"] = json_number(nccl_gbps);
    j.extra["exchange_vs_nccl"] = json_number(vs_nccl);
    j.extra["one_gpu_ms"] = json_number(r.one_gpu_ms);
    j.extra[su.weak ? "efficiency" : "speedup"] = json_number(vs_one);
    out.push_back(std::move(j));
  }
  std::cout << table.str();
  std::cout << "ms: median total (CUDA events on every GPU around the call and comm.synchronize(), the largest over "
               "the GPUs); phase ms: medians of separate runs with phase timing on, the largest over the GPUs (host "
               "waits included); exch B/GPU: bytes each GPU sends to the others in the "
            << (su.primitive == "sort" ? "all-to-all" : su.primitive == "histogram" ? "all-reduce" : "exchange")
            << " phase, GB/s over that phase; NCCL a2a: the same bytes per GPU through a grouped ncclSend/ncclRecv "
               "all-to-all (split evenly over the other GPUs); vs NCCL: NCCL a2a ms / exchange phase ms (1 = as fast "
               "as NCCL's all-to-all); 1-GPU ms: scankit's one-GPU call on "
            << (su.weak ? "the same per-GPU input; efficiency = 1-GPU ms / ms (weak scaling, 1 = ideal)"
                        : "all the keys; speed-up = 1-GPU ms / ms")
            << ".\n";
  nlohmann::json params = {{"gpus", o.gpus}, {"ranks", p}, {"processes", cx.j.procs}, {"devices", devices},
                           {"type", o.type}, {"reps", o.reps}, {"seed", cx.seed}, {"scaling", su.weak ? "weak" : "strong"}};
  if (su.primitive == "sort") params["keys"] = o.keys, params["value_bytes"] = o.value_bytes, params["split"] = o.split, params["exchange_parts"] = o.exchange_parts;
  if (su.primitive == "compact") params["selectivity"] = o.selectivity;
  return finish_bench(o.json, su.primitive, query_system(), params, su.n, out);
}

int run(context& cx, const dist_bench_options& o, const std::string& devices) {
  const int p = cx.ranks();
  run_setup su;
  su.primitive = o.primitive;
  su.weak = o.primitive != "sort";
  std::int64_t n = std::int64_t{1} << 28;
  if (!o.n.empty()) n = *parse_count(o.n);
  else if (!su.weak) n *= p;
  su.n = n;
  if (cx.j.printer()) {
    std::cout << "scankit bench " << o.primitive << " --gpus: " << p << (p == 1 ? " GPU" : " GPUs") << " ("
              << (cx.j.mpi ? cat(cx.j.procs, " processes, one GPU each") : std::string("one process")) << "; "
              << devices << ")\n";
    if (su.weak)
      std::cout << "n = " << describe_count(n) << " items per GPU (weak scaling: " << describe_count(n * p)
                << " in all; the 1-GPU row runs " << describe_count(n) << ")";
    else
      std::cout << "n = " << describe_count(n) << " keys in all (" << describe_count(n / p) << (n % p ? "+" : "")
                << " per GPU; the 1-GPU row sorts all " << describe_count(n) << ")";
    std::cout << ", seed " << cx.seed << ", median of " << o.reps << " runs\n";
  }
  std::vector<row_result> rows;
  if (o.primitive == "scan") rows.push_back(run_scan(cx, n));
  else if (o.primitive == "compact") rows.push_back(run_compact(cx, n, o.selectivity));
  else if (o.primitive == "histogram") rows.push_back(run_histogram(cx, n));
  else {
    std::vector<std::pair<keys_kind, const char*>> kinds;
    if (o.keys == "uniform" || o.keys == "all") kinds.emplace_back(keys_kind::uniform, "uniform");
    if (o.keys == "equal" || o.keys == "all") kinds.emplace_back(keys_kind::equal, "equal");
    if (o.keys == "zipf" || o.keys == "all") kinds.emplace_back(keys_kind::zipf, "zipf");
    if (o.keys == "sorted" || o.keys == "all") kinds.emplace_back(keys_kind::sorted, "sorted");
    progress_line progress(cx.j.printer() ? kinds.size() : 0);
    for (const auto& [kind, label] : kinds) {
      if (cx.j.printer()) progress.step(label);
      if (o.type == "u32" && o.value_bytes == 0) rows.push_back(run_sort<std::uint32_t, void>(cx, n, kind, label));
      else if (o.type == "u32" && o.value_bytes == 4) rows.push_back(run_sort<std::uint32_t, std::uint32_t>(cx, n, kind, label));
      else if (o.type == "u32") rows.push_back(run_sort<std::uint32_t, std::uint64_t>(cx, n, kind, label));
      else if (o.value_bytes == 0) rows.push_back(run_sort<std::uint64_t, void>(cx, n, kind, label));
      else if (o.value_bytes == 4) rows.push_back(run_sort<std::uint64_t, std::uint32_t>(cx, n, kind, label));
      else rows.push_back(run_sort<std::uint64_t, std::uint64_t>(cx, n, kind, label));
    }
  }
  return report(cx, o, su, rows, devices);
}

context make_context(const dist_bench_options& o, job j, sd::nccl_communicator& comm) {
  context cx;
  cx.j = j;
  cx.comm = &comm;
  cx.reps = o.reps;
  cx.seed = pick_seed(o.seed);
  cx.sort_cfg.split = o.split == "radix"     ? sd::sort_config::split_kind::radix
                      : o.split == "samples" ? sd::sort_config::split_kind::samples
                                             : sd::sort_config::split_kind::automatic;
  cx.sort_cfg.exchange_parts = o.exchange_parts;
  // Every process uses rank 0's seed (a random one differs per process).
#ifdef SCANKIT_TOOLS_HAS_MPI
  if (j.mpi) job::check_mpi(MPI_Bcast(&cx.seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
#endif
  cx.each([&](sd::nccl_local_rank&, int) { cx.flushers.push_back(std::make_unique<l2_flusher>()); });
  return cx;
}

std::string device_names(const sd::nccl_communicator& comm) {
  std::string s;
  for (int i = 0; i < comm.local_count(); ++i) {
    cudaDeviceProp prop{};
    DIST_CUDA(cudaGetDeviceProperties(&prop, comm.local(i).device));
    s += (i ? ", " : "") + cat("GPU ", comm.local(i).device, " ", prop.name);
  }
  return s;
}

}  // namespace

int run_dist_bench(const dist_bench_options& o) {
  if (!o.n.empty() && !parse_count(o.n)) throw scankit::error("-n " + o.n + " is not a count");
  const int launched = launcher_size();
  if (launched == 0) {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) (void)cudaGetLastError(), count = 0;
    else DIST_CUDA(e);
    if (o.gpus > count)
      throw scankit::error(cat("--gpus ", o.gpus, ": this machine has ", count, " visible GPU", count == 1 ? "" : "s"));
    std::vector<int> devices;
    for (int d = 0; d < o.gpus; ++d) devices.push_back(d);
    auto comm = sd::nccl_communicator::all_devices(devices);
    job j;
    auto cx = make_context(o, j, comm);
    return run(cx, o, device_names(comm));
  }
#ifndef SCANKIT_TOOLS_HAS_MPI
  throw scankit::error(cat("started by an MPI launcher (", launched,
                           " processes), but this scankit was built without MPI; run one process with --gpus N instead"));
#else
  if (o.gpus != 1)
    throw scankit::error(cat("--gpus ", o.gpus,
                             " under an MPI launcher: each process drives one GPU; pass --gpus 1 and choose the GPU "
                             "count with mpirun -np"));
  job::check_mpi(MPI_Init(nullptr, nullptr), "MPI_Init");
  int status = 1;
  job j;
  j.mpi = true;
  try {
    job::check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &j.rank), "MPI_Comm_rank");
    job::check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &j.procs), "MPI_Comm_size");
    // The GPU of this process: its rank among the processes of its host.
    MPI_Comm node = MPI_COMM_NULL;
    job::check_mpi(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
    int local = 0;
    job::check_mpi(MPI_Comm_rank(node, &local), "MPI_Comm_rank");
    MPI_Comm_free(&node);
    int count = 0;
    DIST_CUDA(cudaGetDeviceCount(&count));
    if (count == 0) throw scankit::error("no visible GPU on this host");
    // Where the launcher shows each process only its own GPUs, the rank among them wraps
    // around (two processes on one GPU are NCCL's error to report).
    const int device = local % count;
    DIST_CUDA(cudaSetDevice(device));
    {
      sd::mpi_communicator mpi(MPI_COMM_WORLD);
      auto comm = sd::nccl_from_mpi(mpi, device);
      auto cx = make_context(o, j, comm);
      std::string devices = device_names(comm);
      if (j.printer()) devices = cat("rank 0 on ", devices);
      status = run(cx, o, devices);
    }
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "scankit: error on rank " << j.rank << ": " << e.what() << "\n";
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
#endif
}

}  // namespace scankit::tools
