// Running work on oneTBB's workers: task bodies whose hand-off a race detector can see
// (region_fence, fenced_region), and the parallel first touch of an output's pages.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

namespace scankit::cpu::detail {

/// Happens-before edges around a TBB parallel region that race detectors can see.
///
/// oneTBB hands tasks to its workers and joins them inside its compiled library. A
/// ThreadSanitizer build cannot see that synchronisation unless TBB itself was built with
/// -fsanitize=thread, and then reports every task's reads of the caller's data, and the
/// caller's reads of the tasks' results, as races. Standard release/acquire operations on
/// one atomic restate the ordering TBB already provides: the caller calls open() just before
/// starting the tasks and close() after they are joined; every task calls enter() before it
/// touches shared data and leave() when it is done. A few atomic operations per task.
class region_fence {
 public:
  void open() noexcept { a_.store(0, std::memory_order_release); }
  void enter() const noexcept { (void)a_.load(std::memory_order_acquire); }
  void leave() noexcept { a_.fetch_add(1, std::memory_order_acq_rel); }
  void close() const noexcept { (void)a_.load(std::memory_order_acquire); }

 private:
  std::atomic<std::int64_t> a_{0};
};

/// Task bodies for TBB that go through a region_fence. TBB copies a body into its task
/// objects and hands those between threads (the hand-off a race detector cannot see), so a
/// body here holds nothing but a pointer to the region, read and written atomically. The
/// region, with the fence and the real functors, lives on the caller's stack; a call enters
/// the fence before it touches a functor's captures and leaves it when done.
///
///   fenced_region region(f, g);
///   {
///     fenced_region<F, G>::scope open(region);        // open() now, close() at scope exit
///     tbb::parallel_for(range, region.body<0>());       // calls f through the fence
///   }
template <class... F>
class fenced_region {
 public:
  explicit fenced_region(F... f) : fs_(std::move(f)...) {}
  fenced_region(const fenced_region&) = delete;
  fenced_region& operator=(const fenced_region&) = delete;

  template <std::size_t I>
  class body {
   public:
    explicit body(fenced_region* r) noexcept { tbb_owned_pointer_store(r); }
    body(const body& o) noexcept { tbb_owned_pointer_store(o.tbb_owned_pointer_load()); }
    body& operator=(const body& o) noexcept {
      tbb_owned_pointer_store(o.tbb_owned_pointer_load());
      return *this;
    }
    template <class... A>
    decltype(auto) operator()(A&&... a) const {
      fenced_region* r = tbb_owned_pointer_load();
      struct guard {
        region_fence& f;
        explicit guard(region_fence& g) noexcept : f(g) { f.enter(); }
        guard(const guard&) = delete;
        guard& operator=(const guard&) = delete;
        ~guard() { f.leave(); }
      } g(r->fence_);
      return std::get<I>(r->fs_)(std::forward<A>(a)...);
    }

   private:
    // The only accesses to r_, which lives in TBB's task storage. TBB recycles that storage
    // between threads, again out of a race detector's sight, so the test programs' TSan
    // suppressions name these two functions.
    void tbb_owned_pointer_store(fenced_region* r) noexcept {
      std::atomic_ref<fenced_region*>(r_).store(r, std::memory_order_relaxed);
    }
    fenced_region* tbb_owned_pointer_load() const noexcept {
      return std::atomic_ref<fenced_region*>(r_).load(std::memory_order_relaxed);
    }
    mutable fenced_region* r_;
  };

  template <std::size_t I>
  body<I> get_body() noexcept {
    return body<I>(this);
  }

  /// Opens the fence for the lifetime of the scope; closes it also when an exception leaves.
  class scope {
   public:
    explicit scope(fenced_region& r) noexcept : r_(r) { r_.fence_.open(); }
    scope(const scope&) = delete;
    scope& operator=(const scope&) = delete;
    ~scope() { r_.fence_.close(); }

   private:
    fenced_region& r_;
  };

 private:
  region_fence fence_;
  std::tuple<F...> fs_;
};

/// f(i) for every i in [0, count) as tasks on the thread pool, `grain` indices or more per
/// task, through a fenced_region: the tasks read the caller's data, the caller their results.
template <class F>
void fenced_for_each(std::int64_t count, std::int64_t grain, F f) {
  auto body = [&f](const tbb::blocked_range<std::int64_t>& r) {
    for (std::int64_t i = r.begin(); i < r.end(); ++i) f(i);
  };
  fenced_region<decltype(body)> region(body);
  typename fenced_region<decltype(body)>::scope open(region);
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, count, grain > 0 ? grain : 1), region.template get_body<0>());
}

/// Touches every 4 KiB page of [p, p + bytes) with a one-byte read-modify-write of its own
/// value (one write fault, where a read then a write would fault twice), each thread a
/// contiguous range. The scan writes its output in block order, every thread within a few
/// blocks of the others: on an output that nobody has written yet (a fresh NumPy array) all
/// of them then fault the same huge page, which one thread clears while the others wait, and
/// the kernel's clearing of the whole output runs on one thread at a time. Touched first by
/// ranges, the pages are cleared by all threads at once. On pages already in memory a touch
/// costs one cache line in 64. The caller owns the bytes (nothing else reads or writes them).
inline void touch_pages(void* p, std::int64_t bytes, int threads) {
  constexpr std::int64_t page = 4096;
  auto* b = static_cast<unsigned char*>(p);
  const std::int64_t points = (bytes + page - 1) / page;  // b[i * page], and the last byte
  struct range {
    unsigned char* b;
    static void touch(unsigned char* byte) { std::atomic_ref<unsigned char>(*byte).fetch_or(0, std::memory_order_relaxed); }
    void operator()(const tbb::blocked_range<std::int64_t>& r) const {
      for (std::int64_t i = r.begin(); i < r.end(); ++i) touch(b + i * page);
    }
  };
  if (bytes <= 0) return;
  if (threads <= 1) {
    range{b}(tbb::blocked_range<std::int64_t>(0, points));
  } else {
    fenced_region<range> region(range{b});
    typename fenced_region<range>::scope open(region);
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, points, 64), region.template get_body<0>(),
                      tbb::static_partitioner());
  }
  range::touch(b + bytes - 1);
}

}  // namespace scankit::cpu::detail
