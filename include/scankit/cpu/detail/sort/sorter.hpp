// Part of scankit/cpu/sort.hpp, which includes it after sort_workspace: the radix sorter's
// class, its state and small helpers. Its algorithms are defined in the files beside this one:
//   survey.hpp       survey: the first read (which digits vary; the first pass's counts)
//   passes.hpp       histogram, scan_hist, scatter_run, scatter, copy: one chunked pass
//   lsd.hpp          lsd: the chunked LSD sort
//   msd_hybrid.hpp   sort (the choice, from plan.hpp) and msd: the MSD-first hybrid
//   buckets.hpp      split_leaf, leaf: one bucket's radix sort by one thread, in the cache
//   vqsort.hpp       quicksort_leaf: one bucket by Highway's vqsort
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "scankit/cpu/detail/parallel.hpp"
#include "scankit/cpu/detail/sort/digits.hpp"
#include "scankit/cpu/detail/sort/memory.hpp"
#include "scankit/cpu/detail/sort/plan.hpp"
#include "scankit/cpu/detail/sort/tuning.hpp"

namespace scankit::cpu::detail {

/// The passes of the radix sort over an array and a scratch array of the same size.
template <class K, class V>
class radix_sorter {
  using U = typename radix_traits<K>::bits_t;
  using pass_fn = typename digit_fn<K>::of_pass;

 public:
  /// Items [0, n) of a keys array and its values array (v: nullptr for keys only).
  struct span {
    K* k;
    V* v;
    span at(std::int64_t i) const { return {k + i, v ? v + i : nullptr}; }
  };
  /// What one read of the keys found: the passes that vary, and per-chunk histograms of one
  /// or two of them.
  struct tally {
    std::int64_t chunks;
    std::vector<int> active;            // the surveyed passes whose digit is not the same in every key
    std::vector<int> counted;           // the passes counted below
    std::vector<std::int64_t> counts;   // [chunk][j][digit], j indexing `counted`
    const std::int64_t* at(std::int64_t c, std::size_t j) const {
      return counts.data() + (c * static_cast<std::int64_t>(counted.size()) + static_cast<std::int64_t>(j)) * radix;
    }
  };
  radix_sorter(const digit_fn<K>& digit, bool with_values, bool write_combining, const hybrid_params& hp,
               sort_workspace* ws = nullptr)
      : digit_(digit),
        with_values_(with_values),
        write_combining_(write_combining),
        hp_(hp),
        ws_(ws),
        workers_(std::max(1, tbb::this_task_arena::max_concurrency())) {}

  // survey.hpp: the first read of the keys. msd_hybrid.hpp: the sort, as plan_sort says.
  tally survey(const K* keys, std::int64_t n, const std::vector<int>& passes) const;
  void sort(span from, span x, span y, std::int64_t n, const tally& t, bool end_in_x) const;

  /// Whether sort() takes the MSD-first hybrid for these n items (plan_sort).
  bool uses_hybrid(std::int64_t n, const tally& t) const {
    return plan_sort(n, item_bytes(), t.active.size(), hp_) == sort_path::msd_hybrid;
  }

 private:
  /// A worker's buffers for the bucket sorts, reused from one bucket to the next so that they
  /// stay in the cache: three of `cap` items, carved from one block, the worker's block of the
  /// caller's workspace when there is one (slot: the worker), else one of its own.
  struct leaf_buffers {
    sort_workspace* ws = nullptr;
    std::size_t slot = 0;
    raw_buffer<std::byte> own{0};
    span bufs[3] = {};
    void reserve(std::int64_t cap, bool values) {
      if (bufs[0].k != nullptr) return;
      const std::size_t kb = line_round(static_cast<std::size_t>(cap) * sizeof(K));
      const std::size_t vb = values ? line_round(static_cast<std::size_t>(cap) * sizeof(V)) : 0;
      std::byte* base = nullptr;
      if (ws != nullptr) {
        base = ws->leaf(slot, 3 * (kb + vb));
      } else {
        own = raw_buffer<std::byte>(static_cast<std::int64_t>(3 * (kb + vb)));
        base = own.get();
      }
      for (int i = 0; i < 3; ++i, base += kb + vb)
        bufs[i] = {reinterpret_cast<K*>(base), values ? reinterpret_cast<V*>(base + kb) : nullptr};
    }
    span a() const { return bufs[0]; }
    span b() const { return bufs[1]; }
    span c() const { return bufs[2]; }
  };

