// The NCCL communicator of the distributed primitives on GPU ranks (device memory; the calls
// are enqueued on each rank's stream, the local work runs on scankit's CUDA backend).
//
// One process may drive one GPU (one rank; started by mpirun or any launcher) or several GPUs
// of its host (one rank per GPU). A communicator holds the process's local ranks, each a GPU
// with its NCCL communicator and its stream:
//
//   auto comm = scankit::dist::nccl_communicator::all_devices({0, 1});        // one process, 2 GPUs
//   auto comm = scankit::dist::nccl_communicator::from_unique_id(id, p, r, dev); // one rank per process
//   auto comm = scankit::dist::nccl_communicator::adopt(existing, stream);      // e.g. from PyTorch
//   auto comm = scankit::dist::nccl_from_mpi(mpi, device);   // scankit/dist/nccl_mpi.hpp
//
// Every NCCL and CUDA call is checked (communication_error / cuda_error naming the call). Host
// waits are bounded: they poll the streams and NCCL's asynchronous error state until the work
// is done or the timeout passes; a NCCL error or a timeout aborts the NCCL communicators (a
// kernel waiting for a missing rank would otherwise hold the GPU) and throws; the communicator
// is broken afterwards and every later call throws. Communicators this class creates are
// non-blocking (ncclConfig_t::blocking = 0), so that their set-up is bounded too.
//
// Several threads of one process, each driving its own GPU with its own communicator, need
// CUDA's eager module loading (CUDA_MODULE_LOADING=EAGER in the environment): under lazy
// loading the first launch of a kernel may wait for its whole device, which never finishes
// while a NCCL kernel there waits for a rank that another thread has yet to launch. One thread
// driving several GPUs (all_devices) and one process per GPU need nothing of the kind.
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "scankit/dist/error.hpp"
#include "scankit/error.hpp"

namespace scankit::dist {

namespace detail {

[[noreturn]] inline void throw_cuda_call(cudaError_t e, const char* call, const char* operation) {
  (void)cudaGetLastError();
  throw cuda_error(static_cast<int>(e), std::string(operation) + ": " + call + " failed: " + cudaGetErrorName(e) +
                                            ": " + cudaGetErrorString(e));
}

inline void check_cuda(cudaError_t e, const char* call, const char* operation) {
  if (e != cudaSuccess) throw_cuda_call(e, call, operation);
}

inline void check_nccl(ncclResult_t r, ncclComm_t comm, const char* call, const char* operation) {
  if (r == ncclSuccess || r == ncclInProgress) return;
  std::string last = comm != nullptr ? ncclGetLastError(comm) : "";
  throw communication_error(static_cast<int>(r), std::string(operation) + ": " + call + " failed: " +
                                                     ncclGetErrorString(r) + (last.empty() ? "" : " (" + last + ")"));
}

/// Makes `device` current for the scope.
class device_guard {
 public:
  explicit device_guard(int device) {
    check_cuda(cudaGetDevice(&previous_), "cudaGetDevice", "scankit::dist");
    if (device != previous_) check_cuda(cudaSetDevice(device), "cudaSetDevice", "scankit::dist");
  }
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;
  ~device_guard() { cudaSetDevice(previous_); }

 private:
  int previous_ = 0;
};

/// Device memory that only grows (contents are not kept when it does), allocated and freed in
/// stream order on its rank's stream (cudaMallocAsync): a plain cudaFree waits for the whole
/// device, and while a NCCL kernel on it waits for a rank that another thread of this process
/// has yet to launch, that wait never ends.
class device_buffer {
 public:
  device_buffer() = default;
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() {
    if (p_) cudaFreeAsync(p_, stream_);
  }
  /// At least `bytes` bytes on the current device, for work on `stream`.
  void* get(std::size_t bytes, cudaStream_t stream, const char* operation) {
    if (bytes <= bytes_ && p_) return p_;
    if (p_) cudaFreeAsync(p_, stream_), p_ = nullptr, bytes_ = 0;
    stream_ = stream;
    check_cuda(cudaMallocAsync(&p_, bytes > 0 ? bytes : 1, stream), "cudaMallocAsync", operation);
    bytes_ = bytes;
    return p_;
  }
  template <class T>
  T* get(std::int64_t count, cudaStream_t stream, const char* operation) {
    return static_cast<T*>(get(static_cast<std::size_t>(count) * sizeof(T), stream, operation));
  }

