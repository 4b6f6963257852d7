// Helpers shared by the CUDA compaction test programs (test_cuda_compact*.cu): extern
// declarations of the forms the library instantiates (so the tests do not compile their kernels
// again), a user item type with its own predicate and equivalence, the operations under test,
// the sizes around the kernels' tiles, and the fixture CudaCompact (one test per algorithm)
// that runs an operation on the device and compares it with the CPU serial loop
// (scankit::cpu, algorithm serial_loop).
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "common/compact_test_util.hpp"
#include "common/cuda_test_util.hpp"
#include "common/test_util.hpp"
#include "scankit/cpu/compact.hpp"
#include "scankit/cuda/compact.cuh"

// The library instantiates the built-in forms (src/cuda/compact_*.cu).
SCANKIT_EXTERN_COMPACT(std::int32_t)
SCANKIT_EXTERN_COMPACT(std::uint32_t)
SCANKIT_EXTERN_COMPACT(std::int64_t)
SCANKIT_EXTERN_COMPACT(std::uint64_t)
SCANKIT_EXTERN_COMPACT(float)
SCANKIT_EXTERN_COMPACT(double)
SCANKIT_EXTERN_COMPACT(std::uint8_t)

namespace scankit::cuda {
// Names the algorithm in gtest's messages (found by argument-dependent lookup).
inline void PrintTo(compact_algorithm a, std::ostream* os) { *os << name(a); }
}  // namespace scankit::cuda

namespace scankit::test {

/// A user item type: trivially copyable, 12 bytes (no vector loads), with its own predicate.
struct particle {
  float x, y;
  std::int32_t id;
};
struct fast_particle {
  __host__ __device__ bool operator()(const particle& p) const { return p.x * p.x + p.y * p.y > 0.5f; }
};
/// Equivalence on ids only: unique keeps the first of each run with the same id.
struct same_id {
  __host__ __device__ bool operator()(const particle& a, const particle& b) const { return a.id == b.id; }
};

/// Particles for the patterns under fast_particle: x and y random in [-1, 1] (all: x = 1;
/// none: x = y = 0.1; alternating: x = 1 on odd items, y = 0), ids in runs of about six (for
/// unique).
template <>
inline std::vector<particle> pattern_input<particle>(std::int64_t n, pattern p) {
  std::vector<particle> v(static_cast<std::size_t>(n));
  auto& g = rng();
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::uniform_int_distribution<int> len(1, 6);
  std::int32_t id = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    if (len(g) == 1) ++id;
    float x = d(g), y = d(g);
    if (p == pattern::all) x = 1.0f;
    if (p == pattern::none) x = y = 0.1f;
    if (p == pattern::alternating) x = (i % 2) ? 1.0f : 0.0f, y = 0.0f;
    v[static_cast<std::size_t>(i)] = {x, y, id};
  }
  return v;
}

/// Operations under test.
enum class compact_op { select_if, remove_if, select_flagged, partition_rev, partition_orig, unique, unique_count, nonzero };
constexpr compact_op all_compact_ops[] = {compact_op::select_if,     compact_op::remove_if,
                                          compact_op::select_flagged, compact_op::partition_rev,
                                          compact_op::partition_orig, compact_op::unique,
                                          compact_op::unique_count,  compact_op::nonzero};
inline const char* op_name(compact_op o) {
  switch (o) {
    case compact_op::select_if: return "select_if";
    case compact_op::remove_if: return "remove_if";
    case compact_op::select_flagged: return "select_flagged";
    case compact_op::partition_rev: return "partition(reversed)";
    case compact_op::partition_orig: return "partition(original)";
    case compact_op::unique: return "unique";
    case compact_op::unique_count: return "unique_count";
    case compact_op::nonzero: return "nonzero";
  }
  return "?";
}

