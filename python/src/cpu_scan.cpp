// The C ABI's CPU scans: along any axis of a C-contiguous array, on oneTBB.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "capi_internal.hpp"
#include "scankit/cpu/scan.hpp"

namespace scankit::capi::host {
namespace {

/// Rows of W (a few) columns, the running values in registers: with so few columns a loop over
/// them per row costs more than the row's work.
template <int W, class Op>
void scan_columns(const value_t<Op>* x, value_t<Op>* y, std::int64_t rows, std::int64_t stride,
                  const Op& op, value_t<Op>* carry, bool write, bool excl) {
  using T = value_t<Op>;
  T c[W];
  for (int b = 0; b < W; ++b) c[b] = carry[b];
  if (!write) {
    for (std::int64_t r = 0; r < rows; ++r, x += stride)
      for (int b = 0; b < W; ++b) c[b] = op(c[b], x[b]);
  } else if (excl) {
    for (std::int64_t r = 0; r < rows; ++r, x += stride, y += stride)
      for (int b = 0; b < W; ++b) {
        const T v = x[b];
        y[b] = c[b];
        c[b] = op(c[b], v);
      }
  } else {
    for (std::int64_t r = 0; r < rows; ++r, x += stride, y += stride)
      for (int b = 0; b < W; ++b) {
        c[b] = op(c[b], x[b]);
        y[b] = c[b];
      }
  }
  for (int b = 0; b < W; ++b) carry[b] = c[b];
}

template <class Op>
bool scan_few_columns(std::int64_t w, const value_t<Op>* x, value_t<Op>* y, std::int64_t rows,
                      std::int64_t stride, const Op& op, value_t<Op>* carry, bool write,
                      bool excl) {
  switch (w) {
    case 2:
      scan_columns<2>(x, y, rows, stride, op, carry, write, excl);
      return true;
    case 3:
      scan_columns<3>(x, y, rows, stride, op, carry, write, excl);
      return true;
    case 4:
      scan_columns<4>(x, y, rows, stride, op, carry, write, excl);
      return true;
    case 5:
      scan_columns<5>(x, y, rows, stride, op, carry, write, excl);
      return true;
    case 6:
      scan_columns<6>(x, y, rows, stride, op, carry, write, excl);
      return true;
    case 7:
      scan_columns<7>(x, y, rows, stride, op, carry, write, excl);
      return true;
    case 8:
      scan_columns<8>(x, y, rows, stride, op, carry, write, excl);
      return true;
  }
  return false;
}

enum cpu_scan_algo { scan_serial = 0, scan_parallel = 1, scan_tbb = 2 };

int threads() {
  return std::max(1, tbb::this_task_arena::max_concurrency());
}

/// Scans every (outer, inner) line of [A][L][B] along L.
template <class Op>
void scan_axis(const value_t<Op>* in, value_t<Op>* out, std::int64_t A, std::int64_t L,
               std::int64_t B, Op op, bool excl, value_t<Op> init, int algo) {
  using T = value_t<Op>;
  const auto kind = excl ? scan_kind::exclusive : scan_kind::inclusive;
  if (A == 0 || L == 0 || B == 0) return;
  if (A * B == 1) {
    if (algo == scan_serial)
      cpu::scan_serial(in, out, L, op, kind, init);
    else if (algo == scan_tbb)
      cpu::tbb_parallel_scan(in, out, L, op, kind, init);
    else
      cpu::scan_parallel(in, out, L, op, kind, init);
    return;
  }
  if (B == 1) {
    // Rows: long rows one after the other, each with every thread; short rows side by side.
    if (algo != scan_serial && L >= (std::int64_t{1} << 20) && A < 4 * threads()) {
      for (std::int64_t a = 0; a < A; ++a)
        cpu::scan_parallel(in + a * L, out + a * L, L, op, kind, init);
      return;
    }
    auto rows = [&](std::int64_t r0, std::int64_t r1) {
      for (std::int64_t a = r0; a < r1; ++a)
        cpu::scan_serial(in + a * L, out + a * L, L, op, kind, init);
    };
    if (algo == scan_serial) return rows(0, A);
    const std::int64_t grain = std::max<std::int64_t>(1, (std::int64_t{1} << 15) / L);
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, A, grain),
                      [&](const tbb::blocked_range<std::int64_t>& r) { rows(r.begin(), r.end()); });
    return;
  }
  // Columns: line b of plane a is in[(a*L + l)*B + b], l = 0..L-1. Work is cut into blocks of
  // columns (contiguous in every row, so the inner loop runs along memory) and, when that
  // gives too few pieces, chunks of rows: the chunks' totals are scanned serially in between.
  const std::int64_t bw = 4096;
  const std::int64_t nbb = (B + bw - 1) / bw;
  std::int64_t nchunks = 1;
  if (algo != scan_serial && A * nbb < 4 * threads())
    nchunks = std::min<std::int64_t>((4 * threads() + A * nbb - 1) / (A * nbb),
                                     std::max<std::int64_t>(1, L / 64));
  const std::int64_t rows_per_chunk = (L + nchunks - 1) / nchunks;
  nchunks = (L + rows_per_chunk - 1) / rows_per_chunk;

