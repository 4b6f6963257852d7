// The MPI backend's exchanges: every one a nonblocking collective polled with a deadline (the
// bounded host wait), every MPI call checked.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "scankit/dist/detail/plan.hpp"
#include "scankit/dist/detail/signature.hpp"
#include "scankit/dist/error.hpp"
#include "scankit/dist/mpi_communicator.hpp"

namespace scankit::dist::detail::mpi {

/// Throws invalid_argument for a bad size or an output shorter than the input.
inline void check_output(std::int64_t n, std::int64_t out_size, const char* where) {
  scankit::detail::check_size(n, where);
  if (out_size < n)
    throw invalid_argument(std::string(where) + ": output of " + std::to_string(out_size) + " items is shorter than the " +
                           std::to_string(n) + " input items");
}

/// Polls `requests` until all have completed. Past the communicator's timeout it hands the
/// requests and `keep` (the buffers they use) to the communicator, which is then broken, and
/// throws timeout_error. Polling yields the core between tests and then sleeps briefly: ranks
/// may share cores, and a spinning rank would starve the one it waits for.
inline void wait_all(mpi_communicator& comm, std::vector<MPI_Request>& requests,
                     std::vector<std::shared_ptr<void>> keep, const char* call, const char* operation) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + comm.timeout();
  for (int spins = 0;; ++spins) {
    int done = 0;
    comm.check(MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE),
               "MPI_Testall", operation);
    if (done) return;
    if (clock::now() > deadline) {
      comm.abandon(requests, std::move(keep));
      throw timeout_error(std::string(operation) + ": rank " + std::to_string(comm.rank()) + " waited " +
                          std::to_string(comm.timeout().count()) + " ms for " + call +
                          " to complete; another rank failed or did not make the matching call");
    }
    if (spins < 64) std::this_thread::yield();
    else std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

inline void wait_one(mpi_communicator& comm, MPI_Request& request, std::vector<std::shared_ptr<void>> keep,
                     const char* call, const char* operation) {
  std::vector<MPI_Request> r{request};
  wait_all(comm, r, std::move(keep), call, operation);
  request = r[0];
}

/// Every rank's `count` items of `mine` (the same count on every rank), rank-major.
template <class T>
std::vector<T> allgather(mpi_communicator& comm, const T* mine, std::size_t count, const char* operation) {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::size_t bytes = count * sizeof(T);
  if (bytes > static_cast<std::size_t>(INT_MAX))
    throw invalid_argument(std::string(operation) + ": all-gather block of " + std::to_string(bytes) +
                           " bytes is larger than an MPI count");
  auto send = std::make_shared<std::vector<T>>(mine, mine + count);
  auto recv = std::make_shared<std::vector<T>>(count * static_cast<std::size_t>(comm.size()));
  MPI_Request req = MPI_REQUEST_NULL;
  comm.check(MPI_Iallgather(send->data(), static_cast<int>(bytes), MPI_BYTE, recv->data(), static_cast<int>(bytes),
                            MPI_BYTE, comm.get(), &req),
             "MPI_Iallgather", operation);
  wait_one(comm, req, {send, recv}, "MPI_Iallgather", operation);
  return std::move(*recv);
}

/// Every rank's `counts[r]` items (counts known to every rank, this rank's `mine`), rank-major.
/// Throws on every rank alike where they do not fit one MPI message.
template <class T>
std::vector<T> allgatherv(mpi_communicator& comm, const T* mine, const std::vector<std::int64_t>& counts,
                          const char* operation) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::int64_t items = 0;
  for (std::int64_t c : counts) items += c;
  if (static_cast<double>(items) * sizeof(T) > static_cast<double>(INT_MAX))
    throw invalid_argument(std::string(operation) + ": all-gather of " + std::to_string(items) + " items of " +
                           std::to_string(sizeof(T)) + " bytes is larger than an MPI count");
  std::vector<int> bytes(counts.size()), displs(counts.size());
  int at = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    bytes[r] = static_cast<int>(counts[r] * static_cast<std::int64_t>(sizeof(T)));
    displs[r] = at;
    at += bytes[r];
  }
  const auto own = static_cast<std::size_t>(counts[static_cast<std::size_t>(comm.rank())]);
  auto send = std::make_shared<std::vector<T>>(mine, mine + own);
  auto recv = std::make_shared<std::vector<T>>(static_cast<std::size_t>(items));
  auto keep_bytes = std::make_shared<std::vector<int>>(std::move(bytes));
  auto keep_displs = std::make_shared<std::vector<int>>(std::move(displs));
  MPI_Request req = MPI_REQUEST_NULL;
  comm.check(MPI_Iallgatherv(send->data(), (*keep_bytes)[static_cast<std::size_t>(comm.rank())], MPI_BYTE,
                             recv->data(), keep_bytes->data(), keep_displs->data(), MPI_BYTE, comm.get(), &req),
             "MPI_Iallgatherv", operation);
  wait_one(comm, req, {send, recv, keep_bytes, keep_displs}, "MPI_Iallgatherv", operation);
  return std::move(*recv);
}