template <class T>
auto default_pred() {
  if constexpr (std::is_same_v<T, particle>) return fast_particle{};
  else return is_nonzero<T>{};
}
template <class T>
auto default_eq() {
  if constexpr (std::is_same_v<T, particle>) return same_id{};
  else return equal_to<T>{};
}

/// Tiles of the small and medium kernels, the segmented kernel's tiles (12,288 four-byte,
/// 6,144 eight-byte items) and warp segments (1,536 and 768 items), and the warp-specialized
/// kernel's tiles (11,264 or 13,312 four-byte, 6,656 or 5,632 eight-byte items) and rows (44,
/// 52, 26 and 22 items).
inline const std::vector<std::int64_t> compact_tile_sizes{22,   26,   44,   52,    768,   1536,  2048,  4096,
                                                          5632, 6144, 6656, 8192, 11264, 12288, 13312, 16384};

/// test_sizes() around every tile size, up to `hi` (random sizes up to `hi` too).
inline std::vector<std::int64_t> sizes_up_to(std::int64_t hi) {
  auto s = test_sizes(compact_tile_sizes, hi);
  std::erase_if(s, [&](std::int64_t n) { return n > hi; });
  return s;
}

/// One test per algorithm of cuda::all_compact_algorithms; the tile, prefetch, warp-specialized
/// shape and first delay are the tests' to force.
class CudaCompact : public cuda_stream_test<cuda::compact_algorithm> {
 protected:
  cuda::compact_config cfg(int block = 0) const {
    cuda::compact_config c;
    c.algorithm = GetParam();
    c.block_size = block;
    c.tile = tile_;
    c.tuning.prefetch = prefetch_;
    c.tuning.specialized_shape = shape_;
    c.tuning.first_delay_ns = first_delay_;
    return c;
  }
  cuda::compact_tile tile_ = cuda::compact_tile::automatic;
  cuda::compact_prefetch prefetch_ = cuda::compact_prefetch::automatic;
  int shape_ = 0;
  std::optional<unsigned> first_delay_;

