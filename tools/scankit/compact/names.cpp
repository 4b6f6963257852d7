// The names compact's --op and --algo accept. Apart from the measurements (bench.cpp), so that
// the command line's definitions (primitive.cpp) build without them: the fuzz target links the
// definitions alone.
#include "common/util.hpp"
#include "compact/commands.hpp"
#include "scankit/cpu/compact.hpp"

#ifdef SCANKIT_HAS_CUDA
#include "scankit/cuda/compact.hpp"
#endif

namespace scankit::tools {

namespace {

// In the order of enum compact_op, which indexes it.
constexpr const char* op_names[] = {"select_if", "remove_if", "select_flagged", "partition",
                                    "unique",    "unique_count", "nonzero", nullptr};

std::vector<std::string> algo_list() {
  std::vector<std::string> v;
#ifdef SCANKIT_HAS_CUDA
  for (auto a : cuda::all_compact_algorithms) v.emplace_back(cuda::name(a));
#endif
  for (auto a : cpu::all_compact_algorithms) v.emplace_back(cpu::name(a));
  v.emplace_back("std");
  return v;
}

}  // namespace

const char* const* compact_op_names() { return op_names; }

std::string compact_algo_names() { return join(algo_list()); }

std::string check_compact_algo_list(const std::string& s) { return check_name_list(s, algo_list()); }

}  // namespace scankit::tools
