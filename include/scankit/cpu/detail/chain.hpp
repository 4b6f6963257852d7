// The chained hand-off of the single-pass CPU algorithms (scan, compaction): each block waits
// for the running total of the block before it, adds its own and publishes the sum at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <thread>

#include "scankit/cpu/detail/common.hpp"  // SCANKIT_CPU_HAS_SSE2

namespace scankit::cpu::detail {

/// Spin on a flag for a while, then start yielding the CPU (a preempted or oversubscribed
/// predecessor must be allowed to run).
class backoff {
 public:
  void pause() {
    if (count_ < 64) {
      ++count_;
#ifdef SCANKIT_CPU_HAS_SSE2
      _mm_pause();
#endif
    } else {
      std::this_thread::yield();
    }
  }

 private:
  int count_ = 0;
};

/// Hand-off of one block's inclusive prefix to the next block. seq == k + 1 once block k
/// has published `value`. Slots are reused round-robin: block k + ring can only write slot
/// k % ring after block k + 1 has read it (see chained_scan), so two slots would do; a few
/// more keep the spinning threads on different lines.
template <class T>
struct alignas(128) prefix_slot {
  std::atomic<std::int64_t> seq{0};
  std::optional<T> value;
};

struct abort_scan {};  // thrown inside a worker when another worker failed

}  // namespace scankit::cpu::detail
