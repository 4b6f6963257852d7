// The names of the top-k rows, paths and types (a separate file: the fuzz target links it
// without the runners).
#include "topk/commands.hpp"

namespace scankit::tools {

std::vector<std::string> topk_gpu_row_names() {
#ifdef SCANKIT_HAS_CUDA
  return {"scankit"};
#else
  return {};
#endif
}
std::vector<std::string> topk_cpu_row_names() { return {"cpu-parallel", "cpu-serial"}; }
std::vector<std::string> topk_row_names() {
  auto all = topk_gpu_row_names();
  for (auto& r : topk_cpu_row_names()) all.push_back(r);
  return all;
}
std::vector<std::string> topk_path_names() { return {"auto", "sampled", "radix", "block", "sort", "warp"}; }
std::vector<std::string> topk_split_names() { return {"auto", "always", "never"}; }
std::vector<std::string> topk_type_names() { return {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64"}; }

}  // namespace scankit::tools
