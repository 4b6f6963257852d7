// The local steps of scankit::dist's radix sort on GPU ranks (radix_sort.cuh), over a key's
// whole width, for keys of 2 bytes or more; values move as opaque bytes (0, 4, 8 or 16). The
// ranks split their keys by the top 8 bits (ordered, complemented for a descending sort), send
// each rank its range of top digits, and sort what they receive per top digit:
//
//   top_digit_starts    the start of each top digit among a rank's keys
//   split_by_top_digit  one stable onesweep pass by the top digit
//   sort_buckets        segmented onesweep passes over the digits below the top one, per bucket
//
// Built on the CUDA radix sort's onesweep kernels and launch helpers (cuda/detail/sort/), the
// segmented passes' kernels among them (segmented_pass.cuh). Header-only: the translation unit
// that includes the distributed sort instantiates what it uses. Needs no NCCL.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "scankit/cuda/detail/sort/launch.cuh"
#include "scankit/cuda/detail/sort/segmented_pass.cuh"

namespace scankit::cuda::detail {

/// The start of each top digit among n keys (the exclusive scan of the top digits' counts): 256
/// words inside the workspace (top_digit_split_workspace_bytes(n, ...)), valid until the
/// workspace is used again.
template <class K>
const unsigned long long* top_digit_starts(const K* keys, std::int64_t n, const sort_options& opts, void* workspace,
                                           std::size_t workspace_bytes, cudaStream_t stream);

/// One stable pass by the top digit: key i with top digit d goes to keys_out[digit_base[d] + its
/// rank among the keys of digit d]. digit_base: 256 device words.
struct top_digit_split {
  const void* keys_in = nullptr;
  const void* values_in = nullptr;
  void* keys_out = nullptr;
  void* values_out = nullptr;
  std::size_t value_bytes = 0;
  std::int64_t n = 0;
  const unsigned long long* digit_base = nullptr;
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
  cudaStream_t stream = nullptr;
  sort_options options{};
};
template <class K>
void split_by_top_digit(const top_digit_split& r);
inline std::size_t top_digit_split_workspace_bytes(std::int64_t n, std::size_t key_bytes, std::size_t value_bytes);
/// The most keys one split takes (the look-back words count to 2^30).
inline std::int64_t top_digit_split_limit(std::size_t key_bytes, std::size_t value_bytes);

/// The stable sort of `buckets` buckets by the digits below the top one; bucket b arrives as
/// `pieces` pieces, piece j of it (host piece_count[b * pieces + j] items at
/// piece_offset[b * pieces + j] of keys and values), and is written, piece 0's keys first among
/// equal keys, to key_dst[b] and value_dst[b] (host arrays of device pointers). keys and values
/// are scratch after the first pass; keys_alt and values_alt are scratch. Both hold at least
/// the total count, and no destination overlaps keys or values (keys_alt may hold them).
struct bucket_sort {
  void* keys = nullptr;
  void* values = nullptr;
  void* keys_alt = nullptr;
  void* values_alt = nullptr;
  std::size_t value_bytes = 0;
  int buckets = 0;
  int pieces = 0;
  const std::int64_t* piece_offset = nullptr;
  const std::int64_t* piece_count = nullptr;
  void* const* key_dst = nullptr;
  void* const* value_dst = nullptr;
  void* staging = nullptr;  // pinned host memory: bucket_sort_staging_bytes
  std::size_t staging_bytes = 0;
  void* workspace = nullptr;  // bucket_sort_workspace_bytes
  std::size_t workspace_bytes = 0;
  cudaStream_t stream = nullptr;
  sort_options options{};
};
template <class K>
void sort_buckets(const bucket_sort& r);
inline std::size_t bucket_sort_workspace_bytes(std::int64_t total, int buckets, int pieces, std::size_t key_bytes,
                                               std::size_t value_bytes);
inline std::size_t bucket_sort_staging_bytes(int buckets, int pieces);
/// The most keys one bucket may hold (the look-back words count to 2^30).
inline constexpr std::int64_t bucket_sort_limit = (std::int64_t{1} << 30) - 1;

}  // namespace scankit::cuda::detail

