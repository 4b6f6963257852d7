// The names histogram's --type and --algo accept. Apart from the measurements (bench.cpp), so
// that the command line's definitions (primitive.cpp) build without them: the fuzz target links
// the definitions alone.
#include "common/util.hpp"
#include "histogram/commands.hpp"
#include "histogram/data.hpp"

#ifdef SCANKIT_HAS_CUDA
#include "scankit/cuda/histogram.hpp"
#endif

namespace scankit::tools {

std::vector<std::string> histogram_type_names() { return names_of(all_htypes); }

std::vector<std::string> histogram_algo_names() {
  std::vector<std::string> v;
#ifdef SCANKIT_HAS_CUDA
  for (auto a : cuda::all_histogram_algorithms) v.emplace_back(cuda::name(a));
#endif
  v.emplace_back("cpu-serial");
  v.emplace_back("cpu-parallel");
  return v;
}

}  // namespace scankit::tools
