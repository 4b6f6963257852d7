// The single-pass compaction's host side: workspace, config checks, the kernel facts the plan
// needs, and the launchers that run plan_compact's plan.
#pragma once

#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/compact/plan.cuh"
#include "scankit/cuda/detail/compact/select.cuh"
#include "scankit/cuda/detail/compact/segmented.cuh"
#include "scankit/cuda/detail/compact/specialized.cuh"
#include "scankit/cuda/detail/compact/tile.cuh"

namespace scankit::cuda::detail::compact {

namespace single_pass {

inline std::size_t workspace_bytes(std::int64_t n, std::size_t item_bytes, int block, compact_tile tile) {
  const std::int64_t tiles = ceil_div(n, tile_items_for(n, item_bytes, block, tile));
  return lookback::tree_bytes<count_t>(tiles) + 4 * workspace_alignment;
}

/// Checks single-pass's fields of `cfg` (compact_config's ranges).
void check_config(const compact_config& cfg);

/// Raises the kernel's dynamic shared memory limit when static plus dynamic shared memory
/// would pass the default 48 KiB.
template <class Kernel>
void allow_shared_memory(Kernel k, std::size_t bytes) {
  if (bytes > (40u << 10))
    allow_dynamic_shared_memory(k, bytes < (48u << 10) + 1 ? (48u << 10) + 1 : bytes);
}

/// Whether the guess prefetch (compact_prefetch) pays for a selector: 4-byte items selected by a
/// predicate or as run starts (not 8-byte items, nor select_flagged, whose flags it does not
/// fetch).
template <class Sel>
inline constexpr bool guess_prefetch_pays = false;
template <class T, class P, bool Keep>
inline constexpr bool guess_prefetch_pays<pred_selector<T, P, Keep>> = sizeof(T) == 4;
template <class T, class E>
inline constexpr bool guess_prefetch_pays<run_start_selector<T, E>> = sizeof(T) == 4;
/// The segmented tile prefetches for 8-byte items too (where it pays: docs/TUNING.md).
template <class Sel>
inline constexpr bool segmented_prefetch_pays = guess_prefetch_pays<Sel>;
template <class T, class P, bool Keep>
inline constexpr bool segmented_prefetch_pays<pred_selector<T, P, Keep>> = sizeof(T) == 4 || sizeof(T) == 8;
template <class T, class E>
inline constexpr bool segmented_prefetch_pays<run_start_selector<T, E>> = sizeof(T) == 4 || sizeof(T) == 8;

/// Whether the selector and item type can take the segmented and warp-specialized tiles at all.
template <class Sel>
inline constexpr bool vector_tiles_apply = Sel::reads_items &&
                                           (sizeof(typename Sel::item_type) == 4 || sizeof(typename Sel::item_type) == 8) &&
                                           tile::vector_items<typename Sel::item_type>() * sizeof(typename Sel::item_type) == 16;

/// Launches the small or medium tile: R vectors per thread (and at least MinBlocks blocks per SM).
template <int R, int MinBlocks, class Sel>
void launch(const typename Sel::item_type* in, std::int64_t n, const Sel& sel,
            const outputs<typename Sel::item_type>& out, arena& ws, int block, bool prefetch, cudaStream_t s) {
  using T = typename Sel::item_type;
  namespace dl = lookback;
  constexpr int V = tile::vector_items<T>();
  const std::int64_t tile_items = static_cast<std::int64_t>(R) * block * V;
  const std::int64_t tiles = ceil_div(n, tile_items);
  check_launch_tiles(tiles, "scankit::cuda compaction");
  // The tile counter and the tree levels, carved contiguously and cleared by one kernel.
  dl::tree<count_t> tr;
  unsigned long long* counter = dl::carve_tree(tr, tiles, ws, s);
  const bool vec = V > 1 && Sel::reads_items && tile::vector_aligned(in, in);
  const bool vec_out = out.items != nullptr && tile::vector_aligned(out.items, out.items);
  const std::size_t stage = stage_bytes<T>(tile_items, Sel::reads_items && out.items != nullptr, out.indices != nullptr);
  const std::size_t smem = stage + tile::raking_entries(R, block) * sizeof(int);
  auto kernel = single_pass_kernel<R, MinBlocks, V, Sel>;
  allow_shared_memory(kernel, smem);
  launch_after("launch of single_pass_kernel", kernel, static_cast<unsigned>(tiles), block, smem, s, in, n, sel, out, tr,
               counter, vec, vec_out, prefetch);
}

/// Launches the segmented tile (the plan checked that it applies).
template <class Sel>
void launch_segmented(const typename Sel::item_type* in, std::int64_t n, const Sel& sel,
                      const outputs<typename Sel::item_type>& out, arena& ws, int block, const compact_plan& p,
                      cudaStream_t s) {
  if constexpr (vector_tiles_apply<Sel>) {
    using T = typename Sel::item_type;
    namespace dl = lookback;
    constexpr int KV = segmented_vectors_per_thread;
    const std::int64_t tiles = ceil_div(n, std::int64_t{KV} * block * tile::vector_items<T>());
    check_launch_tiles(tiles, "scankit::cuda compaction");
    dl::tree<count_t> tr;
    unsigned long long* counter = dl::carve_tree(tr, tiles, ws, s);
    const std::size_t smem = segmented_smem_bytes<KV>(block);
    // Four blocks per SM (64 registers) for predicates; flags and run starts keep more per
    // lane (flag words, the previous vector) and would spill there, so they get 3.
    constexpr int min_blocks = has_flag_words<Sel> || Sel::needs_prev ? 3 : 4;
    auto kernel = segmented_kernel<KV, min_blocks, Sel>;
    allow_shared_memory(kernel, smem);
    launch_after("launch of segmented_kernel", kernel, static_cast<unsigned>(tiles), block, smem, s, in, n, sel, out, tr,
                 counter, p.first_delay_ns, p.prefetch);
  }
}

template <specialized_shape sh, class Sel>
auto specialized_kernel_of() {
  return specialized_kernel<sh.consumers, sh.vectors_per_thread, sh.stages, sh.min_blocks_per_sm, sh.count_warps, Sel>;
}

/// Launches the warp-specialized kernel of shape `sh`; false (nothing launched) where a block
/// does not fit the device's shared memory or SM, or the tiles need more tree levels than the
/// counts tree holds (over 2^25 tiles).
template <specialized_shape sh, class Sel>
bool launch_specialized_shape(const typename Sel::item_type* in, std::int64_t n, const Sel& sel,
                              const outputs<typename Sel::item_type>& out, arena& ws, cudaStream_t s) {
  using T = typename Sel::item_type;
  namespace dl = lookback;
  constexpr int B = sh.consumers, KV = sh.vectors_per_thread, S = sh.stages;
  const std::int64_t tiles = ceil_div(n, std::int64_t{B} * KV * tile::vector_items<T>());
  check_launch_tiles(tiles, "scankit::cuda compaction");
  if (dl::levels_for(tiles) > counts_tree::max_levels) return false;
  constexpr int threads = B + 32 * specialized_lookback_warps + 32 * sh.count_warps;
  auto kernel = specialized_kernel_of<sh, Sel>();
  const std::size_t smem = std::size_t{S} * specialized_buffer_vectors<B, KV>() * 16;
  if (!fits_shared_memory(kernel, smem)) return false;
  allow_dynamic_shared_memory(kernel, smem);
  int per_sm = 0;
  SCANKIT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
  if (per_sm == 0) return false;
  const std::int64_t grid = std::min<std::int64_t>(tiles, std::int64_t{per_sm} * current_device_info().sm_count);
  dl::tree<count_t> tr;
  unsigned long long* counter = dl::carve_tree(tr, tiles, ws, s);
  launch_after("launch of specialized_kernel", kernel, static_cast<unsigned>(grid), threads, smem, s, in, n, tiles,
               sel, out, tr, counter);
  return true;
}

/// Launches the warp-specialized tile of the plan's shape; false where it does not fit.
template <class Sel>
bool launch_specialized(const typename Sel::item_type* in, std::int64_t n, const Sel& sel,
                        const outputs<typename Sel::item_type>& out, arena& ws, const compact_plan& p,
                        cudaStream_t s) {
  if constexpr (vector_tiles_apply<Sel>) {
    constexpr auto shapes = specialized_shapes<sizeof(typename Sel::item_type)>();
    return p.specialized_shape == 0 ? launch_specialized_shape<shapes[0], Sel>(in, n, sel, out, ws, s)
                                    : launch_specialized_shape<shapes[1], Sel>(in, n, sel, out, ws, s);
  } else {
    return false;
  }
}

/// What plan_compact needs to know on the current device: its description and what the
/// warp-specialized kernels of selector Sel (either shape) can do there.
struct compact_facts {
  const device_info* device = nullptr;
  compact_kernels kernels[2];
};

/// The facts of Sel on the current device, looked up once per host thread and device.
template <class Sel>
const compact_facts& device_facts() {
  struct cached {
    int device = -1;
    compact_facts facts;
  };
  thread_local cached c;
  const int dev = current_device();
  if (c.device != dev) {
    compact_facts f;
    f.device = &current_device_info();
    if constexpr (vector_tiles_apply<Sel>) {
      constexpr auto shapes = specialized_shapes<sizeof(typename Sel::item_type)>();
      f.kernels[0].specialized_code = kernel_has_hopper_code(specialized_kernel_of<shapes[0], Sel>());
      f.kernels[1].specialized_code = kernel_has_hopper_code(specialized_kernel_of<shapes[1], Sel>());
    }
    c.facts = f;
    c.device = dev;
  }
  return c.facts;
}

template <class Sel>
void run(const typename Sel::item_type* in, std::int64_t n, const Sel& sel,
         const outputs<typename Sel::item_type>& out, arena& ws, int block, const compact_config& cfg, cudaStream_t s) {
  using T = typename Sel::item_type;
  constexpr int R = vectors_per_thread<T>();
  const compact_facts& facts = device_facts<Sel>();
  compact_request req{.n = n,
                          .item_bytes = sizeof(T),
                          .reads_items = Sel::reads_items,
                          .flag_words = has_flag_words<Sel>,
                          .items_out = out.items != nullptr,
                          .indices_out = out.indices != nullptr,
                          .aligned = out.items != nullptr && tile::vector_aligned(in, out.items),
                          .block = block,
                          .prefetch_pays = guess_prefetch_pays<Sel>,
                          .segmented_prefetch_pays = segmented_prefetch_pays<Sel>,
                          .tile = cfg.tile,
                          .kernels = facts.kernels[cfg.tuning.specialized_shape],
                          .tuning = cfg.tuning};
  compact_plan p = plan_compact(req, *facts.device);
  if (p.tile == compact_tile::specialized) {
    if (launch_specialized(in, n, sel, out, ws, p, s)) return;
    req.kernels.specialized_fits = false;
    p = plan_compact(req, *facts.device);
  }
  switch (p.tile) {
    case compact_tile::segmented: return launch_segmented(in, n, sel, out, ws, block, p, s);
    case compact_tile::small: return launch<(R > 1 ? R / 2 : 1), 4>(in, n, sel, out, ws, block, p.prefetch, s);
    default: return launch<R, 3>(in, n, sel, out, ws, block, p.prefetch, s);
  }
}

}  // namespace single_pass

}  // namespace scankit::cuda::detail::compact