namespace scankit::cuda::detail::radix {


template <key_kind Kind, class U>
const unsigned long long* run_top_digit_starts(const U* keys, std::int64_t n, const sort_options& opts, arena& ws,
                                               cudaStream_t s) {
  constexpr int bits = static_cast<int>(sizeof(U)) * 8;
  auto* hist = reinterpret_cast<unsigned long long*>(ws.take<char>(hist_bytes));
  auto* pl = ws.take<plan>(1);
  if (n == 0) {
    clear_async(hist, radix * sizeof(unsigned long long), s);
    return hist;
  }
  // One pass over bits [bits - 8, bits): its histogram, scanned into the digits' starts.
  histogram_and_plan<Kind, U>(keys, n, 1, opts, bits - digit_bits, bits, false, hist, hist_bytes, pl, s);
  return hist;
}

template <key_kind Kind, class U, class V, onesweep_shape shape>
void run_split_by_top_digit(const top_digit_split& r) {
  constexpr int bits = static_cast<int>(sizeof(U)) * 8, top = bits / digit_bits - 1;
  constexpr std::int64_t tile = shape.tile();
  auto kernel = onesweep_kernel_for<Kind, U, V, shape>;
  constexpr std::size_t smem = onesweep_smem_bytes<U, V, shape>;
  allow_dynamic_shared_memory(kernel, smem);
  const std::int64_t tiles = ceil_div(r.n, tile);
  arena ws(r.workspace, r.workspace_bytes);
  ws.take<char>(hist_bytes);  // top_digit_starts' words
  ws.take<plan>(1);
  auto* pl = ws.take<plan>(1);
  auto* base_out = ws.take<unsigned long long>(radix);
  unsigned* words = ws.take<unsigned>(lookback_header_words + tiles * radix);
  plan p{};
  p.active[top] = 1, p.src[top] = 0, p.dst[top] = 1, p.raw_out[top] = 1;
  write_plan_kernel<><<<1, 1, 0, r.stream>>>(pl, p);
  SCANKIT_LAUNCH_CHECK("radix::write_plan_kernel");
  clear_async(words, sizeof(unsigned) * static_cast<std::size_t>(lookback_header_words + tiles * radix), r.stream);
  buffers<U, V> buf{};
  buf.keys[0] = const_cast<U*>(static_cast<const U*>(r.keys_in));
  buf.keys[1] = static_cast<U*>(r.keys_out);
  if constexpr (has_values<V>) {
    buf.values[0] = const_cast<V*>(static_cast<const V*>(r.values_in));
    buf.values[1] = static_cast<V*>(r.values_out);
  }
  launch_after("launch of radix::onesweep_kernel (top digit)", kernel, static_cast<unsigned>(tiles), shape.block, smem,
               r.stream, pl, top, buf, std::int64_t{0}, r.n, make_digit<Kind, U>(r.options, 0, bits, top),
               lookback_words{words, words + lookback_header_words}, lookback_words{nullptr, nullptr}, std::int64_t{-1},
               r.digit_base, base_out, segment_table{});
}

/// The tables of a bucket sort, staged in pinned host memory and copied to the workspace in
/// one transfer: the first pass's segments (the pieces, bucket-major), the later passes' (the
/// buckets), their destinations, and the plan.
struct bucket_tables {
  std::int64_t* first_tile;  // pieces + 1, then buckets + 1
  std::int64_t* begin;       // pieces, then buckets
  std::int64_t* end;
  void** key_dst;            // pieces (first pass), then buckets x 3 (alternate 0, alternate 1, final)
  void** value_dst;
  plan* pl;
  static std::size_t bytes(int buckets, int pieces) {
    const std::size_t segs = static_cast<std::size_t>(buckets) * static_cast<std::size_t>(pieces);
    const std::size_t b = static_cast<std::size_t>(buckets);
    return 3 * align_up(sizeof(std::int64_t) * (segs + b + 2)) + 2 * align_up(sizeof(void*) * (segs + 3 * b)) +
           align_up(sizeof(plan));
  }
  static bucket_tables at(void* base, int buckets, int pieces) {
    arena a(base, bytes(buckets, pieces));
    const std::int64_t segs = static_cast<std::int64_t>(buckets) * pieces;
    bucket_tables t;
    t.first_tile = a.take<std::int64_t>(segs + buckets + 2);
    t.begin = a.take<std::int64_t>(segs + buckets + 2);
    t.end = a.take<std::int64_t>(segs + buckets + 2);
    t.key_dst = a.take<void*>(segs + 3 * buckets);
    t.value_dst = a.take<void*>(segs + 3 * buckets);
    t.pl = a.take<plan>(1);
    return t;
  }
};

template <key_kind Kind, class U, class V, onesweep_shape shape>
void run_bucket_sort(const bucket_sort& r) {
  constexpr int bits = static_cast<int>(sizeof(U)) * 8, passes = bits / digit_bits - 1;
  static_assert(passes >= 1, "the bucket sort is for keys of 2 bytes or more");
  // An odd number of passes ends reading r.keys, so the last pass may write into keys_alt.
  static_assert(passes % 2 == 1, "the bucket sort's passes alternate between two buffers");
  constexpr std::int64_t tile = shape.tile();
  auto kernel = onesweep_kernel_for<Kind, U, V, shape, true>;
  constexpr std::size_t smem = onesweep_smem_bytes<U, V, shape>;
  allow_dynamic_shared_memory(kernel, smem);
  cudaStream_t s = r.stream;
  const int B = r.buckets, J = r.pieces, segs = B * J;
  const auto ub = [](int i) { return static_cast<std::size_t>(i); };

  // ---- the tables, on the host ----
  auto h = bucket_tables::at(r.staging, B, J);
  std::vector<std::int64_t> bucket_start(ub(B) + 1, 0);
  for (int b = 0; b < B; ++b) {
    std::int64_t total = 0;
    for (int j = 0; j < J; ++j) total += r.piece_count[ub(b * J + j)];
    bucket_start[ub(b) + 1] = bucket_start[ub(b)] + total;
  }
  const std::int64_t n = bucket_start[ub(B)];
  if (n == 0) return;
  U* alt_keys[2] = {static_cast<U*>(r.keys_alt), static_cast<U*>(r.keys)};
  V* alt_values[2] = {static_cast<V*>(r.values_alt), static_cast<V*>(r.values)};
  // First pass: piece (b, j) from its offset to bucket b's place in alternate 0 (or its final
  // destination when it is the only pass).
  std::int64_t tiles0 = 0;
  for (int b = 0; b < B; ++b)
    for (int j = 0; j < J; ++j) {
      const int i = b * J + j;
      h.first_tile[i] = tiles0;
      h.begin[i] = r.piece_offset[ub(i)];
      h.end[i] = r.piece_offset[ub(i)] + r.piece_count[ub(i)];
      tiles0 += ceil_div(r.piece_count[ub(i)], tile);
      h.key_dst[i] = passes == 1 ? r.key_dst[b] : static_cast<void*>(alt_keys[0] + bucket_start[ub(b)]);
      h.value_dst[i] = !has_values<V>   ? nullptr
                       : passes == 1    ? r.value_dst[b]
                                        : static_cast<void*>(alt_values[0] + bucket_start[ub(b)]);
    }
  h.first_tile[segs] = tiles0;
  // Later passes: bucket b from its place in the alternate read to its place in the other one,
  // or (the last pass) to its destination.
  std::int64_t tiles1 = 0;
  for (int b = 0; b < B; ++b) {
    h.first_tile[segs + 1 + b] = tiles1;
    h.begin[segs + 1 + b] = bucket_start[ub(b)];
    h.end[segs + 1 + b] = bucket_start[ub(b) + 1];
    tiles1 += ceil_div(bucket_start[ub(b) + 1] - bucket_start[ub(b)], tile);
    for (int a = 0; a < 2; ++a) {
      h.key_dst[segs + a * B + b] = alt_keys[a] + bucket_start[ub(b)];
      h.value_dst[segs + a * B + b] = has_values<V> ? static_cast<void*>(alt_values[a] + bucket_start[ub(b)]) : nullptr;
    }
    h.key_dst[segs + 2 * B + b] = r.key_dst[b];
    h.value_dst[segs + 2 * B + b] = has_values<V> ? r.value_dst[b] : nullptr;
  }
  h.first_tile[segs + 1 + B] = tiles1;
  // The first pass reads the raw keys (buffer 0); later ones the alternates (buffer 2), as
  // sortable bits where the kernel holds them so; the last writes raw keys.
  *h.pl = plan{};
  for (int k = 0; k < passes; ++k) {
    h.pl->active[k] = 1;
    h.pl->src[k] = k == 0 ? 0 : 2;
    h.pl->dst[k] = 1;
    h.pl->raw_out[k] = k == passes - 1 ? 1 : 0;
  }

  // ---- the workspace ----
  arena ws(r.workspace, r.workspace_bytes);
  const std::size_t table_bytes = bucket_tables::bytes(B, J);
  void* tables = ws.take<char>(static_cast<std::int64_t>(table_bytes));
  const auto d = bucket_tables::at(tables, B, J);
  const std::int64_t max_tiles = std::max(tiles0, tiles1);
  int* map0 = ws.take<int>(std::max<std::int64_t>(tiles0, 1));
  int* map1 = ws.take<int>(std::max<std::int64_t>(tiles1, 1));
  unsigned* hist = ws.take<unsigned>(static_cast<std::int64_t>(segs) * passes * radix);
  auto* first_bases = ws.take<unsigned long long>(static_cast<std::int64_t>(segs) * radix);
  auto* later_bases = ws.take<unsigned long long>(std::max(1, (passes - 1) * B) * std::int64_t{radix});
  const std::int64_t words_per_state = lookback_header_words + max_tiles * radix;
  unsigned* state[2] = {ws.take<unsigned>(words_per_state), ws.take<unsigned>(words_per_state)};
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(tables, r.staging, table_bytes, cudaMemcpyHostToDevice, s));
  clear_async(hist, sizeof(unsigned) * static_cast<std::size_t>(segs) * passes * radix, s);
  clear_async(state[0], sizeof(unsigned) * static_cast<std::size_t>(lookback_header_words + tiles0 * radix), s);

