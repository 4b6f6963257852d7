// Downstream use of scankit's custom-operator path: a .cu file that includes
// scankit/cuda/scan.cuh and scans with its own monoid (composition of affine maps modulo 2^32,
// which is associative but not commutative). Checks the GPU's result against a serial loop;
// without a GPU it stops after the build and link, which are what a consumer project tests.
#include <scankit/cuda/scan.cuh>

#include <cstdint>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

struct affine {
  std::uint32_t a, b;  // x -> a * x + b
  friend bool operator==(const affine&, const affine&) = default;
};

/// op(f, g): apply f, then g. The identity is x -> x.
struct compose {
  using value_type = affine;
  __host__ __device__ static affine identity() { return {1u, 0u}; }
  __host__ __device__ affine operator()(affine f, affine g) const { return {g.a * f.a, g.a * f.b + g.b}; }
};

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t e_ = (call);                                                              \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "consumer_cuda: %s failed: %s\n", #call, cudaGetErrorString(e_)); \
      return 1;                                                                           \
    }                                                                                     \
  } while (0)

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("consumer_cuda: built and linked against scankit; no GPU here, so not run\n");
    return 0;
  }
  const std::int64_t n = 100003;  // several tiles, the last one partial
  std::vector<affine> in(n);
  std::uint32_t state = 12345u;
  for (auto& f : in) {
    state = state * 1664525u + 1013904223u;
    f = {state | 1u, state >> 7};
  }
  std::vector<affine> expect(n);
  affine acc = compose::identity();
  for (std::int64_t i = 0; i < n; ++i) expect[i] = acc = compose{}(acc, in[i]);

  affine *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(affine)));
  CHECK(cudaMalloc(&d_out, n * sizeof(affine)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(affine), cudaMemcpyHostToDevice));
  const scankit::cuda::scan_config cfg{};
  const std::size_t bytes = scankit::cuda::scan_workspace_bytes(n, sizeof(affine), cfg);
  void* ws = nullptr;
  CHECK(cudaMalloc(&ws, bytes > 0 ? bytes : 1));
  scankit::cuda::scan(d_in, d_out, n, compose{}, scankit::scan_kind::inclusive, compose::identity(), ws, bytes,
                      nullptr, cfg);
  std::vector<affine> got(n);
  CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(affine), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(ws));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_in));
  for (std::int64_t i = 0; i < n; ++i) {
    if (!(got[i] == expect[i])) {
      std::fprintf(stderr, "consumer_cuda: wrong result at %lld\n", static_cast<long long>(i));
      return 1;
    }
  }
  std::printf("consumer_cuda: scanned %lld affine maps with a custom monoid on the GPU\n", static_cast<long long>(n));
  return 0;
}
