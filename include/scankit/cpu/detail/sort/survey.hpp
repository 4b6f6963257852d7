// The radix sort's first read of the keys (the survey).
//
// One parallel read takes the OR and the AND of the keys' ordered bits, per chunk (chunk c =
// the c-th of C equal slices). A digit where the two agree is the same in every key: its pass
// would not move anything and is skipped (which pays most for narrow keys in wide types and
// for bit ranges). The same read counts, per chunk, the one digit the first pass scatters by,
// guessed from a sample of sort_survey_sample keys (a digit that varies in the sample varies
// in all); on a miss the first pass counts its digit by another read. It counts one digit, not
// all: the increments, not the read, limit this loop.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "scankit/cpu/detail/sort/sorter.hpp"

namespace scankit::cpu::detail {

/// One parallel read of keys[0, n): which of `passes` (ascending) vary, exactly, from the
/// OR and the AND of the ordered bits (a digit is constant where they agree), and the
/// per-chunk histogram of the digit that the sort will scatter by first: the top varying
/// one for the hybrid, the bottom one for the LSD passes. Which digits vary is not known
/// before the read, so a sample of the keys guesses them (a digit that varies in the
/// sample varies); when the guess misses, the first pass counts its digit itself.
template <class K, class V>
auto radix_sorter<K, V>::survey(const K* keys, std::int64_t n, const std::vector<int>& passes) const -> tally {
  const std::int64_t sample = std::min<std::int64_t>(n, sort_survey_sample);
  U s_or{0}, s_and = static_cast<U>(~U{0});
  for (std::int64_t i = 0; i < sample; ++i) {
    const U o = digit_.ordered(keys[i * n / sample]);
    s_or = static_cast<U>(s_or | o);
    s_and = static_cast<U>(s_and & o);
  }
  const std::vector<int> likely = varying_of(passes, static_cast<U>(s_or ^ s_and));
  const int bottom = likely.empty() ? passes.front() : likely.front();
  const int top = likely.empty() ? passes.back() : likely.back();
  tally t{chunks_for(n), {}, {}, {}};
  const bool big = hybrid_size(n);
  if (!big || likely.size() < 2) t.counted.push_back(bottom);  // the LSD passes may run
  if (big && top != bottom) t.counted.push_back(top);           // the hybrid may run
  const std::size_t nc = t.counted.size();
  t.counts.assign(static_cast<std::size_t>(t.chunks) * nc * radix, 0);
  const auto [shift, mask] = shifts_and_masks(t.counted);
  std::vector<U> ors(static_cast<std::size_t>(t.chunks)), ands(static_cast<std::size_t>(t.chunks));
  for_chunks(t.chunks, [&, shift = shift, mask = mask](std::int64_t c) {
    std::vector<std::int64_t> local(nc * radix, 0);
    std::int64_t* const h0 = local.data();
    std::int64_t* const h1 = h0 + radix;
    const digit_fn<K> dg = digit_;
    const K* const k = keys;
    const std::int64_t b = chunk_begin(n, t.chunks, c), e = chunk_begin(n, t.chunks, c + 1);
    U o_or{0}, o_and = static_cast<U>(~U{0});
    const int s0 = shift[0], s1 = shift[1];
    const unsigned m0 = mask[0], m1 = mask[1];
    if (nc == 1) {
      for (std::int64_t i = b; i < e; ++i) {
        const U o = dg.ordered(k[i]);
        o_or = static_cast<U>(o_or | o);
        o_and = static_cast<U>(o_and & o);
        ++h0[(o >> s0) & m0];
      }
    } else {
      for (std::int64_t i = b; i < e; ++i) {
        const U o = dg.ordered(k[i]);
        o_or = static_cast<U>(o_or | o);
        o_and = static_cast<U>(o_and & o);
        ++h0[(o >> s0) & m0];
        ++h1[(o >> s1) & m1];
      }
    }
    ors[static_cast<std::size_t>(c)] = o_or;
    ands[static_cast<std::size_t>(c)] = o_and;
    std::copy(local.begin(), local.end(), t.counts.begin() + static_cast<std::ptrdiff_t>(c * nc * radix));
  });
  U all_or{0}, all_and = static_cast<U>(~U{0});
  for (std::int64_t c = 0; c < t.chunks; ++c) {
    all_or = static_cast<U>(all_or | ors[static_cast<std::size_t>(c)]);
    all_and = static_cast<U>(all_and & ands[static_cast<std::size_t>(c)]);
  }
  t.active = varying_of(passes, static_cast<U>(all_or ^ all_and));
  return t;
}

}  // namespace scankit::cpu::detail
