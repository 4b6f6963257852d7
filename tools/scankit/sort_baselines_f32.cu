// CUB sort baseline for float keys (one key type per file so they compile in parallel).
#include "sort_baselines.cuh"

namespace scankit::tools::detail {
bool cub_sort_f32(cub_sort_args& a) { return cub_sort_key<float>(a); }
}  // namespace scankit::tools::detail
