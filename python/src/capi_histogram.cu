// numpy.histogram's even bins on the GPU: the library's counting kernels (plan_histogram picks
// the layout for the bin count and device) with the numpy_even_bins functor.
#include "capi_internal.hpp"
#include "capi_kernels.hpp"
#include "numpy_bins.hpp"
#include "scankit/cuda/histogram.cuh"

namespace scankit::capi::kernels {

void numpy_histogram(int dtype, const void* samples, std::int64_t n, std::uint64_t* counts,
                     std::int64_t bins, double lower, double upper, bool float_edges, int algorithm,
                     cudaStream_t stream) {
  require_type(dtype, histogram_types, "histogram");
  cuda::histogram_options opts;
  opts.algorithm = static_cast<cuda::histogram_algorithm>(algorithm);
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto b = numpy_even_bins<T>::make(static_cast<int>(bins), lower, upper, float_edges);
    const cuda::histogram_plan plan = cuda::plan_histogram(bins, sizeof(T), opts);
    cuda::detail::hist::check_device_args(static_cast<const T*>(samples), n, counts, "histogram");
    SCANKIT_CUDA_CHECK(
        cudaMemsetAsync(counts, 0, static_cast<std::size_t>(bins) * sizeof(std::uint64_t), stream));
    if (n == 0) return;
    cuda::detail::hist::run_plan(plan, static_cast<const T*>(samples), n, b, counts,
                                 static_cast<int>(bins), stream);
  };
  switch (dtype) {
    case SK_U8:
      return run(std::type_identity<std::uint8_t>{});
    case SK_U16:
      return run(std::type_identity<std::uint16_t>{});
    case SK_I32:
      return run(std::type_identity<std::int32_t>{});
    case SK_U32:
      return run(std::type_identity<std::uint32_t>{});
    case SK_I64:
      return run(std::type_identity<std::int64_t>{});
    case SK_F32:
      return run(std::type_identity<float>{});
    case SK_F64:
      return run(std::type_identity<double>{});
  }
}

}  // namespace scankit::capi::kernels
