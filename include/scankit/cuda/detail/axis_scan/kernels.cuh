// The scan along an axis: its kernels. Every kernel takes the plan's fields (`lines`) and
// loops its warps over work items (plan.hpp says how the items are cut); launch.cuh picks and
// launches them. Operands are always combined op(earlier, later): operators need not commute.
#pragma once

#include <algorithm>
#include <cstdint>

#include "scankit/cuda/detail/axis_scan/tuning.hpp"
#include "scankit/cuda/detail/common.cuh"

namespace scankit::cuda::detail::axis_scan {

inline constexpr unsigned full_mask = 0xffffffffu;

// Shuffles of any item (cols<T, C> too), one 32-bit word at a time where the hardware has no
// overload: the library's warp primitives (detail/warp/shuffle.cuh).
using detail::shfl_idx;
using detail::shfl_up;
using detail::warp_inclusive_scan;

/// The plan's fields a kernel reads.
struct lines {
  std::int64_t outer, len, inner;
  std::int64_t planes, rows, chunks, groups, items;
};

/// A step of a work item of m items at `in`, in warp order: v[u] = item s0 + 32 u + lane, the
/// identity past the item's end. The N loads are independent, so they are in flight together.
template <int N, class T>
__device__ __forceinline__ void load_warp_order(const T* in, std::int64_t s0, std::int64_t m, int lane,
                                                T identity, T (&v)[N]) {
#pragma unroll
  for (int u = 0; u < N; ++u) {
    const std::int64_t i = s0 + u * 32 + lane;
    v[u] = i < m ? in[i] : identity;
  }
}

// ---- narrow lines (inner < 32) -----------------------------------------------------------
// A work item is a contiguous run of elements starting at a row boundary; step k holds
// elements [32k, 32k + 32) of it, lane l element 32k + l, whose column is (32k + l) % inner.
// Lanes l and l - d (d a multiple of inner) share a column, so a Hillis-Steele scan over the
// offsets inner, 2 inner, 4 inner, ... < 32 scans every column within the step. The element of
// the same column one row up from lane l < inner is lane 32 - inner + l in the previous step;
// lane 32 - inner + l % inner of the previous step holds the running value of lane l's column.
// In whole-plane items the first row of each plane starts a new line (a head): the values carry
// (head flag, value) pairs through the shuffles, and the carry-in stops at heads. In and out may
// be the same array: a warp loads its steps before it writes them, and work items do not overlap.
template <class Op, bool Totals, bool Planes>
__global__ void __launch_bounds__(block_threads)
    narrow_kernel(const typename Op::value_type* in, typename Op::value_type* out, lines p,
                  typename Op::value_type* ws, typename Op::value_type init, bool exclusive) {
  using T = typename Op::value_type;
  const Op op{};
  const int lane = threadIdx.x & 31;
  const int B = static_cast<int>(p.inner);
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const std::int64_t warps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  const std::int64_t n = p.outer * p.len * p.inner;
  constexpr bool whole_planes = Planes;  // a template parameter: row chunks shuffle no head flags
  const auto plane = static_cast<unsigned>(whole_planes ? p.len * p.inner : p.inner);
  for (std::int64_t w = warp; w < p.items; w += warps) {
    std::int64_t begin, end, a = 0, c = 0;
    if (whole_planes) {
      begin = w * p.planes * p.len * p.inner;
      end = std::min(n, begin + p.planes * p.len * p.inner);
    } else {
      a = w / p.chunks;
      c = w % p.chunks;
      if (Totals && c == p.chunks - 1) continue;  // the last chunk's total is never needed
      const std::int64_t r0 = c * p.rows, r1 = std::min(p.len, r0 + p.rows);
      begin = (a * p.len + r0) * p.inner;
      end = (a * p.len + r1) * p.inner;
    }
    const std::int64_t m = end - begin;
    // Step -1's running values: the chunk's carry-in per column (lane 32 - B + col).
    T prev = op.identity();
    if (!whole_planes && !Totals && lane >= 32 - B) {
      const int col = lane - 32 + B;
      prev = p.chunks > 1 ? ws[(a * p.chunks + c) * p.inner + col] : init;
    }
    unsigned pos = static_cast<unsigned>(lane) % plane;  // position in the plane (or row)
    for (std::int64_t s0 = 0; s0 < m; s0 += 32 * unroll) {
      T v[unroll];
      load_warp_order(in + begin, s0, m, lane, op.identity(), v);
#pragma unroll
      for (int u = 0; u < unroll; ++u) {
        const std::int64_t i = s0 + u * 32 + lane;
        if (s0 + u * 32 >= m) break;  // the same for the whole warp
        const bool head = whole_planes && !Totals && pos < static_cast<unsigned>(B);
        const int col = static_cast<int>(pos % static_cast<unsigned>(B));
        T x = head ? op(init, v[u]) : v[u];
        bool f = head;
        for (int d = B; d < 32; d <<= 1) {
          const T tx = shfl_up(x, d);
          if constexpr (Planes) {
            const bool tf = __shfl_up_sync(full_mask, f, d) != 0;
            if (lane >= d) {
              if (!f) x = op(tx, x);
              f = f || tf;
            }
          } else if (lane >= d) {
            x = op(tx, x);
          }
        }
        const T carry = shfl_idx(prev, 32 - B + lane % B);
        const T incl = f ? x : op(carry, x);
        if constexpr (Totals) {
          if (i < m && i >= m - B) ws[(a * p.chunks + c) * p.inner + col] = incl;
        } else {
          const T up = shfl_up(incl, B);
          if (i < m) out[begin + i] = !exclusive ? incl : head ? init : lane >= B ? up : carry;
        }
        prev = incl;
        pos = (pos + 32u) % plane;
      }
    }
  }
}

// ---- lines along the last axis (inner == 1): eight items per lane ----------------------------
// Also lines of 2 or 4 interleaved columns (inner 2 or 4, arrays aligned to a row of them),
// taken as lines of one element per row (cols below) and the operator applied per column.
// A step is 256 consecutive items of a work item, lane l holding items [8 l, 8 l + 8): loaded
// and stored in warp order (coalesced) and handed between the two orders through the warp's
// slice of shared memory. Each lane scans its eight items serially, then one shuffle scan of
// the lanes' totals finishes the step: one per 256 items where the narrow kernel, with its
// lanes in warp order, needs one per 32 (on long rows of 4-byte items that kernel is bound by
// its instructions, not by memory). In whole-row items (p.planes > 0) an item at a row's
// start is a head: its scan starts from init, and lanes and steps carry nothing across it.
inline constexpr int row_step = 32 * row_items;

/// C adjacent columns' items of one row, moved and combined as one element.
template <class T, int C>
struct alignas(C * sizeof(T)) cols {
  T v[C];
};

/// Op applied to each column of cols<T, C>.
template <class Op, int C>
struct cols_op {
  using item = typename Op::value_type;
  using value_type = cols<item, C>;
  __device__ static value_type identity() {
    value_type r;
#pragma unroll
    for (int i = 0; i < C; ++i) r.v[i] = Op{}.identity();
    return r;
  }
  __device__ value_type operator()(const value_type& a, const value_type& b) const {
    value_type r;
#pragma unroll
    for (int i = 0; i < C; ++i) r.v[i] = Op{}(a.v[i], b.v[i]);
    return r;
  }
};

// Shared-memory slot of item i of a step: one slot of padding per 32 items, so that the lanes'
// reads of their own eight items (stride 8) spread over the banks (4-byte items: one each).
__device__ __forceinline__ int row_slot(int i) {
  return i + (i >> 5);
}

template <class Op, bool Totals>
__global__ void __launch_bounds__(block_threads)
    row_kernel(const typename Op::value_type* in, typename Op::value_type* out, lines p,
               typename Op::value_type* ws, typename Op::value_type init, bool exclusive) {
  using T = typename Op::value_type;
  constexpr int V = row_items;
  __shared__ T stage[block_warps][row_step + row_step / 32];
  const Op op{};
  const int lane = threadIdx.x & 31;
  T* sh = stage[threadIdx.x >> 5];
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const std::int64_t warps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  const std::int64_t n = p.outer * p.len;
  const bool rows = p.planes > 0;  // whole-row items (heads) rather than chunks of one row
  // Row length and the step's advance along it, for the heads (whole rows are short: plane <= 2048).
  const unsigned row = rows ? static_cast<unsigned>(p.len) : 1u;
  const unsigned advance = rows ? static_cast<unsigned>(row_step % p.len) : 0u;
  for (std::int64_t w = warp; w < p.items; w += warps) {
    std::int64_t begin, end, a = 0, c = 0;
    if (rows) {
      begin = w * p.planes * p.len;
      end = std::min(n, begin + p.planes * p.len);
    } else {
      a = w / p.chunks;
      c = w % p.chunks;
      if (Totals && c == p.chunks - 1) continue;  // the last chunk's total is never needed
      begin = a * p.len + c * p.rows;
      end = a * p.len + std::min(p.len, (c + 1) * p.rows);
    }
    const std::int64_t m = end - begin;
    // The running value before the step: a chunk's carry-in (init for a line's first chunk).
    T carry = op.identity();
    if (!rows && !Totals) carry = p.chunks > 1 ? ws[a * p.chunks + c] : init;
    unsigned pos = rows ? static_cast<unsigned>(lane * V) % row : 1u;  // lane's first item in its row
    for (std::int64_t s0 = 0; s0 < m; s0 += row_step) {
      // ---- load in warp order, hand over to lane order ----
      T v[V];
      load_warp_order(in + begin, s0, m, lane, op.identity(), v);
#pragma unroll
      for (int u = 0; u < V; ++u) sh[row_slot(u * 32 + lane)] = v[u];
      __syncwarp();
#pragma unroll
      for (int j = 0; j < V; ++j) v[j] = sh[row_slot(lane * V + j)];
      __syncwarp();
      // ---- the lane's serial scan; heads restart it from init ----
      const std::int64_t first = s0 + lane * V;  // the lane's first item in the work item
      unsigned heads = 0;                        // bit j: item j starts a row
      T acc = op.identity();
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const bool head = rows && pos == 0;
        if (rows) pos = pos + 1 == row ? 0u : pos + 1;
        if (first + j >= m) continue;  // past the item's end: combines nothing
        heads |= head ? 1u << j : 0u;
        acc = head ? op(init, v[j]) : j == 0 ? v[j] : op(acc, v[j]);
        v[j] = acc;
      }
      if (rows) {  // the next step's first item of this lane
        pos = pos + (advance + row - V % row) % row;
        if (pos >= row) pos -= row;
      }
      // ---- the lanes' totals: a segmented shuffle scan, then the step's carry ----
      T x = acc;
      int cut = heads != 0;  // a head in this lane or, after the scan, in one up to it
#pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const T tx = shfl_up(x, d);
        const int tc = __shfl_up_sync(full_mask, cut, d);
        if (lane >= d) {
          if (!cut) x = op(tx, x);
          cut |= tc;
        }
      }
      const T incl = cut ? x : op(carry, x);  // the running value after this lane's items
      T before = shfl_up(incl, 1u);
      if (lane == 0) before = carry;
      const std::int64_t left = m - s0;  // items of this step: the last valid lane holds the total
      carry = shfl_idx(incl, left >= row_step ? 31 : static_cast<int>((left - 1) / V));
      if constexpr (!Totals) {
        // ---- items before the lane's first head take the running value before the lane ----
        T prev = before;
#pragma unroll
        for (int j = 0; j < V; ++j) {
          const bool head = (heads >> j) & 1u;
          if (!(heads & ((2u << j) - 1u))) v[j] = op(before, v[j]);
          const T keep = v[j];
          if (exclusive) v[j] = head ? init : prev;
          prev = keep;
        }
        // ---- back to warp order, store ----
#pragma unroll
        for (int j = 0; j < V; ++j) sh[row_slot(lane * V + j)] = v[j];
        __syncwarp();
#pragma unroll
        for (int u = 0; u < V; ++u) {
          const std::int64_t i = s0 + u * 32 + lane;
          const T y = sh[row_slot(u * 32 + lane)];
          if (i < m) out[begin + i] = y;
        }
        __syncwarp();
      }
    }
    if constexpr (Totals) {
      if (lane == 0) ws[a * p.chunks + c] = carry;
    }
  }
}

