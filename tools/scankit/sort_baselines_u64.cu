// CUB sort baseline for std::uint64_t keys (one key type per file so they compile in parallel).
#include "sort_baselines.cuh"

namespace scankit::tools::detail {
bool cub_sort_u64(cub_sort_args& a) { return cub_sort_key<std::uint64_t>(a); }
}  // namespace scankit::tools::detail
