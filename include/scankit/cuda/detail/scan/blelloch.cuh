// blelloch / blelloch-conflict-free: the work-efficient scan (Blelloch 1990) per block in
// shared memory, two items per thread, tiles of 2 * blockDim.x items.
//
// Load: thread t loads items t and t + B of its tile (B = blockDim.x), so a warp's loads and
// stores are coalesced; past n the tile is padded with op.identity().
// Up-sweep (reduce): a balanced tree over the 2B items; at the level of stride `off` thread
// t < B / off combines the node pair (a, b) = (off(2t+1) - 1, off(2t+2) - 1):
//     s[b] = op(s[a], s[b])            (left subtree first: the order is preserved)
// The root then holds the tile's aggregate; it is saved as the tile sum and replaced by the
// tile's carry-in (init for tile 0, identity for the others).
// Down-sweep: from the root down, every node passes its prefix p to its children:
//     left child  <- p
//     right child <- op(p, sum of the left subtree)
// after which s[i] is the exclusive scan of the tile; the inclusive one is op(s[i], x_i).
// detail::scan_multilevel scans the tile sums with the same kernel and adds the prefixes back.
//
// Barriers: a level where more than 32 threads work ends with __syncthreads(); the levels
// near the root (at most 32 working threads, all in warp 0) run in warp 0 alone with
// __syncwarp(), which orders its lanes' shared-memory accesses, so the rest of the block
// skips 2 * 6 barriers per tile.
//
// Conflict-free variant: the strided tree accesses hit the same shared-memory bank (2-way at
// the leaves, up to 32-way higher up). Index i is stored at i + (i >> LOG_ROW), LOG_ROW being
// log2 of the items per 128-byte bank row (5 for 4-byte items, 4 for 8-byte ones, ...), which
// skews each row of the tree onto different banks (the padding of GPU Gems 3, ch. 39).
//
// Shared memory: (2B + (2B >> LOG_ROW)) * sizeof(T) with padding, 2B * sizeof(T) without.
#pragma once

#include "scankit/cuda/detail/common.cuh"

