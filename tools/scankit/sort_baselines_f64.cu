// CUB sort baseline for double keys (one key type per file so they compile in parallel).
#include "sort_baselines.cuh"

namespace scankit::tools::detail {
bool cub_sort_f64(cub_sort_args& a) { return cub_sort_key<double>(a); }
}  // namespace scankit::tools::detail
