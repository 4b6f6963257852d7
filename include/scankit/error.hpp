// Errors: every failure surfaces as an exception whose message names what went wrong.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace scankit {

/// Base class of every error scankit throws.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A bad argument: negative or too-large size, null pointer, too little workspace, unknown name.
class invalid_argument : public error {
 public:
  using error::error;
};

/// A CUDA runtime call or kernel launch failed. `code()` is the cudaError_t value.
class cuda_error : public error {
 public:
  cuda_error(int code, const std::string& what) : error(what), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

/// No usable GPU (no driver, no device, or the library was built without CUDA).
class no_device_error : public error {
 public:
  using error::error;
};

namespace detail {

/// Largest element count any scankit call accepts (2^62: byte offsets of 8-byte items fit int64).
inline constexpr std::int64_t max_elements = std::int64_t{1} << 62;

inline void check_size(std::int64_t n, const char* where) {
  if (n < 0)
    throw invalid_argument(std::string(where) + ": negative element count " + std::to_string(n));
  if (n > max_elements)
    throw invalid_argument(std::string(where) + ": element count " + std::to_string(n) +
                           " exceeds the maximum of 2^62");
}

inline void check_pointer(const void* p, std::int64_t n, const char* what, const char* where) {
  if (p == nullptr && n > 0)
    throw invalid_argument(std::string(where) + ": " + what + " is a null pointer but n = " +
                           std::to_string(n));
}

}  // namespace detail
}  // namespace scankit
