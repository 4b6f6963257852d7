// The MPI communicator of the distributed primitives on CPU ranks (host memory; the local
// work runs on scankit's CPU backend, oneTBB).
//
//   MPI_Init(&argc, &argv);
//   {
//     scankit::dist::mpi_communicator comm(MPI_COMM_WORLD);      // collective: duplicates it
//     long total = scankit::dist::inclusive_scan(comm, shard, out);
//   }                                                              // destroyed before MPI_Finalize
//   MPI_Finalize();
//
// The communicator works on its own duplicate of the MPI communicator it is given, so its
// messages never match the application's. Errors on it are returned, not fatal
// (MPI_ERRORS_RETURN), and every MPI call is checked: a failure throws
// dist::communication_error naming the call. Host waits are bounded: every exchange is a
// nonblocking collective polled until it completes or the timeout passes, which throws
// dist::timeout_error (a rank failed or did not make the matching call) and leaves the
// communicator broken: every later call on it throws at once.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "scankit/dist/error.hpp"

namespace scankit::dist {

class mpi_communicator {
 public:
  /// Host waits longer than this throw timeout_error.
  static constexpr std::chrono::milliseconds default_timeout{std::chrono::minutes(5)};

  /// Duplicates `comm` (a collective call over it).
  explicit mpi_communicator(MPI_Comm comm = MPI_COMM_WORLD, std::chrono::milliseconds timeout = default_timeout)
      : timeout_(timeout) {
    check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup", "scankit::dist::mpi_communicator");
    check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler",
          "scankit::dist::mpi_communicator");
    check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank", "scankit::dist::mpi_communicator");
    check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size", "scankit::dist::mpi_communicator");
  }

  mpi_communicator(const mpi_communicator&) = delete;
  mpi_communicator& operator=(const mpi_communicator&) = delete;
  mpi_communicator(mpi_communicator&& o) noexcept { swap(o); }
  mpi_communicator& operator=(mpi_communicator&& o) noexcept {
    if (this != &o) {
      release();
      swap(o);
    }
    return *this;
  }
  ~mpi_communicator() { release(); }

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  /// The duplicate the primitives communicate on.
  MPI_Comm get() const noexcept { return comm_; }

  std::chrono::milliseconds timeout() const noexcept { return timeout_; }
  void set_timeout(std::chrono::milliseconds t) noexcept { timeout_ = t; }

  /// Whether a timed-out exchange left the communicator unusable.
  bool broken() const noexcept { return !abandoned_.empty(); }

  /// Throws communication_error for a failed MPI call (rc != MPI_SUCCESS), naming the call and
  /// the operation it belonged to.
  void check(int rc, const char* call, const char* operation) const {
    if (rc == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING] = {};
    int len = 0, cls = rc;
    MPI_Error_string(rc, text, &len);
    MPI_Error_class(rc, &cls);
    throw communication_error(cls, std::string(operation) + ": " + call + " failed on rank " +
                                       std::to_string(rank_) + ": " + std::string(text, static_cast<std::size_t>(len)));
  }

  /// Throws if a timed-out exchange broke the communicator (every call starts with this).
  void check_usable(const char* operation) const {
    if (broken())
      throw timeout_error(std::string(operation) + ": the communicator of rank " + std::to_string(rank_) +
                          " is unusable after an earlier exchange timed out");
  }

  /// Keeps the requests of an exchange that timed out and the buffers they use: MPI may still
  /// write into them if the missing ranks join later. (Arrays of the caller that a timed-out
  /// exchange was receiving into may be written too: after timeout_error, abort the job.)
  void abandon(const std::vector<MPI_Request>& requests, std::vector<std::shared_ptr<void>> buffers) {
    for (auto r : requests)
      if (r != MPI_REQUEST_NULL) abandoned_.push_back(r);
    for (auto& b : buffers) kept_.push_back(std::move(b));
  }

 private:
  void swap(mpi_communicator& o) noexcept {
    std::swap(comm_, o.comm_);
    std::swap(rank_, o.rank_);
    std::swap(size_, o.size_);
    std::swap(timeout_, o.timeout_);
    std::swap(abandoned_, o.abandoned_);
    std::swap(kept_, o.kept_);
  }
  void release() noexcept {
    if (comm_ == MPI_COMM_NULL) return;
    // A communicator with a timed-out exchange still pending is leaked rather than freed:
    // freeing it, or waiting for the exchange, could block on the rank that failed.
    bool pending = false;
    for (auto& r : abandoned_) {
      int done = 0;
      if (r != MPI_REQUEST_NULL && MPI_Test(&r, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done) pending = true;
    }
    if (!pending) MPI_Comm_free(&comm_);
    comm_ = MPI_COMM_NULL;
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  std::chrono::milliseconds timeout_ = default_timeout;
  std::vector<MPI_Request> abandoned_;
  std::vector<std::shared_ptr<void>> kept_;
};

}  // namespace scankit::dist
