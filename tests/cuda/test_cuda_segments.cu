// GoogleTest suite of the CUDA segmented operations (scankit/cuda/segments.hpp): segmented
// reduce (CSR offsets, begin/end bounds with gaps, every algorithm, misaligned input), segmented scans by offsets
// and by flags, scan_by_key and reduce_by_key, over every segment-length distribution of
// segments_reference.hpp, every element type with sum, product, min and max, a non-commutative
// monoid, sizes across tile edges, the same bits run to run, the host containers, and bad
// arguments (which throw before anything is written). Without a GPU every test skips. Inputs go
// up on the test's own stream.
//
// The affine test monoid is instantiated here from scankit/cuda/segments.cuh, as a user's .cu
// file would.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/cuda_test_util.hpp"
#include "common/segments_reference.hpp"
#include "scankit/cuda/segments.cuh"

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
using namespace scankit::test;

/// Work items per tile of 4-byte values: sizes around it cross tile edges.
constexpr std::int64_t tile4 = 256 * 64;

class CudaSegments : public cuda_stream_test<int> {
 protected:
  template <class T>
  T* up(device_buffer& b, const std::vector<T>& v) {
    b.reserve(v.size() * sizeof(T) + 16);
    if (!v.empty())
      ck(cudaMemcpyAsync(b.p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice, stream_), "upload");
    return b.as<T>();
  }
  template <class T>
  std::vector<T> down(const T* d, std::size_t count) {
    std::vector<T> v(count);
    if (count) ck(cudaMemcpyAsync(v.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost, stream_), "download");
    ck(cudaStreamSynchronize(stream_), "sync");
    return v;
  }
  template <class T>
  T* poisoned(device_buffer& b, std::size_t count) {
    b.reserve(count * sizeof(T) + 16);
    ck(cudaMemsetAsync(b.p, 0xab, count * sizeof(T) + 16, stream_), "poison");
    return b.as<T>();
  }
  void* workspace(std::int64_t n, std::int64_t segments, std::size_t value_bytes, std::size_t& bytes,
                  const skc::segments_config& cfg = {}) {
    bytes = skc::segments_workspace_bytes(n, segments, value_bytes, cfg);
    ws_.reserve(bytes);
    return ws_.p;
  }