 private:
  void* p_ = nullptr;
  std::size_t bytes_ = 0;
  cudaStream_t stream_ = nullptr;
};

/// Pinned host memory that only grows (the host end of the small exchanges: pinned, so that the
/// copies are asynchronous and the host's wait for them stays bounded). Communicators allocate
/// 1 MiB per rank up front, since allocating pinned memory waits for the device; it grows only
/// for sorts of more than about 40,000 samples in all (ranks times samples per rank).
class host_buffer {
 public:
  host_buffer() = default;
  host_buffer(const host_buffer&) = delete;
  host_buffer& operator=(const host_buffer&) = delete;
  ~host_buffer() {
    if (p_) cudaFreeHost(p_);
  }
  template <class T>
  T* get(std::int64_t count, const char* operation) {
    const auto bytes = static_cast<std::size_t>(count) * sizeof(T);
    if (bytes > bytes_ || !p_) {
      if (p_) cudaFreeHost(p_), p_ = nullptr, bytes_ = 0;
      check_cuda(cudaHostAlloc(&p_, bytes > 0 ? bytes : 1, cudaHostAllocPortable), "cudaHostAlloc", operation);
      bytes_ = bytes;
    }
    return static_cast<T*>(p_);
  }

 private:
  void* p_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace detail

namespace detail {
/// A stream for work that overlaps the rank's stream (the radix sort's exchange), created on
/// first use with the highest priority, so that its kernels get SMs ahead of the blocks of the
/// rank's long kernels.
class side_stream {
 public:
  side_stream() = default;
  side_stream(const side_stream&) = delete;
  side_stream& operator=(const side_stream&) = delete;
  ~side_stream() {
    if (s_) cudaStreamDestroy(s_);
  }
  cudaStream_t get(const char* operation) {
    if (!s_) {
      int least = 0, greatest = 0;
      check_cuda(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange", operation);
      check_cuda(cudaStreamCreateWithPriority(&s_, cudaStreamNonBlocking, greatest), "cudaStreamCreateWithPriority",
                 operation);
    }
    return s_;
  }

 private:
  cudaStream_t s_ = nullptr;
};
}  // namespace detail

/// One rank's shard of a distributed array on the GPU: `size` items at `data` in the rank's
/// device memory. Calls on a communicator that drives several GPUs take one shard per local
/// rank, in local-rank order.
template <class T>
struct device_shard {
  T* data = nullptr;
  std::int64_t size = 0;
};

/// One GPU this process drives: its global rank, device, NCCL communicator and stream, and the
/// scratch memory the primitives use on it (kept between calls).
struct nccl_local_rank {
  int rank = 0;
  int device = 0;
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  /// Device scratch: [0] the call record, [1] the gathered records, the others per primitive.
  std::unique_ptr<detail::device_buffer[]> scratch{new detail::device_buffer[12]};
  std::unique_ptr<detail::host_buffer[]> pinned{new detail::host_buffer[2]};
  std::unique_ptr<detail::side_stream> side{new detail::side_stream};