/// Every rank's call record, checked (check_records): the first exchange of every operation.
/// `local` is the failure of this rank's work before the exchange, if any.
inline std::vector<call_record> exchange_records(mpi_communicator& comm, const call_record& mine,
                                                 const std::exception_ptr& local, const char* operation) {
  comm.check_usable(operation);
  auto all = allgather(comm, &mine, 1, operation);
  check_records(all.data(), comm.size(), mine.signature, comm.rank(), local, operation);
  return all;
}

/// Every rank's payload, after the records are checked. A payload that fits the call record
/// travels in it (one collective); a larger one follows in a second all-gather.
template <class P>
std::vector<P> exchange(mpi_communicator& comm, std::uint64_t sig, const P& payload, const std::exception_ptr& local,
                        const char* operation) {
  static_assert(std::is_trivially_copyable_v<P>);
  std::vector<P> out;
  if constexpr (fits_record_v<P>) {
    const auto all = exchange_records(comm, make_record(sig, payload, local != nullptr), local, operation);
    out.reserve(all.size());
    for (const auto& r : all) out.push_back(record_payload<P>(r));
  } else {
    exchange_records(comm, make_record(sig, std::uint64_t{sizeof(P)}, local != nullptr), local, operation);
    out = allgather(comm, &payload, 1, operation);
  }
  return out;
}

/// A datatype of one T (contiguous bytes), freed at scope exit (MPI keeps it alive for the
/// operations started with it).
class item_type {
 public:
  item_type(mpi_communicator& comm, std::size_t bytes, const char* operation) {
    comm.check(MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &t_), "MPI_Type_contiguous", operation);
    comm.check(MPI_Type_commit(&t_), "MPI_Type_commit", operation);
  }
  item_type(const item_type&) = delete;
  item_type& operator=(const item_type&) = delete;
  ~item_type() { MPI_Type_free(&t_); }
  MPI_Datatype get() const { return t_; }

 private:
  MPI_Datatype t_ = MPI_DATATYPE_NULL;
};

/// Largest message of the point-to-point form of alltoallv.
inline constexpr std::int64_t max_message_bytes = std::int64_t{1} << 30;