  /// Every operation on one layout (covering offsets `off` of n items) with op, checked.
  template <class Op>
  void check_layout(const std::vector<std::int64_t>& off, std::int64_t n, Op op, const std::string& what) {
    using T = sk::value_t<Op>;
    const auto count = static_cast<std::int64_t>(off.size()) - 1;
    std::vector<T> in;
    if constexpr (std::is_arithmetic_v<T>) in = random_values<T>(n, Op::name);
    else in = random_affine(n);
    const T empty = in.empty() ? op.identity() : in[0];
    const T init = in.size() > 1 ? in[1] : op.identity();
    const T* d_in = up(in_, in);
    const std::int64_t* d_off = up(off_, off);
    std::size_t bytes = 0;
    // Segmented reduce, every algorithm.
    for (auto algo : {skc::segments_algorithm::automatic, skc::segments_algorithm::two_pass,
                      skc::segments_algorithm::merge_path, skc::segments_algorithm::block_per_segment}) {
      const skc::segments_config cfg{algo};
      void* ws = workspace(n, count, sizeof(T), bytes, cfg);
      T* d_out = poisoned<T>(out_, static_cast<std::size_t>(count));
      skc::segmented_reduce(d_in, n, sk::segment_offsets{d_off, count}, op, empty, d_out, ws, bytes, stream_, cfg);
      const auto got = down(d_out, static_cast<std::size_t>(count));
      const std::vector<std::int64_t> b(off.begin(), off.end() - 1), e(off.begin() + 1, off.end());
      ASSERT_TRUE(check_segmented_reduce(in, b, e, got, op, empty)) << what << " reduce algo " << int(algo);
    }
    if (n == 0) return;
    // Segmented scans: offsets, flags, keys (32 and 64 bits).
    const auto flags = flags_from_offsets(off, n, rng());
    const auto k32 = keys_from_offsets<std::uint32_t>(off, n, rng());
    const auto k64 = keys_from_offsets<std::uint64_t>(off, n, rng());
    const std::uint8_t* d_flags = up(flags_, flags);
    for (auto kind : {sk::scan_kind::inclusive, sk::scan_kind::exclusive}) {
      for (int source = 0; source < 4; ++source) {
        void* ws = workspace(n, source == 0 ? count : 0, sizeof(T), bytes);
        T* d_out = poisoned<T>(out_, static_cast<std::size_t>(n));
        if (source == 0) skc::segmented_scan(d_in, d_out, n, sk::segment_offsets{d_off, count}, op, kind, init, ws, bytes, stream_);
        else if (source == 1) skc::segmented_scan(d_in, d_out, n, sk::head_flags{d_flags}, op, kind, init, ws, bytes, stream_);
        else if (source == 2) skc::scan_by_key(up(keys_, k32), d_in, d_out, n, op, kind, init, ws, bytes, stream_);
        else skc::scan_by_key(up(keys_, k64), d_in, d_out, n, op, kind, init, ws, bytes, stream_);
        const auto got = down(d_out, static_cast<std::size_t>(n));
        ASSERT_TRUE(check_segmented_scan(in, off, got, op, kind, init))
            << what << " scan source " << source << " " << kind_name(kind);
      }
    }
    // reduce_by_key over the runs of the keys (empty segments make no runs).
    const auto runs = runs_of(k64);
    const std::vector<std::int64_t> rb(runs.begin(), runs.end() - 1), re(runs.begin() + 1, runs.end());
    for (int width : {32, 64}) {
      void* ws = workspace(n, 0, sizeof(T), bytes);
      T* d_agg = poisoned<T>(out_, static_cast<std::size_t>(n));
      std::uint64_t* d_unique = poisoned<std::uint64_t>(unique_, static_cast<std::size_t>(n));
      std::int64_t* d_runs = poisoned<std::int64_t>(runs_, 1);
      if (width == 32)
        skc::reduce_by_key(up(keys_, k32), d_in, n, op, reinterpret_cast<std::uint32_t*>(d_unique), d_agg, d_runs, ws,
                           bytes, stream_);
      else
        skc::reduce_by_key(up(keys_, k64), d_in, n, op, d_unique, d_agg, d_runs, ws, bytes, stream_);
      const auto got_runs = down(d_runs, 1)[0];
      ASSERT_EQ(got_runs, static_cast<std::int64_t>(rb.size())) << what << " reduce_by_key runs, keys " << width;
      const auto agg = down(d_agg, static_cast<std::size_t>(got_runs));
      ASSERT_TRUE(check_segmented_reduce(in, rb, re, agg, op, op.identity())) << what << " reduce_by_key " << width;
      for (std::size_t r = 0; r < rb.size(); ++r) {
        const std::size_t i = static_cast<std::size_t>(rb[r]);
        if (width == 32) {
          const auto u = down(reinterpret_cast<const std::uint32_t*>(d_unique) + r, 1)[0];
          ASSERT_EQ(u, k32[i]) << what << " key of run " << r;
          if (r > 8) break;  // the keys' transfer per run is slow; a few runs suffice for 32 bits
        } else if (r == 0) {
          const auto keys = down(d_unique, rb.size());
          for (std::size_t q = 0; q < rb.size(); ++q)
            ASSERT_EQ(keys[q], k64[static_cast<std::size_t>(rb[q])]) << what << " key of run " << q;
        }
      }
    }
  }

  template <class T>
  void each_op(const std::vector<std::int64_t>& off, std::int64_t n, const std::string& what) {
    check_layout(off, n, sk::sum<T>{}, what + " sum");
    check_layout(off, n, sk::product<T>{}, what + " prod");
    check_layout(off, n, sk::min<T>{}, what + " min");
    check_layout(off, n, sk::max<T>{}, what + " max");
  }

