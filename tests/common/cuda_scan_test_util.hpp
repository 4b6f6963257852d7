// Helpers shared by the CUDA scan test programs (test_cuda_scan*.cu): extern declarations of the
// scans the library instantiates (so the tests do not compile their kernels again),
// non-commutative test monoids of 4 and 16 bytes, random inputs for any of the tests' operators,
// the sizes around the tiles, and the fixtures that check a scan on the device against the serial
// reference: cuda_scan_fixture, and CudaScan (one test per algorithm) built on it.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "common/cuda_test_util.hpp"
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

namespace scankit::cuda {
// Name the parameters in gtest's messages (found by argument-dependent lookup).
inline void PrintTo(scan_algorithm a, std::ostream* os) { *os << name(a); }
inline void PrintTo(scan_path p, std::ostream* os) { *os << name(p); }
}  // namespace scankit::cuda

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
  else return scan_carry_in<scankit::value_t<Op>>(Op::name);
}

template <class Op>
std::vector<scankit::value_t<Op>> random_input(std::int64_t n, Op) {
  if constexpr (std::is_same_v<Op, affine_compose>) return random_affine(n);
  else if constexpr (is_compose_mod<Op>) return random_affine_mod<decltype(scankit::value_t<Op>::a)>(n);
  else return scan_values<scankit::value_t<Op>>(n, Op::name);
}

/// Random int32 values in [-1000, 1000] for inputs of millions of items.
inline std::vector<std::int32_t> fast_random_i32(std::int64_t n) {
  std::vector<std::int32_t> v(static_cast<std::size_t>(n));
  splitmix64 g;
  for (auto& e : v) e = static_cast<std::int32_t>(g() % 2001) - 1000;
  return v;
}

constexpr scan_kind both_kinds[] = {scan_kind::inclusive, scan_kind::exclusive};

/// The tile sizes that test_sizes builds its boundaries around, the warp-specialized tile's
/// among them (9,216 four-byte and 2,816 eight-byte items); every path forced at every size is
/// test_cuda_scan_paths.
namespace scan_tiles {
namespace dl = scankit::cuda::detail::decoupled_lookback;
constexpr auto four = dl::specialized_shape_for<4>(), eight = dl::specialized_shape_for<8>();
constexpr std::int64_t specialized4 = std::int64_t{four.consumers} * four.vectors_per_thread * 4;
constexpr std::int64_t specialized8 = std::int64_t{eight.consumers} * eight.vectors_per_thread * 2;
inline const std::vector<std::int64_t> all{32,   64,   256,  512,   1024,         2048,
                                           4096, 6144, 8192, 12288, specialized4, specialized8};
}  // namespace scan_tiles

/// test_sizes() around every tile size, keeping those in [lo, hi].
inline std::vector<std::int64_t> sizes_between(std::int64_t lo, std::int64_t hi, std::int64_t max_random) {
  std::vector<std::int64_t> s = test_sizes(scan_tiles::all, max_random);
  std::erase_if(s, [&](std::int64_t n) { return n < lo || n > hi; });
  return s;
}