  std::int64_t item_bytes() const {
    return static_cast<std::int64_t>(sizeof(K) + (with_values_ ? sizeof(V) : 0));
  }
  bool hybrid_size(std::int64_t n) const { return hybrid_sized(n, item_bytes(), hp_); }
  /// How a bucket sort of m items writes its destination (plan_leaf_output).
  out_mode leaf_out(std::int64_t m) const { return plan_leaf_output(m, item_bytes(), write_combining_, hp_); }
  /// The passes among `passes` in which some bit of `varying` falls.
  std::vector<int> varying_of(const std::vector<int>& passes, U varying) const {
    std::vector<int> v;
    for (int p : passes) {
      const pass_fn f = digit_.pass(p);
      if ((static_cast<unsigned>(varying >> f.shift) & f.mask) != 0) v.push_back(p);
    }
    return v;
  }
  /// The chunks of a pass over n keys (plan_chunks).
  std::int64_t chunks_for(std::int64_t n) const {
    return plan_chunks(n, static_cast<std::int64_t>(sizeof(K)), workers_, hp_);
  }
  static std::int64_t chunk_begin(std::int64_t n, std::int64_t chunks, std::int64_t c) { return n * c / chunks; }

  /// Every pass's shift and mask, for loops that cut several digits out of one mapped key
  /// (at most 8 passes: one per byte of the widest key; unused entries are zero).
  std::pair<std::array<int, 8>, std::array<unsigned, 8>> shifts_and_masks(const std::vector<int>& passes) const {
    std::array<int, 8> shift{};
    std::array<unsigned, 8> mask{};
    for (std::size_t j = 0; j < passes.size(); ++j) {
      const pass_fn f = digit_.pass(passes[j]);
      shift[j] = f.shift;
      mask[j] = f.mask;
    }
    return {shift, mask};
  }

  template <class F>
  static void for_chunks(std::int64_t chunks, F&& f) {
    if (chunks == 1) {
      f(std::int64_t{0});
      return;
    }
    // Through detail/parallel.hpp's fenced_region: the hand-off of the chunk bodies to TBB's
    // workers is restated with release/acquire operations that a race detector can see.
    auto body = [&f](const tbb::blocked_range<std::int64_t>& r) {
      for (std::int64_t c = r.begin(); c != r.end(); ++c) f(c);
    };
    fenced_region<decltype(body)> region(body);
    typename fenced_region<decltype(body)>::scope open(region);
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, chunks, 1), region.template get_body<0>(),
                      tbb::simple_partitioner());
  }

  /// Whether msd() sorts its buckets with Highway's vqsort (plan_vqsort_buckets).
  bool quicksort_buckets() const {
    return plan_vqsort_buckets(hp_, with_values_, sizeof(K), digit_.begin == 0 && digit_.end == radix_traits<K>::bits);
  }

  // passes.hpp
  void histogram(const tally& t, bool surveyed, const K* keys, std::int64_t n, int p,
                 std::vector<std::int64_t>& hist) const;
  static void scan_hist(std::vector<std::int64_t>& hist, std::int64_t chunks);
  static void scatter_run(const K* sk, const V* sv, std::int64_t b, std::int64_t e, K* dk, V* dv,
                          std::array<std::int64_t, radix>& off, const pass_fn digit_p, bool combine);
  void scatter(span src, span dst, std::int64_t n, std::int64_t chunks, int p,
               const std::vector<std::int64_t>& hist) const;
  void copy(span src, span dst, std::int64_t n) const;
  // lsd.hpp, msd_hybrid.hpp
  void lsd(span from, span x, span y, std::int64_t n, const tally& t, bool end_in_x) const;
  void msd(span from, span x, span y, std::int64_t n, const tally& t, bool end_in_x) const;
  // vqsort.hpp, buckets.hpp
  void quicksort_leaf([[maybe_unused]] const K* s, [[maybe_unused]] K* d, [[maybe_unused]] std::int64_t m) const;
  void split_leaf(span s, span d, std::int64_t m, const std::vector<int>& rest, leaf_buffers& lb,
                  std::int64_t cap) const;
  void leaf(span s, span d, std::int64_t m, const std::vector<int>& rest, span a, span b, out_mode out) const;

  digit_fn<K> digit_;
  bool with_values_;
  bool write_combining_;
  hybrid_params hp_;
  sort_workspace* ws_;  // the caller's, or nullptr
  std::int64_t workers_;
};

}  // namespace scankit::cpu::detail