// ---- wide lines (inner >= 32): lane l of a work item scans column 32 g + l down its rows ----
template <class Op, bool Totals>
__global__ void __launch_bounds__(block_threads)
    wide_kernel(const typename Op::value_type* in, typename Op::value_type* out, lines p,
                typename Op::value_type* ws, typename Op::value_type init, bool exclusive) {
  using T = typename Op::value_type;
  const Op op{};
  const int lane = threadIdx.x & 31;
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const std::int64_t warps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  for (std::int64_t w = warp; w < p.items; w += warps) {
    const std::int64_t g = w % p.groups;
    const std::int64_t c = (w / p.groups) % p.chunks;
    const std::int64_t a = w / (p.groups * p.chunks);
    if (Totals && c == p.chunks - 1) continue;
    const std::int64_t col = g * 32 + lane;
    if (col >= p.inner) continue;
    const std::int64_t r0 = c * p.rows, r1 = std::min(p.len, r0 + p.rows);
    T carry = Totals ? op.identity() : p.chunks > 1 ? ws[(a * p.chunks + c) * p.inner + col] : init;
    const T* x = in + a * p.len * p.inner + col;
    T* y = out + a * p.len * p.inner + col;
    for (std::int64_t r = r0; r < r1; r += unroll) {
      T v[unroll];
#pragma unroll
      for (int u = 0; u < unroll; ++u) v[u] = r + u < r1 ? x[(r + u) * p.inner] : op.identity();
#pragma unroll
      for (int u = 0; u < unroll; ++u) {
        if (r + u >= r1) break;
        const T next = op(carry, v[u]);
        if constexpr (!Totals) y[(r + u) * p.inner] = exclusive ? carry : next;
        carry = next;
      }
    }
    if constexpr (Totals) ws[(a * p.chunks + c) * p.inner + col] = carry;
  }
}

