// Top-k and top-p (nucleus) sampling of the next token for a batch of sequences, as a language
// model's decoder does after each step: from every row of logits (one per sequence, one
// column per vocabulary entry),
//
//   1. keep the k largest logits and their token ids, sorted      topk_rows
//   2. turn them into unnormalised probabilities: exp((logit - the row's largest) / temperature)
//   3. their running sums within each row                         segmented_scan (inclusive sum)
//   4. keep the shortest prefix whose mass reaches p of the row's (the nucleus)
//   5. draw u in [0, that mass) and take the first token whose running sum passes u
//
// On the GPU when there is one (scankit::cuda, host containers: each call copies in and out),
// else on the CPU backend (scankit::cpu). Checked against a reference that sorts each row on
// its own (std::stable_sort of the token ids by logit, the largest first): the same k tokens
// in the same order, running sums within a stated tolerance, and the same sampled token
// (the same u; a draw that falls within the tolerance of a boundary is accepted either way).
//
//   topp [ROWS] [VOCAB] [K] [P]     (default 256 rows of 32000 logits, k = 50, p = 0.9)
//
// Exit status: 0 every row matches the reference, 1 one does not.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "scankit/ops.hpp"
#include "scankit/segments.hpp"

#include "scankit/cpu/segments.hpp"
#include "scankit/cpu/topk.hpp"
#ifdef SCANKIT_HAS_CUDA
#include "scankit/cuda/segments.hpp"
#include "scankit/cuda/topk.hpp"
#endif