  device_buffer in_, off_, out_, flags_, keys_, unique_, runs_, ws_;
};

TEST_F(CudaSegments, EveryDistributionAndSize) {
  // Every layout is checked on the host for every operation, so sizes stop at a few million
  // (tile*tile + 1 would be 2^28); test_cuda_segments_large takes the sizes past 2^31.
  const auto sizes = test_sizes({tile4, tile4 / 2}, quick() ? 100000 : 600000, 1,
                                quick() ? std::int64_t{1} << 21 : std::int64_t{1} << 22);
  const std::vector<double> means = sanitize_tier() ? std::vector<double>{8.0, 65536.0}
                                                    : std::vector<double>{1.0, 8.0, 256.0, 65536.0};
  for (auto d : all_segment_dists)
    for (double mean : means)
      for (auto n : sizes) {
        // The layouts of many segments are checked segment by segment on the host: keep them smaller.
        if (d != segment_dist::uniform && d != segment_dist::powerlaw && d != segment_dist::single && n > 300000) continue;
        const auto off = make_offsets(d, n, mean, rng());
        check_layout(off, n, sk::sum<float>{},
                     std::string(name(d)) + " mean " + std::to_string(mean) + " n " + std::to_string(n));
        if (d == segment_dist::single || d == segment_dist::ones) break;
      }
}

TEST_F(CudaSegments, EveryOperator) {
  for (std::int64_t n : {tile4 - 1, std::int64_t{200003}})
    for (double mean : {2.0, 700.0}) {
      const auto off = make_offsets(segment_dist::powerlaw, n, mean, rng());
      each_op<float>(off, n, "n " + std::to_string(n) + " mean " + std::to_string(mean) + " f32");
    }
}

TEST_F(CudaSegments, EveryType) {
  for (std::int64_t n : {std::int64_t{1}, tile4 + 1, std::int64_t{100003}})
    for (double mean : {3.0, 3000.0}) {
      const auto off = make_offsets(segment_dist::powerlaw, n, mean, rng());
      const std::string w = "n " + std::to_string(n) + " mean " + std::to_string(mean);
      each_op<std::int64_t>(off, n, w + " i64");
      each_op<double>(off, n, w + " f64");
      if (sanitize_tier()) continue;  // the 8-byte types reach every path; the 4-byte ones repeat them
      each_op<std::int32_t>(off, n, w + " i32");
      each_op<std::uint32_t>(off, n, w + " u32");
      each_op<std::uint64_t>(off, n, w + " u64");
    }
}

TEST_F(CudaSegments, NonCommutativeMonoid) {
  for (std::int64_t n : {std::int64_t{0}, std::int64_t{5}, tile4 - 1, tile4 * 3 + 7, std::int64_t{250007}})
    for (auto d : {segment_dist::uniform, segment_dist::powerlaw, segment_dist::single, segment_dist::with_empty}) {
      const auto off = make_offsets(d, n, 100.0, rng());
      check_layout(off, n, affine_compose{}, std::string("affine ") + name(d) + " n " + std::to_string(n));
    }
}

TEST_F(CudaSegments, BoundsWithGaps) {
  // Segments that skip items: the skipped items belong to none.
  const std::int64_t n = quick() ? 300000 : 3000000;
  auto in = random_values<float>(n, "sum");
  std::vector<std::int64_t> b, e;
  std::uniform_int_distribution<std::int64_t> len(0, 3000), gap(0, 50);
  for (std::int64_t at = gap(rng()); at < n;) {
    const std::int64_t end = std::min(n, at + len(rng()));
    b.push_back(at);
    e.push_back(end);
    at = end + gap(rng());
  }
  const auto count = static_cast<std::int64_t>(b.size());
  const float* d_in = up(in_, in);
  const std::int64_t* d_b = up(off_, b);
  const std::int64_t* d_e = up(keys_, e);
  for (auto algo : {skc::segments_algorithm::two_pass, skc::segments_algorithm::merge_path,
                    skc::segments_algorithm::block_per_segment}) {
    const skc::segments_config cfg{algo};
    std::size_t bytes = 0;
    void* ws = workspace(n, count, sizeof(float), bytes, cfg);
    float* d_out = poisoned<float>(out_, static_cast<std::size_t>(count));
    skc::segmented_reduce(d_in, n, sk::segment_bounds{d_b, d_e, count}, sk::sum<float>{}, -7.0f, d_out, ws, bytes, stream_, cfg);
    ASSERT_TRUE(check_segmented_reduce(in, b, e, down(d_out, b.size()), sk::sum<float>{}, -7.0f));
    skc::check_segments(sk::segment_bounds{d_b, d_e, count}, n, stream_);  // valid: no throw
  }
}