  // ---- the pieces' counts, the offsets ----
  tile_segments_kernel<><<<grid_for(segs, 4096), 256, 0, s>>>(d.first_tile, segs, map0);
  SCANKIT_LAUNCH_CHECK("radix::tile_segments_kernel");
  tile_segments_kernel<><<<grid_for(B, 4096), 256, 0, s>>>(d.first_tile + segs + 1, B, map1);
  SCANKIT_LAUNCH_CHECK("radix::tile_segments_kernel");
  const segment_table first{map0, d.first_tile, d.begin, d.end, first_bases, d.key_dst, d.value_dst};
  const std::size_t hist_smem = sizeof(unsigned) * passes * radix * segment_histogram_copies(passes);
  segment_histogram_kernel<Kind, U><<<grid_for(std::min<std::int64_t>(tiles0, 8 * std::int64_t{sort_device_info().sm_count})), 256, hist_smem, s>>>(
      static_cast<const U*>(r.keys), first, tiles0, tile, passes, 0, bits, r.options, hist);
  SCANKIT_LAUNCH_CHECK("radix::segment_histogram_kernel");
  bucket_bases_kernel<><<<B, radix, 0, s>>>(hist, B, J, passes, first_bases, later_bases);
  SCANKIT_LAUNCH_CHECK("radix::bucket_bases_kernel");

