// The merge path of the GPU segmented sort, long segments: where a segment is long enough that
// its merge rounds (one read and write of its keys per doubling past a piece) cost more than one
// pass per 8-bit digit, it sorts by segmented onesweep passes (detail/sort/segmented_pass.cuh),
// as a flat radix sort would, but every such segment with its own look-back chain and digit
// offsets, all of them in one launch per digit.
//
//   list     (in count_long_tiles, merge_rounds.cuh) each segment the radix rule takes gets a
//            slot in a list and its run of tile slots (atomics: the list's order changes
//            nothing, each segment sorts on its own)
//   tables   per listed segment: its tile slots' map, its destinations, its counters zeroed
//   count    one read: per listed segment, the counts of every digit of every pass
//   bases    per listed segment and digit, where the digit's first key goes in each pass
//   passes   one segmented onesweep launch per digit, alternating between the workspace's keys
//            and the output so that the last pass (an even number of them) writes the output
//
// sort_pieces skips the bins inside these segments and the merge rounds give them no tiles.
// The host knows neither how many segments are listed nor their tiles: grids cover the most
// there can be and blocks past the device's counts return at once (segment_table::total_tiles).
#pragma once

#include <cstdint>
#include <type_traits>

#include "scankit/cuda/detail/arena.hpp"
#include "scankit/cuda/detail/device.cuh"
#include "scankit/cuda/detail/fill.cuh"
#include "scankit/cuda/detail/launch_checks.hpp"
#include "scankit/cuda/detail/math.hpp"
#include "scankit/cuda/detail/launch.cuh"
#include "scankit/cuda/detail/segmented_sort/kernels.cuh"
#include "scankit/cuda/detail/segmented_sort/plan.hpp"
#include "scankit/cuda/detail/sort/segmented_pass.cuh"
#include "scankit/sort_traits.hpp"

