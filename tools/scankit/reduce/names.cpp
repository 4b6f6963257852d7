// The names of the reduce rows and operations (a separate file: the fuzz target links it
// without the runners).
#include "reduce/commands.hpp"

namespace scankit::tools {

std::vector<std::string> reduce_gpu_row_names() {
#ifdef SCANKIT_HAS_CUDA
  return {"scankit"};
#else
  return {};
#endif
}
std::vector<std::string> reduce_cpu_row_names() { return {"cpu-parallel", "cpu-serial"}; }
std::vector<std::string> reduce_row_names() {
  auto all = reduce_gpu_row_names();
  for (auto& r : reduce_cpu_row_names()) all.push_back(r);
  return all;
}
std::vector<std::string> reduce_op_names() { return {"sum", "product", "min", "max", "argmin", "argmax", "min_max"}; }

}  // namespace scankit::tools
