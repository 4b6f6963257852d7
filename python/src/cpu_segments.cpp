// The C ABI's CPU segmented operations: scankit::cpu's segmented reduce and scans and the
// by-key operations, the segments checked first (O(n_segments), so always).
#include <cstring>
#include <string>

#include "capi_internal.hpp"
#include "scankit/cpu/segments.hpp"
#include "scankit/segments.hpp"

namespace scankit::capi::host {
namespace {

scan_kind kind_of(bool exclusive) {
  return exclusive ? scan_kind::exclusive : scan_kind::inclusive;
}

template <class T, class Op>
T init_or_identity(const void* init, const Op& op) {
  return init ? *static_cast<const T*>(init) : op.identity();
}

}  // namespace

void segmented_reduce(int dtype, int op, bool mean, const void* in, std::int64_t n,
                      const std::int64_t* offsets, std::int64_t n_segments, const void* init,
                      const void* empty, void* out, bool covering) {
  const segment_offsets seg{offsets, n_segments};
  if (covering)
    check_covering_offsets_host(seg, n, "segment_reduce");
  else
    check_segments_host(seg, n, "segment_reduce");
  if (n_segments == 0) return;
  visit_types<scan_types>(dtype, "segment_reduce", [&](auto tag) {
    using T = typename decltype(tag)::type;
    visit_segment_op<T>(op, [&](auto m) {
      T* o = static_cast<T*>(out);
      const T e = empty_segment_value<T>(m, mean, init, empty);
      cpu::segmented_reduce(static_cast<const T*>(in), n, segment_bounds(seg), m, e, o);
      if (!init && !mean) return;
      const T first = init ? *static_cast<const T*>(init) : T{};
      for (std::int64_t s = 0; s < n_segments; ++s) {
        const std::int64_t length = offsets[s + 1] - offsets[s];
        if (length > 0) o[s] = finish_segment(m, mean, init != nullptr, first, o[s], length);
      }
    });
  });
}

void segmented_scan(int dtype, int op, bool exclusive, const void* init, const void* in, void* out,
                    std::int64_t n, const std::int64_t* offsets, std::int64_t n_segments,
                    const std::uint8_t* flags) {
  if (offsets)
    check_covering_offsets_host(segment_offsets{offsets, n_segments}, n, "segmented_scan");
  else if (n > 0 && flags == nullptr)
    throw scankit::invalid_argument("segmented_scan: null flags");
  if (n == 0) return;
  visit_types<scan_types>(dtype, "segmented_scan", [&](auto tag) {
    using T = typename decltype(tag)::type;
    visit_segment_op<T>(op, [&](auto m) {
      const T first = init_or_identity<T>(init, m);
      const auto* x = static_cast<const T*>(in);
      auto* y = static_cast<T*>(out);
      if (offsets)
        cpu::segmented_scan(x, y, n, segment_offsets{offsets, n_segments}, m, kind_of(exclusive),
                            first);
      else
        cpu::segmented_scan(x, y, n, head_flags{flags}, m, kind_of(exclusive), first);
    });
  });
}

void scan_by_key(int dtype, int op, bool exclusive, const void* init, const void* keys,
                 int key_bytes, const void* in, void* out, std::int64_t n) {
  visit_key_bits(key_bytes, [&](auto ktag) {
    using K = typename decltype(ktag)::type;
    visit_types<scan_types>(dtype, "scan_by_key", [&](auto tag) {
      using T = typename decltype(tag)::type;
      visit_segment_op<T>(op, [&](auto m) {
        if (n == 0) return;
        cpu::scan_by_key(static_cast<const K*>(keys), static_cast<const T*>(in),
                         static_cast<T*>(out), n, m, kind_of(exclusive),
                         init_or_identity<T>(init, m));
      });
    });
  });
}

std::int64_t reduce_by_key(int dtype, int op, const void* keys, int key_bytes, const void* in,
                           std::int64_t n, void* unique_keys, void* aggregates) {
  std::int64_t runs = 0;
  visit_key_bits(key_bytes, [&](auto ktag) {
    using K = typename decltype(ktag)::type;
    visit_types<scan_types>(dtype, "reduce_by_key", [&](auto tag) {
      using T = typename decltype(tag)::type;
      visit_segment_op<T>(op, [&](auto m) {
        if (n == 0) return;
        runs = cpu::reduce_by_key(static_cast<const K*>(keys), static_cast<const T*>(in), n, m,
                                  static_cast<K*>(unique_keys), static_cast<T*>(aggregates));
      });
    });
  });
  return runs;
}

}  // namespace scankit::capi::host