  /// Scratch slot `slot` with room for `count` T, on this rank's stream.
  template <class T>
  T* buffer(int slot, std::int64_t count, const char* operation) {
    return scratch[slot].get<T>(count, stream, operation);
  }
  void* buffer_bytes(int slot, std::size_t bytes, const char* operation) { return scratch[slot].get(bytes, stream, operation); }
};

/// One phase of a distributed call, as nccl_communicator::last_phases() reports it.
struct phase_time {
  std::string name;  // "local sort", "all-to-all", ... (each primitive's header lists its phases)
  double ms = 0;     // from the phase's first mark to the next one; the largest over the local ranks
  /// Bytes the local rank sent to other ranks in the phase, the largest over the local ranks;
  /// noted by the phases that move the data (the sort's all-to-all), else 0.
  std::int64_t sent_bytes = 0;
};

class nccl_communicator {
 public:
  static constexpr std::chrono::milliseconds default_timeout{std::chrono::minutes(5)};

  /// Adopts NCCL communicators this process already has, one per GPU it drives (in the order
  /// the primitives' shard arguments will follow), with the stream each rank's work goes on.
  /// With `take_ownership` they are destroyed with this object; the streams never are.
  static nccl_communicator adopt(std::span<const ncclComm_t> comms, std::span<const cudaStream_t> streams,
                                 bool take_ownership = false, std::chrono::milliseconds timeout = default_timeout) {
    constexpr const char* where = "scankit::dist::nccl_communicator::adopt";
    if (comms.empty() || comms.size() != streams.size())
      throw invalid_argument(std::string(where) + ": needs one stream per communicator, and at least one");
    nccl_communicator c;
    c.timeout_ = timeout;
    c.own_comms_ = take_ownership;
    for (std::size_t i = 0; i < comms.size(); ++i) {
      auto& l = c.local_.emplace_back();
      l.comm = comms[i];
      l.stream = streams[i];
      detail::check_nccl(ncclCommUserRank(l.comm, &l.rank), l.comm, "ncclCommUserRank", where);
      detail::check_nccl(ncclCommCuDevice(l.comm, &l.device), l.comm, "ncclCommCuDevice", where);
      int count = 0;
      detail::check_nccl(ncclCommCount(l.comm, &count), l.comm, "ncclCommCount", where);
      c.reserve_pinned(l, where);
      if (i > 0 && count != c.size_) throw invalid_argument(std::string(where) + ": communicators of different sizes");
      c.size_ = count;
    }
    return c;
  }

  static nccl_communicator adopt(ncclComm_t comm, cudaStream_t stream, bool take_ownership = false,
                                 std::chrono::milliseconds timeout = default_timeout) {
    return adopt(std::span(&comm, 1), std::span(&stream, 1), take_ownership, timeout);
  }

  /// One process driving `devices` (all visible GPUs when empty) as ranks 0, 1, ...
  /// (ncclCommInitAll); a stream is created on each.
  static nccl_communicator all_devices(std::vector<int> devices = {}, std::chrono::milliseconds timeout = default_timeout) {
    constexpr const char* where = "scankit::dist::nccl_communicator::all_devices";
    if (devices.empty()) {
      int n = 0;
      detail::check_cuda(cudaGetDeviceCount(&n), "cudaGetDeviceCount", where);
      for (int d = 0; d < n; ++d) devices.push_back(d);
    }
    if (devices.empty()) throw no_device_error(std::string(where) + ": no GPU");
    std::vector<ncclComm_t> comms(devices.size());
    detail::check_nccl(ncclCommInitAll(comms.data(), static_cast<int>(devices.size()), devices.data()), nullptr,
                       "ncclCommInitAll", where);
    nccl_communicator c;
    c.timeout_ = timeout;
    c.own_comms_ = true;
    c.size_ = static_cast<int>(devices.size());
    for (std::size_t i = 0; i < devices.size(); ++i) {
      auto& l = c.local_.emplace_back();
      l.comm = comms[i], l.rank = static_cast<int>(i), l.device = devices[i];
    }
    c.create_streams(where);
    return c;
  }

