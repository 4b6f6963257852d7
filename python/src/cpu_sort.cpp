// The C ABI's CPU sorts (the library's parallel radix sort, or its serial reference).
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "capi_internal.hpp"
#include "half_keys.hpp"
#include "parallel_range.hpp"
#include "scankit/cpu/scan.hpp"
#include "scankit/cpu/sort.hpp"

namespace scankit::capi::host {
namespace {

void copy_bytes(void* dst, const void* src, std::int64_t bytes) {
  if (dst == src || bytes == 0) return;
  if (bytes >= (std::int64_t{1} << 22))
    cpu::parallel_copy(dst, src, bytes);
  else
    std::memcpy(dst, src, static_cast<std::size_t>(bytes));
}

/// Sorts keys_in (and values) into keys: out of place where the sort can read the input
/// directly (no copy first, and no scratch buffer for large inputs), else copied and sorted in
/// place.
template <class K>
void cpu_sort_typed(const K* keys_in, K* keys, const void* values_in, void* values_out,
                    int value_bytes, bool indices, std::int64_t n, const sort_options& opts,
                    bool serial) {
  auto copy_keys = [&] {
    copy_bytes(keys, keys_in, n * static_cast<std::int64_t>(sizeof(K)));
  };
  auto sort_with = [&](auto* vals) {
    copy_keys();
    if (serial)
      cpu::sort_pairs_serial(keys, vals, n, opts);
    else
      cpu::sort_pairs_parallel(keys, vals, n, opts);
  };
  if (indices) {
    auto* idx = static_cast<std::int64_t*>(values_out);
    parallel_range(n, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) idx[i] = i;
    });
    sort_with(idx);
  } else if (value_bytes > 0) {
    visit_bytes(value_bytes, sizes_cpu, [&](auto tag) {
      using V = typename decltype(tag)::type;
      const auto* vin = static_cast<const V*>(values_in);
      auto* vout = static_cast<V*>(values_out);
      if (!serial && (keys_in == keys) == (vin == vout)) {
        cpu::sort_pairs_parallel(keys_in, vin, keys, vout, n, opts);
        return;
      }
      copy_bytes(vout, vin, n * static_cast<std::int64_t>(sizeof(V)));
      sort_with(vout);
    });
  } else if (serial) {
    copy_keys();
    cpu::sort_keys_serial(keys, n, opts);
  } else {
    cpu::sort_keys_parallel(keys_in, keys, n, opts);
  }
}

}  // namespace

void sort(int dtype, const void* keys_in, void* keys_out, const void* values_in, void* values_out,
          int value_bytes, bool indices, std::int64_t n, bool descending,
          const std::string& algorithm) {
  const char* where = "scankit sort";
  require_type(dtype, sort_types, "sort");
  check_n(n, where);
  if (n > 0) {
    check_out(keys_in, "keys", where);
    check_out(keys_out, "sorted keys", where);
    if (indices || value_bytes > 0) check_out(values_out, "values output", where);
    if (!indices && value_bytes > 0) check_out(values_in, "values", where);
  }
  if (!indices && value_bytes > 0) visit_bytes(value_bytes, sizes_cpu, [](auto) {});
  const bool serial = cpu_choice(algorithm, {"cpu-radix", "cpu-serial"}, 0, "sort") == 1;
  sort_options opts;
  opts.descending = descending;
  if (dtype == SK_F16 || dtype == SK_BF16) {
    // The keys mapped to ordered uint16 on their way into the output, then sorted there.
    const int mant = dtype == SK_F16 ? 10 : 7;
    const auto* in = static_cast<const std::uint16_t*>(keys_in);
    auto* k = static_cast<std::uint16_t*>(keys_out);
    parallel_range(n, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) k[i] = half_to_ordered(in[i], mant);
    });
    cpu_sort_typed<std::uint16_t>(k, k, values_in, values_out, value_bytes, indices, n, opts,
                                  serial);
    parallel_range(n, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) k[i] = half_from_ordered(k[i], mant);
    });
    return;
  }
  visit_number(dtype, [&](auto tag) {
    using K = typename decltype(tag)::type;
    cpu_sort_typed(static_cast<const K*>(keys_in), static_cast<K*>(keys_out), values_in,
                   values_out, value_bytes, indices, n, opts, serial);
  });
}

}  // namespace scankit::capi::host
