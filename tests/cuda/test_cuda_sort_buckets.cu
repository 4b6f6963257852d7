// CUDA sorts: the local steps of scankit::dist's radix sort
// (scankit/dist/detail/nccl/bucket_sort.cuh), on one GPU
// against host references, so that they run under compute-sanitizer without a second GPU:
//   top_digit_starts    the start of each top digit among the keys;
//   split_by_top_digit  one stable pass by the top digit into bases with gaps between digits;
//   sort_buckets        the segmented onesweep passes over the digits below the top one, each
//                       bucket arriving as pieces at scattered offsets and written to its own
//                       destination (a separate buffer, or its place in keys_alt).
// Every key type of 2 bytes or more, both directions, keys only and 4-, 8-, 16-byte values
// (which carry each item's origin, so stability is checked), sizes around the main tile.
//
//   SCANKIT_TEST_TIER=sanitize  fewer sizes and layouts: for compute-sanitizer runs.
//   SCANKIT_TEST_SEED=N         replays a run.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <numeric>

#include "common/cuda_sort_test_util.hpp"
#include "scankit/dist/detail/nccl/bucket_sort.cuh"

namespace {

using namespace scankit;
using namespace scankit::test;
namespace cd = scankit::cuda::detail;

struct v16 {
  std::uint64_t lo, hi;
};

template <class K>
using bits_of = typename radix_traits<K>::bits_t;

template <class K>
unsigned top_digit(K k, bool descending) {
  constexpr int bits = radix_traits<K>::bits;
  return static_cast<unsigned>(scankit::detail::sort_rank_bits(k, 0, bits, descending) >> (bits - 8));
}

/// A key whose sort rank (ordered bits, complemented when descending) is `rank`.
template <class K>
K key_of_rank(bits_of<K> rank, bool descending) {
  return radix_traits<K>::key_of(descending ? static_cast<bits_of<K>>(~rank) : rank);
}

/// Pinned host memory (the bucket sort's staging).
struct pinned {
  void* p = nullptr;
  explicit pinned(std::size_t bytes) { check(cudaMallocHost(&p, std::max<std::size_t>(bytes, 1)), "cudaMallocHost"); }
  ~pinned() { cudaFreeHost(p); }
  pinned(const pinned&) = delete;
  pinned& operator=(const pinned&) = delete;
};

/// Values that name their item (its index in the input), of `bytes` bytes (8-byte values as
/// they are; 4: the low half; 16: the index twice, the second copy inverted).
std::vector<unsigned char> origin_values(std::int64_t n, std::size_t bytes) {
  std::vector<unsigned char> v(static_cast<std::size_t>(n) * bytes);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t words[2] = {static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull, ~static_cast<std::uint64_t>(i)};
    std::memcpy(v.data() + static_cast<std::size_t>(i) * bytes, words, bytes);
  }
  return v;
}

std::vector<std::int64_t> counts_to_test(std::int64_t tile) {
  return test_sizes({tile}, std::int64_t{1} << 17, 2, sanitize_tier() ? 4 * tile : std::int64_t{1} << 21);
}

// ---------------------------------------------------------------------------------------
// top_digit_starts and split_by_top_digit

