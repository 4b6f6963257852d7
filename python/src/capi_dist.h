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

#ifdef __cplusplus
}
#endif

#endif
