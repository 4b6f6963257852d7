// What a CPU compaction writes, as one description that drives all three algorithms: the
// spec, the flag and value functors the public functions build it from, and the count of the
// selection and the slot of a rejected item that every algorithm shares.
#pragma once

#include <cstdint>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include "scankit/cpu/detail/compact/tuning.hpp"
#include "scankit/cpu/detail/parallel.hpp"
#include "scankit/predicates.hpp"

namespace scankit::cpu::detail {

/// What a compaction writes (the same description drives all three algorithms).
///   flag(i)  -> bool   whether item i is selected
///   value(i) -> V      what item i writes (the item, or its index)
/// Selected items go to out[0, count); with `index_out`, their indices also go to index_out.
/// Partition: rejected items fill out[count, n), in reverse or input order.
template <class V, class Flag, class Value>
struct compact_spec {
  std::int64_t n;
  Flag flag;
  Value value;
  V* out;
  std::int64_t* index_out = nullptr;
  bool partition = false;
  rejected_order order = rejected_order::reversed;
  /// In-place unique: flag(i) reads in[i - 1], which the block before may be overwriting
  /// (with the same value, but still a data race). The parallel algorithm then snapshots
  /// the item before every block first and evaluates each block's first flag with
  /// flag.with_prev(i, snapshot). Null otherwise.
  const V* prev_source = nullptr;
};

/// Item i as the value written (the item itself).
template <class T>
struct item_value {
  const T* in;
  T operator()(std::int64_t i) const { return in[i]; }
};
/// Index i as the value written.
struct index_value {
  std::int64_t operator()(std::int64_t i) const { return i; }
};
template <class T, class Pred>
struct pred_flag {
  const T* in;
  Pred pred;
  bool keep;  // false: remove_if (select where pred is false)
  bool operator()(std::int64_t i) const { return static_cast<bool>(pred(in[i])) == keep; }
};
template <class F>
struct array_flag {
  const F* flags;
  bool operator()(std::int64_t i) const { return flags[i] != F(0); }
};
template <class T, class Eq>
struct run_start_flag {  // the first item of every run of equivalent items
  const T* in;
  Eq eq;
  bool operator()(std::int64_t i) const { return i == 0 || !static_cast<bool>(eq(in[i - 1], in[i])); }
  bool with_prev(std::int64_t i, const T& prev) const { return i == 0 || !static_cast<bool>(eq(prev, in[i])); }
};
template <class Pred>
struct index_flag {
  Pred pred;
  bool operator()(std::int64_t i) const { return static_cast<bool>(pred(i)); }
};

/// Counts the selected items (the extra pass of a stable partition).
template <class Flag>
std::int64_t count_flags(std::int64_t n, const Flag& flag, bool parallel) {
  if (!parallel) {
    std::int64_t c = 0;
    for (std::int64_t i = 0; i < n; ++i) c += flag(i) ? 1 : 0;
    return c;
  }
  struct counter {
    const Flag* flag;
    std::int64_t operator()(const tbb::blocked_range<std::int64_t>& r, std::int64_t c) const {
      for (auto i = r.begin(); i != r.end(); ++i) c += (*flag)(i) ? 1 : 0;
      return c;
    }
  };
  struct adder {
    std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a + b; }
  };
  fenced_region<counter, adder> region(counter{&flag}, adder{});
  typename fenced_region<counter, adder>::scope open(region);
  return tbb::parallel_reduce(tbb::blocked_range<std::int64_t>(0, n, compact_count_grain),
                              std::int64_t{0}, region.template get_body<0>(),
                              region.template get_body<1>());
}

/// Where rejected item number r (0-based, in input order) goes.
inline std::int64_t rejected_slot(std::int64_t n, std::int64_t selected_total, std::int64_t r,
                                  rejected_order order) {
  return order == rejected_order::reversed ? n - 1 - r : selected_total + r;
}

}  // namespace scankit::cpu::detail
