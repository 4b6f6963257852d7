// `verify scan`: random cases (size, type, operator, kind, carry-in, block size, in place,
// device-pointer or host-container API) run through every algorithm and checked against the
// serial reference, including the carry-out.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <map>
#include <random>

#include "common/report.hpp"
#include "common/system.hpp"
#include "common/timing.hpp"
#include "common/util.hpp"
#include "scan/commands.hpp"
#include "scan/data.hpp"
#include "scan/measure.hpp"
#include "scankit/cpu/scan.hpp"
#include "scankit/types.hpp"

#ifdef SCANKIT_HAS_CUDA
#include "scankit/cuda/scan.hpp"
#endif

namespace scankit::tools {

namespace {

struct verify_case {
  int id = 0;
  std::int64_t n = 0;
  dtype type{};
  op_kind op{};
  scan_kind kind{};
  bool carry_in = false;
  int block_size = 0;
  bool in_place = false;
  bool host_api = false;               // GPU algorithms: scan_host instead of the device-pointer scan
  std::size_t device_memory_limit = 0;  // host API: 0 or a bound that forces streaming
  std::uint64_t data_seed = 0;

  std::string describe() const {
    return fmt::format("#{} n={} {} {} {} {} block={} {}{}", id, n, name(type), name(op),
                       kind == scan_kind::inclusive ? "inclusive" : "exclusive",
                       carry_in ? "carry-in" : "no-carry-in",
                       block_size ? std::to_string(block_size) : "default",
                       in_place ? "in-place " : "",
                       host_api ? (device_memory_limit ? fmt::format("host-api(limit {})",
                                                                     format_bytes(static_cast<double>(device_memory_limit)))
                                                       : std::string("host-api"))
                                : std::string("device-api"));
  }
};

/// Sizes 0, 1, 2^1..2^25, tile edges and primes, shuffled, then random sizes (log-uniform up
/// to 2^25) for the rest; `count` cases in all.
std::vector<verify_case> make_cases(int count, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<std::int64_t> sizes{0, 1};
  for (int k = 1; k <= 25; ++k) sizes.push_back(std::int64_t{1} << k);
  for (std::int64_t t : {512, 1024, 2048, 4096, 8192})
    for (std::int64_t d : {-1, 1}) sizes.push_back(t + d);
  for (std::int64_t p : {3, 31, 127, 997, 65521, 131071, 524287, 1000003, 4194301, 16777213, 33554393})
    sizes.push_back(p);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  std::shuffle(sizes.begin(), sizes.end(), g);
  std::uniform_real_distribution<double> log_size(1.0, 25.0);
  while (static_cast<int>(sizes.size()) < count)
    sizes.push_back(static_cast<std::int64_t>(std::exp2(log_size(g))));
  sizes.resize(static_cast<std::size_t>(count));

  std::vector<verify_case> cases;
  for (int i = 0; i < count; ++i) {
    verify_case c;
    c.id = i + 1;
    c.n = sizes[static_cast<std::size_t>(i)];
    c.type = all_dtypes[g() % all_dtypes.size()];
    do c.op = all_op_kinds[g() % all_op_kinds.size()];
    while (!supported(c.type, c.op));
    c.kind = g() % 2 ? scan_kind::exclusive : scan_kind::inclusive;
    c.carry_in = g() % 2;
    c.block_size = g() % 4 == 0 ? 0 : 32 << (g() % 6);
    c.in_place = g() % 4 == 0;
    c.host_api = g() % 4 == 0;
    c.device_memory_limit = c.host_api && g() % 2 ? std::size_t{64} << 20 : 0;
    c.data_seed = g();
    cases.push_back(c);
  }
  return cases;
}

struct verify_algo {
  row_spec spec;
  int passed = 0, failed = 0;
  std::vector<std::pair<int, std::string>> failures;  // case id, message
};

struct gpu_context {
#ifdef SCANKIT_HAS_CUDA
  std::unique_ptr<cuda_stream> stream;
  device_buffer d_in, d_out, d_total, ws;
#endif
};

template <class Op>
void run_case(const verify_case& c, std::vector<verify_algo>& algos, [[maybe_unused]] gpu_context& gpu) {
  using T = value_t<Op>;
  const Op op{};
  const std::int64_t n = c.n;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
  const T init = c.carry_in ? random_init<T>(c.data_seed, c.op) : Op::identity();
  std::vector<T> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
  fill_input(in.data(), n, c.op, c.data_seed);
  const scan_reference<Op> ref(in.data(), n, c.op, c.kind, init);

  for (auto& a : algos) {
    check_outcome r;
    try {
      T total{};
      if (bytes > 0) std::memset(static_cast<void*>(out.data()), 0xA5, bytes);  // data() may be null
      std::memset(static_cast<void*>(&total), 0xA5, sizeof(T));
      if (a.spec.kind == row_kind::cpu_parallel || a.spec.kind == row_kind::cpu_tbb ||
          a.spec.kind == row_kind::cpu_serial) {
        const T* src = in.data();
        if (c.in_place) {
          std::memcpy(static_cast<void*>(out.data()), in.data(), bytes);
          src = out.data();
        }
        if (a.spec.kind == row_kind::cpu_parallel)
          total = cpu::scan_parallel(src, out.data(), n, op, c.kind, init);
        else if (a.spec.kind == row_kind::cpu_tbb)
          total = cpu::tbb_parallel_scan(src, out.data(), n, op, c.kind, init);
        else
          total = cpu::scan_serial(src, out.data(), n, op, c.kind, init);
      } else {
#ifdef SCANKIT_HAS_CUDA
        const cuda::scan_config cfg{cuda::all_scan_algorithms[static_cast<std::size_t>(a.spec.gpu_algo)],
                                    c.block_size};
        if (c.host_api) {
          cuda::host_scan_options ho;
          ho.config = cfg;
          ho.device_memory_limit = c.device_memory_limit;
          const T* src = in.data();
          if (c.in_place) {
            std::memcpy(static_cast<void*>(out.data()), in.data(), bytes);
            src = out.data();
          }
          total = cuda::scan_host(src, out.data(), n, op, c.kind, init, ho);
        } else {
          const cudaStream_t s = gpu.stream->get();
          gpu.d_in.reserve(bytes);
          gpu.d_out.reserve(bytes);
          gpu.d_total.reserve(sizeof(T));
          const std::size_t ws = cuda::scan_workspace_bytes(n, sizeof(T), cfg);
          gpu.ws.reserve(ws);
          T* d_out = gpu.d_out.as<T>();
          T* d_total = gpu.d_total.as<T>();
          const T* d_src = gpu.d_in.as<T>();
          if (c.in_place) {
            d_src = d_out;
            if (bytes) SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpyAsync(d_out, in.data(), bytes, cudaMemcpyHostToDevice, s));
          } else if (bytes) {
            SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpyAsync(gpu.d_in.data(), in.data(), bytes, cudaMemcpyHostToDevice, s));
            SCANKIT_TOOLS_CUDA_CHECK(cudaMemsetAsync(d_out, 0xA5, bytes, s));
          }
          SCANKIT_TOOLS_CUDA_CHECK(cudaMemsetAsync(d_total, 0xA5, sizeof(T), s));
          cuda::scan(d_src, d_out, n, op, c.kind, init, gpu.ws.data(), ws, s, cfg, d_total);
          if (bytes) SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpyAsync(out.data(), d_out, bytes, cudaMemcpyDeviceToHost, s));
          SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpyAsync(&total, d_total, sizeof(T), cudaMemcpyDeviceToHost, s));
          SCANKIT_TOOLS_CUDA_CHECK(cudaStreamSynchronize(s));
        }
#endif
      }
      r = ref.check(out.data(), n, &total);
    } catch (const std::exception& e) {
      r = {false, std::string("ERROR: ") + e.what()};
    }
    if (r.ok) {
      ++a.passed;
    } else {
      ++a.failed;
      a.failures.emplace_back(c.id, r.message);
      std::cerr << fmt::format("FAIL case #{} {}: {}\n", c.id, a.spec.name, r.message);
    }
  }
}

