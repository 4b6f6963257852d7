// Per-device facts the CUDA backend asks for on every launch, looked up once per device (and
// kernel): small scans and sorts take a few microseconds, and driver calls on each launch show.
#include <algorithm>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "scankit/cuda/detail/common.cuh"

namespace scankit::cuda::detail {

int device_attribute(cudaDeviceAttr attr) {
  static std::mutex lock;
  static std::map<std::pair<int, int>, int> known;  // (device, attribute) -> value
  const auto key = std::make_pair(current_device(), static_cast<int>(attr));
  std::lock_guard<std::mutex> guard(lock);
  if (auto it = known.find(key); it != known.end()) return it->second;
  int value = 0;
  SCANKIT_CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, key.first));
  known.emplace(key, value);
  return value;
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
  static std::mutex lock;
  static std::map<std::pair<const void*, int>, std::size_t> known;  // (kernel, device) -> static bytes
  const auto key = std::make_pair(kernel, current_device());
  std::size_t static_bytes = 0;
  {
    std::lock_guard<std::mutex> guard(lock);
    if (auto it = known.find(key); it != known.end()) {
      static_bytes = it->second;
    } else {
      cudaFuncAttributes attr{};
      SCANKIT_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
      static_bytes = attr.sharedSizeBytes;
      known.emplace(key, static_bytes);
    }
  }
  const auto limit = static_cast<std::size_t>(device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin));
  return static_bytes + bytes <= limit;
}

int blocks_per_sm_impl(const void* kernel, int threads, std::size_t dynamic_bytes) {
  struct entry {
    const void* kernel;
    int device, threads;
    std::size_t bytes;
    int blocks;
  };
  static std::mutex lock;
  static std::vector<entry> known;
  const int dev = current_device();
  std::lock_guard<std::mutex> guard(lock);
  for (const entry& e : known)
    if (e.kernel == kernel && e.device == dev && e.threads == threads && e.bytes == dynamic_bytes) return e.blocks;
  int blocks = 0;
  SCANKIT_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, dynamic_bytes));
  known.push_back({kernel, dev, threads, dynamic_bytes, blocks});
  return blocks;
}

int kernel_arch_impl(const void* kernel) {
  static std::mutex lock;
  static std::map<std::pair<const void*, int>, int> known;  // (kernel, device) -> arch
  const auto key = std::make_pair(kernel, current_device());
  std::lock_guard<std::mutex> guard(lock);
  if (auto it = known.find(key); it != known.end()) return it->second;
  cudaFuncAttributes attr{};
  SCANKIT_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
  known.emplace(key, attr.ptxVersion);
  return attr.ptxVersion;
}

}  // namespace scankit::cuda::detail
