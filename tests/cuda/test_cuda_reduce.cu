// GoogleTest suite of the CUDA reductions (scankit/cuda/reduce.hpp): every element type and
// built-in operator against the serial reference (integers exactly, float sums and products
// within test_util.hpp's tolerance against a long double reference), a non-commutative
// operator, argmin/argmax (ties, NaN) and min_max, every path (one block, two passes,
// item-by-item loads, misaligned inputs, forced grids), the host-result and host-container
// calls (chunked by a memory limit), the same bits run to run, and bad arguments (which must
// leave the output untouched). Without a GPU every test skips. Inputs are uploaded on the
// test's own stream: a plain cudaMemcpy from pageable memory may return before its DMA is
// done, and a non-blocking stream does not wait for it.
//
// The affine test monoid is instantiated here from scankit/cuda/reduce.cuh, as a user's .cu
// file would.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "common/cuda_test_util.hpp"
#include "common/reduce_test_util.hpp"
#include "scankit/cpu/reduce.hpp"
#include "scankit/cuda/reduce.cuh"

namespace {

namespace sk = scankit;
namespace skc = scankit::cuda;
namespace dr = scankit::cuda::detail::reduce;
using namespace scankit::test;

class CudaReduce : public cuda_stream_test<int> {
 protected:
  /// Copies `in` to the device `offset` items past a 256-byte boundary, poisons the output,
  /// calls reduce(d_in, n, d_out, d_workspace, workspace_bytes) on the test's stream and returns
  /// the result.
  template <class U, class T, class Reduce>
  U reduce_on_device(const std::vector<T>& in, std::int64_t offset, Reduce&& reduce) {
    const auto n = static_cast<std::int64_t>(in.size());
    const std::size_t ws_bytes = skc::reduce_workspace_bytes(sizeof(U));
    data_.reserve((static_cast<std::size_t>(n + offset)) * sizeof(T));
    ws_.reserve(ws_bytes);
    out_.reserve(sizeof(U));
    T* d_in = data_.as<T>() + offset;
    if (n > 0) ck(cudaMemcpyAsync(d_in, in.data(), static_cast<std::size_t>(n) * sizeof(T), cudaMemcpyHostToDevice, stream_));
    ck(cudaMemsetAsync(out_.p, 0xab, sizeof(U), stream_));
    reduce(static_cast<const T*>(d_in), n, out_.as<U>(), ws_.p, ws_bytes);
    U r;
    ck(cudaMemcpyAsync(&r, out_.p, sizeof(U), cudaMemcpyDeviceToHost, stream_));
    ck(cudaStreamSynchronize(stream_));
    return r;
  }

  /// Reduces `in` with f and op through the detail entry (every path reachable).
  template <class T, class F, class Op>
  sk::value_t<Op> run(const std::vector<T>& in, F f, Op op, const skc::reduce_config& cfg = {},
                      const dr::override_options& o = {}, std::int64_t offset = 0) {
    using U = sk::value_t<Op>;
    return reduce_on_device<U>(in, offset, [&](const T* d_in, std::int64_t n, U* d_out, void* ws, std::size_t bytes) {
      dr::run(d_in, n, 0, f, op, d_out, ws, bytes, stream_, cfg, o);
    });
  }

  /// The same through the public entry (transform_reduce, result in device memory).
  template <class T, class F, class Op>
  sk::value_t<Op> run_public(const std::vector<T>& in, F f, Op op, std::int64_t offset) {
    using U = sk::value_t<Op>;
    return reduce_on_device<U>(in, offset, [&](const T* d_in, std::int64_t n, U* d_out, void* ws, std::size_t bytes) {
      skc::transform_reduce(d_in, n, f, op, d_out, ws, bytes, stream_);
    });
  }

