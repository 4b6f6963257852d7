// GoogleTest suite of adaptive's counting layouts (histogram_options::layout), each forced:
// every sample type, both counter types, small sizes and several bin counts against the CPU
// serial reference, a one-bin input, histogram_range; and the fallback of a layout that does
// not fit. Without a GPU every test skips.
//   SCANKIT_TEST_QUICK=1   fewer bin counts.
//   SCANKIT_TEST_TIER=sanitize  three bin counts (each layout still taken at one of them) and
//                          tile edges only (test_util.hpp): for compute-sanitizer runs.
//   SCANKIT_TEST_SEED=N    replays a run (the seed is printed at start).
#include "common/cuda_histogram_test_util.hpp"

namespace {

using namespace scankit::test::cuda_histogram;

// ---------------------------------------------------------------------------------------
// Every counting layout of adaptive, forced through histogram_options::layout: small sizes
// (0, 1, 2, tile +- 1, primes), every sample type, both counter widths, every bin class the
// layout holds on this GPU, skewed input (one bin: repeated vectors aggregated, 16-bit
// counters crossing 2^15).

class CudaHistogramLayouts : public ::testing::TestWithParam<skc::histogram_layout> {};

/// Whether the plan takes the forced layout for this bin count (it falls back otherwise).
bool takes(skc::histogram_layout l, const skc::histogram_plan& p) {
  using S = skc::histogram_plan::strategy;
  switch (l) {
    case skc::histogram_layout::automatic:
      return true;
    case skc::histogram_layout::lanes:
      return p.kind == S::shared32_lanes;
    case skc::histogram_layout::warps:
      return p.kind == S::shared32 && p.copies > 1;
    case skc::histogram_layout::block:
      return p.kind == S::shared32 && p.copies == 1;
    case skc::histogram_layout::narrow16:
      return p.kind == S::shared16;
    case skc::histogram_layout::global:
      return p.kind == S::global_strided;
  }
  return false;
}

std::size_t optin_shared_bytes() {
  int dev = 0, bytes = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
    throw std::runtime_error("cudaDeviceGetAttribute");
  return static_cast<std::size_t>(bytes);
}

template <class T>
void forced_layout(skc::histogram_layout layout) {
  const skc::histogram_options opts{.algorithm = histogram_algorithm::adaptive, .layout = layout};
  int variant = 0;
  // The sanitize tier: one tiny, one middling and one large count (the layout is forced either way).
  std::vector<std::int64_t> bins_list =
      sanitize_tier() ? std::vector<std::int64_t>{7, 1000, 20000} : std::vector<std::int64_t>{1, 7, 256, 1000, 4096, 20000};
  if (!quick()) bins_list.push_back(65536);
  for (std::int64_t bins : bins_list) {
    const auto plan = skc::plan_histogram(bins, sizeof(T), opts);
    // Where the layout's counters fit this GPU's shared memory per block, the plan takes it.
    const auto b32 = static_cast<std::size_t>(bins + 1) * 4;
    std::size_t need = 0;
    if (layout == skc::histogram_layout::lanes) need = 32 * b32;
    if (layout == skc::histogram_layout::warps) need = 2 * b32;
    if (layout == skc::histogram_layout::block) need = b32;
    if (layout == skc::histogram_layout::narrow16)
      need = static_cast<std::size_t>((bins + 2) / 2) * 4;
    if (need <= optin_shared_bytes())
      EXPECT_TRUE(takes(layout, plan)) << bins << " bins: " << plan.describe();
    for (std::int64_t n : small_sizes()) {
      check_even_variant<T>(opts, bins, n, variant++);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST_P(CudaHistogramLayouts, EveryTypeSmallSizes) {
  SKIP_WITHOUT_GPU();
  sk::test::for_each_type(sk::test::histogram_sample_types{}, [&]<class T>() { forced_layout<T>(GetParam()); });
}

TEST_P(CudaHistogramLayouts, OneBinInputAndRange) {
  SKIP_WITHOUT_GPU();
  const skc::histogram_options opts{.algorithm = histogram_algorithm::adaptive,
                                    .layout = GetParam()};
  const std::int64_t n = (std::int64_t{1} << 17) + 3, bins = 256;
  const std::vector<std::uint8_t> v(static_cast<std::size_t>(n), 7);
  dvec<std::uint8_t> d_in(v);
  dvec<std::uint32_t> d_counts(bins);
  skc::bincount(d_in.p, n, d_counts.p, bins, nullptr, opts);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto got = d_counts.get(bins);
  EXPECT_EQ(got[7], static_cast<std::uint32_t>(n));
  EXPECT_EQ(std::accumulate(got.begin(), got.end(), std::uint64_t{0}),
            static_cast<std::uint64_t>(n));
  // histogram_range through the forced layout.
  const std::vector<double> edges{-1.0, -0.5, 0.0, 0.25, 2.0};
  std::vector<double> samples{-1.0, -0.75, -0.5, 0.1, 0.25, 1.99, 2.0, -2.0};
  std::vector<std::uint32_t> rc(4);
  skc::histogram_range<double, std::uint32_t>(samples, rc, edges, opts);
  EXPECT_EQ(rc, (std::vector<std::uint32_t>{2, 1, 1, 2}));
}

// A forced layout that does not fit falls back to the automatic choice (no throw); the other
// algorithms ignore the field.
TEST(CudaHistogramLayoutPlan, ForcedLayoutsFallBack) {
  SKIP_WITHOUT_GPU();
  const std::int64_t huge = std::int64_t{1} << 20;  // 4 MiB of 32-bit counters: fits no GPU
  for (auto l : {skc::histogram_layout::lanes, skc::histogram_layout::warps,
                 skc::histogram_layout::block, skc::histogram_layout::narrow16}) {
    const auto forced = skc::plan_histogram(huge, 4, {.layout = l});
    const auto automatic = skc::plan_histogram(huge, 4);
    EXPECT_EQ(forced.kind, automatic.kind) << skc::name(l);
  }
  EXPECT_EQ(skc::plan_histogram(256, 1, {.layout = skc::histogram_layout::global}).kind,
            skc::histogram_plan::strategy::global_strided);
  EXPECT_EQ(skc::plan_histogram(256, 1,
                                {.algorithm = histogram_algorithm::global_atomic_blocked,
                                 .layout = skc::histogram_layout::lanes})
                .kind,
            skc::histogram_plan::strategy::global_blocked);
  EXPECT_FALSE(skc::histogram_tuning_description(1).empty());
}

INSTANTIATE_TEST_SUITE_P(Layouts, CudaHistogramLayouts, ::testing::ValuesIn(skc::all_histogram_layouts),
                         sk::test::param_name<skc::histogram_layout>);

}  // namespace
