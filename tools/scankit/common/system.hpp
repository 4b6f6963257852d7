// What scankit runs on: the GPU (when there is one), the CPU, the build. Used in every
// command's header line and JSON, and by `scankit devices`.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace scankit::tools {

struct gpu_info {
  int id = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::size_t total_memory = 0, free_memory = 0;
  int l2_bytes = 0;
  // What scankit's tuning sees (scankit::cuda::describe_current_device): the class of device
  // whose tuning rows it gets, and the peak memory bandwidth that chose between Hopper's two.
  std::string tuning_class;
  double memory_bytes_per_second = 0;
  int memory_bus_bits = 0, memory_clock_khz = 0;
  std::size_t smem_per_sm = 0;
};

struct system_info {
  bool built_with_cuda = false;
  int gpu_count = 0;
  std::optional<gpu_info> gpu;  // the device the benchmarks use (the current device)
  int cuda_runtime_version = 0, cuda_driver_version = 0;
  int cpu_threads = 0;          // tbb::info::default_concurrency()
  std::string cpu_model;
  std::size_t host_memory_available = 0;
  std::string hostname;
};

/// Never throws for a missing GPU: gpu_count is then 0 and gpu empty.
system_info query_system();

/// query_system() for a bench or sweep: without a GPU, it first says that only the CPU rows run.
system_info query_bench_system();

/// Every visible GPU (empty without CUDA or without a GPU).
std::vector<gpu_info> query_gpus();

/// One line: "<GPU name> (cc <major>.<minor>, <N> SMs, <memory> GiB)" or "no GPU".
std::string describe_gpu(const system_info& sys);

/// The device part of every command's header line: "device: NAME (N SMs, cc X.Y)", or
/// "device: none, CPU only (CPU MODEL, N threads)".
std::string device_line(const system_info& sys);

nlohmann::json to_json(const system_info& sys);

/// Device-to-device copy bandwidth of the current GPU: median time of `reps` copies of
/// `bytes` bytes, in ms (GB/s = 2*bytes/time counts the read and the write).
double measure_device_copy_ms(std::size_t bytes, int reps);

/// `scankit devices`.
int run_devices_command();

}  // namespace scankit::tools
