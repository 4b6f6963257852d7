// The names of the segments rows, operations and distributions (a separate file: the fuzz
// target links it without the runners).
#include "segments/commands.hpp"

namespace scankit::tools {

std::vector<std::string> segments_gpu_row_names() {
#ifdef SCANKIT_HAS_CUDA
  // segments_algorithm: automatic, merge_path, two_pass and block_per_segment (both
  // segmented_reduce only).
  return {"scankit", "merge-path", "two-pass", "block-per-segment"};
#else
  return {};
#endif
}
bool segments_row_reduce_only(const std::string& row) { return row == "two-pass" || row == "block-per-segment"; }
std::vector<std::string> segments_cpu_row_names() { return {"cpu", "cpu-serial"}; }
std::vector<std::string> segments_row_names() {
  auto all = segments_gpu_row_names();
  for (auto& r : segments_cpu_row_names()) all.push_back(r);
  return all;
}
std::vector<std::string> segments_op_names() { return {"reduce", "scan", "scan-flags", "scan-by-key", "reduce-by-key"}; }
std::vector<std::string> segments_dist_names() { return {"uniform", "powerlaw", "single", "ones", "empty"}; }

}  // namespace scankit::tools
