// GoogleTest suite of the CUDA histograms (scankit/cuda/histogram.hpp): every algorithm, every
// sample type, both counter types, every bin-count class, against the CPU serial reference
// (itself tested against an independent formula in tests/cpu/test_cpu_histogram.cpp), with
// edge values, skewed inputs, misaligned pointers, accumulation and bad arguments. adaptive's
// forced layouts: test_cuda_histogram_layouts.
//
// Each test is parametrised by the algorithm. Without a GPU every test skips.
//   SCANKIT_TEST_QUICK=1   small sizes and fewer bin counts.
//   SCANKIT_TEST_TIER=sanitize  tile edges only (test_util.hpp): for compute-sanitizer runs.
//   SCANKIT_TEST_SEED=N    replays a run (the seed is printed at start).
#include "common/cuda_histogram_test_util.hpp"

namespace {

using namespace scankit::test::cuda_histogram;

class CudaHistogram : public ::testing::TestWithParam<histogram_algorithm> {};

template <class T>
void even_all_counters(histogram_algorithm algo) {
  int variant = 0, k = 0;
  for (std::int64_t bins : sk::test::bin_classes()) {
    if (!supports(algo, bins)) continue;
    std::vector<std::int64_t> ns = small_sizes();
    if (k++ % 2 == 0) ns.push_back(large_size());
    for (std::int64_t n : ns) {
      check_even_variant<T>({.algorithm = algo}, bins, n, variant++);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST_P(CudaHistogram, EvenU8) { SKIP_WITHOUT_GPU(); even_all_counters<std::uint8_t>(GetParam()); }
TEST_P(CudaHistogram, EvenU16) { SKIP_WITHOUT_GPU(); even_all_counters<std::uint16_t>(GetParam()); }
TEST_P(CudaHistogram, EvenI32) { SKIP_WITHOUT_GPU(); even_all_counters<std::int32_t>(GetParam()); }
TEST_P(CudaHistogram, EvenU32) { SKIP_WITHOUT_GPU(); even_all_counters<std::uint32_t>(GetParam()); }
TEST_P(CudaHistogram, EvenI64) { SKIP_WITHOUT_GPU(); even_all_counters<std::int64_t>(GetParam()); }
TEST_P(CudaHistogram, EvenF32) { SKIP_WITHOUT_GPU(); even_all_counters<float>(GetParam()); }
TEST_P(CudaHistogram, EvenF64) { SKIP_WITHOUT_GPU(); even_all_counters<double>(GetParam()); }

/// The edge values alone, through the device: exactly lower, just below upper, upper, NaN,
/// +-inf, below lower; counts sum to the samples in range.
template <class T>
void edge_values(histogram_algorithm algo) {
  const std::int64_t bins = 16;
  const auto c = sk::test::pick_range<T>(bins, 1);
  std::vector<T> v;
  std::int64_t in_range = 0;
  if constexpr (std::is_floating_point_v<T>) {
    v = {c.lower, std::nextafter(c.upper, c.lower), c.upper, std::numeric_limits<T>::quiet_NaN(),
         std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(),
         std::nextafter(c.lower, c.lower - 1)};
    in_range = 2;
  } else {
    v = {static_cast<T>(c.lower), static_cast<T>(c.upper - 1), static_cast<T>(c.upper)};
    in_range = 2;
    if (c.lower > static_cast<std::int64_t>(std::numeric_limits<T>::min())) v.push_back(static_cast<T>(c.lower - 1));
  }
  const auto base = v;
  for (int k = 0; k < 100; ++k) v.insert(v.end(), base.begin(), base.end());  // 101 copies
  dvec<T> d_in(v);
  dvec<std::uint64_t> d_counts(bins);
  skc::histogram_even(d_in.p, static_cast<std::int64_t>(v.size()), d_counts.p, bins, c.lower, c.upper, nullptr, {algo});
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto got = d_counts.get(bins);
  EXPECT_EQ(got[0], 101u);
  EXPECT_EQ(got[bins - 1], 101u);
  EXPECT_EQ(std::accumulate(got.begin(), got.end(), std::uint64_t{0}), static_cast<std::uint64_t>(101 * in_range));
}

TEST_P(CudaHistogram, EdgeValues) {
  SKIP_WITHOUT_GPU();
  sk::test::for_each_type(sk::test::histogram_sample_types{}, [&]<class T>() { edge_values<T>(GetParam()); });
}

template <class T>
void range_case(histogram_algorithm algo) {
  for (std::int64_t bins : sk::test::bin_classes()) {
    if constexpr (sizeof(T) <= 2) bins = std::min<std::int64_t>(bins, std::numeric_limits<T>::max() / 2);
    if (!supports(algo, bins)) continue;
    const auto e = sk::test::random_edges<T>(bins);
    std::vector<std::int64_t> ns{0, 1, 4097, 30011};
    if (!quick() && (bins == 7 || bins == 4096 || bins == 65536 || bins == (1 << 20))) ns.push_back(1000003);
    for (std::int64_t n : ns) {
      const auto v = sk::test::samples_for_edges<T>(n, e);
      std::vector<std::uint32_t> want(e.size() - 1);
      sk::cpu::histogram_range_serial(v.data(), n, want.data(), e.data(), static_cast<std::int64_t>(e.size()));
      dvec<T> d_in(v);
      dvec<sk::histogram_level_t<T>> d_edges(e);
      dvec<std::uint32_t> d_counts(want.size());
      skc::histogram_range(d_in.p, n, d_counts.p, d_edges.p, static_cast<std::int64_t>(e.size()), nullptr, {algo});
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      ASSERT_EQ(d_counts.get(want.size()), want) << "range n=" << n << " bins=" << bins;
    }
  }
}

TEST_P(CudaHistogram, Range) {
  SKIP_WITHOUT_GPU();
  sk::test::for_each_type(sk::test::histogram_sample_types{}, [&]<class T>() { range_case<T>(GetParam()); });
}

/// Skewed inputs: every sample in one bin (aggregation; 16-bit counters crossing 2^15 many
/// times), and a narrow normal-like distribution.
TEST_P(CudaHistogram, SkewedInputs) {
  SKIP_WITHOUT_GPU();
  const std::int64_t n = quick() ? (std::int64_t{1} << 17) + 3 : (std::int64_t{1} << 23) + 3;
  for (std::int64_t bins : {std::int64_t{256}, std::int64_t{1024}, std::int64_t{65536}, std::int64_t{1} << 20}) {
    if (!supports(GetParam(), bins)) continue;
    std::vector<std::uint32_t> v(static_cast<std::size_t>(n), 777u);
    std::normal_distribution<double> d(static_cast<double>(bins) / 2, static_cast<double>(bins) / 64 + 1);
    for (std::size_t i = 0; i < v.size(); i += 2) v[i] = static_cast<std::uint32_t>(std::max(0.0, d(sk::test::rng())));
    for (int shape = 0; shape < 2; ++shape) {
      if (shape == 1) std::fill(v.begin(), v.end(), 777u);
      std::vector<std::uint64_t> want(static_cast<std::size_t>(bins));
      sk::cpu::bincount_serial(v.data(), n, want.data(), bins);
      dvec<std::uint32_t> d_in(v);
      dvec<std::uint64_t> d_counts(static_cast<std::size_t>(bins));
      skc::bincount(d_in.p, n, d_counts.p, bins, nullptr, {GetParam()});
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      ASSERT_EQ(d_counts.get(static_cast<std::size_t>(bins)), want) << "bins=" << bins << " shape=" << shape;
    }
  }
}

/// bincount_capped against a serial loop: keys that all fit below the capacity (the largest
/// counted key is bincount's length), keys at and above it, negative keys; a misaligned start;
/// both counter types.
template <class T, class C>
void capped_case(histogram_algorithm algo, std::int64_t capacity, std::int64_t n, int shape,
                 std::size_t offset) {
  std::int64_t top = capacity - 1;  // the largest key drawn
  if (shape == 0) top = std::max<std::int64_t>(0, capacity / 3);
  if (shape >= 1) top = capacity + 100;
  if constexpr (sizeof(T) < 8)
    top = std::min<std::int64_t>(top, static_cast<std::int64_t>(std::numeric_limits<T>::max()));
  const std::int64_t bottom = (shape == 2 && std::is_signed_v<T>) ? -5 : 0;
  std::uniform_int_distribution<std::int64_t> d(bottom, top);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<T>(d(sk::test::rng()));
  std::vector<C> want(static_cast<std::size_t>(capacity + 2));
  std::int64_t neg = 0, above = 0, largest = -1;
  for (T x : v) {
    const auto k = static_cast<std::int64_t>(x);
    if (k < 0) {
      ++neg;
      ++want[static_cast<std::size_t>(capacity + 1)];
    } else if (k >= capacity) {
      ++above;
      ++want[static_cast<std::size_t>(capacity)];
    } else {
      ++want[static_cast<std::size_t>(k)];
      largest = std::max(largest, k);
    }
  }
  dvec<T> d_in(v, offset);
  dvec<C> d_counts(static_cast<std::size_t>(capacity + 2));
  dvec<std::int64_t> d_summary(3);
  skc::bincount_capped(d_in.p + offset, n, d_counts.p, capacity, d_summary.p, nullptr, {algo});
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto tag = ::testing::Message() << "capacity=" << capacity << " n=" << n << " shape=" << shape
                                        << " offset=" << offset << " sizeof(T)=" << sizeof(T);
  ASSERT_EQ(d_counts.get(static_cast<std::size_t>(capacity + 2)), want) << tag;
  ASSERT_EQ(d_summary.get(3), (std::vector<std::int64_t>{neg, above, largest})) << tag;
}

template <class T>
void capped_all(histogram_algorithm algo) {
  int k = 0;
  for (std::int64_t capacity : {std::int64_t{1}, std::int64_t{7}, std::int64_t{254}, std::int64_t{1024},
                                std::int64_t{4096}, std::int64_t{65534}, std::int64_t{1} << 20}) {
    if (!supports(algo, capacity + 2)) continue;
    std::vector<std::int64_t> ns = {0, 1, 2, 33, 4097, 70001};
    if (!quick()) ns.push_back(large_size());
    for (std::int64_t n : ns)
      for (int shape = 0; shape < 3; ++shape) {
        if (k++ % 2 == 0)
          capped_case<T, std::uint64_t>(algo, capacity, n, shape, static_cast<std::size_t>(k % 3));
        else
          capped_case<T, std::uint32_t>(algo, capacity, n, shape, 0);
        if (::testing::Test::HasFatalFailure()) return;
      }
  }
}

TEST_P(CudaHistogram, BincountCapped) {
  SKIP_WITHOUT_GPU();
  capped_all<std::uint8_t>(GetParam());
  capped_all<std::uint16_t>(GetParam());
  capped_all<std::int32_t>(GetParam());
  capped_all<std::uint32_t>(GetParam());
  capped_all<std::int64_t>(GetParam());
}

TEST_P(CudaHistogram, BincountCappedBadArguments) {
  SKIP_WITHOUT_GPU();
  dvec<std::int32_t> d_in(16);
  dvec<std::uint64_t> d_counts(16);
  dvec<std::int64_t> d_summary(3);
  EXPECT_THROW(skc::bincount_capped(d_in.p, 16, d_counts.p, 0, d_summary.p, nullptr, {GetParam()}),
               sk::invalid_argument);
  EXPECT_THROW(skc::bincount_capped(d_in.p, 16, d_counts.p, skc::max_bincount_capacity + 1, d_summary.p,
                                    nullptr, {GetParam()}),
               sk::invalid_argument);
  EXPECT_THROW(skc::bincount_capped(d_in.p, 16, d_counts.p, 8, static_cast<std::int64_t*>(nullptr), nullptr,
                                    {GetParam()}),
               sk::invalid_argument);
}

TEST_P(CudaHistogram, AccumulateAndHostContainers) {
  SKIP_WITHOUT_GPU();
  const std::int64_t bins = 300;
  const auto c = sk::test::pick_range<float>(bins, 0);
  const auto a = sk::test::random_samples<float>(100003, c.lower, c.upper);
  const auto b = sk::test::random_samples<float>(7919, c.lower, c.upper);
  std::vector<std::uint32_t> want(bins);
  sk::cpu::histogram_even_serial(a.data(), 100003, want.data(), bins, c.lower, c.upper);
  sk::cpu::histogram_even_serial(b.data(), 7919, want.data(), bins, c.lower, c.upper, true);
  // Device pointers, two calls, the second accumulating.
  dvec<float> da(a), db(b);
  dvec<std::uint32_t> d_counts(bins);
  skc::histogram_even(da.p, 100003, d_counts.p, bins, c.lower, c.upper, nullptr, {GetParam()});
  skc::histogram_even(db.p, 7919, d_counts.p, bins, c.lower, c.upper, nullptr, {GetParam(), 0, true});
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(d_counts.get(bins), want);
  // Host containers.
  std::vector<std::uint32_t> host(bins, 5u);
  skc::histogram_even<float, std::uint32_t>(a, host, c.lower, c.upper, {GetParam()});
  skc::histogram_even<float, std::uint32_t>(b, host, c.lower, c.upper, {GetParam(), 0, true});
  EXPECT_EQ(host, want);
  std::vector<std::uint8_t> keys(50000);
  for (auto& k : keys) k = static_cast<std::uint8_t>(sk::test::rng()());
  std::vector<std::uint64_t> bc(200), bc_want(200);
  skc::bincount<std::uint8_t, std::uint64_t>(keys, bc, {GetParam()});
  sk::cpu::bincount_serial(keys.data(), 50000, bc_want.data(), 200);
  EXPECT_EQ(bc, bc_want);
  const std::vector<double> edges{-1.0, -0.5, 0.0, 0.25, 2.0};
  std::vector<double> samples{-1.0, -0.75, -0.5, 0.1, 0.25, 1.99, 2.0, -2.0};
  std::vector<std::uint32_t> rc(4);
  skc::histogram_range<double, std::uint32_t>(samples, rc, edges, {GetParam()});
  EXPECT_EQ(rc, (std::vector<std::uint32_t>{2, 1, 1, 2}));
}

TEST_P(CudaHistogram, BadArgumentsThrowBeforeAnythingRuns) {
  SKIP_WITHOUT_GPU();
  dvec<std::uint32_t> d_in(std::vector<std::uint32_t>(64, 3u));
  dvec<std::uint32_t> d_counts(8);
  cudaMemset(d_counts.p, 0x11, 8 * sizeof(std::uint32_t));
  const skc::histogram_options o{GetParam()};
  EXPECT_THROW(skc::histogram_even(d_in.p, -1, d_counts.p, 8, 0, 8, nullptr, o), sk::invalid_argument);
  EXPECT_THROW((skc::histogram_even<std::uint32_t, std::uint32_t>(nullptr, 5, d_counts.p, 8, 0, 8, nullptr, o)), sk::invalid_argument);
  EXPECT_THROW((skc::histogram_even<std::uint32_t, std::uint32_t>(d_in.p, 5, nullptr, 8, 0, 8, nullptr, o)), sk::invalid_argument);
  EXPECT_THROW(skc::histogram_even(d_in.p, 64, d_counts.p, 0, 0, 8, nullptr, o), sk::invalid_argument);
  EXPECT_THROW(skc::histogram_even(d_in.p, 64, d_counts.p, 8, 8, 8, nullptr, o), sk::invalid_argument);
  EXPECT_THROW(skc::histogram_even(d_in.p, 64, d_counts.p, sk::max_histogram_bins + 1, 0, 8, nullptr, o), sk::invalid_argument);
  EXPECT_THROW(skc::histogram_even(d_in.p, 64, d_counts.p, 8, 0, 8, nullptr, {GetParam(), 100}), sk::invalid_argument);
  EXPECT_THROW(skc::histogram_even(reinterpret_cast<const std::uint32_t*>(reinterpret_cast<const char*>(d_in.p) + 1), 8, d_counts.p, 8, 0, 8, nullptr, o), sk::invalid_argument);
  EXPECT_THROW((skc::histogram_range<std::uint32_t, std::uint32_t>(d_in.p, 64, d_counts.p, nullptr, 9, nullptr, o)), sk::invalid_argument);
  std::vector<std::uint32_t> host(8);
  const std::vector<std::int64_t> unsorted{0, 2, 1, 3, 4, 5, 6, 7, 8};
  EXPECT_THROW((skc::histogram_range<std::uint32_t, std::uint32_t>(std::vector<std::uint32_t>(4), host, unsorted, o)), sk::invalid_argument);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (auto x : d_counts.get(8)) EXPECT_EQ(x, 0x11111111u);
}

/// More than 2^31 samples (several launches; 64-bit indexing): 2^31 + 1000 bytes, all 7.
TEST_P(CudaHistogram, MoreThan2To31Samples) {
  SKIP_WITHOUT_GPU();
  if (quick()) GTEST_SKIP() << "quick mode";
  if (GetParam() != histogram_algorithm::adaptive && GetParam() != histogram_algorithm::shared_aggregated)
    GTEST_SKIP() << "one-bin input without aggregation: 2^31 atomics on one counter, too slow to be worth it";
  const std::int64_t n = (std::int64_t{1} << 31) + 1000;
  std::uint8_t* d = nullptr;
  if (cudaMalloc(&d, static_cast<std::size_t>(n)) != cudaSuccess) GTEST_SKIP() << "not enough GPU memory";
  CUDA_OK(cudaMemset(d, 7, static_cast<std::size_t>(n)));
  CUDA_OK(cudaMemset(d + n - 1, 9, 1));
  dvec<std::uint64_t> d_counts(256);
  skc::histogram_even(d, n, d_counts.p, 256, 0, 256, nullptr, {GetParam()});
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto got = d_counts.get(256);
  cudaFree(d);
  EXPECT_EQ(got[7], static_cast<std::uint64_t>(n - 1));
  EXPECT_EQ(got[9], 1u);
}

INSTANTIATE_TEST_SUITE_P(Algorithms, CudaHistogram, ::testing::ValuesIn(skc::all_histogram_algorithms),
                         sk::test::param_name<histogram_algorithm>);

}  // namespace
