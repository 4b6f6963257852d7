// Dispatch of the CUB sort baseline by key type name.
#include <string>

#include "sort_baselines.cuh"

namespace scankit::tools {

namespace {
using entry = bool (*)(cub_sort_args&);
entry find(std::string_view t) {
  using namespace detail;
  if (t == "u8") return cub_sort_u8;
  if (t == "u16") return cub_sort_u16;
  if (t == "u32") return cub_sort_u32;
  if (t == "u64") return cub_sort_u64;
  if (t == "i8") return cub_sort_i8;
  if (t == "i16") return cub_sort_i16;
  if (t == "i32") return cub_sort_i32;
  if (t == "i64") return cub_sort_i64;
  if (t == "f32") return cub_sort_f32;
  if (t == "f64") return cub_sort_f64;
  return nullptr;
}
}  // namespace

void cub_sort(std::string_view t, cub_sort_args& a) {
  entry f = find(t);
  if (!f || !f(a)) throw error("CUB sort baseline not built for key type " + std::string(t) + " with " +
                               std::to_string(a.value_bytes) + "-byte values");
}

}  // namespace scankit::tools