  // ---- the passes ----
  for (int k = 0; k < passes; ++k) {
    const bool last = k == passes - 1;
    const std::int64_t tiles = k == 0 ? tiles0 : tiles1, next_tiles = last ? 0 : tiles1;
    segment_table t = first;
    if (k > 0) {
      const int dst_table = last ? 2 : k % 2;
      t = segment_table{map1,
                        d.first_tile + segs + 1,
                        d.begin + segs + 1,
                        d.end + segs + 1,
                        later_bases + static_cast<std::int64_t>(k - 1) * B * radix,
                        d.key_dst + segs + dst_table * B,
                        d.value_dst + segs + dst_table * B};
    }
    buffers<U, V> buf{};
    buf.keys[0] = static_cast<U*>(r.keys);
    buf.keys[2] = k == 0 ? nullptr : alt_keys[(k - 1) % 2];
    if constexpr (has_values<V>) {
      buf.values[0] = static_cast<V*>(r.values);
      buf.values[2] = k == 0 ? nullptr : alt_values[(k - 1) % 2];
    }
    // A launch clears the next one's words when it has at least as many blocks.
    const bool kernel_clears = next_tiles <= tiles;
    unsigned* now = state[k % 2];
    unsigned* next = state[(k + 1) % 2];
    if (tiles > 0)
      launch_after("launch of radix::onesweep_kernel (segmented)", kernel, static_cast<unsigned>(tiles), shape.block,
                   smem, s, d.pl, k, buf, std::int64_t{0}, std::int64_t{0}, make_digit<Kind, U>(r.options, 0, bits, k),
                   lookback_words{now, now + lookback_header_words}, lookback_words{next, next + lookback_header_words},
                   kernel_clears && tiles > 0 ? next_tiles : std::int64_t{-1}, nullptr, nullptr, t);
    if ((!kernel_clears || tiles == 0) && !last)
      clear_async(next, sizeof(unsigned) * static_cast<std::size_t>(lookback_header_words + next_tiles * radix), s);
  }
}

