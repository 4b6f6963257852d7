// float16 and bfloat16 sort keys as 16-bit unsigned "ordered bits", by the same IEEE total order
// map as scankit's float and double keys (scankit/sort_traits.hpp): -inf < negative < -0 < +0 <
// positive < +inf < +NaN < -NaN. The library sorts uint16 keys; the map and its inverse run
// before and after.
#pragma once

#include <cstdint>

#include "scankit/ops.hpp"  // SCANKIT_HD

namespace scankit::capi {

/// mantissa_bits: 10 for float16, 7 for bfloat16.
SCANKIT_HD inline std::uint16_t half_to_ordered(std::uint16_t b, int mantissa_bits) {
  const std::uint16_t sign = 0x8000u;
  const auto rot = static_cast<std::uint16_t>((1u << mantissa_bits) - 1u);
  const auto t = static_cast<std::uint16_t>((b & sign) ? static_cast<std::uint16_t>(~b)
                                                       : static_cast<std::uint16_t>(b | sign));
  return static_cast<std::uint16_t>(t - rot);
}

SCANKIT_HD inline std::uint16_t half_from_ordered(std::uint16_t o, int mantissa_bits) {
  const std::uint16_t sign = 0x8000u;
  const auto rot = static_cast<std::uint16_t>((1u << mantissa_bits) - 1u);
  const auto t = static_cast<std::uint16_t>(o + rot);
  return static_cast<std::uint16_t>((t & sign) ? static_cast<std::uint16_t>(t & ~sign)
                                               : static_cast<std::uint16_t>(~t));
}

}  // namespace scankit::capi
