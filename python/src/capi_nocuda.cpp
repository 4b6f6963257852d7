// The GPU backend of a build without CUDA: every GPU call reports that there is none.
#include "capi_internal.hpp"

namespace scankit::capi::gpu {
namespace {
[[noreturn]] void none() {
  throw scankit::no_device_error(
      "this scankit was built without CUDA (no nvcc at build time): GPU arrays "
      "cannot run; NumPy arrays run on the CPU");
}
}  // namespace

bool built() {
  return false;
}
int device_count() {
  return 0;
}
std::int64_t scan_workspace(int, int, std::int64_t, std::int64_t, std::int64_t,
                            const std::string&) {
  none();
}
void scan(int, int, int, bool, const void*, const void*, void*, std::int64_t, std::int64_t,
          std::int64_t, const std::string&, void*, std::int64_t, std::uintptr_t, bool) {
  none();
}
std::int64_t sort_workspace(int, int, std::int64_t, int, bool, const std::string&) {
  none();
}
void sort(int, int, const void*, void*, const void*, void*, int, bool, bool, std::int64_t, bool,
          const std::string&, void*, std::int64_t, std::uintptr_t) {
  none();
}
std::int64_t sort_rows_workspace(int, int, std::int64_t, std::int64_t, bool) { none(); }
void sort_rows(int, int, const void*, void*, std::int64_t*, std::int64_t, std::int64_t, bool, void*, std::int64_t,
               std::uintptr_t) {
  none();
}
std::int64_t topk_workspace(int, int, std::int64_t, std::int64_t, std::int64_t) {
  none();
}
void topk(int, int, const void*, void*, std::int64_t*, std::int64_t, std::int64_t, std::int64_t, bool,
          void*, std::int64_t, std::uintptr_t) {
  none();
}
std::int64_t compact_workspace(int, std::int64_t, int, const std::string&) {
  none();
}
void select_flagged(int, int, const void*, const std::uint8_t*, void*, std::int64_t, std::int64_t*,
                    const std::string&, void*, std::int64_t, std::uintptr_t) {
  none();
}
void select_if(int, int, int, const void*, bool, const void*, void*, std::int64_t, std::int64_t*,
               const std::string&, void*, std::int64_t, std::uintptr_t) {
  none();
}
void partition(int, int, int, const void*, bool, const void*, void*, std::int64_t, std::int64_t*,
               const std::string&, void*, std::int64_t, std::uintptr_t) {
  none();
}
void nonzero(int, int, const void*, std::int64_t*, std::int64_t, std::int64_t*, const std::string&,
             void*, std::int64_t, std::uintptr_t) {
  none();
}
void unique(int, int, const void*, void*, std::int64_t*, std::int64_t, bool, std::int64_t*,
            const std::string&, void*, std::int64_t, std::uintptr_t) {
  none();
}
std::int64_t read_count(int, const std::int64_t*, std::uintptr_t) {
  none();
}
void fill_tail(int, int, void*, const std::int64_t*, std::int64_t, const void*, std::uintptr_t) {
  none();
}
void histogram_even(int, int, const void*, std::int64_t, std::uint64_t*, std::int64_t, double,
                    double, int, const std::string&, std::uintptr_t) {
  none();
}
void histogram_edges(int, int, const void*, std::int64_t, std::uint64_t*, const void*, std::int64_t,
                     const std::string&, std::uintptr_t) {
  none();
}
void bincount_capped(int, int, const void*, std::int64_t, std::uint64_t*, std::int64_t,
                     const std::string&, std::uintptr_t, std::int64_t*) {
  none();
}
void bincount(int, int, const void*, std::int64_t, std::uint64_t*, std::int64_t, const std::string&,
              std::uintptr_t) {
  none();
}
std::int64_t reduce_workspace(int, int, int) {
  none();
}
void reduce(int, int, int, const void*, std::int64_t, void*, void*, std::int64_t, std::uintptr_t) {
  none();
}
std::int64_t segments_workspace(int, std::int64_t, std::int64_t, int) {
  none();
}
void segmented_reduce(int, int, int, bool, const void*, std::int64_t, const std::int64_t*,
                      std::int64_t, const void*, const void*, void*, int, void*, std::int64_t,
                      std::uintptr_t) {
  none();
}
void segmented_scan(int, int, int, bool, const void*, const void*, void*, std::int64_t,
                    const std::int64_t*, std::int64_t, const std::uint8_t*, bool, void*,
                    std::int64_t, std::uintptr_t) {
  none();
}
void scan_by_key(int, int, int, bool, const void*, const void*, int, const void*, void*,
                 std::int64_t, void*, std::int64_t, std::uintptr_t) {
  none();
}
void reduce_by_key(int, int, int, const void*, int, const void*, std::int64_t, void*, void*,
                   std::int64_t*, void*, std::int64_t, std::uintptr_t) {
  none();
}
}  // namespace scankit::capi::gpu
