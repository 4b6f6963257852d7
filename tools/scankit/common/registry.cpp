// The primitives of the CLI. Adding one: write <name>/primitive.cpp (see scan/primitive.cpp)
// and list its factory here; in tools/CMakeLists.txt, list its command line's definitions in
// SCANKIT_CLI_PARSE_SOURCES and its runners in SCANKIT_CLI_RUN_SOURCES (the fuzz target links
// fuzz_runners.cpp in their place).
#include "common/primitive.hpp"

namespace scankit::tools {

std::vector<std::unique_ptr<primitive>> make_primitives() {
  std::vector<std::unique_ptr<primitive>> all;
  all.push_back(make_scan_primitive());
  all.push_back(make_compact_primitive());
  all.push_back(make_histogram_primitive());
  all.push_back(make_sort_primitive());
  all.push_back(make_reduce_primitive());
  all.push_back(make_segments_primitive());
  all.push_back(make_topk_primitive());
  return all;
}

}  // namespace scankit::tools