  /// argmin/argmax/min_max of v on the device against their serial loops (bit for bit).
  template <class T>
  void check_arg(const std::vector<T>& v, std::int64_t offset) {
    const auto n = static_cast<std::int64_t>(v.size());
    const auto ref_min = sk::cpu::transform_reduce_serial(v.data(), n, sk::as_indexed{}, sk::argmin_op<T>{});
    const auto ref_max = sk::cpu::transform_reduce_serial(v.data(), n, sk::as_indexed{}, sk::argmax_op<T>{});
    const auto ref_mm = sk::cpu::transform_reduce_serial(v.data(), n, sk::as_min_max{}, sk::min_max_op<T>{});
    const auto got_min = run_public(v, sk::as_indexed{}, sk::argmin_op<T>{}, offset);
    const auto got_max = run_public(v, sk::as_indexed{}, sk::argmax_op<T>{}, offset);
    const auto got_mm = run_public(v, sk::as_min_max{}, sk::min_max_op<T>{}, offset);
    EXPECT_EQ(got_min.index, ref_min.index) << "argmin n=" << n;
    EXPECT_EQ(got_max.index, ref_max.index) << "argmax n=" << n;
    EXPECT_EQ(std::memcmp(&got_min.value, &ref_min.value, sizeof(T)), 0) << "argmin value n=" << n;
    EXPECT_EQ(std::memcmp(&got_max.value, &ref_max.value, sizeof(T)), 0) << "argmax value n=" << n;
    EXPECT_EQ(std::memcmp(&got_mm.min, &ref_mm.min, sizeof(T)), 0) << "min n=" << n;
    EXPECT_EQ(std::memcmp(&got_mm.max, &ref_mm.max, sizeof(T)), 0) << "max n=" << n;
  }