  /// Runs `o` on `in` on the device (outputs, count and workspace poisoned first; workspace of
  /// exactly the size asked for) and compares with the CPU serial loop. in_shift / out_shift
  /// move the input and output pointers that many items past an aligned address (the kernels
  /// take 16-byte vector paths only where both sides allow them).
  template <class T>
  ::testing::AssertionResult check(compact_op o, const std::vector<T>& in, bool in_place, int block = 0,
                                   int in_shift = 0, int out_shift = 0) {
    const auto n = static_cast<std::int64_t>(in.size());
    const cuda::compact_config c = cfg(block);
    const std::string where = std::string(" [") + std::string(cuda::name(c.algorithm)) + ", " + op_name(o) +
                              ", n=" + std::to_string(n) + ", block=" + std::to_string(block) +
                              (in_shift || out_shift ? ", shifted " + std::to_string(in_shift) + "/" + std::to_string(out_shift) : "") +
                              (in_place ? ", in place]" : "]");
    if (verbose()) std::printf(" %s\n", where.c_str()), std::fflush(stdout);
    const std::size_t bytes = in.size() * sizeof(T);
    const std::size_t slack = 4 * sizeof(T);
    in_.reserve(bytes + slack), out_.reserve(bytes + slack), idx_.reserve(in.size() * 8), flags_.reserve(in.size()),
        count_.reserve(8);
    T* d_in = in_.as<T>() + in_shift;
    T* d_out = in_place ? d_in : out_.as<T>() + out_shift;
    ck(cudaMemcpyAsync(d_in, in.data(), bytes, cudaMemcpyHostToDevice, stream_), "copy in");
    if (!in_place) ck(cudaMemsetAsync(d_out, 0xA5, bytes, stream_), "poison out");
    ck(cudaMemsetAsync(idx_.p, 0xA5, in.size() * 8, stream_), "poison indices");
    ck(cudaMemsetAsync(count_.p, 0xA5, 8, stream_), "poison count");
    const std::size_t need = cuda::compact_workspace_bytes(n, sizeof(T), c);
    ws_.reserve(need);
    if (need) ck(cudaMemsetAsync(ws_.p, 0xCD, need, stream_), "poison workspace");
    // Flags for select_flagged: nonzero where the predicate holds, in varied values.
    std::vector<std::uint8_t> flags(in.size());
    const auto pred = default_pred<T>();
    for (std::size_t i = 0; i < in.size(); ++i) flags[i] = pred(in[i]) ? static_cast<std::uint8_t>(1 + i % 200) : 0;
    if (o == compact_op::select_flagged)
      ck(cudaMemcpyAsync(flags_.p, flags.data(), in.size(), cudaMemcpyHostToDevice, stream_), "copy flags");
    auto* d_idx = idx_.as<std::int64_t>();
    auto* d_count = count_.as<std::int64_t>();
    const auto eq = default_eq<T>();
    switch (o) {
      case compact_op::select_if: cuda::select_if(d_in, d_out, n, pred, d_count, ws_.p, need, stream_, c); break;
      case compact_op::remove_if: cuda::remove_if(d_in, d_out, n, pred, d_count, ws_.p, need, stream_, c); break;
      case compact_op::select_flagged:
        cuda::select_flagged(d_in, flags_.as<std::uint8_t>(), d_out, n, d_count, ws_.p, need, stream_, c);
        break;
      case compact_op::partition_rev:
        cuda::partition(d_in, d_out, n, pred, rejected_order::reversed, d_count, ws_.p, need, stream_, c);
        break;
      case compact_op::partition_orig:
        cuda::partition(d_in, d_out, n, pred, rejected_order::original, d_count, ws_.p, need, stream_, c);
        break;
      case compact_op::unique: cuda::unique(d_in, d_out, n, eq, d_count, ws_.p, need, stream_, c); break;
      case compact_op::unique_count:
        cuda::unique_count(d_in, d_out, d_idx, n, eq, d_count, ws_.p, need, stream_, c);
        break;
      case compact_op::nonzero:
        if constexpr (!std::is_same_v<T, particle>) cuda::nonzero(d_in, d_idx, n, d_count, ws_.p, need, stream_, c);
        break;
    }
    const std::int64_t got_count = cuda::read_count(d_count, stream_);

    // Reference.
    cpu::compact_config ref_cfg;
    ref_cfg.algorithm = cpu::compact_algorithm::serial_loop;
    std::vector<T> ref(in.size());
    std::vector<std::int64_t> ref_idx(in.size());
    std::int64_t ref_count = 0;
    switch (o) {
      case compact_op::select_if: ref_count = cpu::select_if(in.data(), ref.data(), n, pred, ref_cfg); break;
      case compact_op::remove_if: ref_count = cpu::remove_if(in.data(), ref.data(), n, pred, ref_cfg); break;
      case compact_op::select_flagged:
        ref_count = cpu::select_flagged(in.data(), flags.data(), ref.data(), n, ref_cfg);
        break;
      case compact_op::partition_rev:
        ref_count = cpu::partition(in.data(), ref.data(), n, pred, rejected_order::reversed, ref_cfg);
        break;
      case compact_op::partition_orig:
        ref_count = cpu::partition(in.data(), ref.data(), n, pred, rejected_order::original, ref_cfg);
        break;
      case compact_op::unique: ref_count = cpu::unique(in.data(), ref.data(), n, eq, ref_cfg); break;
      case compact_op::unique_count:
        ref_count = cpu::unique_count(in.data(), ref.data(), ref_idx.data(), n, eq, ref_cfg);
        break;
      case compact_op::nonzero:
        if constexpr (!std::is_same_v<T, particle>) ref_count = cpu::nonzero(in.data(), ref_idx.data(), n, ref_cfg);
        break;
    }
    if (got_count != ref_count)
      return ::testing::AssertionFailure() << "count " << got_count << ", expected " << ref_count << where;
    const bool is_partition = o == compact_op::partition_rev || o == compact_op::partition_orig;
    const std::int64_t items = is_partition ? n : (o == compact_op::nonzero ? 0 : ref_count);
    if (items > 0) {
      std::vector<T> got(static_cast<std::size_t>(items));
      ck(cudaMemcpy(got.data(), d_out, static_cast<std::size_t>(items) * sizeof(T), cudaMemcpyDeviceToHost),
         "copy out");
      for (std::int64_t i = 0; i < items; ++i)
        if (std::memcmp(&got[i], &ref[i], sizeof(T)) != 0)
          return ::testing::AssertionFailure() << "item " << i << " of " << items << " differs" << where;
    }
    if ((o == compact_op::unique_count || o == compact_op::nonzero) && ref_count > 0) {
      std::vector<std::int64_t> got(static_cast<std::size_t>(ref_count));
      ck(cudaMemcpy(got.data(), d_idx, got.size() * 8, cudaMemcpyDeviceToHost), "copy indices");
      for (std::int64_t i = 0; i < ref_count; ++i)
        if (got[i] != ref_idx[i])
          return ::testing::AssertionFailure() << (o == compact_op::nonzero ? "index " : "run length ") << i
                                               << ": got " << got[i] << ", expected " << ref_idx[i] << where;
    }
    if (!in_place && !is_partition && items < n) {  // nothing written past the count
      std::vector<unsigned char> tail(static_cast<std::size_t>(n - items) * sizeof(T));
      ck(cudaMemcpy(tail.data(), d_out + items, tail.size(), cudaMemcpyDeviceToHost), "copy tail");
      if (o != compact_op::nonzero && std::any_of(tail.begin(), tail.end(), [](unsigned char b) { return b != 0xA5; }))
        return ::testing::AssertionFailure() << "an item past the count was written" << where;
    }
    return ::testing::AssertionSuccess();
  }

