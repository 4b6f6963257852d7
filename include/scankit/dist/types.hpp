// What the distributed primitives return and how they are configured; shared by the MPI
// (CPU ranks) and NCCL (GPU ranks) backends.
//
// A distributed array is one shard per rank; rank order defines the global sequence (rank 0's
// items first). Shards may have any length, including zero.
#pragma once

#include <cstdint>

namespace scankit::dist {

/// What a distributed select_if, remove_if or unique tells each rank.
struct compaction_result {
  std::int64_t count = 0;         // items this rank kept, written to the front of its output
  std::int64_t offset = 0;        // global position of this rank's first kept item
  std::int64_t global_count = 0;  // items kept over all ranks
};

/// What a distributed partition tells each rank. Globally the selected items come first (in
/// rank order), then the rejected ones (in rank order). Each rank's output holds its selected
/// items, then its rejected ones in the rejected_order it asked for.
struct partition_result {
  std::int64_t selected = 0;         // this rank's selected items: out[0, selected)
  std::int64_t selected_offset = 0;  // global position of this rank's first selected item
  std::int64_t global_selected = 0;  // selected items over all ranks
  std::int64_t rejected_offset = 0;  // position of this rank's first rejected item among all rejected ones
  std::int64_t global_size = 0;      // items over all ranks
};

/// Where a distributed histogram's counts go.
struct histogram_config {
  /// -1: every rank receives the global counts (an all-reduce). A rank number: only that rank
  /// does (a reduce); the other ranks' counts are left as they were.
  int root = -1;
  /// Add the global counts to `counts` instead of overwriting them.
  bool accumulate = false;
};

/// Tuning of the distributed sort.
struct sort_config {
  /// Regular samples each rank draws from its locally sorted keys to choose the splitters
  /// (0: 1,024). The ranges the splitters cut are within about n/samples + p items of the
  /// balanced ones; the final balancing step moves that difference. The all-gather of the
  /// samples moves p * samples * 24 bytes to every rank.
  std::int64_t samples_per_rank = 0;
  /// How each rank orders the pieces it receives from the all-to-all. Each piece is already
  /// sorted (cut from its sender's sorted shard), so a stable merge of the p pieces suffices:
  /// ceil(log2 p) passes that each read and write the received items once (one pass for p = 2).
  /// false: a full stable local sort of the received items instead (the local radix sort's
  /// passes; fewer than the merge's only for large p or a narrow bit range). Both give the same
  /// result.
  bool merge_received = true;
  /// How GPU ranks split the keys among themselves (CPU ranks always take the samples).
  ///   automatic  radix where it applies and the top digits' boundaries leave every rank within
  ///              1/16 of its balanced share, samples otherwise;
  ///   radix      each rank sorts a range of top digits (the keys' top 8 bits): one pass splits
  ///              the keys by that digit, the exchange sends each range to its rank, which sorts
  ///              the digits below per top digit; then the exact balance. Applies to keys of 2
  ///              bytes or more over their whole width with at most 2^30 - 1 keys per rank and
  ///              per top digit, with onesweep as the local sort (cuda::sort_config's
  ///              algorithm: its passes are segmented onesweep passes); elsewhere the samples;
  ///   samples    the sample sort: a full local sort, splitters from regular samples, the
  ///              exchange, the merge of the received pieces.
  enum class split_kind { automatic, radix, samples };
  split_kind split = split_kind::automatic;
  /// The radix sort's exchange in this many parts (consecutive ranges of each rank's top
  /// digits), so that a rank sorts the part that has arrived while the next one crosses the
  /// interconnect (on a stream of its own; at most 256 are used, one per top digit).
  /// 0: radix_exchange_parts; 1: no overlap (also what runs while the communicator records
  /// phase times, so that each phase is timed alone).
  int exchange_parts = 0;
};

/// The radix sort's exchange parts by default: the first part's exchange is not hidden, and
/// each part's sort adds a few launches and smaller segments; four balance the two
/// (docs/TUNING.md, distributed).
inline constexpr int radix_exchange_parts = 4;

inline constexpr std::int64_t default_samples_per_rank = 1024;

/// The balanced share of `global_size` items on rank `rank` of `ranks`: ranks below
/// global_size % ranks hold one item more. Sorts and rebalancing leave exactly this many
/// items on each rank.
constexpr std::int64_t balanced_size(std::int64_t global_size, int rank, int ranks) {
  return global_size / ranks + (rank < global_size % ranks ? 1 : 0);
}

/// The global position of rank `rank`'s first item in the balanced layout.
constexpr std::int64_t balanced_offset(std::int64_t global_size, int rank, int ranks) {
  const std::int64_t q = global_size / ranks, rem = global_size % ranks;
  return q * rank + (rank < rem ? rank : rem);
}

}  // namespace scankit::dist
