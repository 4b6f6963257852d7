// ThreadSanitizer suppressions for the CPU test programs and the scankit CLI (empty unless built with
// -fsanitize=thread).
//
// The system oneTBB library is not built with ThreadSanitizer, so the synchronisation by which
// it hands a task to a worker thread and joins it again happens where TSan cannot see it. TSan
// then reports races on TBB's own bookkeeping: task objects, ranges, partitioner tree nodes and
// wait contexts that TBB's inline header code writes in one thread and reads in another.
// Only those are suppressed here:
//   called_from_lib:libtbb  interceptors (malloc/free, ...) that libtbb itself calls: TBB
//                           allocating and freeing its own memory, e.g. at process exit;
//   race_top:/oneapi/tbb/   the racing access itself is in a TBB header (TBB's own data);
//   race_top:/pstl/...      the same inside libstdc++'s parallel algorithms on TBB (the
//                           CLI's std::sort(std::execution::par) comparison row);
//   race:__pstl::__tbb_backend, race:tbb::detail::d1::start_reduce,
//   race:tbb::detail::d1::quick_sort_range (tbb::parallel_sort, the CLI's cpu-tbb-sort row)
//                           TBB's reduction and PSTL task bookkeeping (reference counts
//                           read by the joining thread); these also hide any race inside a
//                           parallel_reduce body or a std::execution::par call, which only
//                           the CLI's input checks and comparison rows use;
//   race:<TBB internal>     TBB-internal functions that never call user code;
//   race:tbb_owned_pointer  scankit's fenced task bodies (scan.hpp) reading and writing
//                           their one pointer, which lives in TBB's recycled task storage;
//   race:parallel_scan.h    anything under tbb::parallel_scan, which hands its partial sums
//                           from thread to thread inside TBB: that covers
//                           cpu::tbb_parallel_scan, the benchmark baseline, only.
// scankit restates the ordering of its own and its callers' data with standard
// release/acquire operations (cpu::detail::region_fence, fenced_region), so races on user
// data, in scan_parallel, parallel_copy or the tests, are still reported.
#if defined(__SANITIZE_THREAD__)
extern "C" __attribute__((visibility("default"))) const char* __tsan_default_suppressions() {
  return "called_from_lib:libtbb.so\n"
         "race_top:/oneapi/tbb/\n"
         "race_top:/pstl/parallel_backend_tbb.h\n"
         "race:__pstl::__tbb_backend\n"
         "race:tbb::detail::d1::start_reduce\n"
         "race:tbb::detail::d1::quick_sort_range\n"
         "race:tbb::detail::d1::fold_tree\n"
         "race:tbb::detail::d1::node::node\n"
         "race:tbb::detail::d1::tree_node\n"
         "race:tbb::detail::d1::wait_context\n"
         "race:tbb::detail::d1::task_group_context\n"
         "race:mark_task_stolen\n"
         "race:check_being_stolen\n"
         "race:is_peer_stolen\n"
         "race:tbb_owned_pointer\n"
         "race:/oneapi/tbb/parallel_scan.h\n";
}
#endif
