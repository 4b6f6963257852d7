// CUB sort baseline for std::int8_t keys (one key type per file so they compile in parallel).
#include "sort_baselines.cuh"

namespace scankit::tools::detail {
bool cub_sort_i8(cub_sort_args& a) { return cub_sort_key<std::int8_t>(a); }
}  // namespace scankit::tools::detail
