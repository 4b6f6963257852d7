// numpy.histogram's even bins on the GPU: the library's counting kernels (plan_histogram picks
// the layout for the bin count and device) with the bins functor with_numpy_bins picks
// (scankit/histogram_numpy.hpp); and bincount's one-pass count with its summary read back.
#include <string>
#include <type_traits>

#include "capi_internal.hpp"
#include "capi_kernels.hpp"
#include "scankit/cuda/histogram.cuh"
#include "scankit/histogram_numpy.hpp"

namespace scankit::capi::kernels {

void numpy_histogram(int dtype, const void* samples, std::int64_t n, std::uint64_t* counts,
                     std::int64_t bins, double lower, double upper, int mode, int algorithm,
                     cudaStream_t stream) {
  cuda::histogram_options opts;
  opts.algorithm = static_cast<cuda::histogram_algorithm>(algorithm);
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    const cuda::histogram_plan plan = cuda::plan_histogram(bins, sizeof(T), opts);
    cuda::detail::hist::check_device_args(static_cast<const T*>(samples), n, counts, "histogram");
    SCANKIT_CUDA_CHECK(
        cudaMemsetAsync(counts, 0, static_cast<std::size_t>(bins) * sizeof(std::uint64_t), stream));
    if (n == 0) return;
    // The C ABI's mode bits are with_numpy_bins' flags.
    with_numpy_bins<T>(static_cast<int>(bins), lower, upper, mode, [&](const auto& bin_of) {
      cuda::detail::hist::run_plan(plan, static_cast<const T*>(samples), n, bin_of, counts,
                                   static_cast<int>(bins), stream);
    });
  };
  visit_types<histogram_types>(dtype, "histogram", run);
}

void bincount_capped(int dtype, const void* samples, std::int64_t n, std::uint64_t* counts,
                     std::int64_t capacity, int algorithm, cudaStream_t stream,
                     std::int64_t* summary) {
  require_type(dtype, bincount_types, "bincount");
  cuda::histogram_options opts;
  opts.algorithm = static_cast<cuda::histogram_algorithm>(algorithm);
  if (capacity < 1 || capacity > cuda::max_bincount_capacity)
    throw scankit::invalid_argument("bincount: capacity " + std::to_string(capacity) +
                                    " is outside [1, 2^24 - 2]");
  auto* d_summary = reinterpret_cast<std::int64_t*>(counts + capacity + 2);
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    cuda::bincount_capped(static_cast<const T*>(samples), n, counts, capacity, d_summary, stream,
                          opts);
  };
  visit_types<bincount_types>(dtype, "bincount", run);
  SCANKIT_CUDA_CHECK(cudaMemcpyAsync(summary, d_summary, 3 * sizeof(std::int64_t),
                                     cudaMemcpyDeviceToHost, stream));
  SCANKIT_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace scankit::capi::kernels