TEST_F(CudaSegments, ReduceOfAMisalignedInput) {
  // Input pointers that are not 16-byte aligned: the tiles' vectors start before their items.
  for (std::int64_t shift : {1, 2, 3})
    for (std::int64_t n : {std::int64_t{2}, tile4 - 3, tile4 * 2 + 1, std::int64_t{100003}}) {
      const auto all = random_values<float>(n + shift, "sum");
      const std::vector<float> in(all.begin() + shift, all.end());
      const auto off = make_offsets(segment_dist::powerlaw, n, 40.0, rng());
      const auto count = static_cast<std::int64_t>(off.size()) - 1;
      const float* d_in = up(in_, all) + shift;
      const std::int64_t* d_off = up(off_, off);
      const std::vector<std::int64_t> b(off.begin(), off.end() - 1), e(off.begin() + 1, off.end());
      for (auto algo : {skc::segments_algorithm::two_pass, skc::segments_algorithm::merge_path}) {
        const skc::segments_config cfg{algo};
        std::size_t bytes = 0;
        void* ws = workspace(n, count, sizeof(float), bytes, cfg);
        float* d_out = poisoned<float>(out_, static_cast<std::size_t>(count));
        skc::segmented_reduce(d_in, n, sk::segment_offsets{d_off, count}, sk::sum<float>{}, 0.0f, d_out, ws, bytes,
                              stream_, cfg);
        ASSERT_TRUE(check_segmented_reduce(in, b, e, down(d_out, b.size()), sk::sum<float>{}, 0.0f))
            << "shift " << shift << " n " << n << " algo " << int(algo);
      }
    }
}

TEST_F(CudaSegments, ScansOfMisalignedInputsAndOutputs) {
  // Inputs, keys and outputs at every offset within 16 bytes: the tiles' vectors start before
  // their items, and the output is written as vectors only where it lies at the input's offset.
  const std::int64_t n = tile4 * 2 + 5;
  const auto off = make_offsets(segment_dist::uniform, n, 40.0, rng());
  const auto count = static_cast<std::int64_t>(off.size()) - 1;
  const auto all = random_values<float>(n + 3, "sum");
  const auto k32 = keys_from_offsets<std::uint32_t>(off, n, rng());
  std::vector<std::uint32_t> keys_all(static_cast<std::size_t>(n + 3));
  for (std::int64_t shift : {0, 1, 2, 3})
    for (std::int64_t out_shift : {0, 1, 3}) {
      const std::vector<float> in(all.begin() + shift, all.begin() + shift + n);
      const float* d_in = up(in_, all) + shift;
      std::copy(k32.begin(), k32.end(), keys_all.begin() + shift);
      const std::uint32_t* d_keys = up(keys_, keys_all) + shift;
      const std::int64_t* d_off = up(off_, off);
      for (int source = 0; source < 2; ++source) {
        std::size_t bytes = 0;
        void* ws = workspace(n, source == 0 ? count : 0, sizeof(float), bytes);
        float* d_out = poisoned<float>(out_, static_cast<std::size_t>(n + 3)) + out_shift;
        if (source == 0)
          skc::segmented_scan(d_in, d_out, n, sk::segment_offsets{d_off, count}, sk::sum<float>{},
                              sk::scan_kind::inclusive, 0.0f, ws, bytes, stream_);
        else
          skc::scan_by_key(d_keys, d_in, d_out, n, sk::sum<float>{}, sk::scan_kind::inclusive, 0.0f, ws, bytes, stream_);
        ASSERT_TRUE(check_segmented_scan(in, off, down(d_out, static_cast<std::size_t>(n)), sk::sum<float>{},
                                         sk::scan_kind::inclusive, 0.0f))
            << "source " << source << " in + " << shift << " out + " << out_shift;
        const auto past = down(d_out + n, 1)[0];  // the item after the output is never written
        std::uint32_t bits = 0;
        std::memcpy(&bits, &past, 4);
        ASSERT_EQ(bits, 0xababababu) << "source " << source << " in + " << shift << " out + " << out_shift;
      }
    }
}