  device_buffer data_, ws_, out_;
};

/// Sizes around a row (32 vectors), a block's first-pass share and a wave of blocks.
std::vector<std::int64_t> reduce_sizes(std::size_t item_bytes) {
  const std::int64_t row = 32 * dr::vector_items_for(item_bytes);
  const std::int64_t block = row * (dr::block_threads / 32) * dr::tuning_table[0].t.min_rows_per_warp;
  return test_sizes({row, block, block * 132 * 8}, quick() ? 1 << 17 : 1 << 22, 3,
                    quick() ? (std::int64_t{1} << 20) : (std::int64_t{1} << 23));
}

TEST_P(CudaReduce, EveryTypeAndOperator) {
  for (sk::dtype t : sk::all_dtypes)
    for (sk::op_kind o : sk::all_op_kinds) {
      if (!sk::supported(t, o)) continue;
      if (sanitize_tier() && o != sk::op_kind::sum && o != sk::op_kind::min) continue;
      SCOPED_TRACE(std::string(sk::name(t)) + " " + std::string(sk::name(o)));
      sk::visit(t, o, [&](auto op) {
        using Op = decltype(op);
        using T = sk::value_t<Op>;
        for (std::int64_t n : reduce_sizes(sizeof(T))) {
          const auto in = scan_values<T>(n, Op::name);
          // Through the public entry, with the result left in device memory.
          const std::size_t ws_bytes = skc::reduce_workspace_bytes(sizeof(T));
          data_.reserve(static_cast<std::size_t>(n) * sizeof(T));
          ws_.reserve(ws_bytes);
          out_.reserve(sizeof(T));
          if (n > 0) ck(cudaMemcpyAsync(data_.p, in.data(), static_cast<std::size_t>(n) * sizeof(T), cudaMemcpyHostToDevice, stream_));
          skc::reduce(data_.as<T>(), n, op, out_.as<T>(), ws_.p, ws_bytes, stream_);
          T got;
          ck(cudaMemcpyAsync(&got, out_.p, sizeof(T), cudaMemcpyDeviceToHost, stream_));
          ck(cudaStreamSynchronize(stream_));
          EXPECT_TRUE(matches_reduction(in, got, op));
        }
      });
    }
}

TEST_P(CudaReduce, EveryPath) {
  const std::vector<std::int64_t> sizes = sanitize_tier() ? std::vector<std::int64_t>{0, 1, 129, 4097, 70001}
                                                          : std::vector<std::int64_t>{0, 1, 2, 3, 127, 128, 129, 511, 4095, 4096, 4097, 70001, 1000003};
  for (skc::reduce_path path : {skc::reduce_path::automatic, skc::reduce_path::one_block, skc::reduce_path::two_pass,
                                skc::reduce_path::last_block})
    for (bool scalar : {false, true})
      for (std::int64_t grid : {std::int64_t{0}, std::int64_t{1}, std::int64_t{3}, std::int64_t{1000}})
        for (std::int64_t offset : {0, 1, 3}) {
          SCOPED_TRACE("path " + std::to_string(static_cast<int>(path)) + (scalar ? " scalar" : " vector") + " grid " +
                       std::to_string(grid) + " offset " + std::to_string(offset));
          const skc::reduce_config cfg{path};
          const dr::override_options o{scalar, grid};
          for (std::int64_t n : sizes) {
            const auto i32 = random_values<std::int32_t>(n);
            EXPECT_TRUE(matches_reduction(i32, run(i32, sk::as_value{}, sk::sum<std::int32_t>{}, cfg, o, offset), sk::sum<std::int32_t>{}));
            const auto f64 = random_values<double>(n);
            EXPECT_TRUE(matches_reduction(f64, run(f64, sk::as_value{}, sk::sum<double>{}, cfg, o, offset), sk::sum<double>{}));
            const auto f32 = random_values<float>(n);  // float min: combined in order (NaN-aware)
            EXPECT_TRUE(matches_reduction(f32, run(f32, sk::as_value{}, sk::min<float>{}, cfg, o, offset), sk::min<float>{}));
            const auto aff = random_affine(n);
            EXPECT_EQ(run(aff, sk::as_value{}, affine_compose{}, cfg, o, offset),
                      sk::cpu::reduce_serial(aff.data(), n, affine_compose{}))
                << "affine n=" << n;
          }
        }
}

TEST_P(CudaReduce, NonCommutative) {
  for (std::int64_t n : reduce_sizes(sizeof(affine))) {
    const auto in = random_affine(n);
    EXPECT_EQ(run(in, sk::as_value{}, affine_compose{}), sk::cpu::reduce_serial(in.data(), n, affine_compose{})) << n;
  }
}

TEST_P(CudaReduce, ArgMinMax) {
  for (std::int64_t n : reduce_sizes(4)) {
    if (n == 0) continue;
    for (std::int64_t offset : {0, 1}) {
      std::vector<std::int32_t> iv(static_cast<std::size_t>(n));
      for (auto& x : iv) x = static_cast<std::int32_t>(rng()() % 5) - 2;  // repeated extremes
      check_arg(iv, offset);
      auto fv = random_values<float>(n);
      check_arg(fv, offset);
      for (auto& x : fv) x = std::round(x * 2) * 0.0f;  // ties, zeros of both signs
      for (std::size_t i = 0; i < fv.size(); i += 3) fv[i] = -fv[i];
      check_arg(fv, offset);
      if (n > 3) {
        fv[static_cast<std::size_t>(n / 3)] = std::numeric_limits<float>::quiet_NaN();
        fv[static_cast<std::size_t>(n / 2)] = -std::numeric_limits<float>::quiet_NaN();
        check_arg(fv, offset);
      }
      auto dv = random_values<double>(n);
      if (n > 5) dv[static_cast<std::size_t>(n - 2)] = std::numeric_limits<double>::quiet_NaN();
      check_arg(dv, offset);
    }
  }
}

TEST_P(CudaReduce, HostResultAndHostContainers) {
  const auto in = random_values<std::int64_t>(1'000'003);
  const std::int64_t ref = sk::cpu::reduce_serial(in.data(), static_cast<std::int64_t>(in.size()), sk::sum<std::int64_t>{});
  data_.reserve(in.size() * sizeof(std::int64_t));
  ck(cudaMemcpyAsync(data_.p, in.data(), in.size() * sizeof(std::int64_t), cudaMemcpyHostToDevice, stream_));
  skc::workspace ws;
  EXPECT_EQ(skc::transform_reduce(data_.as<std::int64_t>(), static_cast<std::int64_t>(in.size()), sk::as_value{},
                                  sk::sum<std::int64_t>{}, ws, stream_),
            ref);
  EXPECT_EQ(skc::reduce(std::span<const std::int64_t>(in)), ref);
  // A memory limit that leaves room for a few thousand items a chunk: many chunks, in order.
  const std::size_t limit = skc::reduce_workspace_bytes(sizeof(std::int64_t)) + 512 + 40'000;
  EXPECT_EQ(skc::reduce(std::span<const std::int64_t>(in), sk::sum<std::int64_t>{}, {{}, limit}), ref);
  auto fv = random_values<float>(777'777);
  fv[654'321] = 5.0f;
  fv[700'000] = -5.0f;
  EXPECT_EQ(skc::argmax(std::span<const float>(fv), {{}, limit}), 654'321);
  EXPECT_EQ(skc::argmin(std::span<const float>(fv), {{}, limit}), 700'000);
  const auto mm = skc::min_max(std::span<const float>(fv));
  EXPECT_EQ(mm.min, -5.0f);
  EXPECT_EQ(mm.max, 5.0f);
  const auto aff = random_affine(123'457);
  EXPECT_EQ(skc::transform_reduce_host(aff.data(), static_cast<std::int64_t>(aff.size()), sk::as_value{}, affine_compose{},
                                       {{}, skc::reduce_workspace_bytes(sizeof(affine)) + 512 + 16'000}),
            sk::cpu::reduce_serial(aff.data(), static_cast<std::int64_t>(aff.size()), affine_compose{}));
  EXPECT_EQ(skc::reduce(std::span<const int>()), 0);
}

TEST_P(CudaReduce, SameBitsEveryRun) {
  const auto in = random_values<float>(quick() ? (1 << 20) + 3 : (1 << 24) + 3);
  const float first = run(in, sk::as_value{}, sk::sum<float>{});
  for (int i = 0; i < 5; ++i) {
    const float again = run(in, sk::as_value{}, sk::sum<float>{});
    EXPECT_EQ(std::memcmp(&again, &first, sizeof(float)), 0) << "run " << i;
  }
}

TEST_P(CudaReduce, InvalidArgumentsWriteNothing) {
  const std::size_t ws_bytes = skc::reduce_workspace_bytes(sizeof(int));
  data_.reserve(1 << 20);
  ws_.reserve(ws_bytes);
  out_.reserve(sizeof(int));
  ck(cudaMemsetAsync(data_.p, 1, 1 << 20, stream_));
  ck(cudaMemsetAsync(out_.p, 0x5a, sizeof(int), stream_));
  const int* d_in = data_.as<int>();
  int* d_out = out_.as<int>();
  EXPECT_THROW(skc::reduce(d_in, -1, sk::sum<int>{}, d_out, ws_.p, ws_bytes, stream_), sk::invalid_argument);
  EXPECT_THROW(skc::reduce(static_cast<const int*>(nullptr), 10, sk::sum<int>{}, d_out, ws_.p, ws_bytes, stream_),
               sk::invalid_argument);
  EXPECT_THROW(skc::reduce(d_in, 10, sk::sum<int>{}, static_cast<int*>(nullptr), ws_.p, ws_bytes, stream_),
               sk::invalid_argument);
  EXPECT_THROW(skc::reduce(d_in, 1 << 18, sk::sum<int>{}, d_out, ws_.p, ws_bytes - 1, stream_), sk::invalid_argument);
  EXPECT_THROW(skc::reduce(d_in, 1 << 18, sk::sum<int>{}, d_out, nullptr, ws_bytes, stream_), sk::invalid_argument);
  EXPECT_THROW(skc::argmax(d_in, 0, static_cast<sk::indexed<int>*>(nullptr), ws_.p, ws_bytes, stream_),
               sk::invalid_argument);
  EXPECT_THROW(skc::argmin(std::span<const float>()), sk::invalid_argument);
  EXPECT_THROW(skc::reduce_workspace_bytes(0), sk::invalid_argument);
  ck(cudaStreamSynchronize(stream_));
  int after = 0;
  ck(cudaMemcpy(&after, d_out, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_EQ(after, 0x5a5a5a5a);
}

INSTANTIATE_TEST_SUITE_P(Reduce, CudaReduce, ::testing::Values(0));

}  // namespace