namespace {

using i64 = std::int64_t;

/// Steps 1 to 3 for every row: the k best tokens, their logits and the running sums of their
/// unnormalised probabilities.
struct candidates {
  std::vector<float> logits, running;
  std::vector<i64> tokens;
};

/// exp((logit - the row's largest) / temperature): the row's first logit is its largest.
std::vector<float> weights_of(const std::vector<float>& top, i64 rows, i64 k, float temperature) {
  std::vector<float> w(top.size());
  for (i64 r = 0; r < rows; ++r)
    for (i64 j = 0; j < k; ++j)
      w[static_cast<std::size_t>(r * k + j)] =
          std::exp((top[static_cast<std::size_t>(r * k + j)] - top[static_cast<std::size_t>(r * k)]) / temperature);
  return w;
}

std::vector<i64> row_offsets(i64 rows, i64 k) {
  std::vector<i64> off(static_cast<std::size_t>(rows + 1));
  for (i64 r = 0; r <= rows; ++r) off[static_cast<std::size_t>(r)] = r * k;
  return off;
}

#ifdef SCANKIT_HAS_CUDA
candidates select_gpu(const std::vector<float>& logits, i64 rows, i64 vocab, i64 k, float temperature) {
  namespace sk = scankit::cuda;
  candidates c;
  sk::topk_rows(std::span<const float>(logits), rows, vocab, k, c.logits, c.tokens);
  const auto w = weights_of(c.logits, rows, k, temperature);
  c.running.resize(w.size());
  const auto off = row_offsets(rows, k);
  sk::segmented_scan(std::span<const float>(w), std::span<float>(c.running), std::span<const i64>(off),
                     scankit::sum<float>{});
  return c;
}
#endif

candidates select_cpu(const std::vector<float>& logits, i64 rows, i64 vocab, i64 k, float temperature) {
  namespace sk = scankit::cpu;
  candidates c;
  c.logits.resize(static_cast<std::size_t>(rows * k));
  c.tokens.resize(static_cast<std::size_t>(rows * k));
  sk::topk_rows(logits.data(), rows, vocab, k, c.logits.data(), c.tokens.data());
  const auto w = weights_of(c.logits, rows, k, temperature);
  c.running.resize(w.size());
  const auto off = row_offsets(rows, k);
  sk::segmented_scan(w.data(), c.running.data(), rows * k, scankit::segment_offsets{off.data(), rows},
                     scankit::sum<float>{}, scankit::scan_kind::inclusive, 0.0f);
  return c;
}

/// Steps 4 and 5 for one row: the nucleus is the first `cut` candidates, whose running sum
/// reaches p of the row's total; the draw picks the first candidate whose running sum passes
/// u * (the nucleus's mass). Returns the candidate's place in the row.
template <class T>
i64 sample_row(const T* running, i64 k, double p, double u) {
  const double total = static_cast<double>(running[k - 1]);
  i64 cut = 0;
  while (cut < k - 1 && static_cast<double>(running[cut]) < p * total) ++cut;
  const double target = u * static_cast<double>(running[cut]);
  i64 j = 0;
  while (j < cut && static_cast<double>(running[j]) <= target) ++j;
  return j;
}

/// "" when row r matches the reference (a stable sort of the row's token ids, the largest
/// logit first, in double precision), else the first difference.
std::string check_row(const std::vector<float>& logits, i64 vocab, i64 k, float temperature, double p, double u,
                      const candidates& c, i64 r) {
  const float* row = logits.data() + r * vocab;
  std::vector<i64> order(static_cast<std::size_t>(vocab));
  std::iota(order.begin(), order.end(), i64{0});
  std::stable_sort(order.begin(), order.end(), [&](i64 a, i64 b) { return row[a] > row[b]; });
  const std::string where = "row " + std::to_string(r) + ": ";
  std::vector<double> running(static_cast<std::size_t>(k));
  double sum = 0;
  for (i64 j = 0; j < k; ++j) {
    const i64 want = order[static_cast<std::size_t>(j)];
    const auto got = c.tokens[static_cast<std::size_t>(r * k + j)];
    if (got != want) return where + "candidate " + std::to_string(j) + " is token " + std::to_string(got) +
                            ", the reference's is " + std::to_string(want);
    sum += std::exp((static_cast<double>(row[want]) - row[order[0]]) / temperature);
    running[static_cast<std::size_t>(j)] = sum;
  }
  // float sums of k terms in another order: within 4 k eps(float) of the total.
  const double tol = 4.0 * static_cast<double>(k) * 1.2e-7 * sum;
  for (i64 j = 0; j < k; ++j)
    if (std::abs(c.running[static_cast<std::size_t>(r * k + j)] - running[static_cast<std::size_t>(j)]) > tol)
      return where + "running sum " + std::to_string(j) + " is " + std::to_string(c.running[static_cast<std::size_t>(r * k + j)]) +
             ", the reference's " + std::to_string(running[static_cast<std::size_t>(j)]);
  const i64 got = sample_row(c.running.data() + r * k, k, p, u), want = sample_row(running.data(), k, p, u);
  if (got != want) {
    // Accepted only where the draw or the nucleus's edge lies within the tolerance of a sum.
    bool close = false;
    for (i64 j = 0; j < k; ++j)
      close |= std::abs(running[static_cast<std::size_t>(j)] - p * sum) <= 2 * tol ||
               std::abs(running[static_cast<std::size_t>(j)] - u * running[static_cast<std::size_t>(std::min(got, want))]) <= 2 * tol;
    if (!close) return where + "sampled candidate " + std::to_string(got) + ", the reference's " + std::to_string(want);
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  const long long rows = argc > 1 ? std::atoll(argv[1]) : 256;
  const long long vocab = argc > 2 ? std::atoll(argv[2]) : 32000;
  const long long k = argc > 3 ? std::atoll(argv[3]) : 50;
  const double p = argc > 4 ? std::atof(argv[4]) : 0.9;
  if (rows < 1 || vocab < 1 || k < 1 || k > vocab || !(p > 0 && p <= 1)) {
    std::fprintf(stderr, "usage: topp [ROWS >= 1] [VOCAB >= 1] [1 <= K <= VOCAB] [0 < P <= 1]\n");
    return 2;
  }
  const float temperature = 0.8f;

  // Logits: a few strong tokens over a broad Gaussian floor, as a trained model's look, with
  // repeated values (rounded to 1/64) so that ties between tokens occur.
  std::mt19937_64 rng(42);
  std::normal_distribution<float> noise(0.0f, 2.0f);
  std::vector<float> logits(static_cast<std::size_t>(rows * vocab));
  for (auto& x : logits) x = std::round(noise(rng) * 64.0f) / 64.0f + 0.0f;  // + 0: no -0.0, which ranks below +0.0
  std::uniform_int_distribution<long long> token(0, vocab - 1);
  for (long long r = 0; r < rows; ++r)
    for (int s = 0; s < 5; ++s) logits[static_cast<std::size_t>(r * vocab + token(rng))] += 6.0f + static_cast<float>(s);
  std::uniform_real_distribution<double> draw(0.0, 1.0);
  std::vector<double> u(static_cast<std::size_t>(rows));
  for (auto& x : u) x = draw(rng);

  bool on_gpu = false;
  candidates c;
#ifdef SCANKIT_HAS_CUDA
  if (scankit::cuda::device_count() > 0) {
    c = select_gpu(logits, rows, vocab, k, temperature);
    on_gpu = true;
  }
#endif
  if (!on_gpu) c = select_cpu(logits, rows, vocab, k, temperature);
  std::printf("top-%lld / top-p %.2f sampling of %lld rows of %lld logits on the %s\n\n", k, p, rows, vocab,
              on_gpu ? "GPU" : "CPU");
  std::printf("%6s %10s %10s %12s\n", "row", "nucleus", "token", "logit");
  for (long long r = 0; r < std::min(rows, 8LL); ++r) {
    const float* run = c.running.data() + r * k;
    i64 cut = 0;
    while (cut < k - 1 && run[cut] < p * run[k - 1]) ++cut;
    const i64 j = sample_row(run, k, p, u[static_cast<std::size_t>(r)]);
    std::printf("%6lld %10lld %10lld %12.4f\n", r, static_cast<long long>(cut + 1),
                static_cast<long long>(c.tokens[static_cast<std::size_t>(r * k + j)]),
                c.logits[static_cast<std::size_t>(r * k + j)]);
  }
  for (long long r = 0; r < rows; ++r) {
    const std::string bad = check_row(logits, vocab, k, temperature, p, u[static_cast<std::size_t>(r)], c, r);
    if (!bad.empty()) {
      std::printf("\nMISMATCH: %s\n", bad.c_str());
      return 1;
    }
  }
  std::printf("\nevery row matches the reference (a stable sort of each row)\n");
  return 0;
}
