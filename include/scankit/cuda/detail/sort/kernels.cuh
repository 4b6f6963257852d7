// Every kernel of the CUDA radix sorts (host drivers: detail/sort/launch.cuh), one file per
// variant under detail/sort/:
//   histogram_pass.cuh  every digit histogram in one read; the last block plans the passes
//   onesweep.cuh        per digit: rank a tile, decoupled look-back, scatter (the default)
//   small_sort.cuh      n up to a few thousand keys: one block, every pass in shared memory
//   fill.cuh            one-byte keys alone (a counting sort), the in-place final copy
//   lsd.cuh             lsd-reduce-then-scan and split-1bit
//   ranking.cuh         the block-wide ranking of a tile by one digit
//   tuning.cuh          the tiles per key size, value size and architecture
//   plan.cuh            which path runs for (n, sizes, bit range, device, config)
#pragma once

#include "scankit/cuda/detail/sort/plan.cuh"
#include "scankit/cuda/detail/sort/fill.cuh"
#include "scankit/cuda/detail/sort/histogram_pass.cuh"
#include "scankit/cuda/detail/sort/lsd.cuh"
#include "scankit/cuda/detail/sort/onesweep.cuh"
#include "scankit/cuda/detail/sort/small_sort.cuh"
