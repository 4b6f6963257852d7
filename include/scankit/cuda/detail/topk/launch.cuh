// The GPU top-k's host drivers: the workspace layout and the launches of each path (the plan
// in plan.hpp chooses the path, kernels.cuh and block_select.cuh hold the kernels).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "scankit/cuda/detail/arena.hpp"
#include "scankit/cuda/detail/device.cuh"  // allow_dynamic_shared_memory
#include "scankit/cuda/detail/error.cuh"
#include "scankit/cuda/detail/topk/block_select.cuh"
#include "scankit/cuda/detail/topk/kernels.cuh"
#include "scankit/cuda/detail/topk/plan.hpp"
#include "scankit/cuda/detail/topk/sort_path.cuh"
#include "scankit/cuda/detail/topk/warp_select.cuh"
#include "scankit/cuda/sort.hpp"

namespace scankit::cuda::detail::topk {

inline constexpr int pass_unroll = 8;
inline constexpr int filter_vectors = 4;  // 16-byte vectors per lane per step of the filter
inline constexpr int hist_bins = 1 << grid_digit_bits;

/// The select's digits: the rank's from the top in `bits`-bit steps, then the position's.
inline int make_digits(int rank_bits, int position_bits, bool with_positions, digit* out) {
  int n = 0;
  for (int top = rank_bits; top > 0; top -= grid_digit_bits)
    out[n++] = {0, std::max(0, top - grid_digit_bits), std::min(grid_digit_bits, top)};
  if (with_positions)
    for (int top = position_bits; top > 0; top -= grid_digit_bits)
      out[n++] = {1, std::max(0, top - grid_digit_bits), std::min(grid_digit_bits, top)};
  return n;
}

/// The workspace of one array's top-k, carved in one order by both the size and the run.
struct array_workspace {
  select_state* states = nullptr;  // [0] the main select, [1] the sample's
  u64* hist = nullptr;
  u64 *cand_rank = nullptr, *cand_pos = nullptr;
  u64 *w_rank = nullptr, *w_pos = nullptr;
  void* sort_ws = nullptr;
  std::size_t sort_bytes = 0;
};

inline array_workspace carve_array(arena& a, const plan& p, std::int64_t k, std::size_t sort_bytes) {
  array_workspace w;
  w.states = a.take<select_state>(2);
  w.hist = a.take<u64>(hist_bins);
  w.cand_rank = a.take<u64>(p.capacity);
  w.cand_pos = a.take<u64>(p.capacity);
  w.w_rank = a.take<u64>(k);
  w.w_pos = a.take<u64>(k);
  w.sort_ws = a.take<unsigned char>(static_cast<std::int64_t>(sort_bytes));
  w.sort_bytes = sort_bytes;
  return w;
}

template <class K>
void run_array(const K* in, std::int64_t n, std::int64_t k, bool largest, K* values, std::int64_t* indices,
               const plan& p, const array_workspace& w, cudaStream_t stream) {
  const unsigned grid = static_cast<unsigned>(p.pass_grid);
  init_selects<><<<1, 256, 0, stream>>>(w.states, w.hist, hist_bins, k, p.sample_k);
  SCANKIT_LAUNCH_CHECK("scankit::cuda::topk init_selects");
  const source<K> whole{in, n, 0, 0, w.cand_rank, w.cand_pos, largest};
  digit digits[16];
  // ---- sampled path: the sample's threshold, then one read keeps the keys at or below it ----
  if (p.path == topk_path::sampled) {
    const source<K> sample{in, p.groups * p.group, p.group, p.stride, nullptr, nullptr, largest};
    const std::int64_t sample_grid = std::clamp<std::int64_t>(sample.n / (pass_threads * pass_unroll), 1, p.pass_grid);
    const int nd = make_digits(p.rank_bits, p.position_bits, false, digits);
    for (int d = 0; d < nd; ++d) {
      select_pass<K, grid_digit_bits, pass_unroll><<<static_cast<unsigned>(sample_grid), pass_threads, 0, stream>>>(
          sample, &w.states[1], w.hist, digits[d], 0, nullptr, nullptr, 0, nullptr, nullptr);
      SCANKIT_LAUNCH_CHECK("scankit::cuda::topk select_pass (sample)");
    }
    filter_pass<K, filter_vectors><<<grid, pass_threads, 0, stream>>>(in, n, largest, &w.states[1], &w.states[0],
                                                                     p.capacity, w.cand_rank, w.cand_pos);
    SCANKIT_LAUNCH_CHECK("scankit::cuda::topk filter_pass");
    begin_main<><<<1, 1, 0, stream>>>(&w.states[0], k, p.capacity);
    SCANKIT_LAUNCH_CHECK("scankit::cuda::topk begin_main");
  }
  // ---- the select over the candidates (or the whole input), then the k winners ----
  const int nd = make_digits(p.rank_bits, p.position_bits, true, digits);
  for (int d = 0; d < nd; ++d) {
    select_pass<K, grid_digit_bits, pass_unroll><<<grid, pass_threads, 0, stream>>>(
        whole, &w.states[0], w.hist, digits[d], p.capacity, w.cand_rank, w.cand_pos, k, w.w_rank, w.w_pos);
    SCANKIT_LAUNCH_CHECK("scankit::cuda::topk select_pass");
  }
  collect_pass<K, pass_unroll><<<grid, pass_threads, 0, stream>>>(whole, &w.states[0], k, w.w_rank, w.w_pos);
  SCANKIT_LAUNCH_CHECK("scankit::cuda::topk collect_pass");
  // ---- order them: by position, then stably by rank ----
  segmented_sort::sort_u64_pairs(w.w_pos, w.w_rank, k, p.position_bits, w.sort_ws, w.sort_bytes, stream);
  segmented_sort::sort_u64_pairs(w.w_rank, w.w_pos, k, p.rank_bits, w.sort_ws, w.sort_bytes, stream);
  gather_winners<<<static_cast<unsigned>(std::clamp<std::int64_t>((k + 255) / 256, 1, 4096)), 256, 0, stream>>>(
      in, w.w_pos, k, values, indices);
  SCANKIT_LAUNCH_CHECK("scankit::cuda::topk gather_winners");
}

template <class K>
void run_warp(const K* in, const std::int64_t* positions, segments_of seg, std::int64_t count, std::int64_t longest,
              std::int64_t k, bool largest, K* values, std::int64_t* indices, const device_info& d, cudaStream_t stream) {
  constexpr int warps_per_block = warp_path_threads / 32;
  const unsigned grid = static_cast<unsigned>(std::clamp<std::int64_t>(
      (count + warps_per_block - 1) / warps_per_block, 1, std::int64_t{std::max(1, d.sm_count)} * 64));
  // Segments of up to 256 keys hold 8 per lane; longer ones 32.
  if (longest <= 256)
    warp_select<K, 8><<<grid, warp_path_threads, 0, stream>>>(in, positions, seg, count, k, largest, values, indices);
  else
    warp_select<K, warp_max_items>
        <<<grid, warp_path_threads, 0, stream>>>(in, positions, seg, count, k, largest, values, indices);
  SCANKIT_LAUNCH_CHECK("scankit::cuda::topk warp_select");
}

/// One block per segment, or per chunk of a row where `chunk` > 0 (count is then the chunks);
/// `in_order`: the winners in position order, unsorted (a level another level selects from).
template <class K>
void run_block(const K* in, const std::int64_t* positions, segments_of seg, std::int64_t chunk, std::int64_t count,
               std::int64_t longest, std::int64_t k, bool largest, K* values, std::int64_t* indices,
               const device_info& d, cudaStream_t stream, bool in_order = false) {
  block_shape b = block_shape_for(k, chunk > 0 ? chunk : longest, sizeof(K), d);
  if (in_order) b.padded_k = 0, b.shared_bytes = block_shared_bytes(0, b.shared_keys, sizeof(K));  // no winners to sort
  auto kernel = segment_select<K>;
  // Past 48 KiB in all a launch needs the opt-in; it is set once per device to the most any call
  // may take, so that calls from several threads never lower it under each other.
  if (b.shared_bytes + block_static_allowance > 48 * 1024)
    allow_dynamic_shared_memory(kernel, std::max<std::size_t>(d.smem_per_block_optin, 48 * 1024) - block_static_allowance);
  const unsigned grid = static_cast<unsigned>(std::clamp<std::int64_t>(count, 1, std::int64_t{1} << 30));
  kernel<<<grid, block_path_threads, b.shared_bytes, stream>>>(in, positions, seg, chunk, count, k, b.padded_k,
                                                              b.shared_keys, largest, in_order, values, indices);
  SCANKIT_LAUNCH_CHECK("scankit::cuda::topk segment_select");
}

/// Rows (one array as one row) on the warp or the block path. Rows split into chunks (plan.chunk)
/// run in levels: each selects the k best of every chunk into rows of (chunks x k) winners with
/// their positions, until a row fits one block, whose level writes the results. Ties stay
/// broken by position: each level writes a chunk's winners in position order, so a row's
/// winners stand in the order of their positions.
template <class K>
void run_rows(const K* in, std::int64_t rows, std::int64_t cols, std::int64_t k, bool largest, K* values,
              std::int64_t* indices, const plan& p, void* workspace, std::size_t workspace_bytes,
              const device_info& d, cudaStream_t stream) {
  const K* src = in;
  const std::int64_t* src_pos = nullptr;
  if (p.chunk > 0) {
    arena a(workspace, workspace_bytes);
    K* level_v[2] = {a.take<K>(p.chunk_winners), a.take<K>(p.next_winners)};
    std::int64_t* level_p[2] = {a.take<std::int64_t>(p.chunk_winners), a.take<std::int64_t>(p.next_winners)};
    const std::int64_t held = block_shape_for(k, -1, sizeof(K), d).shared_keys;
    int out = 0;
    for (std::int64_t chunk = p.chunk; chunk > 0; chunk = chunk_for(cols, k, held), out ^= 1) {
      const std::int64_t per_row = (cols + chunk - 1) / chunk;
      run_block(src, src_pos, segments_of{nullptr, nullptr, cols}, chunk, rows * per_row, chunk, k, largest,
                level_v[out], level_p[out], d, stream, true);
      src = level_v[out], src_pos = level_p[out], cols = per_row * k;
    }
  }
  const segments_of seg{nullptr, nullptr, cols};
  const bool warp_fits = k <= warp_max_k && cols <= std::int64_t{warp_max_items} * 32;
  if (p.path == topk_path::warp || (p.warp_last && warp_fits))
    run_warp(src, src_pos, seg, rows, cols, k, largest, values, indices, d, stream);
  else
    run_block(src, src_pos, seg, 0, rows, cols, k, largest, values, indices, d, stream);
}

}  // namespace scankit::cuda::detail::topk