  // Rows [l0, l1) of plane a, columns [b0, b1), carried from carry[0, b1 - b0).
  auto run = [&](std::int64_t a, std::int64_t l0, std::int64_t l1, std::int64_t b0, std::int64_t b1,
                 T* carry, bool write) {
    const std::int64_t w = b1 - b0;
    if (scan_few_columns(w, in + (a * L + l0) * B + b0, out + (a * L + l0) * B + b0, l1 - l0, B, op,
                         carry, write, excl))
      return;
    for (std::int64_t l = l0; l < l1; ++l) {
      const T* x = in + (a * L + l) * B + b0;
      T* y = out + (a * L + l) * B + b0;
      if (!write) {
        for (std::int64_t b = 0; b < w; ++b) carry[b] = op(carry[b], x[b]);
      } else if (excl) {
        for (std::int64_t b = 0; b < w; ++b) {
          const T c = carry[b], v = x[b];
          y[b] = c;
          carry[b] = op(c, v);
        }
      } else {
        for (std::int64_t b = 0; b < w; ++b) {
          carry[b] = op(carry[b], x[b]);
          y[b] = carry[b];
        }
      }
    }
  };
  const std::int64_t tasks = A * nchunks * nbb;
  auto for_tasks = [&](std::int64_t count, auto&& body) {
    if (algo == scan_serial) {
      for (std::int64_t t = 0; t < count; ++t) body(t);
    } else {
      tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, count, 1),
                        [&](const tbb::blocked_range<std::int64_t>& r) {
                          for (std::int64_t t = r.begin(); t < r.end(); ++t) body(t);
                        });
    }
  };
  // Task t: plane a, chunk c, column block bb.
  auto decode = [&](std::int64_t t, std::int64_t& a, std::int64_t& c, std::int64_t& bb) {
    bb = t % nbb;
    c = (t / nbb) % nchunks;
    a = t / (nbb * nchunks);
  };
  std::vector<T> carries;  // [a][c][b]: chunk c's carry-in (after the middle step)
  if (nchunks > 1) {
    carries.assign(static_cast<std::size_t>(A * nchunks * B), op.identity());
    for_tasks(tasks, [&](std::int64_t t) {
      std::int64_t a, c, bb;
      decode(t, a, c, bb);
      if (c == nchunks - 1) return;  // the last chunk's total is not needed
      const std::int64_t b0 = bb * bw, b1 = std::min(B, b0 + bw);
      run(a, c * rows_per_chunk, std::min(L, (c + 1) * rows_per_chunk), b0, b1,
          carries.data() + (a * nchunks + c) * B + b0, false);
    });
    // Totals to carry-ins: carry[0] = init, carry[c] = carry[c-1] . total[c-1].
    for_tasks(A * nbb, [&](std::int64_t t) {
      const std::int64_t a = t / nbb, b0 = (t % nbb) * bw, b1 = std::min(B, b0 + bw);
      for (std::int64_t b = b0; b < b1; ++b) {
        T running = init;
        for (std::int64_t c = 0; c < nchunks; ++c) {
          T& slot = carries[static_cast<std::size_t>((a * nchunks + c) * B + b)];
          const T total = slot;
          slot = running;
          running = op(running, total);
        }
      }
    });
  }
  for_tasks(tasks, [&](std::int64_t t) {
    std::int64_t a, c, bb;
    decode(t, a, c, bb);
    const std::int64_t b0 = bb * bw, b1 = std::min(B, b0 + bw);
    std::vector<T> carry(static_cast<std::size_t>(b1 - b0), init);
    if (nchunks > 1)
      std::copy_n(carries.data() + (a * nchunks + c) * B + b0, b1 - b0, carry.data());
    run(a, c * rows_per_chunk, std::min(L, (c + 1) * rows_per_chunk), b0, b1, carry.data(), true);
  });
}

}  // namespace

void scan(int dtype, int op, bool excl, const void* init, const void* in, void* out, std::int64_t A,
          std::int64_t L, std::int64_t B, const std::string& algorithm) {
  const char* where = "scankit scan";
  require_type(dtype, scan_types, "scan");
  if (A < 0 || L < 0 || B < 0) throw scankit::invalid_argument("scan: negative shape");
  const std::int64_t n = A * L * B;
  check_n(n, where);
  if (n > 0) {
    check_out(in, "input", where);
    check_out(out, "output", where);
  }
  const int algo =
      cpu_choice(algorithm, {"cpu-serial", "cpu-parallel", "cpu-tbb"}, scan_parallel, "scan");
  visit_number(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    visit_op<T>(op, [&](auto m) {
      const T first = init ? *static_cast<const T*>(init) : m.identity();
      scan_axis(static_cast<const T*>(in), static_cast<T*>(out), A, L, B, m, excl, first, algo);
    });
  });
}

}  // namespace scankit::capi::host