  /// Rank `rank` of a job of `ranks` processes that share `id` (ncclGetUniqueId on one rank,
  /// passed to the others by the launcher's means; scankit/dist/nccl_mpi.hpp does it over MPI),
  /// on GPU `device`, with a stream created on it. The set-up waits at most `timeout` for the
  /// other ranks.
  static nccl_communicator from_unique_id(const ncclUniqueId& id, int ranks, int rank, int device,
                                          std::chrono::milliseconds timeout = default_timeout) {
    constexpr const char* where = "scankit::dist::nccl_communicator::from_unique_id";
    nccl_communicator c;
    c.timeout_ = timeout;
    c.own_comms_ = true;
    c.size_ = ranks;
    auto& l = c.local_.emplace_back();
    l.rank = rank, l.device = device;
    {
      detail::device_guard g(device);
      ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
      config.blocking = 0;
      detail::check_nccl(ncclCommInitRankConfig(&l.comm, ranks, id, rank, &config), l.comm, "ncclCommInitRankConfig",
                         where);
    }
    c.settle("ncclCommInitRankConfig", where);
    c.create_streams(where);
    return c;
  }

  nccl_communicator(const nccl_communicator&) = delete;
  nccl_communicator& operator=(const nccl_communicator&) = delete;
  nccl_communicator(nccl_communicator&& o) noexcept { swap(o); }
  nccl_communicator& operator=(nccl_communicator&& o) noexcept {
    if (this != &o) {
      release();
      swap(o);
    }
    return *this;
  }
  ~nccl_communicator() { release(); }

  /// Ranks over all processes.
  int size() const noexcept { return size_; }
  /// GPUs (ranks) this process drives.
  int local_count() const noexcept { return static_cast<int>(local_.size()); }
  nccl_local_rank& local(int i) { return local_[static_cast<std::size_t>(i)]; }
  const nccl_local_rank& local(int i) const { return local_[static_cast<std::size_t>(i)]; }

  std::chrono::milliseconds timeout() const noexcept { return timeout_; }
  void set_timeout(std::chrono::milliseconds t) noexcept { timeout_ = t; }
  bool broken() const noexcept { return broken_; }

  void check_usable(const char* operation) const {
    if (broken_)
      throw timeout_error(std::string(operation) + ": the NCCL communicator is unusable after an earlier failure");
  }

  /// Waits for every local stream, at most timeout(); see the top of this file.
  void synchronize(const char* operation = "scankit::dist::nccl_communicator::synchronize") {
    check_usable(operation);
    wait([&] {
      for (auto& l : local_) {
        const cudaError_t e = cudaStreamQuery(l.stream);
        if (e == cudaErrorNotReady) return false;
        if (e != cudaSuccess) {
          broken_ = true;
          detail::throw_cuda_call(e, "cudaStreamQuery", operation);
        }
      }
      return true;
    }, "the streams", operation);
  }

  /// Phase timing, for benchmarks (off by default). While on, every distributed call records a
  /// CUDA event on each local rank's stream where one of its phases begins and where the call's
  /// enqueued work ends; last_phases() turns the events of the latest call into times. Host
  /// waits inside a call belong to the phase they end, since the next phase's work is enqueued
  /// after them. Off, the calls create and record no events. Every rank records or none: the
  /// radix sort runs its exchange in one part while recording (so that each phase is timed
  /// alone), and its ranks must agree on the parts, so the sort's call record carries the flag
  /// and a mismatch fails the call on every rank.
  void record_phases(bool on) {
    if (on && !phases_) phases_ = std::make_unique<phase_log>();
    if (!on) release_phases();
  }
  bool recording_phases() const noexcept { return phases_ != nullptr; }

