// The C ABI's CPU compactions (the library's chained parallel compaction, or its serial forms).
#include <string>
#include <type_traits>

#include "capi_internal.hpp"
#include "scankit/cpu/compact.hpp"

namespace scankit::capi::host {
namespace {

namespace sk = scankit;

cpu::compact_config config_of(const std::string& algorithm) {
  cpu::compact_config cfg;
  switch (cpu_choice(algorithm, {"cpu-parallel", "cpu-serial", "cpu-serial-scan"}, 0, "compact")) {
    case 1:
      cfg.algorithm = cpu::compact_algorithm::serial_loop;
      break;
    case 2:
      cfg.algorithm = cpu::compact_algorithm::serial_scan;
      break;
    default:
      cfg.algorithm = cpu::compact_algorithm::parallel;
      break;
  }
  return cfg;
}

}  // namespace

std::int64_t select_flagged(int item_bytes, const void* in, const std::uint8_t* flags, void* out,
                            std::int64_t n, const std::string& algorithm) {
  const auto cfg = config_of(algorithm);
  std::int64_t count = 0;
  visit_bytes(item_bytes, sizes_cpu, [&](auto tag) {
    using V = typename decltype(tag)::type;
    count = cpu::select_flagged(static_cast<const V*>(in), flags, static_cast<V*>(out), n, cfg);
  });
  return count;
}

std::int64_t select_if(int dtype, int pred, const void* threshold, bool remove, const void* in,
                       void* out, std::int64_t n, const std::string& algorithm) {
  require_type(dtype, all_number_types, "select");
  const auto cfg = config_of(algorithm);
  std::int64_t count = 0;
  visit_number(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    visit_pred<T>(pred, threshold, "select", [&](auto p) {
      count = remove ? cpu::remove_if(static_cast<const T*>(in), static_cast<T*>(out), n, p, cfg)
                     : cpu::select_if(static_cast<const T*>(in), static_cast<T*>(out), n, p, cfg);
    });
  });
  return count;
}

std::int64_t partition(int dtype, int pred, const void* threshold, bool stable, const void* in,
                       void* out, std::int64_t n, const std::string& algorithm) {
  require_type(dtype, all_number_types, "partition");
  const auto cfg = config_of(algorithm);
  const auto order = stable ? sk::rejected_order::original : sk::rejected_order::reversed;
  std::int64_t count = 0;
  visit_number(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    visit_pred<T>(pred, threshold, "partition", [&](auto p) {
      count = cpu::partition(static_cast<const T*>(in), static_cast<T*>(out), n, p, order, cfg);
    });
  });
  return count;
}

std::int64_t nonzero(int dtype, const void* in, std::int64_t* indices, std::int64_t n,
                     const std::string& algorithm) {
  require_type(dtype, all_number_types, "nonzero");
  const auto cfg = config_of(algorithm);
  std::int64_t count = 0;
  visit_number(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    count = cpu::nonzero(static_cast<const T*>(in), indices, n, cfg);
  });
  return count;
}

std::int64_t unique(int dtype, const void* in, void* values, std::int64_t* counts, std::int64_t n,
                    bool equal_nan, const std::string& algorithm) {
  require_type(dtype, all_number_types, "unique");
  const auto cfg = config_of(algorithm);
  std::int64_t count = 0;
  const auto run = [&](const auto* typed_in, auto eq) {
    using T = std::remove_cvref_t<decltype(*typed_in)>;
    count = counts ? cpu::unique_count(typed_in, static_cast<T*>(values), counts, n, eq, cfg)
                   : cpu::unique(typed_in, static_cast<T*>(values), n, eq, cfg);
  };
  visit_number(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T>) {
      if (equal_nan) return run(static_cast<const T*>(in), sk::equal_or_both_nan<T>{});
    }
    run(static_cast<const T*>(in), sk::equal_to<T>{});
  });
  return count;
}

}  // namespace scankit::capi::host
