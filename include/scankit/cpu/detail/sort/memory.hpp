// The CPU sort's memory: uninitialised, line-aligned buffers (on huge pages when large) and
// the blocks a sort_workspace keeps between calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace scankit::cpu::detail {

/// Uninitialised storage for n trivially copyable T (values need not be default constructible),
/// on a 64-byte boundary so that the scatter's output lines start with the array. Buffers of
/// 4 MiB and more start on a 2 MiB boundary and ask Linux for transparent huge pages: the
/// scatter writes 256 streams per thread, far apart, and 4 KiB pages would cost a TLB miss on
/// almost every output line.
template <class T>
struct raw_buffer {
  static constexpr std::size_t huge_page = std::size_t{2} << 20;
  std::size_t alignment;
  struct free_fn {
    std::size_t alignment;
    void operator()(T* p) const noexcept { ::operator delete(p, std::align_val_t(alignment)); }
  };
  std::unique_ptr<T, free_fn> p;
  explicit raw_buffer(std::int64_t n)
      : alignment(static_cast<std::size_t>(n) * sizeof(T) >= 2 * huge_page ? huge_page
                  : alignof(T) > 64                                        ? alignof(T)
                                                                           : 64),
        p(allocate(n, alignment), free_fn{alignment}) {}
  T* get() const { return p.get(); }

 private:
  static T* allocate(std::int64_t n, std::size_t alignment) {
    if (n <= 0) return nullptr;
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
    void* m = ::operator new(bytes, std::align_val_t(alignment));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (alignment == huge_page) ::madvise(m, bytes & ~(huge_page - 1), MADV_HUGEPAGE);  // a hint
#endif
    return static_cast<T*>(m);
  }
};

/// Bytes rounded up to a whole number of 64-byte lines: the arrays carved out of one block
/// each start on a line.
constexpr std::size_t line_round(std::size_t bytes) { return (bytes + 63) & ~std::size_t{63}; }

/// A block that only grows: at_least(b) returns at least b bytes on a 64-byte boundary, the
/// same block while it is big enough (what it held is then kept), else a new one.
struct growing_block {
  raw_buffer<std::byte> p{0};
  std::size_t bytes = 0;
  std::byte* at_least(std::size_t b) {
    if (b > bytes) {
      p = raw_buffer<std::byte>(0);  // free the old block before the new one
      p = raw_buffer<std::byte>(static_cast<std::int64_t>(b));
      bytes = b;
    }
    return p.get();
  }
};

}  // namespace scankit::cpu::detail