TEST_F(CudaSegments, SameBitsEveryRun) {
  const std::int64_t n = quick() ? 1 << 20 : 1 << 24;
  for (auto d : {segment_dist::single, segment_dist::powerlaw}) {
    const auto off = make_offsets(d, n, 5000.0, rng());
    const auto count = static_cast<std::int64_t>(off.size()) - 1;
    const auto in = random_values<float>(n, "sum");
    const float* d_in = up(in_, in);
    const std::int64_t* d_off = up(off_, off);
    std::size_t bytes = 0;
    void* ws = workspace(n, count, sizeof(float), bytes);
    std::vector<float> first;
    for (int run = 0; run < 4; ++run) {
      float* d_out = poisoned<float>(out_, static_cast<std::size_t>(n));
      skc::segmented_scan(d_in, d_out, n, sk::segment_offsets{d_off, count}, sk::sum<float>{},
                          sk::scan_kind::inclusive, 0.0f, ws, bytes, stream_);
      auto got = down(d_out, static_cast<std::size_t>(n));
      if (run == 0) first = got;
      else ASSERT_EQ(0, std::memcmp(first.data(), got.data(), got.size() * sizeof(float))) << name(d);
    }
  }
}

TEST_F(CudaSegments, HostContainers) {
  const std::int64_t n = 100000;
  const auto off = make_offsets(segment_dist::powerlaw, n, 40.0, rng());
  const auto in = random_values<std::int32_t>(n, "sum");
  const auto sums = skc::segmented_reduce(std::span<const std::int32_t>(in), std::span<const std::int64_t>(off));
  const std::vector<std::int64_t> b(off.begin(), off.end() - 1), e(off.begin() + 1, off.end());
  EXPECT_TRUE(check_segmented_reduce(in, b, e, sums, sk::sum<std::int32_t>{}, 0));
  std::vector<std::int32_t> out(in.size());
  skc::segmented_scan(std::span<const std::int32_t>(in), std::span<std::int32_t>(out), std::span<const std::int64_t>(off));
  EXPECT_TRUE(check_segmented_scan(in, off, out, sk::sum<std::int32_t>{}, sk::scan_kind::inclusive, 0));
  const auto keys = keys_from_offsets<float>(off, n, rng());
  skc::scan_by_key(std::span<const float>(keys), std::span<const std::int32_t>(in), std::span<std::int32_t>(out),
                   sk::max<std::int32_t>{});
  EXPECT_TRUE(check_segmented_scan(in, runs_of(keys), out, sk::max<std::int32_t>{}, sk::scan_kind::inclusive,
                                   sk::max<std::int32_t>{}.identity()));
  const auto [uk, agg] = skc::reduce_by_key(std::span<const float>(keys), std::span<const std::int32_t>(in));
  const auto runs = runs_of(keys);
  ASSERT_EQ(uk.size() + 1, runs.size());
  for (std::size_t r = 0; r < uk.size(); ++r) EXPECT_EQ(uk[r], keys[static_cast<std::size_t>(runs[r])]);
  EXPECT_TRUE(check_segmented_reduce(in, std::vector<std::int64_t>(runs.begin(), runs.end() - 1),
                                     std::vector<std::int64_t>(runs.begin() + 1, runs.end()), agg,
                                     sk::sum<std::int32_t>{}, 0));
}

