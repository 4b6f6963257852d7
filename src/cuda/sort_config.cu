// Non-template parts of the CUDA sorts: the device the plans read, the plan, the workspace size
// and the tuning's description.
#include "scankit/cuda/sort.cuh"

namespace scankit::cuda {

namespace detail::radix {

const device_info& sort_device_info() {
  static const bool have_device = device_count() > 0;
  if (!have_device) return reference_device_info;
  // Remembered per thread and device: current_device_info() takes a lock, and a small sort
  // takes a few microseconds. Its references stay valid for the process's lifetime.
  thread_local int known_device = -1;
  thread_local const device_info* known = nullptr;
  const int dev = current_device();
  if (dev == known_device) return *known;
  known = &current_device_info();
  known_device = dev;
  return *known;
}

namespace {

void check_item_sizes(std::size_t key_bytes, std::size_t value_bytes, const char* where) {
  if (key_bytes != 1 && key_bytes != 2 && key_bytes != 4 && key_bytes != 8)
    throw invalid_argument(std::string(where) + ": keys are 1, 2, 4 or 8 bytes");
  if (value_bytes != 0 && value_bytes != 4 && value_bytes != 8 && value_bytes != 16)
    throw invalid_argument(std::string(where) + ": values are 0, 4, 8 or 16 bytes");
}

void check_index_bytes(std::size_t index_bytes, const char* where) {
  if (index_bytes != 4 && index_bytes != 8)
    throw invalid_argument(std::string(where) + ": argsort positions are 8 (int64) or 4 (uint32) bytes");
}

std::string describe_tile(const onesweep_shape& t) {
  return std::to_string(t.block) + " threads x " + std::to_string(t.items) +
         " keys = " + std::to_string(t.tile()) + " keys, register budget for " +
         std::to_string(t.min_blocks) + (t.min_blocks == 1 ? " block" : " blocks") +
         " per SM, keys staged in shared memory " +
         (t.stage_early ? "as they are ranked" : "after the look-back");
}

}  // namespace

}  // namespace detail::radix

namespace {

/// The workspace of a sort over every key bit (the bit range never needs more).
std::size_t full_range_bytes(std::int64_t n, std::size_t key_bytes, std::size_t value_bytes,
                             const sort_config& cfg) {
  const sort_plan p =
      detail::radix::plan_for(n, key_bytes, value_bytes, 0, static_cast<int>(8 * key_bytes), cfg,
                              detail::radix::sort_device_info());
  return detail::radix::workspace_bytes(n, key_bytes, value_bytes, p);
}

/// An int64 argsort with 32-bit positions: the workspace of 4-byte values on the same tile.
bool narrow_full_range(std::int64_t n, std::size_t key_bytes, const sort_config& cfg) {
  return detail::radix::narrow_positions(n, key_bytes, 0, static_cast<int>(8 * key_bytes), cfg,
                                         detail::radix::sort_device_info());
}

}  // namespace

std::size_t sort_workspace_bytes(std::int64_t n, std::size_t key_bytes, std::size_t value_bytes,
                                 const sort_config& cfg) {
  constexpr const char* where = "scankit::cuda::sort_workspace_bytes";
  scankit::detail::check_size(n, where);
  detail::radix::check_item_sizes(key_bytes, value_bytes, where);
  if (n <= 1) return 0;
  const std::size_t bytes = full_range_bytes(n, key_bytes, value_bytes, cfg);
  // 8-byte values may be an int64 argsort's positions, which run on the tile of 4-byte values:
  // cover that workspace too (its alternate buffer is n * 4 bytes smaller, but a smaller tile
  // may take more look-back words).
  if (value_bytes == 8 && narrow_full_range(n, key_bytes, cfg))
    return std::max(bytes, full_range_bytes(n, key_bytes, 4, cfg));
  return bytes;
}

std::size_t argsort_workspace_bytes(std::int64_t n, std::size_t key_bytes, std::size_t index_bytes,
                                    const sort_config& cfg) {
  constexpr const char* where = "scankit::cuda::argsort_workspace_bytes";
  scankit::detail::check_size(n, where);
  detail::radix::check_item_sizes(key_bytes, 0, where);
  detail::radix::check_index_bytes(index_bytes, where);
  if (n <= 1) return 0;
  if (index_bytes == 8 && narrow_full_range(n, key_bytes, cfg))
    return full_range_bytes(n, key_bytes, 4, cfg);
  return full_range_bytes(n, key_bytes, index_bytes, cfg);
}

sort_plan plan_sort(std::int64_t n, std::size_t key_bytes, std::size_t value_bytes,
                    const sort_options& opts, const sort_config& cfg) {
  constexpr const char* where = "scankit::cuda::plan_sort";
  scankit::detail::check_size(n, where);
  detail::radix::check_item_sizes(key_bytes, value_bytes, where);
  const auto [begin, end] =
      scankit::detail::sort_bit_range(opts, static_cast<int>(8 * key_bytes), where);
  return detail::radix::plan_for(n, key_bytes, value_bytes, begin, end, cfg,
                                 detail::radix::sort_device_info());
}

sort_plan plan_argsort(std::int64_t n, std::size_t key_bytes, std::size_t index_bytes,
                       const sort_options& opts, const sort_config& cfg) {
  constexpr const char* where = "scankit::cuda::plan_argsort";
  scankit::detail::check_size(n, where);
  detail::radix::check_item_sizes(key_bytes, 0, where);
  detail::radix::check_index_bytes(index_bytes, where);
  const auto [begin, end] =
      scankit::detail::sort_bit_range(opts, static_cast<int>(8 * key_bytes), where);
  const auto& dev = detail::radix::sort_device_info();
  if (index_bytes == 8 && detail::radix::narrow_positions(n, key_bytes, begin, end, cfg, dev)) {
    sort_plan p = detail::radix::plan_for(n, key_bytes, 4, begin, end, cfg, dev);
    p.narrow_positions = true;
    return p;
  }
  return detail::radix::plan_for(n, key_bytes, index_bytes, begin, end, cfg, dev);
}

std::string sort_plan::describe() const {
  std::string s(name(algorithm));
  if (copy_only) return s + ": a copy (nothing to sort)";
  if (algorithm != sort_algorithm::onesweep) return s;
  switch (tile) {
    case sort_tile::one_block:
      return s + ", one block of " + std::to_string(block) + " threads x " + std::to_string(items) +
             " keys, " + std::to_string(shared_bytes / 1024) + " KiB shared";
    case sort_tile::counting:
      return s + ", counting fill (one-byte keys: the histogram places every key)";
    default:
      break;
  }
  s += ", " + std::string(name(tile)) +
       (reduced ? " tile (reduced: the main tile does not fit), " : " tile, ");
  s += detail::radix::describe_tile({block, items, min_blocks, stage_early}) + ", " +
       std::to_string(shared_bytes / 1024) + " KiB shared";
  if (narrow_positions) s += ", int64 positions carried as 32 bits, written as int64 by the last pass";
  return s;
}

std::string sort_tuning_description(std::size_t key_bytes, std::size_t value_bytes) {
  detail::radix::check_item_sizes(key_bytes, value_bytes, "scankit::cuda::sort_tuning_description");
  using detail::radix::describe_tile;
  const detail::device_info& dev = detail::radix::sort_device_info();
  const detail::radix::sort_tuning t =
      detail::radix::sort_tuning_for(key_bytes, value_bytes, dev.arch);
  const auto on_device = [&](sort_tile tile) {
    sort_config cfg;
    cfg.tile = tile;
    return detail::radix::plan_for(t.one_block_limit() + 1, key_bytes, value_bytes, 0,
                                   static_cast<int>(8 * key_bytes), cfg, dev);
  };
  std::string text = "sort tuning (sm_" + std::to_string(dev.arch >= 90 ? 90 : 80) +
                     " entry): one block up to " + std::to_string(t.one_block_limit()) + " keys";
  if (key_bytes == 1 && value_bytes == 0) text += "; then a counting fill over all 8 bits";
  if (t.small.exists())
    text += "; below " + std::to_string(t.small_below) + " keys, onesweep tile " +
            describe_tile(t.small);
  const sort_plan main = on_device(sort_tile::main);
  text += "; onesweep tile " +
          describe_tile({main.block, main.items, main.min_blocks, main.stage_early});
  if (main.reduced) text += " (the main tile does not fit this GPU's shared memory)";
  if (t.large.exists()) {
    if (on_device(sort_tile::large).tile == sort_tile::large)
      text += "; from " + std::to_string(t.large_from) + " keys, onesweep tile " +
              describe_tile(t.large);
    else
      text += "; (the large tile, " + describe_tile(t.large) +
              ", does not fit this GPU's shared memory)";
  }
  return text;
}

}  // namespace scankit::cuda
