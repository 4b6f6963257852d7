// The measurement of one point of the segments commands (see measure.hpp).
//
// Rows: scankit's GPU functions (device pointers, results left in device memory; `scankit` is
// the automatic choice, `merge-path`, `two-pass` and `block-per-segment` force segments_config's
// algorithm), CUB's (same process, same input; u32 segment ids as the keys of its by-key calls),
// the floor (a read of the input for the reductions, a copy of the values and a read of the
// offsets, flags or keys for the scans), and the CPU's parallel and serial functions.
#include "segments/measure.hpp"

#include <algorithm>
#include <cstring>

#include "common/timing.hpp"
#include "scankit/ops.hpp"
#include "scankit/segments.hpp"
#include "segments/cpu_rows.hpp"
#include "segments/data.hpp"

#ifdef SCANKIT_HAS_CUDA
#include "common/baselines.hpp"
#include "common/built_baselines.hpp"
#include "scankit/cuda/segments.hpp"
#include "segments/baselines.hpp"
#endif

namespace scankit::tools {

namespace {

using namespace segments_data;

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

/// The outputs of one row on the host, and their check.
template <class T>
struct outputs {
  std::vector<T> values;
  std::vector<std::uint32_t> keys;
  std::int64_t runs = -1;

  std::string check(const std::string& op, const std::vector<T>& in, const layout& l) const {
    if (op == "reduce") return check_reduce(in, l, values.data());
    if (op == "reduce-by-key") return check_reduce_by_key(in, l, keys.data(), values.data(), runs);
    return check_scan(in, l, values.data());
  }
};

void record(seg_row& r, const std::string& failure) {
  r.message = failure;
  r.check = failure.empty() ? check_pass : check_fail;
}

template <class T>
seg_point measure_typed(const seg_spec& sp, std::int64_t n, std::int64_t mean, [[maybe_unused]] bool gpu) {
  seg_point p;
  p.n = n;
  p.mean = mean;
  const layout l = make_layout(sp.dist, n, mean, sp.seed);
  const std::vector<T> in = make_values<T>(n, sp.seed);
  p.count = l.count();
  p.runs = l.non_empty();
  const bool by_key = sp.op == "scan-by-key" || sp.op == "reduce-by-key";
  const std::vector<std::uint32_t> keys = by_key || (gpu && sp.cub && !seg_op_reduces(sp.op)) ? make_keys(l)
                                                                                             : std::vector<std::uint32_t>{};
  const std::vector<std::uint8_t> flags = sp.op == "scan-flags" ? make_flags(l) : std::vector<std::uint8_t>{};
  const std::size_t item = sizeof(T), un = static_cast<std::size_t>(n);
  const std::size_t offsets_bytes = l.offsets.size() * sizeof(std::int64_t);
  // The bytes besides the values that a scan reads: its offsets, flags or keys.
  const std::size_t aux_bytes = sp.op == "scan" || sp.op == "reduce" ? offsets_bytes
                                : sp.op == "scan-flags"               ? un
                                                                      : un * sizeof(std::uint32_t);
  if (sp.op == "reduce") p.bytes = un * item + offsets_bytes + static_cast<std::size_t>(p.count) * item;
  else if (sp.op == "reduce-by-key")
    p.bytes = un * (4 + item) + static_cast<std::size_t>(p.runs) * (4 + item) + sizeof(std::int64_t);
  else p.bytes = 2 * un * item + aux_bytes;
  p.floor = seg_op_reduces(sp.op) ? "read" : "copy";
  const std::size_t out_items = sp.op == "reduce" ? static_cast<std::size_t>(p.count) : un;
  const int cpu_reps = std::max(1, std::min(sp.reps, 5));

#ifdef SCANKIT_HAS_CUDA
  if (gpu) {
    cuda_stream stream;
    const cudaStream_t s = stream.get();
    auto upload = [&](device_buffer& d, const void* h, std::size_t bytes) {
      d.reserve(std::max<std::size_t>(bytes, 16));
      if (bytes) SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(d.data(), h, bytes, cudaMemcpyHostToDevice));
    };
    device_buffer d_in, d_off, d_keys, d_flags, d_ws, d_sink(16), d_runs(16);
    device_buffer d_out(std::max<std::size_t>(out_items * item, 16));
    device_buffer d_ukeys(std::max<std::size_t>(sp.op == "reduce-by-key" ? un * 4 : 0, 16));
    upload(d_in, in.data(), un * item);
    upload(d_off, l.offsets.data(), offsets_bytes);
    upload(d_keys, keys.data(), keys.size() * 4);
    upload(d_flags, flags.data(), flags.size());
    const void* d_aux = sp.op == "scan-flags" ? d_flags.data() : by_key ? d_keys.data() : d_off.data();
    l2_flusher flusher;
    auto flush = [&] { flusher.flush(s); };
    auto poison = [&] {
      SCANKIT_TOOLS_CUDA_CHECK(cudaMemsetAsync(d_out.data(), 0xA5, d_out.size(), s));
      SCANKIT_TOOLS_CUDA_CHECK(cudaMemsetAsync(d_ukeys.data(), 0xA5, d_ukeys.size(), s));
      SCANKIT_TOOLS_CUDA_CHECK(cudaMemsetAsync(d_runs.data(), 0xA5, d_runs.size(), s));
    };
    auto fetch = [&](const std::string& call) {
      outputs<T> o;
      SCANKIT_TOOLS_CUDA_CHECK(cudaStreamSynchronize(s));
      if (call == "reduce-by-key") {
        SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(&o.runs, d_runs.data(), sizeof(std::int64_t), cudaMemcpyDeviceToHost));
        const auto r = static_cast<std::size_t>(std::clamp<std::int64_t>(o.runs, 0, n));
        o.values.resize(r);
        o.keys.resize(r);
        if (r) {
          SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(o.values.data(), d_out.data(), r * item, cudaMemcpyDeviceToHost));
          SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(o.keys.data(), d_ukeys.data(), r * 4, cudaMemcpyDeviceToHost));
        }
      } else {
        o.values.resize(out_items);
        if (out_items)
          SCANKIT_TOOLS_CUDA_CHECK(cudaMemcpy(o.values.data(), d_out.data(), out_items * item, cudaMemcpyDeviceToHost));
      }
      return o;
    };
    if (seg_op_reduces(sp.op) && sp.read) {
      p.floor_ms = median(time_gpu_ms(s, 1, sp.reps, [&] {
        read_once(d_in.data(), un * item, d_sink.as<unsigned>(), s);
        read_once(d_aux, sp.op == "reduce" ? offsets_bytes : un * 4, d_sink.as<unsigned>(), s);
      }, flush));
    }
    if (!seg_op_reduces(sp.op) && sp.copy) {
      p.floor_ms = median(time_gpu_ms(s, 1, sp.reps, [&] {
        if (n > 0) device_copy(d_out.data(), d_in.data(), un * item, s);
        read_once(d_aux, aux_bytes, d_sink.as<unsigned>(), s);
      }, flush));
    }
    const std::vector<std::pair<const char*, cuda::segments_algorithm>> algos{
        {"scankit", cuda::segments_algorithm::automatic},
        {"merge-path", cuda::segments_algorithm::merge_path},
        {"two-pass", cuda::segments_algorithm::two_pass},
        {"block-per-segment", cuda::segments_algorithm::block_per_segment}};
    for (const auto& [name, algorithm] : algos) {
      if (!has(sp.rows, name)) continue;
      seg_row r{name, "gpu"};
      const bool reduce_only = algorithm == cuda::segments_algorithm::block_per_segment ||
                               algorithm == cuda::segments_algorithm::two_pass;
      if (reduce_only && sp.op != "reduce") {
        r.message = std::string(name) + " is segmented_reduce's only (--op reduce)";
        p.rows.push_back(std::move(r));
        continue;
      }
      try {
        cuda::segments_config cfg;
        cfg.algorithm = algorithm;
        const std::int64_t nseg = sp.op == "reduce" || sp.op == "scan" ? p.count : 0;
        const std::size_t ws = cuda::segments_workspace_bytes(n, nseg, item, cfg);
        d_ws.reserve(std::max<std::size_t>(ws, 16));
        r.workspace_bytes = ws;
        const sum<T> op{};
        const segment_offsets seg{d_off.as<std::int64_t>(), p.count};
        const auto inc = scan_kind::inclusive;
        auto call = [&] {
          if (sp.op == "reduce")
            cuda::segmented_reduce(d_in.as<T>(), n, segment_bounds(seg), op, T(0), d_out.as<T>(), d_ws.data(), ws, s, cfg);
          else if (sp.op == "scan")
            cuda::segmented_scan(d_in.as<T>(), d_out.as<T>(), n, seg, op, inc, T(0), d_ws.data(), ws, s, cfg);
          else if (sp.op == "scan-flags")
            cuda::segmented_scan(d_in.as<T>(), d_out.as<T>(), n, head_flags{d_flags.as<std::uint8_t>()}, op, inc, T(0),
                                 d_ws.data(), ws, s, cfg);
          else if (sp.op == "scan-by-key")
            cuda::scan_by_key(d_keys.as<std::uint32_t>(), d_in.as<T>(), d_out.as<T>(), n, op, inc, T(0), d_ws.data(), ws,
                              s, cfg);
          else
            cuda::reduce_by_key(d_keys.as<std::uint32_t>(), d_in.as<T>(), n, op, d_ukeys.as<std::uint32_t>(),
                                d_out.as<T>(), d_runs.as<std::int64_t>(), d_ws.data(), ws, s, cfg);
        };
        poison();
        r.samples_ms = time_gpu_ms(s, 2, sp.reps, call, flush);
        r.ms = median(r.samples_ms);
        record(r, fetch(sp.op).check(sp.op, in, l));
      } catch (const std::exception& e) {
        record(r, std::string("error: ") + e.what());
      }
      p.rows.push_back(std::move(r));
    }
    if (sp.cub) {
      seg_row r{"cub", "baseline"};
      if constexpr (!baseline_built<T>(cub_segments_types)) {
        r.message = baseline_not_built("CUB", element_type_name<T>());
      } else {
        try {
          cub_segments_args a;
          a.op = cub_segments_call(sp.op);
          a.in = d_in.data(), a.out = d_out.data(), a.n = n, a.offsets = d_off.as<std::int64_t>(), a.count = p.count;
          a.keys = d_keys.as<std::uint32_t>(), a.unique_keys = d_ukeys.as<std::uint32_t>();
          a.num_runs = d_runs.as<std::int64_t>(), a.stream = s;
          cub_segments<T>(a);
          device_buffer temp(std::max<std::size_t>(a.temp_bytes, 16));
          a.temp = temp.data();
          r.workspace_bytes = a.temp_bytes;
          poison();
          r.samples_ms = time_gpu_ms(s, 2, sp.reps, [&] { cub_segments<T>(a); }, flush);
          r.ms = median(r.samples_ms);
          p.cub_ms = r.ms;
          record(r, fetch(sp.op).check(sp.op, in, l));
        } catch (const std::exception& e) {
          record(r, std::string("error: ") + e.what());
        }
      }
      p.rows.push_back(std::move(r));
    }
  }
