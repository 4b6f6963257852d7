// CPU stream compaction: select_if, remove_if, select_flagged, partition, unique (and its
// run-length variant unique_count), select_indices and nonzero, each with three algorithms:
//
//   serial_loop   one left-to-right loop with a write cursor, no scan (the reference)
//   serial_scan   the textbook three steps, serially: map every item to 0/1, exclusive scan
//                 of the flags (scankit::cpu::scan_serial), scatter through the positions
//   parallel      oneTBB, single pass, chained (the default; design below)
//
// Contract shared by every function here:
//   * n >= 0; pointers may be null only when n == 0; anything else throws
//     scankit::invalid_argument before anything is written.
//   * Selection is stable: selected items keep their input order. The functions return the
//     number of items written at the front of `out` (partition: the number selected).
//   * `out` must hold n items (a compaction writes at most n). Items past the returned count
//     are left as they were (partition writes all n).
//   * In place: select_if, remove_if, select_flagged, unique and unique_count's values may
//     use out == in (every algorithm reads an item before anything can overwrite it; for
//     unique the parallel algorithm first copies the item before each block, which the
//     previous block may be overwriting). Any other overlap, and any overlap for partition,
//     select_indices and nonzero, is rejected.
//   * Predicates are called once per item by serial_loop and parallel (twice by serial_scan:
//     map and scatter; and once more per item by partition with rejected_order::original),
//     from several threads at once by parallel, in no particular order. They must not modify
//     the items.
//   * An exception thrown by a predicate propagates; `out` is then partly written.
//
// parallel: a chained single pass over blocks on oneTBB that reads every input byte once and
// writes every output byte once (design: detail/compact/chained.hpp); below
// compact_config::serial_cutoff items, serial_loop. The choice is detail/compact/plan.hpp
// (plan_compact), the sizes detail/compact/tuning.hpp and compact_config.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "scankit/cpu/scan.hpp"
#include "scankit/error.hpp"
#include "scankit/predicates.hpp"

namespace scankit::cpu {

enum class compact_algorithm { serial_loop, serial_scan, parallel };

inline constexpr compact_algorithm all_compact_algorithms[] = {
    compact_algorithm::serial_loop, compact_algorithm::serial_scan, compact_algorithm::parallel};

constexpr std::string_view name(compact_algorithm a) {
  switch (a) {
    case compact_algorithm::serial_loop: return "cpu-serial";
    case compact_algorithm::serial_scan: return "cpu-serial-scan";
    case compact_algorithm::parallel: return "cpu-parallel";
  }
  return "?";
}

/// Tuning of the parallel algorithm (tests use small blocks to get many blocks).
struct compact_config {
  compact_algorithm algorithm = compact_algorithm::parallel;
  std::int64_t block_bytes = default_block_bytes;      // bytes of input items per block
  std::int64_t serial_cutoff = default_serial_cutoff;  // below this many items: serial_loop
  bool simd = true;  // AVX-512 compress for the staging copy where the CPU has it (tests turn it off)
};

}  // namespace scankit::cpu

// The plan and the algorithms read compact_config.
#include "scankit/cpu/detail/compact/args.hpp"
#include "scankit/cpu/detail/compact/run.hpp"
#include "scankit/cpu/detail/compact/spec.hpp"