/// Sends send[piece] to each peer and receives each peer's piece into recv[piece] (pieces
/// indexed by peer, in items). MPI_Ialltoallv when every count and displacement fits an int;
/// otherwise nonblocking sends and receives of at most 1 GiB each.
template <class T>
void alltoallv(mpi_communicator& comm, const T* send, const std::vector<piece>& sends, T* recv,
               const std::vector<piece>& recvs, const char* operation) {
  static_assert(std::is_trivially_copyable_v<T>);
  const int p = comm.size();
  bool fits = true;
  for (int q = 0; q < p; ++q) {
    const auto& s = sends[static_cast<std::size_t>(q)];
    const auto& r = recvs[static_cast<std::size_t>(q)];
    fits = fits && s.offset + s.count <= INT_MAX && r.offset + r.count <= INT_MAX;
  }
  if (fits) {
    auto counts = std::make_shared<std::vector<int>>(4 * static_cast<std::size_t>(p));
    int* sc = counts->data();
    int* sd = sc + p;
    int* rc = sd + p;
    int* rd = rc + p;
    for (int q = 0; q < p; ++q) {
      const auto& s = sends[static_cast<std::size_t>(q)];
      const auto& r = recvs[static_cast<std::size_t>(q)];
      sc[q] = static_cast<int>(s.count), sd[q] = static_cast<int>(s.offset);
      rc[q] = static_cast<int>(r.count), rd[q] = static_cast<int>(r.offset);
    }
    item_type type(comm, sizeof(T), operation);
    MPI_Request req = MPI_REQUEST_NULL;
    comm.check(MPI_Ialltoallv(send, sc, sd, type.get(), recv, rc, rd, type.get(), comm.get(), &req),
               "MPI_Ialltoallv", operation);
    wait_one(comm, req, {counts}, "MPI_Ialltoallv", operation);
    return;
  }
  // Point to point: message k of a piece carries its bytes [k * max, (k + 1) * max), tag k.
  std::vector<MPI_Request> reqs;
  auto post = [&](bool is_send, int peer, const piece& pc) {
    const std::int64_t bytes = pc.count * static_cast<std::int64_t>(sizeof(T));
    auto* base = reinterpret_cast<unsigned char*>(is_send ? const_cast<T*>(send) : recv) +
                 pc.offset * static_cast<std::int64_t>(sizeof(T));
    for (std::int64_t k = 0, at = 0; at < bytes; ++k, at += max_message_bytes) {
      const int len = static_cast<int>(std::min(max_message_bytes, bytes - at));
      MPI_Request r = MPI_REQUEST_NULL;
      if (is_send)
        comm.check(MPI_Isend(base + at, len, MPI_BYTE, peer, static_cast<int>(k), comm.get(), &r), "MPI_Isend", operation);
      else
        comm.check(MPI_Irecv(base + at, len, MPI_BYTE, peer, static_cast<int>(k), comm.get(), &r), "MPI_Irecv", operation);
      reqs.push_back(r);
    }
  };
  for (int q = 0; q < p; ++q) post(false, q, recvs[static_cast<std::size_t>(q)]);
  for (int q = 0; q < p; ++q) post(true, q, sends[static_cast<std::size_t>(q)]);
  wait_all(comm, reqs, {}, "MPI_Isend/MPI_Irecv", operation);
}

template <class C>
MPI_Datatype counter_type() {
  static_assert(std::is_same_v<C, std::uint32_t> || std::is_same_v<C, std::uint64_t>);
  return std::is_same_v<C, std::uint32_t> ? MPI_UINT32_T : MPI_UINT64_T;
}

/// data[i] = the sum over ranks of data[i] (wrapping), on every rank.
template <class C>
void allreduce_sum(mpi_communicator& comm, C* data, std::int64_t n, const char* operation) {
  if (n > INT_MAX) throw invalid_argument(std::string(operation) + ": too many counters for one MPI reduction");
  MPI_Request req = MPI_REQUEST_NULL;
  comm.check(MPI_Iallreduce(MPI_IN_PLACE, data, static_cast<int>(n), counter_type<C>(), MPI_SUM, comm.get(), &req),
             "MPI_Iallreduce", operation);
  wait_one(comm, req, {}, "MPI_Iallreduce", operation);
}

/// recv[i] on `root` = the sum over ranks of send[i]; recv is not used elsewhere.
template <class C>
void reduce_sum(mpi_communicator& comm, const C* send, C* recv, std::int64_t n, int root, const char* operation) {
  if (n > INT_MAX) throw invalid_argument(std::string(operation) + ": too many counters for one MPI reduction");
  MPI_Request req = MPI_REQUEST_NULL;
  comm.check(MPI_Ireduce(send, recv, static_cast<int>(n), counter_type<C>(), MPI_SUM, root, comm.get(), &req),
             "MPI_Ireduce", operation);
  wait_one(comm, req, {}, "MPI_Ireduce", operation);
}

}  // namespace scankit::dist::detail::mpi