  /// The phases of the latest call (empty when recording is off, or when that call threw before
  /// its end). Waits (bounded by timeout()) for the call's work on every local rank.
  std::vector<phase_time> last_phases() {
    constexpr const char* where = "scankit::dist::nccl_communicator::last_phases";
    std::vector<phase_time> result;
    if (!phases_ || !phases_->complete || phases_->names.empty()) return result;
    const std::size_t marks = phases_->names.size();  // the last name is the end mark
    check_usable(where);
    wait([&] {
      for (auto& l : local_) {
        detail::device_guard g(l.device);
        const cudaError_t e = cudaEventQuery(phases_->events[static_cast<std::size_t>(&l - local_.data())][marks - 1]);
        if (e == cudaErrorNotReady) return false;
        detail::check_cuda(e, "cudaEventQuery", where);
      }
      return true;
    }, "the phase events", where);
    for (std::size_t m = 0; m + 1 < marks; ++m) {
      phase_time t;
      t.name = phases_->names[m];
      for (std::size_t i = 0; i < local_.size(); ++i) {
        detail::device_guard g(local_[i].device);
        float ms = 0;
        detail::check_cuda(cudaEventElapsedTime(&ms, phases_->events[i][m], phases_->events[i][m + 1]), "cudaEventElapsedTime",
                           where);
        t.ms = std::max(t.ms, static_cast<double>(ms));
        t.sent_bytes = std::max(t.sent_bytes, phases_->bytes[i][m]);
      }
      result.push_back(std::move(t));
    }
    return result;
  }

  /// For the primitives (when recording): `first` starts a call's log; each mark records an
  /// event on every local rank's stream where phase `name` begins; end_phases() marks where the
  /// call's work ends; note_sent_bytes adds to the current phase's bytes of local rank `local`.
  void mark_phase(const char* name, bool first = false) {
    if (!phases_) return;
    auto& log = *phases_;
    if (first) log.names.clear(), log.complete = false;
    const std::size_t m = log.names.size();
    log.names.emplace_back(name ? name : "");
    log.events.resize(local_.size());
    log.bytes.resize(local_.size());
    for (std::size_t i = 0; i < local_.size(); ++i) {
      auto& l = local_[i];
      detail::device_guard g(l.device);
      auto& ev = log.events[i];
      if (ev.size() <= m) {
        ev.push_back(nullptr);
        detail::check_cuda(cudaEventCreate(&ev.back()), "cudaEventCreate", "scankit::dist phase timing");
      }
      log.bytes[i].resize(m + 1);
      log.bytes[i][m] = 0;
      detail::check_cuda(cudaEventRecord(ev[m], l.stream), "cudaEventRecord", "scankit::dist phase timing");
    }
  }
  void end_phases() {
    if (!phases_) return;
    mark_phase("");
    phases_->complete = true;
  }
  void note_sent_bytes(int local, std::int64_t bytes) noexcept {
    if (!phases_ || phases_->names.empty()) return;
    auto& b = phases_->bytes[static_cast<std::size_t>(local)];
    if (!b.empty()) b.back() += bytes;
  }

  /// After NCCL calls on non-blocking communicators: waits until every local communicator has
  /// finished enqueueing (ncclCommGetAsyncError leaves ncclInProgress), at most timeout().
  void settle(const char* call, const char* operation) {
    wait([&] {
      for (auto& l : local_) {
        ncclResult_t r = ncclSuccess;
        detail::check_nccl(ncclCommGetAsyncError(l.comm, &r), l.comm, "ncclCommGetAsyncError", operation);
        if (r == ncclInProgress) return false;
      }
      return true;
    }, call, operation);
  }

 private:
  nccl_communicator() = default;

  /// The events of the latest call: events[local rank][mark], one name per mark (the last is
  /// the end); events are kept for the next call.
  struct phase_log {
    std::vector<std::string> names;
    std::vector<std::vector<cudaEvent_t>> events;
    std::vector<std::vector<std::int64_t>> bytes;
    bool complete = false;
  };

  void release_phases() noexcept {
    if (!phases_) return;
    for (std::size_t i = 0; i < phases_->events.size() && i < local_.size(); ++i) {
      int previous = 0;
      cudaGetDevice(&previous);
      cudaSetDevice(local_[i].device);
      for (auto e : phases_->events[i])
        if (e) cudaEventDestroy(e);
      cudaSetDevice(previous);
    }
    phases_.reset();
  }