template <class K>
void check_split(std::int64_t n, bool descending, std::size_t vb, key_pattern pattern) {
  SCOPED_TRACE(::testing::Message() << "n = " << n << (descending ? " descending" : " ascending") << ", value bytes "
                                    << vb << ", pattern " << name(pattern));
  const auto keys = make_keys<K>(n, pattern);
  const auto values = origin_values(n, vb);
  sort_options opts;
  opts.descending = descending;
  // ---- the starts ----
  std::vector<std::int64_t> count(256, 0);
  for (const K& k : keys) ++count[top_digit(k, descending)];
  std::vector<unsigned long long> want_starts(256, 0);
  for (int d = 1; d < 256; ++d) want_starts[d] = want_starts[d - 1] + static_cast<unsigned long long>(count[d - 1]);
  dmem kin = upload(keys), vin = upload(values);
  const std::size_t ws_bytes = cd::top_digit_split_workspace_bytes(n, sizeof(K), vb);
  dmem ws(ws_bytes);
  poison(ws);
  const unsigned long long* starts = cd::top_digit_starts<K>(kin.as<K>(), n, opts, ws.p, ws_bytes, nullptr);
  std::vector<unsigned long long> got_starts(256);
  check(cudaMemcpy(got_starts.data(), starts, sizeof(unsigned long long) * 256, cudaMemcpyDeviceToHost), "starts");
  ASSERT_EQ(got_starts, want_starts);
  // ---- the split, into bases with a gap of 0-3 items after each digit ----
  std::vector<unsigned long long> base(256);
  std::uniform_int_distribution<int> gap(0, 3);
  unsigned long long at = static_cast<unsigned long long>(gap(rng()));
  for (int d = 0; d < 256; ++d) base[d] = at, at += static_cast<unsigned long long>(count[d] + gap(rng()));
  const auto room = static_cast<std::size_t>(at);
  dmem dbase = upload(base), kout(room * sizeof(K)), vout(room * vb);
  poison(kout), poison(vout), poison(ws);
  cd::top_digit_split r;
  r.keys_in = kin.p, r.keys_out = kout.p, r.values_in = vb ? vin.p : nullptr, r.values_out = vb ? vout.p : nullptr;
  r.value_bytes = vb, r.n = n, r.digit_base = dbase.as<unsigned long long>();
  r.workspace = ws.p, r.workspace_bytes = ws_bytes, r.options = opts;
  cd::split_by_top_digit<K>(r);
  check(cudaDeviceSynchronize(), "split_by_top_digit");
  const auto got_k = download<K>(kout, room);
  const auto got_v = download<unsigned char>(vout, room * vb);
  std::vector<unsigned long long> next = base;
  for (std::int64_t i = 0; i < n; ++i) {
    const unsigned d = top_digit(keys[i], descending);
    const auto j = static_cast<std::size_t>(next[d]++);
    ASSERT_TRUE(bitwise_equal(std::vector<K>{keys[i]}, std::vector<K>{got_k[j]})) << "item " << i << " (digit " << d << ")";
    if (vb)
      ASSERT_EQ(0, std::memcmp(got_v.data() + j * vb, values.data() + static_cast<std::size_t>(i) * vb, vb))
          << "value of item " << i << " (digit " << d << "): the split is not stable";
  }
  EXPECT_TRUE(bitwise_equal(keys, download<K>(kin, keys.size()))) << "the input keys were modified";
}

template <class K>
class SortBucketsTyped : public ::testing::Test {};
using BucketKeyTypes = ::testing::Types<std::uint16_t, std::int16_t, std::uint32_t, std::int32_t, float, std::uint64_t,
                                        std::int64_t, double>;
TYPED_TEST_SUITE(SortBucketsTyped, BucketKeyTypes);

std::vector<std::size_t> value_sizes_for(std::size_t key_bytes) {
  if (sanitize_tier()) return key_bytes == 4 ? std::vector<std::size_t>{0, 4, 8, 16} : std::vector<std::size_t>{0, 8};
  return key_bytes == 4 ? std::vector<std::size_t>{0, 4, 8, 16} : std::vector<std::size_t>{0, 4, 8};
}

TYPED_TEST(SortBucketsTyped, StartsAndSplitMatchTheReference) {
  SKIP_WITHOUT_GPU();
  using K = TypeParam;
  for (std::size_t vb : value_sizes_for(sizeof(K))) {
    variant_turns turns(2);
    for (std::int64_t n : counts_to_test(onesweep_tile<K>(vb)))
      for (bool descending : {false, true}) {
        if (!turns.run()) continue;
        check_split<K>(n, descending, vb, n % 3 == 0 ? key_pattern::few_distinct : key_pattern::random);
        if (::testing::Test::HasFatalFailure()) return;
      }
  }
}

// ---------------------------------------------------------------------------------------
// sort_buckets

struct bucket_case {
  int buckets = 0, pieces = 0;
  std::vector<std::int64_t> count;  // [bucket * pieces + piece]
  bool dst_in_alt = false;          // each bucket's destination: its place in keys_alt
};