#endif

  for (const char* name : {"cpu", "cpu-serial"}) {
    if (!has(sp.rows, name)) continue;
    seg_row r{name, "cpu"};
    try {
      outputs<T> o;
      o.values.assign(out_items, T(0));
      if (sp.op == "reduce-by-key") o.keys.assign(un, 0);
      cpu_segments_call c;
      c.op = sp.op, c.serial = std::string(name) == "cpu-serial";
      c.in = in.data(), c.out = o.values.data(), c.n = n, c.offsets = l.offsets.data(), c.count = p.count;
      c.flags = flags.data(), c.keys = keys.data(), c.unique_keys = o.keys.data(), c.num_runs = &o.runs;
      r.samples_ms = time_cpu_ms(1, cpu_reps, [&] { run_cpu_segments<T>(c); });
      r.ms = median(r.samples_ms);
      if (sp.op == "reduce-by-key") {
        const auto runs = static_cast<std::size_t>(std::clamp<std::int64_t>(o.runs, 0, n));
        o.values.resize(runs);
        o.keys.resize(runs);
      }
      record(r, o.check(sp.op, in, l));
    } catch (const std::exception& e) {
      record(r, std::string("error: ") + e.what());
    }
    p.rows.push_back(std::move(r));
  }
  return p;
}

}  // namespace

seg_point measure_segments(const seg_spec& sp, const std::string& type, std::int64_t n, std::int64_t mean, bool gpu) {
  if (type == "i32") return measure_typed<std::int32_t>(sp, n, mean, gpu);
  if (type == "u32") return measure_typed<std::uint32_t>(sp, n, mean, gpu);
  if (type == "i64") return measure_typed<std::int64_t>(sp, n, mean, gpu);
  if (type == "u64") return measure_typed<std::uint64_t>(sp, n, mean, gpu);
  if (type == "f32") return measure_typed<float>(sp, n, mean, gpu);
  return measure_typed<double>(sp, n, mean, gpu);
}

}  // namespace scankit::tools
