#include "common/system.hpp"

#include <fmt/format.h>
#include <oneapi/tbb/info.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "common/timing.hpp"
#include "common/util.hpp"

#ifdef SCANKIT_HAS_CUDA
#include "common/baselines.hpp"
#include "scankit/cuda/device.hpp"
#include "scankit/cuda/scan.hpp"
#endif

namespace scankit::tools {

namespace {

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) {
        auto v = line.substr(colon + 1);
        v.erase(0, v.find_first_not_of(' '));
        return v;
      }
    }
  }
  return "unknown CPU";
}

#ifdef SCANKIT_HAS_CUDA
gpu_info query_gpu(int id) {
  gpu_info g;
  g.id = id;
  cudaDeviceProp prop{};
  SCANKIT_TOOLS_CUDA_CHECK(cudaGetDeviceProperties(&prop, id));
  g.name = prop.name;
  g.total_memory = prop.totalGlobalMem;
  SCANKIT_TOOLS_CUDA_CHECK(cudaDeviceGetAttribute(&g.cc_major, cudaDevAttrComputeCapabilityMajor, id));
  SCANKIT_TOOLS_CUDA_CHECK(cudaDeviceGetAttribute(&g.cc_minor, cudaDevAttrComputeCapabilityMinor, id));
  SCANKIT_TOOLS_CUDA_CHECK(cudaDeviceGetAttribute(&g.sm_count, cudaDevAttrMultiProcessorCount, id));
  SCANKIT_TOOLS_CUDA_CHECK(cudaDeviceGetAttribute(&g.l2_bytes, cudaDevAttrL2CacheSize, id));
  int current = 0;
  SCANKIT_TOOLS_CUDA_CHECK(cudaGetDevice(&current));
  SCANKIT_TOOLS_CUDA_CHECK(cudaSetDevice(id));
  std::size_t free_b = 0, total_b = 0;
  SCANKIT_TOOLS_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  const scankit::cuda::device_description d = scankit::cuda::describe_current_device();
  SCANKIT_TOOLS_CUDA_CHECK(cudaSetDevice(current));
  g.tuning_class = d.tuning_class;
  g.memory_bytes_per_second = d.memory_bytes_per_second;
  g.memory_bus_bits = d.memory_bus_bits, g.memory_clock_khz = d.memory_clock_khz;
  g.smem_per_sm = d.smem_per_sm;
  g.free_memory = free_b;
  return g;
}
#endif

}  // namespace

std::vector<gpu_info> query_gpus() {
  std::vector<gpu_info> out;
#ifdef SCANKIT_HAS_CUDA
  const int count = scankit::cuda::device_count();
  for (int i = 0; i < count; ++i) out.push_back(query_gpu(i));
#endif
  return out;
}

system_info query_system() {
  system_info s;
  s.cpu_threads = tbb::info::default_concurrency();
  s.cpu_model = cpu_model_name();
  s.host_memory_available = host_available_bytes();
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) s.hostname = host;
#ifdef SCANKIT_HAS_CUDA
  s.built_with_cuda = true;
  cudaRuntimeGetVersion(&s.cuda_runtime_version);
  if (cudaDriverGetVersion(&s.cuda_driver_version) != cudaSuccess) (void)cudaGetLastError();
  s.gpu_count = scankit::cuda::device_count();
  if (s.gpu_count > 0) {
    int dev = 0;
    SCANKIT_TOOLS_CUDA_CHECK(cudaGetDevice(&dev));
    s.gpu = query_gpu(dev);
  }
#endif
  return s;
}

std::string describe_gpu(const system_info& sys) {
  if (!sys.gpu) return sys.built_with_cuda ? "no GPU" : "no GPU (built without CUDA)";
  const auto& g = *sys.gpu;
  return fmt::format("{} (GPU {}, cc {}.{}, {} SMs, {})", g.name, g.id, g.cc_major, g.cc_minor,
                     g.sm_count, format_bytes(static_cast<double>(g.total_memory)));
}

system_info query_bench_system() {
  system_info sys = query_system();
  if (!sys.gpu) std::cout << "no GPU found: running the CPU rows only\n";
  return sys;
}

std::string device_line(const system_info& sys) {
  if (sys.gpu)
    return fmt::format("device: {} ({} SMs, cc {}.{})", sys.gpu->name, sys.gpu->sm_count, sys.gpu->cc_major,
                       sys.gpu->cc_minor);
  return fmt::format("device: none, CPU only ({}, {} threads)", sys.cpu_model, sys.cpu_threads);
}

