// The key types the sorting benches name on the command line (--type u8 ... f64), as C++ types.
#pragma once

#include <cstdint>
#include <string>

namespace scankit::tools {

/// Calls f(K{}) with the key type named `t` (u8, u16, u32, u64, i8, i16, i32, i64, f32, f64).
template <class F>
decltype(auto) with_key_type(const std::string& t, F&& f) {
  if (t == "u8") return f(std::uint8_t{});
  if (t == "u16") return f(std::uint16_t{});
  if (t == "u32") return f(std::uint32_t{});
  if (t == "u64") return f(std::uint64_t{});
  if (t == "i8") return f(std::int8_t{});
  if (t == "i16") return f(std::int16_t{});
  if (t == "i32") return f(std::int32_t{});
  if (t == "i64") return f(std::int64_t{});
  if (t == "f32") return f(float{});
  return f(double{});
}

}  // namespace scankit::tools