template <class K>
void check_buckets(const bucket_case& c, bool descending, std::size_t vb) {
  const int B = c.buckets, P = c.pieces, S = B * P;
  const std::int64_t items = std::accumulate(c.count.begin(), c.count.end(), std::int64_t{0});
  SCOPED_TRACE(::testing::Message() << B << " buckets of " << P << " pieces, " << items << " items"
                                    << (descending ? ", descending" : ", ascending") << ", value bytes " << vb
                                    << (c.dst_in_alt ? ", destinations in keys_alt" : ""));
  using U = bits_of<K>;
  constexpr int bits = radix_traits<K>::bits;
  auto& g = rng();
  // Each bucket its own top digit; within it, ranks from the full range or (for ties, so that
  // stability shows) from a few values.
  std::vector<unsigned> digit(256);
  std::iota(digit.begin(), digit.end(), 0u);
  std::shuffle(digit.begin(), digit.end(), g);
  std::vector<std::vector<K>> piece_keys(static_cast<std::size_t>(S));
  std::uniform_int_distribution<std::uint64_t> any;
  for (int b = 0; b < B; ++b) {
    const bool ties = b % 2 == 1;
    std::vector<U> few(5);
    for (auto& f : few) f = static_cast<U>(any(g));
    for (int j = 0; j < P; ++j) {
      auto& v = piece_keys[static_cast<std::size_t>(b * P + j)];
      v.resize(static_cast<std::size_t>(c.count[static_cast<std::size_t>(b * P + j)]));
      for (auto& k : v) {
        const U low = ties ? few[any(g) % few.size()] : static_cast<U>(any(g));
        // (The mask cast back to U before the shift: ~U{0} of a 16-bit U is the int -1.)
        constexpr U below_top = static_cast<U>(static_cast<U>(~U{0}) >> 8);
        const U rank = static_cast<U>((static_cast<U>(digit[b]) << (bits - 8)) | (low & below_top));
        k = key_of_rank<K>(rank, descending);
      }
    }
  }
  // The pieces at scattered offsets of one buffer, in a shuffled order with gaps.
  std::vector<int> order(static_cast<std::size_t>(S));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), g);
  std::uniform_int_distribution<std::int64_t> gap(0, 70);
  std::vector<std::int64_t> offset(static_cast<std::size_t>(S));
  std::int64_t at = gap(g), total = 0;
  for (int s : order) offset[s] = at, at += c.count[s] + gap(g), total += c.count[s];
  const std::int64_t room = std::max(at, total);
  std::vector<K> keys(static_cast<std::size_t>(room), K{});
  for (int s = 0; s < S; ++s) std::copy(piece_keys[s].begin(), piece_keys[s].end(), keys.begin() + offset[s]);
  const auto values = origin_values(room, vb);
  // Destinations: bucket b at dest[b] of a separate output (buckets in a shuffled order, gaps
  // between them), or at its place in keys_alt (the buckets in order, as the sort lays them).
  std::vector<std::int64_t> bucket_total(static_cast<std::size_t>(B), 0), bucket_start(static_cast<std::size_t>(B) + 1, 0);
  for (int b = 0; b < B; ++b) {
    for (int j = 0; j < P; ++j) bucket_total[b] += c.count[static_cast<std::size_t>(b * P + j)];
    bucket_start[b + 1] = bucket_start[b] + bucket_total[b];
  }
  std::vector<std::int64_t> dest(static_cast<std::size_t>(B));
  std::int64_t out_room = 0;
  if (c.dst_in_alt) {
    for (int b = 0; b < B; ++b) dest[b] = bucket_start[b];
    out_room = total;
  } else {
    std::vector<int> border(static_cast<std::size_t>(B));
    std::iota(border.begin(), border.end(), 0);
    std::shuffle(border.begin(), border.end(), g);
    out_room = gap(g);
    for (int b : border) dest[b] = out_room, out_room += bucket_total[b] + gap(g);
  }
  dmem dkeys = upload(keys), dvalues = upload(values);
  dmem alt_k(static_cast<std::size_t>(std::max<std::int64_t>(total, 1)) * sizeof(K)),
      alt_v(static_cast<std::size_t>(std::max<std::int64_t>(total, 1)) * vb);
  dmem out_k(c.dst_in_alt ? 0 : static_cast<std::size_t>(out_room) * sizeof(K)),
      out_v(c.dst_in_alt ? 0 : static_cast<std::size_t>(out_room) * vb);
  poison(alt_k), poison(alt_v), poison(out_k), poison(out_v);
  const dmem& dst_k = c.dst_in_alt ? alt_k : out_k;
  const dmem& dst_v = c.dst_in_alt ? alt_v : out_v;
  std::vector<void*> key_dst(static_cast<std::size_t>(B)), value_dst(static_cast<std::size_t>(B));
  for (int b = 0; b < B; ++b) {
    key_dst[b] = dst_k.as<K>() + dest[b];
    value_dst[b] = vb ? static_cast<void*>(dst_v.as<unsigned char>() + static_cast<std::size_t>(dest[b]) * vb) : nullptr;
  }
  const std::size_t ws_bytes = cd::bucket_sort_workspace_bytes(total, B, P, sizeof(K), vb);
  dmem ws(ws_bytes);
  poison(ws);
  const std::size_t staging_bytes = cd::bucket_sort_staging_bytes(B, P);
  pinned staging(staging_bytes);
  sort_options opts;
  opts.descending = descending;
  cd::bucket_sort r;
  r.keys = dkeys.p, r.keys_alt = alt_k.p, r.value_bytes = vb;
  if (vb) r.values = dvalues.p, r.values_alt = alt_v.p;
  r.buckets = B, r.pieces = P, r.piece_offset = offset.data(), r.piece_count = c.count.data();
  r.key_dst = key_dst.data(), r.value_dst = value_dst.data();
  r.staging = staging.p, r.staging_bytes = staging_bytes;
  r.workspace = ws.p, r.workspace_bytes = ws_bytes, r.options = opts;
  cd::sort_buckets<K>(r);
  check(cudaDeviceSynchronize(), "sort_buckets");
  const auto got_k = download<K>(dst_k, static_cast<std::size_t>(out_room));
  const auto got_v = download<unsigned char>(dst_v, static_cast<std::size_t>(out_room) * vb);
  // The reference: each bucket's pieces in piece order, stably sorted by rank.
  for (int b = 0; b < B; ++b) {
    std::vector<std::int64_t> items;  // input positions
    for (int j = 0; j < P; ++j)
      for (std::int64_t i = 0; i < c.count[static_cast<std::size_t>(b * P + j)]; ++i) items.push_back(offset[b * P + j] + i);
    std::stable_sort(items.begin(), items.end(), [&](std::int64_t x, std::int64_t y) {
      return scankit::detail::sort_rank_bits(keys[x], 0, bits, descending) <
             scankit::detail::sort_rank_bits(keys[y], 0, bits, descending);
    });
    for (std::size_t i = 0; i < items.size(); ++i) {
      const auto o = static_cast<std::size_t>(dest[b]) + i;
      const auto from = static_cast<std::size_t>(items[i]);
      ASSERT_TRUE(bitwise_equal(std::vector<K>{keys[from]}, std::vector<K>{got_k[o]})) << "bucket " << b << ", item " << i;
      if (vb)
        ASSERT_EQ(0, std::memcmp(got_v.data() + o * vb, values.data() + from * vb, vb))
            << "bucket " << b << ", item " << i << ": not stable in piece order";
    }
  }
}