// ---- chunk totals to carry-ins: one warp per line, in place ---------------------------------
// carry[0] = init, carry[c] = carry[c-1] . total[c-1] (earlier operand first).
template <class Op>
__global__ void __launch_bounds__(block_threads)
    carry_kernel(lines p, typename Op::value_type* ws, typename Op::value_type init) {
  using T = typename Op::value_type;
  const Op op{};
  const int lane = threadIdx.x & 31;
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const std::int64_t warps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  const std::int64_t lines_total = p.outer * p.inner;
  for (std::int64_t line = warp; line < lines_total; line += warps) {
    const std::int64_t a = line / p.inner, col = line % p.inner;
    T running = init;
    for (std::int64_t c0 = 0; c0 < p.chunks; c0 += 32) {
      const std::int64_t c = c0 + lane;
      T* slot = ws + (a * p.chunks + c) * p.inner + col;
      const T incl = warp_inclusive_scan(c < p.chunks ? *slot : op.identity(), op);
      const T before = shfl_up(incl, 1u);
      if (c < p.chunks) *slot = lane == 0 ? running : op(running, before);
      running = op(running, shfl_idx(incl, 31));
    }
  }
}

/// The same for few lines of many chunks: one block per line, each thread a run of chunks
/// (a warp per line would walk thousands of chunks one dependent step after another).
template <class Op>
__global__ void __launch_bounds__(carry_block_threads)
    carry_block_kernel(lines p, typename Op::value_type* ws, typename Op::value_type init) {
  using T = typename Op::value_type;
  const Op op{};
  __shared__ T warp_totals[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  const std::int64_t per = (p.chunks + blockDim.x - 1) / blockDim.x;
  const std::int64_t lines_total = p.outer * p.inner;
  for (std::int64_t line = blockIdx.x; line < lines_total; line += gridDim.x) {
    const std::int64_t a = line / p.inner, col = line % p.inner;
    T* base = ws + a * p.chunks * p.inner + col;
    const std::int64_t c0 = threadIdx.x * per, c1 = c0 + per < p.chunks ? c0 + per : p.chunks;
    T local = op.identity();
    for (std::int64_t c = c0; c < c1; ++c) local = op(local, base[c * p.inner]);
    const T incl = warp_inclusive_scan(local, op);  // of the threads' totals, in thread order
    if (lane == 31) warp_totals[warp] = incl;
    __syncthreads();
    if (warp == 0)  // inclusive over warps
      warp_totals[lane] = warp_inclusive_scan(lane < warps ? warp_totals[lane] : op.identity(), op);
    __syncthreads();
    const T before_lane = shfl_up(incl, 1u);
    T prefix = warp > 0 ? op(init, warp_totals[warp - 1]) : init;
    if (lane > 0) prefix = op(prefix, before_lane);
    for (std::int64_t c = c0; c < c1; ++c) {
      const T t = base[c * p.inner];
      base[c * p.inner] = prefix;
      prefix = op(prefix, t);
    }
    __syncthreads();  // warp_totals is reused by the next line
  }
}

}  // namespace scankit::cuda::detail::axis_scan
