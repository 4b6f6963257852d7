// Errors of the distributed primitives. Every failure of a distributed call surfaces as one of
// these (or as scankit::invalid_argument / scankit::cuda_error for a bad argument or a failed
// CUDA call), with a message that names the MPI, NCCL or CUDA call, the rank and the operation.
#pragma once

#include <string>

#include "scankit/error.hpp"

namespace scankit::dist {

/// An MPI or NCCL call failed. `code()` is the library's error code (an MPI error class or an
/// ncclResult_t).
class communication_error : public error {
 public:
  communication_error(int code, const std::string& what) : error(what), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

/// The ranks called different operations, or the same operation with different element
/// types, operators or parameters. Every rank of the call throws it (each sees the same
/// exchanged call records), so no rank is left waiting.
class mismatch_error : public error {
 public:
  using error::error;
};

/// Another rank of the same call failed before the exchange (a bad argument, an exception
/// from a predicate or operator); that rank throws its own error, the others throw this one,
/// naming it. Outputs are unspecified.
class remote_error : public error {
 public:
  using error::error;
};

/// A host wait on the ranks' exchange ran past the communicator's timeout: a rank failed,
/// hangs, or did not make the matching call. The communicator is unusable afterwards (every
/// later call throws); the usual reaction is to abort the job (MPI_Abort).
class timeout_error : public error {
 public:
  using error::error;
};

}  // namespace scankit::dist