namespace scankit::cuda::detail::segmented_sort {

/// The listed segments, in device memory (filled by count_long_tiles).
struct radix_list {
  radix_rule rule;
  std::int64_t tile = 1;              // keys per tile of the passes
  unsigned long long* counts = nullptr;  // [0] listed segments, [1] their tiles (zeroed)
  std::int64_t* begin = nullptr;      // per listed segment
  std::int64_t* end = nullptr;
  std::int64_t* first_tile = nullptr;
  /// Lists [b, e) where the rule takes it; true where it did.
  __device__ __forceinline__ bool note(std::int64_t b, std::int64_t e) const {
    if (!counts || !rule(e - b)) return false;
    const auto j = static_cast<std::int64_t>(atomicAdd(counts, 1ull));
    begin[j] = b, end[j] = e;
    first_tile[j] = static_cast<std::int64_t>(atomicAdd(counts + 1, static_cast<unsigned long long>((e - b + tile - 1) / tile)));
    return true;
  }
};

/// The radix values of segmented-sort values V (void: keys alone).
template <class V>
using radix_value_t = std::conditional_t<std::is_void_v<V>, radix::no_value, V>;

/// Whether keys K with values V may take the radix passes (plan_radix says when they do).
template <class K, class V>
inline constexpr bool radix_compiled =
    sizeof(K) >= 2 && (std::is_void_v<V> || std::is_same_v<V, std::uint32_t> || std::is_same_v<V, std::uint64_t>);

/// Keys per tile of the passes for keys K and values V on this device.
template <class K, class V>
std::int64_t radix_tile() {
  using U = typename scankit::radix_traits<K>::bits_t;
  return radix::with_main_tile<U, radix_value_t<V>>([](auto shape) { return decltype(shape)::value.tile(); });
}

/// The workspace's parts, sized for the most listed segments, tiles and passes there can be.
struct radix_sizes {
  std::int64_t segments = 0, tiles = 0;
  int passes = 0;
};
inline radix_sizes radix_sizes_for(std::int64_t n, std::int64_t count, std::size_t key_bytes, std::size_t value_bytes,
                                   const segmented_sort_config& cfg) {
  const radix_rule r = plan_radix(n, key_bytes, value_bytes, 0, static_cast<int>(key_bytes) * 8, cfg);
  if (!r.enabled()) return {};
  radix_sizes z;
  z.segments = max_radix_segments(n, count, r.from);
  if (z.segments == 0) return {};
  z.tiles = ceil_div(n, radix::smallest_main_tile(key_bytes, value_bytes)) + z.segments;
  z.passes = static_cast<int>(key_bytes);
  return z;
}

/// Bytes of radix_long's workspace (0 where no segment can take it).
inline std::size_t radix_bytes(const radix_sizes& z) {
  if (z.segments == 0) return 0;
  const auto b = [](std::int64_t count, std::size_t size) { return align_up(static_cast<std::size_t>(count) * size); };
  const std::int64_t S = z.segments, R = radix::radix;
  return b(2, 8) + 3 * b(S, 8) + b(z.tiles, sizeof(int)) + 4 * b(S, sizeof(void*)) +
         b(S * z.passes * R, sizeof(unsigned)) + b(S * z.passes * R, sizeof(unsigned long long)) +
         align_up(sizeof(radix::plan)) + 2 * b(radix::lookback_header_words + z.tiles * R, sizeof(unsigned));
}

/// radix_long's workspace, carved in radix_bytes' order.
struct radix_buffers {
  radix_sizes z;
  radix_list list;
  int* map = nullptr;
  void** dst[4] = {};  // keys to the alternate, keys to the output, values likewise
  unsigned* hist = nullptr;
  unsigned long long* bases = nullptr;  // pass 0's, then the later passes'
  radix::plan* pl = nullptr;
  unsigned* words[2] = {};
};
inline radix_buffers carve_radix(arena& a, const radix_sizes& z, radix_rule rule, std::int64_t tile) {
  radix_buffers r;
  r.z = z;
  if (z.segments == 0) return r;
  const std::int64_t S = z.segments, R = radix::radix;
  r.list.rule = rule, r.list.tile = tile;
  r.list.counts = a.take<unsigned long long>(2);
  r.list.begin = a.take<std::int64_t>(S), r.list.end = a.take<std::int64_t>(S), r.list.first_tile = a.take<std::int64_t>(S);
  r.map = a.take<int>(z.tiles);
  for (auto& d : r.dst) d = a.take<void*>(S);
  r.hist = a.take<unsigned>(S * z.passes * R);
  r.bases = a.take<unsigned long long>(S * z.passes * R);
  r.pl = a.take<radix::plan>(1);
  for (auto& w : r.words) w = a.take<unsigned>(radix::lookback_header_words + z.tiles * R);
  return r;
}

/// Tables, one block per listed segment: its tile slots in the map, its destinations (begin in
/// the alternate and in the output, keys then values), its counters zeroed.
template <class K, class V>
__global__ void radix_tables(radix_list l, int* map, void** dst_alt, void** dst_out, void** vdst_alt, void** vdst_out,
                             K* alt, K* out, V* alt_values, V* out_values, unsigned* hist, int passes) {
  const auto listed = static_cast<std::int64_t>(l.counts[0]);
  for (std::int64_t j = blockIdx.x; j < listed; j += gridDim.x) {
    const std::int64_t b = l.begin[j], t0 = l.first_tile[j], tiles = (l.end[j] - b + l.tile - 1) / l.tile;
    for (std::int64_t t = threadIdx.x; t < tiles; t += blockDim.x) map[t0 + t] = static_cast<int>(j);
    for (std::int64_t i = threadIdx.x; i < std::int64_t{passes} * radix::radix; i += blockDim.x)
      hist[j * passes * radix::radix + i] = 0;
    if (threadIdx.x == 0) {
      dst_alt[j] = alt + b, dst_out[j] = out + b;
      if constexpr (!std::is_void_v<V>) vdst_alt[j] = alt_values + b, vdst_out[j] = out_values + b;
    }
  }
}

/// The passes over the listed segments: keys_in (and values_in) to keys_out (values_out), by
/// bits [begin_bit, end_bit), through alt (alt_values) in the passes between.
template <class K, class V>
void run_radix_long(const K* keys_in, K* keys_out, const V* values_in, V* values_out, K* alt, V* alt_values,
                    const radix_buffers& r, int begin_bit, int end_bit, bool descending, int sm_count,
                    cudaStream_t stream) {
  if constexpr (radix_compiled<K, V>) {
    if (r.z.segments == 0 || !r.list.rule.enabled()) return;
    using U = typename scankit::radix_traits<K>::bits_t;
    using RV = radix_value_t<V>;
    constexpr scankit::key_kind Kind = scankit::radix_traits<K>::kind;
    constexpr int R = radix::radix;
    const int passes = radix_passes(begin_bit, end_bit);
    const std::int64_t S = r.z.segments, slots = r.z.tiles;
    sort_options opts;
    opts.descending = descending;
    const auto* total = reinterpret_cast<const std::int64_t*>(r.list.counts + 1);
    radix::with_main_tile<U, RV>([&](auto shape_c) {
      constexpr radix::onesweep_shape shape = decltype(shape_c)::value;
      // ---- tables ----
      radix_tables<K, V><<<static_cast<unsigned>(std::min<std::int64_t>(S, 65535)), 256, 0, stream>>>(
          r.list, r.map, r.dst[0], r.dst[1], r.dst[2], r.dst[3], alt, keys_out, alt_values, values_out, r.hist, passes);
      SCANKIT_LAUNCH_CHECK("scankit::cuda::segmented_sort radix_tables");
      // ---- count: every digit of every pass, one read ----
      const radix::segment_table first{r.map,  r.list.first_tile, r.list.begin, r.list.end, r.bases,
                                       r.dst[0], r.dst[2],        total};
      const std::size_t hist_smem = sizeof(unsigned) * passes * R * radix::segment_histogram_copies(passes);
      const auto hist_grid = static_cast<unsigned>(std::min<std::int64_t>(slots, std::int64_t{8} * sm_count));
      radix::segment_histogram_kernel<Kind, U><<<hist_grid, 256, hist_smem, stream>>>(
          reinterpret_cast<const U*>(keys_in), first, slots, shape.tile(), passes, begin_bit, end_bit, opts, r.hist);
      SCANKIT_LAUNCH_CHECK("scankit::cuda::segmented_sort segment_histogram_kernel");
      // ---- bases: pass 0's per segment, then the later passes' ----
      unsigned long long* later = r.bases + S * R;
      radix::bucket_bases_kernel<><<<static_cast<unsigned>(S), R, 0, stream>>>(r.hist, static_cast<int>(S), 1, passes,
                                                                               r.bases, later, r.list.counts);
      SCANKIT_LAUNCH_CHECK("scankit::cuda::segmented_sort bucket_bases_kernel");
      radix::plan p{};
      for (int k = 0; k < passes; ++k) {
        p.active[k] = 1, p.src[k] = k == 0 ? 0 : 2, p.dst[k] = 1, p.raw_out[k] = k == passes - 1 ? 1 : 0;
      }
      radix::write_plan_kernel<><<<1, 1, 0, stream>>>(r.pl, p);
      SCANKIT_LAUNCH_CHECK("scankit::cuda::segmented_sort write_plan_kernel");
      const std::size_t words = radix::lookback_header_words + static_cast<std::size_t>(slots) * R;
      clear_async(r.words[0], sizeof(unsigned) * words, stream);
      // ---- passes: pass k writes the output where passes - 1 - k is even, else the alternate ----
      auto kernel = radix::onesweep_kernel_for<Kind, U, RV, shape, true>;
      constexpr std::size_t smem = radix::onesweep_smem_bytes<U, RV, shape>;
      allow_dynamic_shared_memory(kernel, smem);
      check_launch_tiles(slots, "scankit::cuda::segmented_sort radix passes");
      for (int k = 0; k < passes; ++k) {
        const bool to_out = (passes - 1 - k) % 2 == 0;
        radix::buffers<U, RV> buf{};
        buf.keys[0] = const_cast<U*>(reinterpret_cast<const U*>(keys_in));
        buf.keys[2] = reinterpret_cast<U*>(to_out ? alt : keys_out);  // the previous pass's output
        if constexpr (!std::is_void_v<V>) {
          buf.values[0] = const_cast<V*>(values_in);
          buf.values[2] = to_out ? alt_values : values_out;
        }
        radix::segment_table t = first;
        t.base = k == 0 ? r.bases : later + static_cast<std::int64_t>(k - 1) * S * R;
        t.key_dst = to_out ? r.dst[1] : r.dst[0];
        t.value_dst = to_out ? r.dst[3] : r.dst[2];
        unsigned* now = r.words[k % 2];
        unsigned* next = r.words[(k + 1) % 2];
        launch_after("launch of radix::onesweep_kernel (segmented sort)", kernel, static_cast<unsigned>(slots),
                     shape.block, smem, stream, static_cast<const radix::plan*>(r.pl), k, buf, std::int64_t{0},
                     std::int64_t{0}, radix::make_digit<Kind, U>(opts, begin_bit, end_bit, k),
                     radix::lookback_words{now, now + radix::lookback_header_words},
                     radix::lookback_words{next, next + radix::lookback_header_words},
                     k == passes - 1 ? std::int64_t{0} : slots, static_cast<const unsigned long long*>(nullptr),
                     static_cast<unsigned long long*>(nullptr), t);
      }
    });
  } else {
    (void)keys_in, (void)keys_out, (void)values_in, (void)values_out, (void)alt, (void)alt_values, (void)r;
    (void)begin_bit, (void)end_bit, (void)descending, (void)sm_count, (void)stream;
  }
}

}  // namespace scankit::cuda::detail::segmented_sort
