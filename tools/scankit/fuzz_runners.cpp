// The runners of bench, sweep and verify, for the fuzz target only. It parses command lines and
// never runs the stored action, so it links these in place of the real runners (measure.cpp,
// verify.cpp, each primitive's bench.cpp), which are most of the CLI's build time. Each aborts:
// a parse that ran one would be reported as a crash.
#include <cstdlib>

#include "compact/commands.hpp"
#include "histogram/commands.hpp"
#include "reduce/commands.hpp"
#include "scan/commands.hpp"
#include "segments/commands.hpp"
#include "sort/commands.hpp"
#include "topk/commands.hpp"

namespace scankit::tools {

int run_scan_bench(const scan_bench_options&) { std::abort(); }
int run_scan_sweep(const scan_sweep_options&) { std::abort(); }
int run_scan_verify(const scan_verify_options&) { std::abort(); }
int run_compact_bench(const compact_bench_options&) { std::abort(); }
int run_compact_sweep(const compact_sweep_options&) { std::abort(); }
int run_compact_verify(const compact_verify_options&) { std::abort(); }
int run_histogram_bench(const histogram_bench_options&) { std::abort(); }
int run_histogram_sweep(const histogram_sweep_options&) { std::abort(); }
int run_histogram_verify(const histogram_verify_options&) { std::abort(); }
int run_sort_bench(const sort_bench_options&) { std::abort(); }
int run_sort_sweep(const sort_sweep_options&) { std::abort(); }
int run_sort_verify(const sort_verify_options&) { std::abort(); }
int run_reduce_bench(const reduce_bench_options&) { std::abort(); }
int run_reduce_sweep(const reduce_sweep_options&) { std::abort(); }
int run_reduce_verify(const reduce_verify_options&) { std::abort(); }
int run_segments_bench(const segments_bench_options&) { std::abort(); }
int run_segments_sweep(const segments_sweep_options&) { std::abort(); }
int run_segments_verify(const segments_verify_options&) { std::abort(); }
int run_topk_bench(const topk_bench_options&) { std::abort(); }
int run_topk_sweep(const topk_sweep_options&) { std::abort(); }
int run_topk_verify(const topk_verify_options&) { std::abort(); }

}  // namespace scankit::tools