std::string id_list(const std::vector<int>& ids) {
  std::string s;
  for (std::size_t i = 0; i < ids.size(); ++i) s += (i ? " #" : "#") + std::to_string(ids[i]);
  return s;
}

}  // namespace

int run_scan_verify(const scan_verify_options& o) {
  const system_info sys = query_system();
  const bool gpu = sys.gpu.has_value();
  const std::uint64_t seed = pick_seed(o.seed);

  const auto names = split_list(o.algo);
  const bool all = std::find(names.begin(), names.end(), "all") != names.end();
  std::vector<verify_algo> algos;
  for (const auto& spec : select_rows(names, {}, gpu)) {
    // "all" leaves out cpu-serial: it is the reference.
    if (all && spec.kind == row_kind::cpu_serial && names.size() == 1) continue;
    algos.push_back({spec, 0, 0, {}});
  }
  if (!gpu) std::cout << "no GPU found: verifying the CPU algorithms only\n";
  if (algos.empty()) throw error("nothing to verify: the selected algorithms need a GPU (--algo " + o.algo + ")");
  std::cout << fmt::format("scankit verify scan | {} | {} | {} cases | seed = {} (replay with --seed {})\n",
                           describe_gpu(sys), iso_date_now(), o.cases, seed, seed);
  std::cout.flush();

  gpu_context ctx;
#ifdef SCANKIT_HAS_CUDA
  if (gpu) ctx.stream = std::make_unique<cuda_stream>();
#endif
  const auto cases = make_cases(o.cases, seed);
  std::map<int, const verify_case*> by_id;
  progress_line progress(cases.size());
  for (const auto& c : cases) {
    by_id[c.id] = &c;
    progress.step(c.describe());
    visit(c.type, c.op, [&](auto monoid) { run_case<decltype(monoid)>(c, algos, ctx); });
  }

  progress.clear();
  text_table t({"algorithm", "passed", "failed"}, {false, true, true});
  int passed = 0, failed = 0;
  for (const auto& a : algos) {
    t.add_row({a.spec.name, std::to_string(a.passed), std::to_string(a.failed)});
    passed += a.passed;
    failed += a.failed;
  }
  std::cout << "\n" << t.str();

  if (failed) {
    std::cout << "\nfailing cases:\n";
    std::vector<int> failing_ids;
    for (const auto& a : algos) {
      if (a.failures.empty()) continue;
      // Group identical messages (e.g. "not implemented yet" in every case).
      std::vector<std::pair<std::string, std::vector<int>>> groups;
      for (const auto& [id, msg] : a.failures) {
        failing_ids.push_back(id);
        const std::string& text = msg;  // clang before 16 cannot capture a structured binding
        auto it = std::find_if(groups.begin(), groups.end(), [&](auto& g) { return g.first == text; });
        if (it == groups.end()) groups.push_back({msg, {id}});
        else it->second.push_back(id);
      }
      std::cout << fmt::format("  {} ({} failed):\n", a.spec.name, a.failed);
      constexpr std::size_t max_groups = 10;
      for (std::size_t i = 0; i < groups.size() && i < max_groups; ++i)
        std::cout << fmt::format("    {}: {}\n", id_list(groups[i].second), groups[i].first);
      if (groups.size() > max_groups) {
        std::vector<int> rest;
        for (std::size_t i = max_groups; i < groups.size(); ++i)
          rest.insert(rest.end(), groups[i].second.begin(), groups[i].second.end());
        std::cout << fmt::format("    ... and {}: other mismatches\n", id_list(rest));
      }
    }
    std::sort(failing_ids.begin(), failing_ids.end());
    failing_ids.erase(std::unique(failing_ids.begin(), failing_ids.end()), failing_ids.end());
    std::cout << "  the cases:\n";
    for (int id : failing_ids) std::cout << "    " << by_id[id]->describe() << "\n";
  }
  std::cout << "\n";
  return finish_verify(passed, failed);
}

}  // namespace scankit::tools