/// Cases: one bucket of one piece of each size to test; then several buckets of several
/// pieces, the pieces' sizes drawn from the same list (empty pieces and buckets among them).
std::vector<bucket_case> bucket_cases(std::int64_t tile) {
  const auto sizes = counts_to_test(tile);
  std::vector<bucket_case> cases;
  for (std::int64_t n : sizes) cases.push_back({1, 1, {n}, n % 2 == 1});
  std::uniform_int_distribution<std::size_t> pick(0, sizes.size() - 1);
  const int layouts = sanitize_tier() ? 3 : 8;
  for (int k = 0; k < layouts; ++k) {
    bucket_case c;
    c.buckets = 1 + k * 7 % 9, c.pieces = 1 + k % 4, c.dst_in_alt = k % 3 == 2;
    for (int s = 0; s < c.buckets * c.pieces; ++s) c.count.push_back(s % 5 == 3 ? 0 : sizes[pick(rng())] % (4 * tile + 3));
    cases.push_back(c);
  }
  return cases;
}

TYPED_TEST(SortBucketsTyped, SortBucketsMatchesTheReference) {
  SKIP_WITHOUT_GPU();
  using K = TypeParam;
  for (std::size_t vb : value_sizes_for(sizeof(K))) {
    variant_turns turns(2);
    for (const auto& c : bucket_cases(onesweep_tile<K>(vb)))
      for (bool descending : {false, true}) {
        if (!turns.run()) continue;
        check_buckets<K>(c, descending, vb);
        if (::testing::Test::HasFatalFailure()) return;
      }
  }
}

TEST(SortBuckets, LargeBucketsOfManyPieces) {
  SKIP_WITHOUT_GPU();
  if (quick()) GTEST_SKIP() << "full tier only";
  // 2^22 + 5 items in 3 buckets of 2 pieces each: many tiles per segment, uint32 keys with
  // 4-byte values and uint64 keys alone (the main tiles of the two widths).
  const bucket_case c{3, 2, {1 << 21, 1000003, 0, 7, (1 << 21) - 1000000, 999995}, false};
  check_buckets<std::uint32_t>(c, false, 4);
  check_buckets<std::uint64_t>(c, true, 0);
}

}  // namespace