/// The fixture of the CUDA scan programs, parametrised by what a program varies (an algorithm, a
/// forced path): device buffers reused across cases, one scan checked against the serial
/// reference, and sweeps over sizes. Derived names the launch in failure messages, through
///   template <class Op> std::string describe(const cuda::scan_config&, std::int64_t n, bool aligned) const;
template <class Derived, class Param>
class cuda_scan_fixture : public cuda_stream_test<Param> {
 protected:
  /// Scans `in` on the device with `cfg` (output, carry-out and workspace, of exactly the size
  /// the library asks for, poisoned first; pointers `shift` items past an aligned address) and
  /// compares with the serial reference.
  template <class Op>
  ::testing::AssertionResult check(const std::vector<value_t<Op>>& in, Op op, scan_kind kind, value_t<Op> init,
                                   bool in_place, const cuda::scan_config& cfg, int shift = 0) {
    using T = value_t<Op>;
    const auto n = static_cast<std::int64_t>(in.size());
    const std::size_t bytes = in.size() * sizeof(T);
    const std::string where = " [" + static_cast<const Derived&>(*this).template describe<Op>(cfg, n, shift == 0) +
                              "; " + op_name<Op>() + ", " + kind_name(kind) + ", n=" + std::to_string(n) +
                              ", block=" + std::to_string(cfg.block_size) + (in_place ? ", in place" : "") +
                              (shift ? ", misaligned" : "") + "]";
    if (verbose()) std::printf(" %s\n", where.c_str()), std::fflush(stdout);
    const cudaStream_t stream = this->stream_;
    din_.reserve(bytes + 2 * sizeof(T));
    dout_.reserve(bytes + 2 * sizeof(T));
    dtotal_.reserve(sizeof(T));
    T* din = din_.as<T>() + shift;
    T* out = in_place ? din : dout_.as<T>() + shift;
    ck(cudaMemcpyAsync(din, in.data(), bytes, cudaMemcpyHostToDevice, stream), "copy in");
    if (!in_place) ck(cudaMemsetAsync(out, 0xAB, bytes, stream), "poison output");
    ck(cudaMemsetAsync(dtotal_.p, 0xAB, sizeof(T), stream), "poison total");
    const std::size_t need = cuda::scan_workspace_bytes(n, sizeof(T), cfg);
    ws_.reserve(need);
    if (need > 0) ck(cudaMemsetAsync(ws_.data(), 0xCD, need, stream), "poison workspace");
    cuda::scan(din, out, n, op, kind, init, ws_.data(), need, stream, cfg, dtotal_.as<T>());
    ck(cudaStreamSynchronize(stream), "scan");
    std::vector<T> got(in.size());
    T total;
    ck(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost), "copy out");
    ck(cudaMemcpy(&total, dtotal_.p, sizeof(T), cudaMemcpyDeviceToHost), "copy total");
    return matches_reference(in, got, op, kind, init, &total) << where;
  }

  /// Both kinds over `sizes` with `cfg`: in place on alternate cases, carry-in on two cases in
  /// three, and (where misalign_every_fifth_) pointers one item off on every fifth. Stops at
  /// the first failure. The sanitize tier runs one kind per size, in turn (inclusive, then
  /// exclusive, each in place on every other of its turns): half the launches, and with three
  /// sizes per tile edge both kinds still meet the edges.
  template <class Op>
  void sweep(Op op, const std::vector<std::int64_t>& sizes, const cuda::scan_config& cfg) {
    const bool sanitize = sanitize_tier();
    int k = 0;
    for (std::int64_t n : sizes) {
      const auto in = random_input(n, op);
      const value_t<Op> init = k % 3 == 0 ? op.identity() : random_init(op);
      for (scan_kind kind : both_kinds) {
        if (sanitize && (kind == scan_kind::exclusive) != (k % 2 == 1)) continue;
        const bool in_place = sanitize ? k / 2 % 2 == 1 : (k + (kind == scan_kind::exclusive)) % 2 == 1;
        const auto r = check(in, op, kind, init, in_place, cfg, misalign_every_fifth_ && k % 5 == 4 ? 1 : 0);
        EXPECT_TRUE(r);
        if (!r) return;
      }
      ++k;
    }
  }

  bool misalign_every_fifth_ = false;
  device_buffer din_, dout_, dtotal_;
  cuda::workspace ws_;
};

/// One test per algorithm of cuda::all_scan_algorithms, each with the algorithm's defaults.
class CudaScan : public cuda_scan_fixture<CudaScan, cuda::scan_algorithm> {
 public:
  template <class Op>
  std::string describe(const cuda::scan_config& cfg, std::int64_t, bool) const {
    return std::string(cuda::name(cfg.algorithm));
  }

 protected:
  cuda::scan_algorithm algo() const { return GetParam(); }
  cuda::scan_config config(int block = 0) const { return {algo(), block}; }

  /// Scans `in` (inclusive sum) five times into a poisoned output; every run's bits must equal
  /// the first run's.
  template <class T>
  void expect_bitwise_same_runs(const std::vector<T>& in) {
    const auto n = static_cast<std::int64_t>(in.size());
    const cuda::scan_config cfg = config();
    const std::size_t bytes = n * sizeof(T);
    din_.reserve(bytes);
    dout_.reserve(bytes);
    const std::size_t need = cuda::scan_workspace_bytes(n, sizeof(T), cfg);
    ws_.reserve(need);
    ck(cudaMemcpyAsync(din_.p, in.data(), bytes, cudaMemcpyHostToDevice, stream_), "copy in");
    std::vector<T> first(n), again(n);
    for (int run = 0; run < 5; ++run) {
      ck(cudaMemsetAsync(dout_.p, 0xAB, bytes, stream_), "poison output");
      cuda::scan(din_.as<T>(), dout_.as<T>(), n, sum<T>{}, scan_kind::inclusive, T(0), ws_.data(), need, stream_,
                 cfg);
      ck(cudaStreamSynchronize(stream_), "scan");
      ck(cudaMemcpy(run == 0 ? first.data() : again.data(), dout_.p, bytes, cudaMemcpyDeviceToHost), "copy out");
      if (run > 0) ASSERT_EQ(std::memcmp(first.data(), again.data(), bytes), 0) << "run " << run;
    }
  }

  /// `runs` sums of sizes 2^x, x uniform in [min_log, max_log), inputs from make_input(n):
  /// both kinds in turn, carry-in 7 on two runs in three, in place on every fourth.
  template <class T, class MakeInput>
  void stress_random_sizes(int runs, double min_log, double max_log, MakeInput make_input) {
    std::uniform_real_distribution<double> log_size(min_log, max_log);
    const sum<T> op;
    for (int i = 0; i < runs; ++i) {
      const auto n = static_cast<std::int64_t>(std::exp2(log_size(rng())));
      const std::vector<T> in = make_input(n);
      const scan_kind kind = i % 2 ? scan_kind::exclusive : scan_kind::inclusive;
      const auto r = check(in, op, kind, i % 3 ? T(7) : T(0), i % 4 == 1, config());
      ASSERT_TRUE(r) << "run " << i << " of " << runs;
    }
  }
};

}  // namespace scankit::test