TEST_F(CudaSegments, BadArgumentsThrowAndWriteNothing) {
  const std::vector<float> in(100, 1.0f);
  const std::vector<std::int64_t> decreasing{0, 50, 40, 100}, past_end{0, 50, 101}, fine{0, 50, 100};
  EXPECT_THROW(skc::segmented_reduce(std::span<const float>(in), std::span<const std::int64_t>(decreasing)),
               sk::invalid_argument);
  EXPECT_THROW(skc::segmented_reduce(std::span<const float>(in), std::span<const std::int64_t>(past_end)),
               sk::invalid_argument);
  EXPECT_THROW(skc::segmented_reduce(std::span<const float>(in), std::span<const std::int64_t>()), sk::invalid_argument);
  std::vector<float> out(100, -3.0f);
  const std::vector<std::int64_t> short_cover{0, 50, 99};
  EXPECT_THROW(skc::segmented_scan(std::span<const float>(in), std::span<float>(out), std::span<const std::int64_t>(short_cover)),
               sk::invalid_argument);
  for (float x : out) ASSERT_EQ(x, -3.0f);
  const std::vector<std::int32_t> keys(99, 1);
  EXPECT_THROW(skc::reduce_by_key(std::span<const std::int32_t>(keys), std::span<const float>(in)), sk::invalid_argument);
  // Device-pointer calls: bad sizes, null pointers, short workspace; check_segments on device data.
  const float* d_in = up(in_, in);
  const std::int64_t* d_bad = up(off_, decreasing);
  float* d_out = poisoned<float>(out_, 3);
  std::size_t bytes = 0;
  void* ws = workspace(100, 3, sizeof(float), bytes);
  const sk::segment_offsets seg{d_bad, 3};
  EXPECT_THROW(skc::segmented_reduce(d_in, -1, seg, sk::sum<float>{}, 0.0f, d_out, ws, bytes, stream_), sk::invalid_argument);
  EXPECT_THROW(skc::segmented_reduce(d_in, 100, seg, sk::sum<float>{}, 0.0f, d_out, ws, 1, stream_), sk::invalid_argument);
  EXPECT_THROW(skc::segmented_reduce(static_cast<const float*>(nullptr), 100, seg, sk::sum<float>{}, 0.0f, d_out, ws, bytes, stream_),
               sk::invalid_argument);
  EXPECT_THROW(skc::segmented_reduce(d_in, 100, sk::segment_offsets{d_bad, -2}, sk::sum<float>{}, 0.0f, d_out, ws, bytes, stream_),
               sk::invalid_argument);
  EXPECT_THROW(skc::segmented_scan(d_in, d_out, 100, sk::segment_offsets{d_bad, 3}, sk::sum<float>{}, sk::scan_kind::inclusive,
                                   0.0f, ws, bytes, stream_, skc::segments_config{skc::segments_algorithm::block_per_segment}),
               sk::invalid_argument);
  const auto untouched = down(d_out, 3);
  std::uint32_t poison;
  std::memset(&poison, 0xab, 4);
  for (float x : untouched) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, 4);
    ASSERT_EQ(bits, poison);
  }
  EXPECT_THROW(skc::check_segments(seg, 100, stream_), sk::invalid_argument);
  EXPECT_THROW(skc::check_segments(sk::segment_offsets{up(off_, past_end), 2}, 100, stream_), sk::invalid_argument);
  EXPECT_THROW(skc::check_segments(sk::segment_offsets{up(off_, short_cover), 2}, 100, stream_, true), sk::invalid_argument);
  EXPECT_NO_THROW(skc::check_segments(sk::segment_offsets{up(off_, fine), 2}, 100, stream_, true));
}

}  // namespace

SCANKIT_INSTANTIATE_SEGMENTS(scankit::test::affine_compose)
