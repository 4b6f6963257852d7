// The names scan's --algo and --compare accept. Apart from the measurements (measure.cpp), so
// that the command line's definitions (primitive.cpp) build without them: the fuzz target links
// the definitions alone.
#include "scan/measure.hpp"

#ifdef SCANKIT_HAS_CUDA
#include "scankit/cuda/scan.hpp"
#endif

namespace scankit::tools {

std::vector<std::string> algo_names() {
  std::vector<std::string> names;
#ifdef SCANKIT_HAS_CUDA
  for (auto a : cuda::all_scan_algorithms) names.emplace_back(cuda::name(a));
#endif
  for (const auto& c : cpu_rows) names.emplace_back(c.name);
  return names;
}

std::vector<std::string> compare_names() {
#ifdef SCANKIT_HAS_CUDA
  return {"cub", "thrust", "copy"};
#else
  return {};
#endif
}

}  // namespace scankit::tools
