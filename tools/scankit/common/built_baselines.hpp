// Which element types this build compiled each primitive's CUB baselines for
// (SCANKIT_CUB_BASELINES, tools/CMakeLists.txt), so that a bench reports the baseline row of
// another type as n/a instead of calling a function that does not exist. Plain C++, included by
// the benchmarks only: the baselines' own .cu files do not depend on the lists, so changing them
// recompiles no baseline. CUDA builds only.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

#include "common/cub_baseline_types.hpp"  // generated: cub_scan_types, ..., cub_baselines_setting

namespace scankit::tools {

/// The name of an element type in the type lists ("i32", "u8", "f64", ...).
template <class T>
constexpr std::string_view element_type_name() {
  static_assert(std::is_arithmetic_v<T> && sizeof(T) <= 8, "an element type of the baselines");
  constexpr std::size_t i = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
  if constexpr (std::is_floating_point_v<T>) return i == 2 ? "f32" : "f64";
  else if constexpr (std::is_signed_v<T>) return std::array<std::string_view, 4>{"i8", "i16", "i32", "i64"}[i];
  else return std::array<std::string_view, 4>{"u8", "u16", "u32", "u64"}[i];
}

/// Whether T is in `types`, one primitive's list of cub_baseline_types.hpp: whether its
/// baselines were compiled for T.
template <class T, std::size_t N>
constexpr bool baseline_built(const std::array<std::string_view, N>& types) {
  for (const auto t : types)
    if (t == element_type_name<T>()) return true;
  return false;
}

/// The message of a row whose baseline (`what`: "CUB", "Thrust") was not compiled for `type`.
inline std::string baseline_not_built(std::string_view what, std::string_view type) {
  return "no " + std::string(what) + " baseline for " + std::string(type) + " in this build (SCANKIT_CUB_BASELINES=" +
         std::string(cub_baselines_setting) + ")";
}

}  // namespace scankit::tools