/// f(std::type_identity<V>{}, std::integral_constant<onesweep_shape, tile>{}) for the value
/// type of `value_bytes` and the main tile of keys K (2 bytes or more).
template <class K, class F>
void on_main_tile(std::size_t value_bytes, F&& f) {
  using U = typename radix_traits<K>::bits_t;
  if constexpr (sizeof(K) >= 2) {
    const auto with = [&](auto v) {
      with_main_tile<U, typename decltype(v)::type>([&](auto shape) { f(v, shape); });
    };
    switch (value_bytes) {
      case 0: return with(std::type_identity<no_value>{});
      case 4: return with(std::type_identity<blob_of<4>::type>{});
      case 8: return with(std::type_identity<blob_of<8>::type>{});
      case 16: return with(std::type_identity<blob_of<16>::type>{});
    }
    throw invalid_argument("scankit::dist radix sort: values are 0, 4, 8 or 16 bytes");
  } else {
    throw invalid_argument("scankit::dist radix sort: keys of 2 bytes or more");
  }
}

}  // namespace scankit::cuda::detail::radix

namespace scankit::cuda::detail {

namespace radix {
inline void check_bucket_item_sizes(std::size_t key_bytes, std::size_t value_bytes, const char* where) {
  if (key_bytes != 1 && key_bytes != 2 && key_bytes != 4 && key_bytes != 8)
    throw invalid_argument(std::string(where) + ": keys are 1, 2, 4 or 8 bytes");
  if (value_bytes != 0 && value_bytes != 4 && value_bytes != 8 && value_bytes != 16)
    throw invalid_argument(std::string(where) + ": values are 0, 4, 8 or 16 bytes");
}
}  // namespace radix

inline std::size_t top_digit_split_workspace_bytes(std::int64_t n, std::size_t key_bytes, std::size_t value_bytes) {
  using namespace radix;
  constexpr int digits = radix::radix;
  check_bucket_item_sizes(key_bytes, value_bytes, "scankit::cuda::detail::top_digit_split_workspace_bytes");
  // The sequence of run_split_by_top_digit's takes (top_digit_starts takes the first two).
  const std::int64_t tiles = ceil_div(n, smallest_main_tile(key_bytes, value_bytes));
  return align_up(hist_bytes) + 2 * align_up(sizeof(plan)) + align_up(digits * sizeof(unsigned long long)) +
         align_up(sizeof(unsigned) * static_cast<std::size_t>(lookback_header_words + tiles * digits));
}

inline std::int64_t top_digit_split_limit(std::size_t, std::size_t) { return bucket_sort_limit; }

inline std::size_t bucket_sort_staging_bytes(int buckets, int pieces) {
  return radix::bucket_tables::bytes(buckets, pieces);
}

inline std::size_t bucket_sort_workspace_bytes(std::int64_t total, int buckets, int pieces, std::size_t key_bytes,
                                               std::size_t value_bytes) {
  using namespace radix;
  constexpr int digits = radix::radix;
  check_bucket_item_sizes(key_bytes, value_bytes, "scankit::cuda::detail::bucket_sort_workspace_bytes");
  // The sequence of run_bucket_sort's takes, with each pass's tile count bounded by that of
  // the whole input plus one partial tile per segment.
  const int passes = static_cast<int>(key_bytes) - 1;
  const std::int64_t segs = static_cast<std::int64_t>(buckets) * pieces;
  const std::int64_t tiles = ceil_div(total, smallest_main_tile(key_bytes, value_bytes));
  const std::int64_t tiles0 = tiles + segs, tiles1 = tiles + buckets, max_tiles = std::max(tiles0, tiles1);
  const auto bytes = [](std::int64_t count, std::size_t size) { return align_up(static_cast<std::size_t>(count) * size); };
  return bucket_tables::bytes(buckets, pieces) + bytes(std::max<std::int64_t>(tiles0, 1), sizeof(int)) +
         bytes(std::max<std::int64_t>(tiles1, 1), sizeof(int)) + bytes(segs * passes * digits, sizeof(unsigned)) +
         bytes(segs * digits, sizeof(unsigned long long)) +
         bytes(std::max(1, (passes - 1) * buckets) * std::int64_t{digits}, sizeof(unsigned long long)) +
         2 * bytes(lookback_header_words + max_tiles * digits, sizeof(unsigned));
}

template <class K>
const unsigned long long* top_digit_starts(const K* keys, std::int64_t n, const sort_options& opts, void* workspace,
                                           std::size_t workspace_bytes, cudaStream_t stream) {
  using U = typename radix_traits<K>::bits_t;
  arena ws(workspace, workspace_bytes);
  return radix::run_top_digit_starts<radix_traits<K>::kind, U>(reinterpret_cast<const U*>(keys), n, opts, ws, stream);
}

template <class K>
void split_by_top_digit(const top_digit_split& r) {
  using U = typename radix_traits<K>::bits_t;
  if (r.n > top_digit_split_limit(sizeof(K), r.value_bytes))
    throw invalid_argument("scankit::dist radix sort: too many keys for one split by the top digit");
  radix::on_main_tile<K>(r.value_bytes, [&](auto v, auto shape) {
    if (r.n == 0) return;
    radix::run_split_by_top_digit<radix_traits<K>::kind, U, typename decltype(v)::type, decltype(shape)::value>(r);
  });
}

template <class K>
void sort_buckets(const bucket_sort& r) {
  using U = typename radix_traits<K>::bits_t;
  if (r.staging_bytes < bucket_sort_staging_bytes(r.buckets, r.pieces))
    throw invalid_argument("scankit::dist radix sort: staging memory too small");
  radix::on_main_tile<K>(r.value_bytes, [&](auto v, auto shape) {
    radix::run_bucket_sort<radix_traits<K>::kind, U, typename decltype(v)::type, decltype(shape)::value>(r);
  });
}

}  // namespace scankit::cuda::detail