namespace scankit::cpu {

/// Copies the items x with pred(x) true to out, in order. Returns how many.
template <class T, class Pred>
std::int64_t select_if(const T* in, T* out, std::int64_t n, Pred pred, const compact_config& cfg = {}) {
  constexpr const char* where = "scankit::cpu::select_if";
  detail::check_args(n, in, out, where);
  detail::check_no_partial_overlap(in, out, n, sizeof(T), where);
  detail::compact_spec<T, detail::pred_flag<T, Pred>, detail::item_value<T>> s{
      n, {in, pred, true}, {in}, out};
  return detail::run(s, sizeof(T), cfg, where);
}

/// Copies the items x with pred(x) false to out, in order (removes the others). Returns how many.
template <class T, class Pred>
std::int64_t remove_if(const T* in, T* out, std::int64_t n, Pred pred, const compact_config& cfg = {}) {
  constexpr const char* where = "scankit::cpu::remove_if";
  detail::check_args(n, in, out, where);
  detail::check_no_partial_overlap(in, out, n, sizeof(T), where);
  detail::compact_spec<T, detail::pred_flag<T, Pred>, detail::item_value<T>> s{
      n, {in, pred, false}, {in}, out};
  return detail::run(s, sizeof(T), cfg, where);
}

/// Copies in[i] for every flags[i] != 0 to out, in order. Returns how many. flags must not
/// overlap out.
template <class T, class F>
std::int64_t select_flagged(const T* in, const F* flags, T* out, std::int64_t n,
                            const compact_config& cfg = {}) {
  constexpr const char* where = "scankit::cpu::select_flagged";
  detail::check_args(n, in, out, where);
  scankit::detail::check_pointer(flags, n, "flags", where);
  detail::check_no_partial_overlap(in, out, n, sizeof(T), where);
  detail::check_disjoint(flags, detail::bytes_of<F>(n), out, detail::bytes_of<T>(n), "flags and output", where);
  detail::compact_spec<T, detail::array_flag<F>, detail::item_value<T>> s{n, {flags}, {in}, out};
  return detail::run(s, sizeof(T), cfg, where);
}

/// Writes all n items to out: those with pred true first, in input order, then the others in
/// `order` (reverse input order by default, see rejected_order). Returns the number selected.
/// out must not overlap in.
template <class T, class Pred>
std::int64_t partition(const T* in, T* out, std::int64_t n, Pred pred,
                       rejected_order order = rejected_order::reversed, const compact_config& cfg = {}) {
  constexpr const char* where = "scankit::cpu::partition";
  detail::check_args(n, in, out, where);
  detail::check_disjoint(in, detail::bytes_of<T>(n), out, detail::bytes_of<T>(n), "input and output", where);
  detail::compact_spec<T, detail::pred_flag<T, Pred>, detail::item_value<T>> s{
      n, {in, pred, true}, {in}, out, nullptr, true, order};
  return detail::run(s, sizeof(T), cfg, where);
}

/// Keeps the first item of every run of consecutive equivalent items (eq(a, b): a and b are
/// equivalent). Returns the number of runs.
template <class T, class Eq = equal_to<T>>
std::int64_t unique(const T* in, T* out, std::int64_t n, Eq eq = {}, const compact_config& cfg = {}) {
  constexpr const char* where = "scankit::cpu::unique";
  detail::check_args(n, in, out, where);
  detail::check_no_partial_overlap(in, out, n, sizeof(T), where);
  detail::compact_spec<T, detail::run_start_flag<T, Eq>, detail::item_value<T>> s{n, {in, eq}, {in}, out};
  if (out == in) s.prev_source = in;
  return detail::run(s, sizeof(T), cfg, where);
}

/// Run-length encoding: unique's values to out_values and each run's length to out_counts
/// (both of room n). Returns the number of runs. out_values may be in; out_counts must not
/// overlap either.
template <class T, class Eq = equal_to<T>>
std::int64_t unique_count(const T* in, T* out_values, std::int64_t* out_counts, std::int64_t n,
                          Eq eq = {}, const compact_config& cfg = {}) {
  constexpr const char* where = "scankit::cpu::unique_count";
  detail::check_args(n, in, out_values, where);
  scankit::detail::check_pointer(out_counts, n, "counts output", where);
  detail::check_no_partial_overlap(in, out_values, n, sizeof(T), where);
  detail::check_disjoint(out_counts, detail::bytes_of<std::int64_t>(n), in, detail::bytes_of<T>(n),
                         "counts output and input", where);
  detail::check_disjoint(out_counts, detail::bytes_of<std::int64_t>(n), out_values,
                         detail::bytes_of<T>(n), "counts output and values output", where);
  // Runs are found as for unique, with their start positions; lengths are differences of
  // consecutive starts.
  detail::compact_spec<T, detail::run_start_flag<T, Eq>, detail::item_value<T>> s{
      n, {in, eq}, {in}, out_values, out_counts};
  if (out_values == in) s.prev_source = in;
  const std::int64_t runs = detail::run(s, sizeof(T), cfg, where);
  detail::starts_to_counts(out_counts, runs, n, cfg.algorithm == compact_algorithm::parallel);
  return runs;
}

/// Writes every index i in [0, n) with pred(i) true to out_indices, ascending (like
/// numpy.flatnonzero of a computed mask). Returns how many.
template <class Pred>
std::int64_t select_indices(std::int64_t n, Pred pred, std::int64_t* out_indices,
                            const compact_config& cfg = {}) {
  constexpr const char* where = "scankit::cpu::select_indices";
  scankit::detail::check_size(n, where);
  scankit::detail::check_pointer(out_indices, n, "output", where);
  detail::compact_spec<std::int64_t, detail::index_flag<Pred>, detail::index_value> s{
      n, {pred}, {}, out_indices};
  return detail::run(s, sizeof(std::int64_t), cfg, where);
}

/// Writes the index of every nonzero item to out_indices, ascending (numpy.flatnonzero).
/// Returns how many.
template <class T>
std::int64_t nonzero(const T* in, std::int64_t* out_indices, std::int64_t n, const compact_config& cfg = {}) {
  constexpr const char* where = "scankit::cpu::nonzero";
  detail::check_args(n, in, out_indices, where);
  detail::check_disjoint(in, detail::bytes_of<T>(n), out_indices, detail::bytes_of<std::int64_t>(n),
                         "input and output", where);
  detail::compact_spec<std::int64_t, detail::pred_flag<T, is_nonzero<T>>, detail::index_value> s{
      n, {in, {}, true}, {}, out_indices};
  return detail::run(s, sizeof(T), cfg, where);
}

}  // namespace scankit::cpu
