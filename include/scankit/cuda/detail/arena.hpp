// Typed arrays carved out of the caller's workspace.
#pragma once

#include <cstddef>
#include <cstdint>

#include "scankit/cuda/detail/math.hpp"
#include "scankit/error.hpp"

namespace scankit::cuda::detail {

/// Carves typed arrays out of the caller's workspace. The size was checked up front by the
/// entry point, so running out here is a library bug and reported as such.
class arena {
 public:
  arena(void* base, std::size_t bytes) : base_(static_cast<char*>(base)), bytes_(bytes) {}
  template <class T>
  T* take(std::int64_t count) {
    std::size_t need = align_up(static_cast<std::size_t>(count) * sizeof(T));
    if (used_ + need > bytes_)
      throw error("scankit internal error: workspace estimate too small");
    T* p = reinterpret_cast<T*>(base_ + used_);
    used_ += need;
    return p;
  }

 private:
  char* base_;
  std::size_t bytes_;
  std::size_t used_ = 0;
};

}  // namespace scankit::cuda::detail
