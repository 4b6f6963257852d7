/* The C ABI of scankit's distributed primitives on CPU ranks over MPI (libscankit_dist_capi.so,
 * scankit/dist/mpi.hpp), for the Python package's scankit.dist.
 *
 * Conventions as capi.h (dtype, op and predicate codes, status codes), plus:
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
SK_API int sk_dist_scan(void* comm, int dtype, int op, int exclusive, const void* init, const void* in,
                        void* out, int64_t n, void* total);
/* The items meeting pred (select) or not (remove != 0), in order, to the front of out (room
 * for n). result: three int64, this rank's count, its first item's global position, the
 * global count. */
SK_API int sk_dist_select_if(void* comm, int dtype, int pred, const void* threshold, int remove, const void* in,
                             void* out, int64_t n, int64_t* result);
/* Global counts of `bins` even bins over [lower, upper) (upper excluded), on every rank. */
SK_API int sk_dist_histogram_even(void* comm, int dtype, const void* samples, int64_t n, uint64_t* counts,
                                  int64_t bins, double lower, double upper);
/* Global counts of the keys 0 <= k < bins, on every rank. */
SK_API int sk_dist_bincount(void* comm, int dtype, const void* keys, int64_t n, uint64_t* counts, int64_t bins);
/* The global sort: afterwards rank r holds the r-th of the balanced shares of the sorted
 * sequence (stable; floats in IEEE total order). *result: a buffer of *result_n items that
 * sk_dist_take copies out and frees. */
SK_API int sk_dist_sort(void* comm, int dtype, const void* keys, int64_t n, int descending, void** result,
                        int64_t* result_n);
/* Copies a sort's result to dst (room for its items) and frees it; dst NULL only frees it. */
SK_API void sk_dist_take(void* result, void* dst);

/* ---- GPU ranks over NCCL, one process driving several GPUs (libscankit_dist_nccl_capi.so) ----
 * comm: a handle from sk_nccl_all_devices; its ranks are the given GPUs, in order. Each call
 * takes one shard per rank (device pointers as integers, in rank order) and each rank's caller
 * stream: the call's work on a GPU starts after what is queued on that stream, and work queued
 * there after the call starts after the call's outputs are written (no host wait for the
 * outputs). Counts are uint64 in device memory. sk_nccl_last_error() holds the message. */
SK_API const char* sk_nccl_last_error(void);
SK_API int sk_nccl_all_devices(const int* devices, int count, void** comm);
SK_API void sk_nccl_free(void* comm);
SK_API int sk_nccl_size(void* comm);
SK_API int sk_nccl_scan(void* comm, int dtype, int op, int exclusive, const void* init, const uintptr_t* in,
                        const uintptr_t* out, const int64_t* n, const uintptr_t* streams, void* total);
/* result: three int64 per rank (count, global offset of its first kept item, global count). */
SK_API int sk_nccl_select_if(void* comm, int dtype, int pred, const void* threshold, const uintptr_t* in,
                             const uintptr_t* out, const int64_t* n, const uintptr_t* streams, int64_t* result);
SK_API int sk_nccl_histogram_even(void* comm, int dtype, const uintptr_t* samples, const int64_t* n,
                                  const uintptr_t* counts, int64_t bins, double lower, double upper,
                                  const uintptr_t* streams);
SK_API int sk_nccl_bincount(void* comm, int dtype, const uintptr_t* keys, const int64_t* n, const uintptr_t* counts,
                            int64_t bins, const uintptr_t* streams);
/* out[r] has room for capacity[r] >= the rank's balanced share; sizes: the new counts. */
SK_API int sk_nccl_sort(void* comm, int dtype, const uintptr_t* in, const int64_t* n, const uintptr_t* out,
                        const int64_t* capacity, int descending, const uintptr_t* streams, int64_t* sizes);

#ifdef __cplusplus
}
#endif

#endif