nlohmann::json to_json(const system_info& sys) {
  nlohmann::json j;
  j["built_with_cuda"] = sys.built_with_cuda;
  j["gpu_count"] = sys.gpu_count;
  if (sys.gpu) {
    const auto& g = *sys.gpu;
    j["gpu"] = {{"id", g.id},
                {"name", g.name},
                {"compute_capability", fmt::format("{}.{}", g.cc_major, g.cc_minor)},
                {"sm_count", g.sm_count},
                {"total_memory_bytes", g.total_memory},
                {"free_memory_bytes", g.free_memory},
                {"l2_bytes", g.l2_bytes},
                {"tuning",
                 {{"class", g.tuning_class},
                  {"memory_bytes_per_second", g.memory_bytes_per_second},
                  {"memory_bus_bits", g.memory_bus_bits},
                  {"memory_clock_khz", g.memory_clock_khz},
                  {"smem_per_sm_bytes", g.smem_per_sm}}}};
  } else {
    j["gpu"] = nullptr;
  }
  if (sys.built_with_cuda) {
    j["cuda_runtime_version"] = sys.cuda_runtime_version;
    j["cuda_driver_version"] = sys.cuda_driver_version;
  }
  j["cpu"] = {{"model", sys.cpu_model},
              {"hardware_threads", sys.cpu_threads},
              {"memory_available_bytes", sys.host_memory_available}};
  j["hostname"] = sys.hostname;
  return j;
}

double measure_device_copy_ms([[maybe_unused]] std::size_t bytes, [[maybe_unused]] int reps) {
#ifdef SCANKIT_HAS_CUDA
  device_buffer src(bytes), dst(bytes);
  cuda_stream stream;
  SCANKIT_TOOLS_CUDA_CHECK(cudaMemsetAsync(src.data(), 1, bytes, stream.get()));
  auto samples = time_gpu_ms(stream.get(), 2, reps,
                             [&] { device_copy(dst.data(), src.data(), bytes, stream.get()); });
  return median(samples);
#else
  throw no_device_error("built without CUDA");
#endif
}

int run_devices_command() {
  const system_info sys = query_system();
  std::cout << version_line() << "\n";
#ifdef SCANKIT_HAS_CUDA
  std::cout << fmt::format("CUDA runtime {}.{}, ", sys.cuda_runtime_version / 1000,
                           (sys.cuda_runtime_version % 1000) / 10);
  if (sys.cuda_driver_version > 0)
    std::cout << fmt::format("driver supports CUDA {}.{}\n", sys.cuda_driver_version / 1000,
                             (sys.cuda_driver_version % 1000) / 10);
  else
    std::cout << "no CUDA driver\n";
  const auto gpus = query_gpus();
  if (gpus.empty()) std::cout << "no GPU found\n";
  int current = 0;
  if (!gpus.empty()) SCANKIT_TOOLS_CUDA_CHECK(cudaGetDevice(&current));
  for (const auto& g : gpus) {
    std::cout << fmt::format("GPU {}: {}\n", g.id, g.name);
    std::cout << fmt::format("  compute capability {}.{}, {} SMs, {} memory ({} free), {} L2\n",
                             g.cc_major, g.cc_minor, g.sm_count,
                             format_bytes(static_cast<double>(g.total_memory)),
                             format_bytes(static_cast<double>(g.free_memory)),
                             format_bytes(static_cast<double>(g.l2_bytes)));
    std::cout << fmt::format("  tuned as {}: peak memory {} ({}-bit bus at {} MHz), {} shared memory per SM\n",
                             g.tuning_class,
                             g.memory_bytes_per_second > 0
                                 ? fmt::format("{:.2f} TB/s", g.memory_bytes_per_second / 1e12)
                                 : std::string("unknown"),
                             g.memory_bus_bits, g.memory_clock_khz / 1000,
                             format_bytes(static_cast<double>(g.smem_per_sm)));
    SCANKIT_TOOLS_CUDA_CHECK(cudaSetDevice(g.id));
    constexpr std::size_t bytes = std::size_t{256} << 20;
    constexpr int reps = 10;
    try {
      const double ms = measure_device_copy_ms(bytes, reps);
      std::cout << fmt::format(
          "  device-to-device copy of {}: {} ms (median of {}) = {:.0f} GB/s (read + write)\n",
          format_bytes(bytes), format_ms(ms), reps, 2.0 * static_cast<double>(bytes) / (ms * 1e6));
    } catch (const std::exception& e) {
      std::cout << "  device-to-device copy: ERROR " << e.what() << "\n";
    }
  }
  if (!gpus.empty()) SCANKIT_TOOLS_CUDA_CHECK(cudaSetDevice(current));
#else
  std::cout << "no GPU: scankit was built without CUDA\n";
#endif
  std::cout << fmt::format("CPU: {}, {} hardware threads (tbb::info::default_concurrency), {} memory available\n",
                           sys.cpu_model, sys.cpu_threads,
                           format_bytes(static_cast<double>(sys.host_memory_available)));
  return 0;
}

}  // namespace scankit::tools
