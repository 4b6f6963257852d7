// Which path a sort takes: the one decision behind the launch code (detail/sort/launch.cuh), the
// workspace size (sort_workspace_bytes) and the public plan_sort / sort_tuning_description.
// plan_for is a pure function of the request and a device_info, so tests plan for any device.
#pragma once

#include <cstddef>
#include <cstdint>

#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/detail/sort/onesweep.cuh"
#include "scankit/cuda/detail/sort/small_sort.cuh"
#include "scankit/cuda/detail/sort/tuning.cuh"
#include "scankit/cuda/sort.hpp"

namespace scankit::cuda::detail::radix {

/// The device the sorts plan for: current_device_info(), remembered per thread and device (a
/// small sort takes microseconds, and a lock on every call shows), or reference_device_info (device_info.hpp) where no device is present.
const device_info& sort_device_info();

/// The least shared memory per block of any GPU from compute capability 8.0 on.
inline constexpr std::size_t least_shared_per_block = 99 * 1024;
/// Room for the kernels' static shared memory (onesweep_kernel: 4 bytes; the others none).
inline constexpr std::size_t static_shared_reserve = 64;

/// The value type a sort of `value_bytes`-byte values instantiates.
template <std::size_t Bytes>
struct value_type_of {
  using type = typename blob_of<Bytes>::type;
};
template <>
struct value_type_of<0> {
  using type = no_value;
};

/// The dynamic shared memory of each path's kernel for keys U and values V.
struct path_shared_bytes {
  std::size_t main = 0, reduced = 0, small = 0, large = 0, one_block = 0;
};
template <class U, class V>
struct shared_bytes_of {
  static constexpr sort_tuning t =
      sort_tuning_for(sizeof(U), has_values<V> ? sizeof(V) : 0, tuned_arch);
  template <onesweep_shape S>
  static constexpr std::size_t onesweep() {
    if constexpr (S.exists())
      return onesweep_smem_bytes<U, V, S>;
    else
      return 0;
  }
  template <int Block, int Items>
  static constexpr std::size_t small() {
    return sizeof(small_sort_storage<U, V, Block, Items>);
  }
  /// For the shapes one_block_shape_for returns.
  static constexpr std::size_t one_block(one_block_shape s) {
    constexpr int b = one_block_threads_min, most = t.one_block_items, eight = most < 8 ? most : 8;
    if (s.block == b && s.items == 1) return small<b, 1>();
    if (s.block == b && s.items == 2) return small<b, 2>();
    if (s.block == b && s.items == 4) return small<b, 4>();
    if (s.block == b && s.items == eight) return small<b, eight>();
    if (s.block == b) return small<b, most>();
    if (s.block == 2 * b) return small<2 * b, most>();
    return small<one_block_threads_max, most>();
  }
  static constexpr path_shared_bytes of(one_block_shape s) {
    return {.main = onesweep<t.main>(),
            .reduced = onesweep<t.reduced>(),
            .small = onesweep<t.small>(),
            .large = onesweep<t.large>(),
            .one_block = one_block(s)};
  }
  /// Every GPU from compute capability 8.0 on holds the main tile or its reduced stand-in.
  static constexpr bool main_fits_everywhere() {
    return onesweep<t.main>() + static_shared_reserve <= least_shared_per_block ||
           (t.reduced.exists() &&
            onesweep<t.reduced>() + static_shared_reserve <= least_shared_per_block);
  }
};

template <class U>
constexpr bool main_fits_everywhere_for_values() {
  return shared_bytes_of<U, no_value>::main_fits_everywhere() &&
         shared_bytes_of<U, blob_of<4>::type>::main_fits_everywhere() &&
         shared_bytes_of<U, blob_of<8>::type>::main_fits_everywhere() &&
         shared_bytes_of<U, blob_of<16>::type>::main_fits_everywhere();
}
static_assert(main_fits_everywhere_for_values<std::uint8_t>() &&
                  main_fits_everywhere_for_values<std::uint16_t>() &&
                  main_fits_everywhere_for_values<std::uint32_t>() &&
                  main_fits_everywhere_for_values<std::uint64_t>(),
              "a onesweep main tile needs a reduced stand-in that fits 99 KiB of shared memory");

template <class U>
path_shared_bytes shared_bytes_for_values(std::size_t value_bytes, one_block_shape s) {
  switch (value_bytes) {
    case 0:
      return shared_bytes_of<U, no_value>::of(s);
    case 4:
      return shared_bytes_of<U, blob_of<4>::type>::of(s);
    case 8:
      return shared_bytes_of<U, blob_of<8>::type>::of(s);
    default:
      return shared_bytes_of<U, blob_of<16>::type>::of(s);
  }
}
inline path_shared_bytes shared_bytes_for(std::size_t key_bytes, std::size_t value_bytes,
                                          one_block_shape s) {
  switch (key_bytes) {
    case 1:
      return shared_bytes_for_values<std::uint8_t>(value_bytes, s);
    case 2:
      return shared_bytes_for_values<std::uint16_t>(value_bytes, s);
    case 4:
      return shared_bytes_for_values<std::uint32_t>(value_bytes, s);
    default:
      return shared_bytes_for_values<std::uint64_t>(value_bytes, s);
  }
}

/// The path for n keys of `key_bytes` (1, 2, 4, 8) and values of `value_bytes` (0, 4, 8, 16),
/// sorted over bits [begin, end), with `cfg` on a device with `dev`'s limits (arguments checked
/// by the caller). Automatic choice, in order: the one-block sort up to its limit; the counting
/// fill for one-byte keys alone over all 8 bits; the large tile from its threshold; the small
/// tile below its threshold; the main tile (its reduced stand-in where main does not fit). A
/// tile is taken only where the device's shared memory per block holds it. A forced path
/// (cfg.tile) that does not apply falls back to that choice.
inline sort_plan plan_for(std::int64_t n, std::size_t key_bytes, std::size_t value_bytes, int begin,
                          int end, const sort_config& cfg, const device_info& dev) {
  sort_plan p;
  p.algorithm = cfg.algorithm;
  p.tuning_arch = dev.arch >= 90 ? 90 : 80;
  if (n <= 1 || begin == end) {
    p.copy_only = true;
    return p;
  }
  if (cfg.algorithm != sort_algorithm::onesweep) return p;
  const sort_tuning t = sort_tuning_for(key_bytes, value_bytes, dev.arch);
  const bool within_one_block = n <= t.one_block_limit();
  const one_block_shape ob =
      one_block_shape_for(within_one_block ? n : t.one_block_limit(), t.one_block_items);
  const path_shared_bytes bytes = shared_bytes_for(key_bytes, value_bytes, ob);
  const auto fits = [&](std::size_t b) {
    return b + static_shared_reserve <= dev.smem_per_block_optin;
  };
  const auto tile = [&](sort_tile which, const onesweep_shape& s, std::size_t b) {
    p.tile = which, p.block = s.block, p.items = s.items, p.min_blocks = s.min_blocks;
    p.stage_early = s.stage_early, p.shared_bytes = b;
    return p;
  };
  const auto one_block = [&] {
    p.tile = sort_tile::one_block, p.block = ob.block, p.items = ob.items, p.min_blocks = 1;
    p.shared_bytes = bytes.one_block;
    return p;
  };
  const auto counting = [&] {
    p.tile = sort_tile::counting;
    return p;
  };
  const auto main = [&] {
    if (fits(bytes.main) || !t.reduced.exists()) return tile(sort_tile::main, t.main, bytes.main);
    p.reduced = true;
    return tile(sort_tile::main, t.reduced, bytes.reduced);
  };
  const bool one_block_fits = within_one_block && fits(bytes.one_block);
  const bool counting_applies = key_bytes == 1 && value_bytes == 0 && begin == 0 && end == 8;
  const bool small_fits = t.small.exists() && fits(bytes.small);
  const bool large_fits = t.large.exists() && fits(bytes.large);
  switch (cfg.tile) {
    case sort_tile::automatic:
      break;
    case sort_tile::one_block:
      if (one_block_fits) return one_block();
      break;
    case sort_tile::counting:
      if (counting_applies) return counting();
      break;
    case sort_tile::small:
      if (small_fits) return tile(sort_tile::small, t.small, bytes.small);
      break;
    case sort_tile::main:
      return main();
    case sort_tile::large:
      if (large_fits) return tile(sort_tile::large, t.large, bytes.large);
      break;
  }
  if (one_block_fits) return one_block();
  if (counting_applies) return counting();
  if (large_fits && n >= t.large_from) return tile(sort_tile::large, t.large, bytes.large);
  if (small_fits && n < t.small_below) return tile(sort_tile::small, t.small, bytes.small);
  return main();
}

/// Whether an argsort with int64 positions over bits [begin, end) carries them as
/// narrow_index (32 bits between passes, int64 written by the last): n <= 2^32 (every
/// position fits 32 bits), a onesweep tile for 4-byte values (the one-block sort and the other
/// algorithms carry int64 throughout), and sort_positions narrow, or automatic from the
/// tuning's narrow_positions_from.
inline bool narrow_positions(std::int64_t n, std::size_t key_bytes, int begin, int end, const sort_config& cfg,
                             const device_info& dev) {
  if (cfg.positions == sort_positions::wide || n > (std::int64_t{1} << 32)) return false;
  if (cfg.positions == sort_positions::automatic) {
    const std::int64_t from = sort_tuning_for(key_bytes, 4, dev.arch).narrow_positions_from;
    if (from == 0 || n < from) return false;
  }
  const sort_plan p = plan_for(n, key_bytes, 4, begin, end, cfg, dev);
  return p.algorithm == sort_algorithm::onesweep && !p.copy_only &&
         (p.tile == sort_tile::small || p.tile == sort_tile::main || p.tile == sort_tile::large);
}

}  // namespace scankit::cuda::detail::radix
