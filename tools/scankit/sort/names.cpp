// The row names sort's --algo accepts. Apart from the measurements (bench.cpp), so that the
// command line's definitions (primitive.cpp) build without them: the fuzz target links the
// definitions alone.
#include "sort/commands.hpp"

#include <utility>

namespace scankit::tools {

std::vector<std::string> sort_gpu_row_names() { return {"onesweep", "lsd-reduce-then-scan", "split-1bit", "cub"}; }

std::vector<std::string> sort_cpu_row_names() {
  return {"cpu-radix", "cpu-std-sort-par", "cpu-tbb-sort", "cpu-serial"};
}

std::vector<std::string> sort_row_names() {
  std::vector<std::string> v = sort_gpu_row_names();
  for (auto& r : sort_cpu_row_names()) v.push_back(std::move(r));
  return v;
}

std::vector<std::string> sort_segmented_gpu_row_names() {
  return {"scankit", "scankit-merge", "scankit-two-sort", "cub-segmented-radix", "cub-segmented-sort", "flat"};
}

std::vector<std::string> sort_segmented_cpu_row_names() { return {"cpu-parallel", "cpu-serial"}; }

std::vector<std::string> sort_segmented_row_names() {
  std::vector<std::string> v = sort_segmented_gpu_row_names();
  for (auto& r : sort_segmented_cpu_row_names()) v.push_back(std::move(r));
  return v;
}

}  // namespace scankit::tools
