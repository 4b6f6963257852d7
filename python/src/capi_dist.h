/* The C ABI of scankit's distributed primitives on CPU ranks over MPI (libscankit_dist_capi.so,
 * scankit/dist/mpi.hpp), for the Python package's scankit.dist.
 *
 * Conventions as capi.h (dtype, op and predicate codes, status codes, one `const
 * sk_<name>_args*` block of 64-bit fields for every entry of more than two arguments), plus:
 *   comm     a handle from sk_dist_world or sk_dist_adopt; every call on it is collective: each
 *            rank makes the same call with its own shard (host memory, any length).
 * Errors of one rank reach every rank: a mismatched call (different types or operations on
 * different ranks) returns SK_EVALUE everywhere, a rank whose call failed before the exchange
 * returns its own error and the others SK_EOTHER, a rank that never calls makes the others
 * return SK_EOTHER after the communicator's timeout. sk_dist_last_error() holds the message.
 */
#ifndef SCANKIT_CAPI_DIST_H
#define SCANKIT_CAPI_DIST_H

#include <stdint.h>

#include "capi.h"

#ifdef __cplusplus
extern "C" {
#endif

SK_API const char* sk_dist_last_error(void);
/* MPI_COMM_WORLD (MPI initialised first if it is not yet, and finalised at exit then). */
SK_API int sk_dist_world(void** comm);
/* An existing MPI communicator: its MPI_Comm handle as an integer (mpi4py: MPI._handleof). */
SK_API int sk_dist_adopt(uintptr_t mpi_comm, void** comm);
SK_API void sk_dist_free(void* comm);
SK_API int sk_dist_rank(void* comm);
SK_API int sk_dist_size(void* comm);
/* Every rank's part of the scan of the global sequence (rank order); out may be in. init: one
 * item (NULL: the operator's identity), the carry-in of the whole sequence, the same on every
 * rank. total: one item, the global carry-out, on every rank. */
typedef struct sk_dist_scan_args {
  uint64_t comm;
  int64_t dtype, op, exclusive;
  uint64_t init, in, out;
  int64_t n;
  uint64_t total;
} sk_dist_scan_args;
SK_API int sk_dist_scan(const sk_dist_scan_args* args);
/* The items meeting pred (select) or not (remove != 0), in order, to the front of out (room
 * for n). result: three int64, this rank's count, its first item's global position, the
 * global count. */
typedef struct sk_dist_select_if_args {
  uint64_t comm;
  int64_t dtype, pred;
  uint64_t threshold;
  int64_t remove;
  uint64_t in, out;
  int64_t n;
  uint64_t result;
} sk_dist_select_if_args;
SK_API int sk_dist_select_if(const sk_dist_select_if_args* args);
/* The reduction of the global sequence (ranks in order), on every rank. op: an SK_OP_* code
 * (and, or, xor need integers): one item to result; SK_REDUCE_ARGMIN / SK_REDUCE_ARGMAX: the
 * first global position of the smallest / largest item (NaN first, as numpy), one int64 (an
 * empty sequence is an error); SK_REDUCE_MIN_MAX: two items, the smallest and the largest.
 * Types: int32, int64, uint32, uint64, float32, float64; the last three take every integer
 * type too. */
typedef struct sk_dist_reduce_args {
  uint64_t comm;
  int64_t dtype, op;
  uint64_t in;
  int64_t n;
  uint64_t result;
} sk_dist_reduce_args;
SK_API int sk_dist_reduce(const sk_dist_reduce_args* args);
/* The k largest (largest != 0) or smallest items of the global sequence, sorted (ties by the
 * smaller global position), to values (k items) and indices (k int64 global positions) on every
 * rank; 0 <= k <= the global length, the same k and direction on every rank. Types: every
 * integer type, float32, float64 (IEEE total order, NaNs above +inf). */
typedef struct sk_dist_topk_args {
  uint64_t comm;
  int64_t dtype;
  uint64_t in;
  int64_t n, k, largest;
  uint64_t values, indices;
} sk_dist_topk_args;
SK_API int sk_dist_topk(const sk_dist_topk_args* args);
/* Global counts of `bins` even bins over [lower, upper) (upper excluded), on every rank. */
typedef struct sk_dist_histogram_even_args {
  uint64_t comm;
  int64_t dtype;
  uint64_t samples;
  int64_t n;
  uint64_t counts;
  int64_t bins;
  double lower, upper;
} sk_dist_histogram_even_args;
SK_API int sk_dist_histogram_even(const sk_dist_histogram_even_args* args);
/* Global counts of the keys 0 <= k < bins, on every rank. */
typedef struct sk_dist_bincount_args {
  uint64_t comm;
  int64_t dtype;
  uint64_t keys;
  int64_t n;
  uint64_t counts;
  int64_t bins;
} sk_dist_bincount_args;
SK_API int sk_dist_bincount(const sk_dist_bincount_args* args);
/* The global sort: afterwards rank r holds the r-th of the balanced shares of the sorted
 * sequence (stable; floats in IEEE total order). result (the address of a void*): a buffer of
 * *result_n items that sk_dist_take copies out and frees. */
typedef struct sk_dist_sort_args {
  uint64_t comm;
  int64_t dtype;
  uint64_t keys;
  int64_t n, descending;
  uint64_t result, result_n;
} sk_dist_sort_args;
SK_API int sk_dist_sort(const sk_dist_sort_args* args);
/* Copies a sort's result to dst (room for its items) and frees it; dst NULL only frees it. */
SK_API void sk_dist_take(void* result, void* dst);

/* ---- GPU ranks over NCCL, one process driving several GPUs (libscankit_dist_nccl_capi.so) ----
 * comm: a handle from sk_nccl_all_devices; its ranks are the given GPUs, in order. Each call
 * takes one shard per rank (device pointers as integers, in rank order) and each rank's caller
 * stream: the call's work on a GPU starts after what is queued on that stream, and work queued
 * there after the call starts after the call's outputs are written (no host wait for the
 * outputs). Counts are uint64 in device memory. sk_nccl_last_error() holds the message. A
 * block's per-rank fields (in, out, n, streams, ...) are addresses of arrays of one uintptr_t
 * or int64 per rank. */
SK_API const char* sk_nccl_last_error(void);
/* devices: the address of `count` ints; comm: the address of the void* that receives the handle. */
typedef struct sk_nccl_all_devices_args {
  uint64_t devices;
  int64_t count;
  uint64_t comm;
} sk_nccl_all_devices_args;
SK_API int sk_nccl_all_devices(const sk_nccl_all_devices_args* args);
SK_API void sk_nccl_free(void* comm);
SK_API int sk_nccl_size(void* comm);
typedef struct sk_nccl_scan_args {
  uint64_t comm;
  int64_t dtype, op, exclusive;
  uint64_t init, in, out, n, streams, total;
} sk_nccl_scan_args;
SK_API int sk_nccl_scan(const sk_nccl_scan_args* args);
/* result: three int64 per rank (count, global offset of its first kept item, global count). */
typedef struct sk_nccl_select_if_args {
  uint64_t comm;
  int64_t dtype, pred;
  uint64_t threshold, in, out, n, streams, result;
} sk_nccl_select_if_args;
SK_API int sk_nccl_select_if(const sk_nccl_select_if_args* args);
typedef struct sk_nccl_histogram_even_args {
  uint64_t comm;
  int64_t dtype;
  uint64_t samples, n, counts;
  int64_t bins;
  double lower, upper;
  uint64_t streams;
} sk_nccl_histogram_even_args;
SK_API int sk_nccl_histogram_even(const sk_nccl_histogram_even_args* args);
typedef struct sk_nccl_bincount_args {
  uint64_t comm;
  int64_t dtype;
  uint64_t keys, n, counts;
  int64_t bins;
  uint64_t streams;
} sk_nccl_bincount_args;
SK_API int sk_nccl_bincount(const sk_nccl_bincount_args* args);
/* out[r] has room for capacity[r] >= the rank's balanced share; sizes: the new counts. */
typedef struct sk_nccl_sort_args {
  uint64_t comm;
  int64_t dtype;
  uint64_t in, n, out, capacity;
  int64_t descending;
  uint64_t streams, sizes;
} sk_nccl_sort_args;
SK_API int sk_nccl_sort(const sk_nccl_sort_args* args);

#ifdef __cplusplus
}
#endif

#endif
