// Per-device facts the CUDA backend asks for on every launch, looked up once per device (and
// kernel): small scans and sorts take a few microseconds, and driver calls on each launch show.
#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

#include "scankit/cuda/detail/common.cuh"
#include "scankit/cuda/detail/device_info.hpp"
#include "scankit/cuda/device.hpp"
#include "scankit/error.hpp"

namespace scankit::cuda::detail {

namespace {

/// known[key], computed by `compute` on first use and remembered: each driver query is made
/// once per key (device, kernel, shape) instead of on every launch.
template <class Key, class Value, class Compute>
Value remembered(std::map<Key, Value>& known, std::mutex& lock, const Key& key, Compute&& compute) {
  std::lock_guard<std::mutex> guard(lock);
  if (auto it = known.find(key); it != known.end()) return it->second;
  const Value value = compute();
  known.emplace(key, value);
  return value;
}

/// cudaFuncGetAttributes of `kernel` on the current device.
cudaFuncAttributes kernel_attributes(const void* kernel) {
  static std::mutex lock;
  static std::map<std::pair<const void*, int>, cudaFuncAttributes> known;
  return remembered(known, lock, std::make_pair(kernel, current_device()), [&] {
    cudaFuncAttributes attr{};
    SCANKIT_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    return attr;
  });
}

}  // namespace

int device_attribute(cudaDeviceAttr attr) {
  static std::mutex lock;
  static std::map<std::pair<int, int>, int> known;  // (device, attribute) -> value
  const auto key = std::make_pair(current_device(), static_cast<int>(attr));
  return remembered(known, lock, key, [&] {
    int value = 0;
    SCANKIT_CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, key.first));
    return value;
  });
}

const device_info& current_device_info() {
  static std::mutex lock;
  static std::map<int, device_info> known;  // device -> description (node-based: references stay valid)
  const int dev = current_device();
  std::lock_guard<std::mutex> guard(lock);
  if (auto it = known.find(dev); it != known.end()) return it->second;
  auto attr = [dev](cudaDeviceAttr a) {
    int value = 0;
    SCANKIT_CUDA_CHECK(cudaDeviceGetAttribute(&value, a, dev));
    return value;
  };
  device_info d;
  d.arch = 10 * attr(cudaDevAttrComputeCapabilityMajor) + attr(cudaDevAttrComputeCapabilityMinor);
  d.sm_count = std::max(1, attr(cudaDevAttrMultiProcessorCount));
  d.smem_per_block_optin = static_cast<std::size_t>(attr(cudaDevAttrMaxSharedMemoryPerBlockOptin));
  d.smem_per_sm = static_cast<std::size_t>(attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
  d.l2_bytes = static_cast<std::size_t>(attr(cudaDevAttrL2CacheSize));
  d.memory_bus_bits = attr(cudaDevAttrGlobalMemoryBusWidth);
  d.memory_clock_khz = attr(cudaDevAttrMemoryClockRate);
  return known.emplace(dev, d).first->second;
}

void allow_dynamic_shared_memory_impl(const void* kernel, std::size_t bytes) {
  // Every nonzero size is set explicitly: the default limit is 48 KiB *minus the kernel's
  // static shared memory*, so a kernel with 48 KiB of dynamic and a few bytes of static shared
  // memory (the sort's histogram kernel with 3 digit passes of 16 counter copies) would fail to
  // launch with "invalid argument" unless its limit is raised.
  if (bytes == 0) return;
  struct entry {
    const void* kernel;
    int device;
    std::size_t bytes;
  };
  static std::mutex lock;
  static std::vector<entry> done;
  const int dev = current_device();
  std::lock_guard<std::mutex> guard(lock);
  auto it = std::find_if(done.begin(), done.end(), [&](const entry& e) { return e.kernel == kernel && e.device == dev; });
  if (it != done.end() && it->bytes >= bytes) return;
  SCANKIT_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  if (it != done.end()) it->bytes = bytes;
  else done.push_back({kernel, dev, bytes});
}

bool fits_shared_memory_impl(const void* kernel, std::size_t bytes) {
  return kernel_attributes(kernel).sharedSizeBytes + bytes <= current_device_info().smem_per_block_optin;
}

int blocks_per_sm_impl(const void* kernel, int threads, std::size_t dynamic_bytes) {
  static std::mutex lock;
  static std::map<std::tuple<const void*, int, int, std::size_t>, int> known;  // (kernel, device, shape) -> blocks
  return remembered(known, lock, std::make_tuple(kernel, current_device(), threads, dynamic_bytes), [&] {
    int blocks = 0;
    SCANKIT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, dynamic_bytes));
    return blocks;
  });
}

int kernel_arch_impl(const void* kernel) { return kernel_attributes(kernel).ptxVersion; }

namespace {
__global__ void code_probe_kernel() {}
}  // namespace

/// The virtual architecture the library's kernels run from on the current device: they are all
/// compiled for the same architectures, so an empty kernel of the library tells it for them all.
int library_kernel_arch() { return kernel_arch(code_probe_kernel); }

}  // namespace scankit::cuda::detail

namespace scankit::cuda {

device_description describe_current_device() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    throw no_device_error("scankit::cuda::describe_current_device: no CUDA device");
  }
  const detail::device_info& d = detail::current_device_info();
  device_description r;
  r.arch = d.arch, r.sm_count = d.sm_count;
  r.smem_per_block_optin = d.smem_per_block_optin, r.smem_per_sm = d.smem_per_sm, r.l2_bytes = d.l2_bytes;
  r.memory_bus_bits = d.memory_bus_bits, r.memory_clock_khz = d.memory_clock_khz;
  r.memory_bytes_per_second = d.memory_bytes_per_second();
  r.tuning_class = detail::name_of(detail::class_of(d));
  return r;
}

}  // namespace scankit::cuda