  /// Every operation on inputs of each size and pattern; select_if, remove_if and
  /// select_flagged in place on every third case where the algorithm takes it. Stops at the
  /// first failure.
  /// The sanitize tier (where each launch costs tens of milliseconds) takes one pattern per
  /// size and, unless `all_ops`, one operation per size, both in turn and continuing across
  /// calls: a test that exists for a type, a block size, a tile or a forced path still runs
  /// every operation at several of its sizes, and every size still runs.
  template <class T>
  void every_op(const std::vector<std::int64_t>& sizes, const std::vector<pattern>& patterns, int block = 0,
                bool all_ops = false) {
    int k = 0;
    const bool sanitize = sanitize_tier();
    for (std::int64_t n : sizes) {
      const std::size_t turn = sanitize_turn_++;
      compact_op one = all_compact_ops[turn % std::size(all_compact_ops)];
      if (std::is_same_v<T, particle> && one == compact_op::nonzero) one = compact_op::select_if;
      for (std::size_t pi = 0; pi < patterns.size(); ++pi) {
        if (sanitize && pi != turn % patterns.size()) continue;
        const pattern p = patterns[pi];
        const auto in = pattern_input<T>(n, p);
        for (compact_op o : all_compact_ops) {
          if (std::is_same_v<T, particle> && o == compact_op::nonzero) continue;
          if (sanitize && !all_ops && o != one) continue;
          const bool can_in_place =
              (o == compact_op::select_if || o == compact_op::remove_if || o == compact_op::select_flagged) &&
              GetParam() == cuda::compact_algorithm::single_pass;
          const bool in_place = can_in_place && (k++ % 3 == 2);
          const auto r = check(o, in, in_place, block);
          EXPECT_TRUE(r) << " (" << pattern_name(p) << ")";
          if (!r) return;
        }
      }
    }
  }

  std::size_t sanitize_turn_ = 0;  // the sanitize tier's pattern and operation for the next size
  device_buffer in_, out_, idx_, flags_, count_, ws_;
};

}  // namespace scankit::test
