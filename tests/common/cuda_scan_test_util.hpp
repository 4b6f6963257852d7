// Helpers shared by the CUDA scan test programs: extern declarations of the scans the library
// instantiates (so the tests do not compile their kernels again), non-commutative test monoids
// of 4 and 16 bytes, and random inputs for any of the tests' operators.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "common/test_util.hpp"
#include "scankit/cuda/scan.cuh"

// The library instantiates these (src/cuda/scan_*.cu).
#define SCANKIT_TEST_EXTERN_SCAN(...)                                                         \
  extern template void scankit::cuda::scan<__VA_ARGS__>(                                      \
      const scankit::value_t<__VA_ARGS__>*, scankit::value_t<__VA_ARGS__>*, std::int64_t,     \
      __VA_ARGS__, scankit::scan_kind, scankit::value_t<__VA_ARGS__>, void*, std::size_t,     \
      cudaStream_t, const scankit::cuda::scan_config&, scankit::value_t<__VA_ARGS__>*);       \
  extern template scankit::value_t<__VA_ARGS__> scankit::cuda::scan_host<__VA_ARGS__>(        \
      const scankit::value_t<__VA_ARGS__>*, scankit::value_t<__VA_ARGS__>*, std::int64_t,     \
      __VA_ARGS__, scankit::scan_kind, scankit::value_t<__VA_ARGS__>,                         \
      const scankit::cuda::host_scan_options&);
#define SCANKIT_TEST_EXTERN_ARITH(T)        \
  SCANKIT_TEST_EXTERN_SCAN(scankit::sum<T>) \
  SCANKIT_TEST_EXTERN_SCAN(scankit::product<T>) \
  SCANKIT_TEST_EXTERN_SCAN(scankit::min<T>) \
  SCANKIT_TEST_EXTERN_SCAN(scankit::max<T>)
#define SCANKIT_TEST_EXTERN_INT(T)              \
  SCANKIT_TEST_EXTERN_ARITH(T)                  \
  SCANKIT_TEST_EXTERN_SCAN(scankit::bit_and<T>) \
  SCANKIT_TEST_EXTERN_SCAN(scankit::bit_or<T>)  \
  SCANKIT_TEST_EXTERN_SCAN(scankit::bit_xor<T>)
SCANKIT_TEST_EXTERN_INT(std::int32_t)
SCANKIT_TEST_EXTERN_INT(std::uint32_t)
SCANKIT_TEST_EXTERN_INT(std::int64_t)
SCANKIT_TEST_EXTERN_INT(std::uint64_t)
SCANKIT_TEST_EXTERN_ARITH(float)
SCANKIT_TEST_EXTERN_ARITH(double)

namespace scankit::test {

/// Affine maps x -> a*x + b modulo 2^(8 sizeof(W)) under composition (associative, not
/// commutative). Word is std::uint64_t or std::uint16_t:
/// - 16-byte items (affine64): one fills a 16-byte vector, so they take the blocked tile with
///   one item per vector (large inputs) and the striped one-item tile (small ones).
/// - 4-byte items (affine16): four fill a vector, as int32 does, so large inputs take the
///   4-byte warp-specialized tile, whose two producer warps combine their rows' totals in warp
///   order.
/// (The 8-byte maps modulo 2^32 are affine, shared with the CPU tests.)
template <class W>
struct affine_mod {
  W a, b;
  friend bool operator==(const affine_mod&, const affine_mod&) = default;
};
template <class W>
struct compose_mod {
  using value_type = affine_mod<W>;
  // Products in at least 32 bits: uint16 operands would be promoted to int and overflow it.
  using wide = std::conditional_t<(sizeof(W) < 4), std::uint32_t, W>;
  SCANKIT_HD static constexpr value_type identity() { return {1u, 0u}; }
  SCANKIT_HD constexpr value_type operator()(const value_type& f, const value_type& g) const {
    return {static_cast<W>(wide{g.a} * f.a), static_cast<W>(wide{g.a} * f.b + g.b)};
  }
};
using affine64 = affine_mod<std::uint64_t>;
using affine_compose64 = compose_mod<std::uint64_t>;
using affine16 = affine_mod<std::uint16_t>;
using affine_compose16 = compose_mod<std::uint16_t>;
static_assert(sizeof(affine64) == 16 && sizeof(affine16) == 4);

template <class Op>
constexpr bool is_compose_mod = false;
template <class W>
constexpr bool is_compose_mod<compose_mod<W>> = true;

/// Random maps with an odd (invertible) multiplier.
template <class W>
std::vector<affine_mod<W>> random_affine_mod(std::int64_t n) {
  std::vector<affine_mod<W>> v(static_cast<std::size_t>(n));
  std::uniform_int_distribution<std::uint64_t> d(0, std::numeric_limits<W>::max());
  for (auto& x : v) x = {static_cast<W>(d(rng()) | 1u), static_cast<W>(d(rng()))};
  return v;
}

template <class Op>
const char* op_name() {
  if constexpr (requires { Op::name; }) return Op::name;
  else if constexpr (std::is_same_v<Op, affine_compose64>) return "affine64";
  else if constexpr (std::is_same_v<Op, affine_compose16>) return "affine16";
  else return "affine";
}

template <class Op>
scankit::value_t<Op> random_init(Op) {
  if constexpr (std::is_same_v<Op, affine_compose>) return random_affine(1)[0];
  else if constexpr (is_compose_mod<Op>) return random_affine_mod<decltype(scankit::value_t<Op>::a)>(1)[0];
  else return random_values<scankit::value_t<Op>>(1, Op::name)[0];
}

template <class Op>
std::vector<scankit::value_t<Op>> random_input(std::int64_t n, Op) {
  if constexpr (std::is_same_v<Op, affine_compose>) return random_affine(n);
  else if constexpr (is_compose_mod<Op>) return random_affine_mod<decltype(scankit::value_t<Op>::a)>(n);
  else return random_values<scankit::value_t<Op>>(n, Op::name);
}


}  // namespace scankit::test