namespace scankit::cuda::detail::blelloch {

/// 128 threads (tiles of 256): the fastest block size for 4- and 8-byte items. Small blocks win
/// because the tree walk is latency-bound: with 16 resident blocks per SM
/// instead of 2, one block's barriers and near-root levels overlap the others' work.
inline constexpr int default_block_size = 128;

/// The tile sums of every level of the multi-level driver (tile = 2 * block size).
inline std::size_t workspace_bytes(std::int64_t n, std::size_t item_bytes, int block_size) {
  if (n <= 0) return 0;
  // tile_sums_bytes() counts nothing for n == 1, but the driver still takes one tile sum.
  const std::size_t levels = tile_sums_bytes(n, 2 * std::int64_t{block_size}, item_bytes);
  const std::size_t one = align_up(item_bytes);
  return levels > one ? levels : one;
}

/// log2 of the items of T that fill one 128-byte row of the 32 four-byte banks.
template <class T>
constexpr unsigned log_items_per_row() {
  constexpr std::size_t sz = sizeof(T);
  if constexpr (sz <= 4) return 5;
  else if constexpr (sz <= 8) return 4;
  else if constexpr (sz <= 16) return 3;
  else if constexpr (sz <= 32) return 2;
  else if constexpr (sz <= 64) return 1;
  else return 0;
}

/// The shared-memory slot of tree index i.
template <bool ConflictFree, class T>
__device__ __forceinline__ unsigned slot(unsigned i) {
  if constexpr (ConflictFree) return i + (i >> log_items_per_row<T>());
  else return i;
}

template <bool ConflictFree, class T>
constexpr std::size_t smem_items(int block_size) {
  const std::size_t items = 2 * static_cast<std::size_t>(block_size);
  return ConflictFree ? items + (items >> log_items_per_row<T>()) : items;
}

/// Up-sweep, one node: the right child's slot takes op(left subtree, right subtree).
template <class T, class Op>
__device__ __forceinline__ void combine_up(const T& left, T& right, Op op) {
  right = op(left, right);
}

/// Down-sweep, one node: the parent's prefix p is in the right child's slot; the left child
/// takes p and the right child op(p, sum of the left subtree).
template <class T, class Op>
__device__ __forceinline__ void pass_prefix_down(T& left, T& right, Op op) {
  const T left_sum = left;
  const T p = right;
  left = p;
  right = op(p, left_sum);
}

/// The tree node of thread `tid` at the level of node stride `off`: its children's slots.
template <bool ConflictFree, class T>
struct node {
  unsigned a, c;
  __device__ __forceinline__ node(unsigned tid, unsigned off)
      : a(slot<ConflictFree, T>(off * (2 * tid + 1) - 1)), c(slot<ConflictFree, T>(off * (2 * tid + 2) - 1)) {}
};

template <bool ConflictFree, class T, class Op>
__global__ void __launch_bounds__(1024)
    blelloch_tile_kernel(const T* in, T* out, std::int64_t n, Op op, bool exclusive, T init,
                         T* sums, std::int64_t tiles) {
  extern __shared__ __align__(16) unsigned char blelloch_smem[];
  T* const s = reinterpret_cast<T*>(blelloch_smem);
  const unsigned tid = threadIdx.x;
  const unsigned b = blockDim.x;          // threads; the tile is 2b items
  const unsigned top = b > 32 ? 32 : b;   // the widest level warp 0 does alone
  const T identity = op.identity();
  for (std::int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const std::int64_t base = tile * (2 * std::int64_t{b});
    const std::int64_t i0 = base + tid, i1 = i0 + b;
    const T x0 = i0 < n ? in[i0] : identity;
    const T x1 = i1 < n ? in[i1] : identity;
    s[slot<ConflictFree, T>(tid)] = x0;
    s[slot<ConflictFree, T>(tid + b)] = x1;

    // Up-sweep, levels with more than 32 working threads: d threads, node stride `off`.
    unsigned d = b, off = 1;
    for (; d > 32; d >>= 1, off <<= 1) {
      __syncthreads();
      if (tid < d) {
        const node<ConflictFree, T> k(tid, off);
        combine_up(s[k.a], s[k.c], op);
      }
    }
    __syncthreads();
    if (tid < 32) {
      // The top of the tree in warp 0: up-sweep for d = top .. 1.
      for (; d > 0; d >>= 1, off <<= 1) {
        if (tid < d) {
          const node<ConflictFree, T> k(tid, off);
          combine_up(s[k.a], s[k.c], op);
        }
        __syncwarp();
      }
      if (tid == 0) {
        const unsigned root = slot<ConflictFree, T>(2 * b - 1);
        const T carry = tile == 0 ? init : identity;
        sums[tile] = op(carry, s[root]);
        s[root] = carry;
      }
      __syncwarp();
      // Down-sweep for d = 1 .. top; the node stride at level d is b / d.
      for (unsigned dd = 1, o = b; dd <= top; dd <<= 1, o >>= 1) {
        if (tid < dd) {
          const node<ConflictFree, T> k(tid, o);
          pass_prefix_down(s[k.a], s[k.c], op);
        }
        __syncwarp();
      }
    }
    // Down-sweep, the wide levels: d = 64 .. b threads.
    for (unsigned dd = 64, o = b >> 6; dd <= b; dd <<= 1, o >>= 1) {
      __syncthreads();
      if (tid < dd) {
        const node<ConflictFree, T> k(tid, o);
        pass_prefix_down(s[k.a], s[k.c], op);
      }
    }
    __syncthreads();
    // Each thread reads back only the two slots it wrote at the top, so the next tile's
    // stores need no barrier before them (the first up-sweep level has one).
    const T e0 = s[slot<ConflictFree, T>(tid)];
    const T e1 = s[slot<ConflictFree, T>(tid + b)];
    if (i0 < n) out[i0] = exclusive ? e0 : op(e0, x0);
    if (i1 < n) out[i1] = exclusive ? e1 : op(e1, x1);
  }
}

template <bool ConflictFree, class T, class Op>
void run(const T* in, T* out, std::int64_t n, Op op, scan_kind kind, T init, T* d_total,
         arena& ws, int block_size, cudaStream_t s) {
  static_assert(alignof(T) <= 16, "blelloch: items aligned beyond 16 bytes");
  const std::size_t smem = smem_items<ConflictFree, T>(block_size) * sizeof(T);
  if (n > 0) allow_dynamic_shared_memory(blelloch_tile_kernel<ConflictFree, T, Op>, smem);
  const std::int64_t tile = 2 * std::int64_t{block_size};
  auto scan_tiles = [&](const T* tin, T* tout, std::int64_t len, scan_kind k, T carry, T* sums) {
    const std::int64_t tiles = ceil_div(len, tile);
    blelloch_tile_kernel<ConflictFree, T, Op>
        <<<grid_for(tiles, std::int64_t{1} << 30), block_size, smem, s>>>(
            tin, tout, len, op, k == scan_kind::exclusive, carry, sums, tiles);
    SCANKIT_LAUNCH_CHECK("blelloch_tile_kernel");
  };
  scan_multilevel<T>(in, out, n, op, kind, init, d_total, ws, tile, block_size, s, scan_tiles);
}

}  // namespace scankit::cuda::detail::blelloch
