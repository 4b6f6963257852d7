// How the C ABIs (libscankit_capi, libscankit_dist_capi) turn exceptions into status codes.
#pragma once

#include <exception>
#include <new>
#include <stdexcept>
#include <string>

#include "capi.h"
#include "scankit/dist/error.hpp"
#include "scankit/error.hpp"

namespace scankit::capi {

/// An element type a function does not take (SK_ETYPE: TypeError in Python).
class type_error : public scankit::error {
 public:
  using error::error;
};

/// A kept workspace offered on a stream that is capturing a CUDA graph (SK_ECAPTURING).
class capturing_error : public scankit::error {
 public:
  using error::error;
};

/// Runs f, turning every exception into a status code and its message into `last_error`.
template <class F>
int guarded(std::string& last_error, F&& f) noexcept {
  try {
    f();
    return SK_OK;
  } catch (const type_error& e) {
    last_error = e.what();
    return SK_ETYPE;
  } catch (const capturing_error& e) {
    last_error = e.what();
    return SK_ECAPTURING;
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

/// guarded() for the collective calls (capi_dist.h): a call the ranks did not agree on is a bad
/// argument (SK_EVALUE), on every rank.
template <class F>
int guarded_collective(std::string& last_error, F&& f) noexcept {
  return guarded(last_error, [&] {
    try {
      f();
    } catch (const scankit::dist::mismatch_error& e) {
      throw scankit::invalid_argument(e.what());
    }
  });
}

}  // namespace scankit::capi