  /// Polls done() until it holds; checks NCCL's asynchronous errors meanwhile; aborts and
  /// throws on an error or after the timeout. The first milliseconds of a wait poll with only a
  /// yield between polls, as the waits inside a call are as long as the GPU work they wait for
  /// (a local reduce or sort) and a short sleep oversleeps by the timer's slack, which the
  /// call would pay at every exchange; a longer wait then
  /// sleeps between polls, to leave the core to others.
  template <class Done>
  void wait(Done done, const char* what, const char* operation) {
    using clock = std::chrono::steady_clock;
    const auto start = clock::now(), deadline = start + timeout_;
    constexpr auto spin_for = std::chrono::milliseconds(20);
    for (;;) {
      for (auto& l : local_) {
        ncclResult_t r = ncclSuccess;
        const ncclResult_t q = ncclCommGetAsyncError(l.comm, &r);
        if (q != ncclSuccess || (r != ncclSuccess && r != ncclInProgress)) {
          const std::string last = ncclGetLastError(l.comm);
          abort_all();
          throw communication_error(static_cast<int>(q != ncclSuccess ? q : r),
                                    std::string(operation) + ": NCCL reported an error on rank " + std::to_string(l.rank) +
                                        " while waiting for " + what + ": " + ncclGetErrorString(q != ncclSuccess ? q : r) +
                                        (last.empty() ? "" : " (" + last + ")"));
        }
      }
      if (done()) return;
      if (clock::now() > deadline) {
        abort_all();
        throw timeout_error(std::string(operation) + ": waited " + std::to_string(timeout_.count()) + " ms for " + what +
                            "; another rank failed or did not make the matching call (the NCCL communicators are aborted)");
      }
      if (clock::now() - start < spin_for) std::this_thread::yield();
      else std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }

  void abort_all() noexcept {
    broken_ = true;
    for (auto& l : local_)
      if (l.comm) ncclCommAbort(l.comm), l.comm = nullptr;
  }

  void create_streams(const char* where) {
    own_streams_ = true;
    for (auto& l : local_) {
      detail::device_guard g(l.device);
      detail::check_cuda(cudaStreamCreateWithFlags(&l.stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags", where);
      reserve_pinned(l, where);
    }
  }

  static void reserve_pinned(nccl_local_rank& l, const char* where) {
    for (int b = 0; b < 2; ++b) l.pinned[b].get<unsigned char>(std::int64_t{1} << 20, where);
  }

  void swap(nccl_communicator& o) noexcept {
    std::swap(local_, o.local_);
    std::swap(size_, o.size_);
    std::swap(timeout_, o.timeout_);
    std::swap(own_comms_, o.own_comms_);
    std::swap(own_streams_, o.own_streams_);
    std::swap(broken_, o.broken_);
    std::swap(phases_, o.phases_);
  }

  void release() noexcept {
    release_phases();
    for (auto& l : local_) {
      int previous = 0;
      cudaGetDevice(&previous);
      cudaSetDevice(l.device);
      if (l.stream && own_streams_) cudaStreamSynchronize(l.stream);
      l.scratch.reset();
      l.pinned.reset();
      l.side.reset();
      if (l.stream && own_streams_) cudaStreamDestroy(l.stream);
      if (l.comm && own_comms_) ncclCommDestroy(l.comm);
      cudaSetDevice(previous);
    }
    local_.clear();
  }

  std::vector<nccl_local_rank> local_;
  int size_ = 0;
  std::chrono::milliseconds timeout_ = default_timeout;
  bool own_comms_ = false;
  bool own_streams_ = false;
  bool broken_ = false;
  std::unique_ptr<phase_log> phases_;  // null: phase timing off
};

}  // namespace scankit::dist
