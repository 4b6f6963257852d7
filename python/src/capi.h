/* The C ABI of scankit's Python package (libscankit_capi.so).
 *
 * Plain C types only (no Python headers), so one build of the library serves every Python
 * version; python/scankit/_capi.py loads it with ctypes and declares these prototypes again.
 *
 * Every entry that takes more than a pointer or two takes one `const sk_<name>_args*`: a
 * block of 64-bit fields (int64_t numbers, uint64_t addresses, doubles), so a caller packs one
 * block and ctypes converts one pointer. Fields named as below mean the same in every block:
 *   device   -1: the CPU backend (host pointers, synchronous); >= 0: that CUDA device (device
 *            pointers, stream-ordered on `stream`, no synchronisation unless stated).
 *   dtype    an SK_* element type code; op an SK_OP_* code.
 *   stream   a cudaStream_t as an integer (0: the legacy default stream); ignored on the CPU.
 *   pointers (in, out, counts, ...) addresses as integers, 0 for NULL.
 *   algorithm  the address of a NUL-terminated name from sk_algorithms(); 0 or "" for the
 *            default of the backend.
 *   workspace  device memory of at least the bytes the matching *_workspace call returned
 *            (16-byte aligned); unused on the CPU.
 *   count    where compactions write how many items they kept: one int64 in device memory on
 *            the GPU (read it with sk_read_count, or leave it there for sk_fill_tail), in host
 *            memory on the CPU.
 * Every function returns SK_OK or an SK_E* code; sk_last_error() then holds the message (per
 * thread). Arguments are checked before anything runs, so a failed call leaves its inputs intact.
 */
#ifndef SCANKIT_CAPI_H
#define SCANKIT_CAPI_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define SK_API __attribute__((visibility("default")))
#else
#define SK_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum sk_status {
  SK_OK = 0,
  SK_EVALUE = 1,    /* bad argument: size, shape, unknown name (Python: ValueError) */
  SK_ETYPE = 2,     /* element type not supported by this function (TypeError) */
  SK_ENOMEM = 3,    /* out of host or device memory (MemoryError) */
  SK_ENODEVICE = 4, /* no GPU, or a library built without CUDA (RuntimeError) */
  SK_ECUDA = 5,     /* any other CUDA error (RuntimeError) */
  SK_EOTHER = 6,    /* anything else (RuntimeError) */
  SK_ECAPTURING = 7 /* sk_scan with SK_SCAN_KEPT_WORKSPACE on a stream capturing a CUDA graph:
                       nothing was queued; call again with a workspace of the call's own */
};

enum sk_dtype {
  SK_I8 = 1,
  SK_I16 = 2,
  SK_I32 = 3,
  SK_I64 = 4,
  SK_U8 = 5,
  SK_U16 = 6,
  SK_U32 = 7,
  SK_U64 = 8,
  SK_F16 = 9,
  SK_BF16 = 10,
  SK_F32 = 11,
  SK_F64 = 12
};

enum sk_op {
  SK_OP_SUM = 0,
  SK_OP_PROD = 1,
  SK_OP_MIN = 2,
  SK_OP_MAX = 3,
  SK_OP_AND = 4,
  SK_OP_OR = 5,
  SK_OP_XOR = 6
};

/* Compaction predicates: x != 0, x < threshold, x > threshold. */
enum sk_pred { SK_PRED_NONZERO = 0, SK_PRED_LESS = 1, SK_PRED_GREATER = 2 };

SK_API const char* sk_version(void);
SK_API int sk_built_with_cuda(void);
/* CUDA devices visible (0 without a driver, a GPU, or CUDA in the build). */
SK_API int sk_device_count(void);
SK_API const char* sk_last_error(void);
/* Comma-separated algorithm names of "scan", "sort", "compact" or "histogram": the GPU ones
 * (the default first), then the CPU ones (cpu-...). NULL for an unknown primitive. */
SK_API const char* sk_algorithms(const char* primitive);

/* ---- scan along one axis --------------------------------------------------------------
 * The input is a C-contiguous array viewed as [outer][len][inner]; every (outer, inner) pair
 * is one scan of `len` items with stride `inner`. out may equal in. init: one item of dtype,
 * combined before the first item of every scan (NULL: the operator's identity). Exclusive
 * scans write init at each scan's first position. Types: int32/64, uint32/64, float32/64;
 * and, or, xor need integers. */
typedef struct sk_scan_args {
  int64_t device, dtype, op, exclusive;
  uint64_t init, in, out;
  int64_t outer, len, inner;
  uint64_t algorithm, workspace;
  int64_t workspace_bytes;
  uint64_t stream;
  uint64_t flags; /* SK_SCAN_KEPT_WORKSPACE or 0 */
} sk_scan_args;
/* The workspace is one the caller reuses from call to call. A CUDA graph's replays may run
 * beside later calls, so such a workspace must not be captured: on a capturing stream sk_scan
 * then returns SK_ECAPTURING without queueing anything. (Made here, the check costs a small
 * call far less than a Python caller's own query of the stream.) */
#define SK_SCAN_KEPT_WORKSPACE 1
/* Reads device, dtype, outer, len, inner and algorithm. */
SK_API int sk_scan_workspace(const sk_scan_args* args, int64_t* bytes);
SK_API int sk_scan(const sk_scan_args* args);

/* ---- sort ------------------------------------------------------------------------------
 * Stable radix sort of n keys (every integer type, float16, bfloat16, float32, float64; IEEE
 * total order for floats, NaNs last ascending). keys_out receives the sorted keys (keys_in is
 * not modified unless it is keys_out). value_bytes: 0 keys only; else values_in/values_out
 * hold n values of that many bytes (CPU: 1, 2, 4, 8, 16; GPU: 4, 8, 16), moved with their keys.
 * indices != 0: argsort, values_out receives the int64 input positions (values_in unused);
 * indices == 2: the same where the caller does not want the keys: keys_out is scratch, its
 * contents unspecified afterwards (the GPU sort then skips a write of the keys). */
typedef struct sk_sort_args {
  int64_t device, dtype;
  uint64_t keys_in, keys_out, values_in, values_out;
  int64_t value_bytes, indices, n, descending;
  uint64_t algorithm, workspace;
  int64_t workspace_bytes;
  uint64_t stream;
} sk_sort_args;
/* Reads device, dtype, n, value_bytes, indices and algorithm. */
SK_API int sk_sort_workspace(const sk_sort_args* args, int64_t* bytes);
SK_API int sk_sort(const sk_sort_args* args);

/* Sorts every row of a row-major rows x cols matrix on its own (the library's segmented sort:
 * scankit/cpu/segmented_sort.hpp, scankit/cuda/segmented_sort.hpp), stably, in the sorts'
 * order; keys_out receives the sorted rows (it may be keys_in), indices_out (optional: 0 for
 * none) the int64 positions within the row. Types as sk_sort's. */
typedef struct sk_sort_rows_args {
  int64_t device, dtype;
  uint64_t keys_in, keys_out, indices_out;
  int64_t rows, cols, descending;
  uint64_t workspace;
  int64_t workspace_bytes;
  uint64_t stream;
} sk_sort_rows_args;
/* Reads device, dtype, rows, cols and indices_out (whether it is 0). */
SK_API int sk_sort_rows_workspace(const sk_sort_rows_args* args, int64_t* bytes);
SK_API int sk_sort_rows(const sk_sort_rows_args* args);

/* ---- top-k -----------------------------------------------------------------------------
 * The k largest (largest != 0) or smallest items of every row of a row-major rows x cols
 * matrix (rows == 1: one array of cols items), with their positions within the row, sorted:
 * the largest descending, the smallest ascending, ties broken by the smaller position. Types:
 * every integer type, float16, bfloat16, float32, float64, in the sorts' order (IEEE total
 * order, NaNs above +inf, -0 below +0). values_out receives rows x k items of dtype,
 * indices_out rows x k int64 positions; 0 <= k <= cols. in is not modified. rows == 1 runs the
 * library's top-k of one array, other row counts its topk_rows (scankit/cpu/topk.hpp,
 * scankit/cuda/topk.hpp); float16/bfloat16 go through the sorts' 16-bit ordered bits (the GPU
 * keeps them, rows x cols of them, at the start of the workspace). */
typedef struct sk_topk_args {
  int64_t device, dtype;
  uint64_t in, values_out, indices_out;
  int64_t rows, cols, k, largest;
  uint64_t workspace;
  int64_t workspace_bytes;
  uint64_t stream;
} sk_topk_args;
/* Reads device, dtype, rows, cols and k. */
SK_API int sk_topk_workspace(const sk_topk_args* args, int64_t* bytes);
SK_API int sk_topk(const sk_topk_args* args);

/* ---- compaction -------------------------------------------------------------------------
 * Outputs hold n items (a compaction writes at most n; items past the count are unspecified).
 * GPU item types: int32/64, uint32/64, float32/64, uint8 (select_flagged moves bits: any item
 * of 1, 4 or 8 bytes). CPU: every type of sk_dtype except float16/bfloat16 for the
 * value-dependent ones (nonzero, partition, unique); select_flagged any item of 1, 2, 4, 8
 * or 16 bytes. threshold and count are addresses as the other pointers are. */
typedef struct sk_compact_workspace_args {
  int64_t device, n, item_bytes;
  uint64_t algorithm;
} sk_compact_workspace_args;
SK_API int sk_compact_workspace(const sk_compact_workspace_args* args, int64_t* bytes);
/* out[0, count) = in[i] for every flags[i] != 0 (uint8 flags), in order. */
typedef struct sk_select_flagged_args {
  int64_t device, item_bytes;
  uint64_t in, flags, out;
  int64_t n;
  uint64_t count, algorithm, workspace;
  int64_t workspace_bytes;
  uint64_t stream;
} sk_select_flagged_args;
SK_API int sk_select_flagged(const sk_select_flagged_args* args);
/* out[0, count) = the items with pred(x) true (remove != 0: false), in order. */
typedef struct sk_select_if_args {
  int64_t device, dtype, pred;
  uint64_t threshold;
  int64_t remove;
  uint64_t in, out;
  int64_t n;
  uint64_t count, algorithm, workspace;
  int64_t workspace_bytes;
  uint64_t stream;
} sk_select_if_args;
SK_API int sk_select_if(const sk_select_if_args* args);
/* All n items: pred-true first in order, then the others (stable != 0: in input order, else
 * reversed). count: the number selected. out must not overlap in. */
typedef struct sk_partition_args {
  int64_t device, dtype, pred;
  uint64_t threshold;
  int64_t stable;
  uint64_t in, out;
  int64_t n;
  uint64_t count, algorithm, workspace;
  int64_t workspace_bytes;
  uint64_t stream;
} sk_partition_args;
SK_API int sk_partition(const sk_partition_args* args);
/* indices[0, count) = the positions of the nonzero items, ascending. */
typedef struct sk_nonzero_args {
  int64_t device, dtype;
  uint64_t in, indices;
  int64_t n;
  uint64_t count, algorithm, workspace;
  int64_t workspace_bytes;
  uint64_t stream;
} sk_nonzero_args;
SK_API int sk_nonzero(const sk_nonzero_args* args);
/* The first item of every run of equal items to values, and (counts != 0) each run's
 * length. equal_nan != 0: consecutive NaNs (float32, float64) are one run, else each NaN is a
 * run of its own. values must not overlap in on the GPU. */
typedef struct sk_unique_args {
  int64_t device, dtype;
  uint64_t in, values, counts;
  int64_t n, equal_nan;
  uint64_t count, algorithm, workspace;
  int64_t workspace_bytes;
  uint64_t stream;
} sk_unique_args;
SK_API int sk_unique(const sk_unique_args* args);
/* GPU: waits for `stream`, then returns the int64 at count. */
typedef struct sk_read_count_args {
  int64_t device;
  uint64_t count, stream;
} sk_read_count_args;
SK_API int sk_read_count(const sk_read_count_args* args, int64_t* value);
/* out[min(count, size) .. size) = *fill (item_bytes of 1, 2, 4, 8 or 16; fill in host memory),
 * with count read where it lies (device memory on the GPU): no synchronisation. */
typedef struct sk_fill_tail_args {
  int64_t device, item_bytes;
  uint64_t out, count;
  int64_t size;
  uint64_t fill, stream;
} sk_fill_tail_args;
SK_API int sk_fill_tail(const sk_fill_tail_args* args);

/* ---- histograms (counts: uint64, zeroed first) -----------------------------------------
 * numpy.histogram's even bins: edges[i] = lower + i * (upper - lower) / bins as numpy.linspace
 * computes them (in the sample type for float samples, in double for integer samples), sample
 * x in bin i when edges[i] <= x < edges[i+1], the last bin closed; NaN and samples outside
 * [lower, upper] are not counted. mode bit 1: the edges computed in float32 arithmetic, as
 * numpy 2's linspace does for float32 bounds; bit 2: float32 samples always take the double
 * arithmetic, never the float32 one that is used where it gives the same bins (scankit/histogram_numpy.hpp).
 * Types: uint8, uint16, int32, uint32, int64, float32/64. */
typedef struct sk_histogram_even_args {
  int64_t device, dtype;
  uint64_t samples;
  int64_t n;
  uint64_t counts;
  int64_t bins;
  double lower, upper;
  int64_t mode;
  uint64_t algorithm, stream;
} sk_histogram_even_args;
SK_API int sk_histogram_even(const sk_histogram_even_args* args);
/* Bins between sorted edges (num_edges = bins + 1 of them; the sample type for float samples,
 * int64 for integer samples; device memory on the GPU): edges[i] <= x < edges[i+1]. */
typedef struct sk_histogram_edges_args {
  int64_t device, dtype;
  uint64_t samples;
  int64_t n;
  uint64_t counts, edges;
  int64_t num_edges;
  uint64_t algorithm, stream;
} sk_histogram_edges_args;
SK_API int sk_histogram_edges(const sk_histogram_edges_args* args);
/* counts[k] = number of samples equal to k, for 0 <= k < bins (integer samples). */
typedef struct sk_bincount_args {
  int64_t device, dtype;
  uint64_t samples;
  int64_t n;
  uint64_t counts;
  int64_t bins;
  uint64_t algorithm, stream;
} sk_bincount_args;
SK_API int sk_bincount(const sk_bincount_args* args);
/* numpy.bincount's counts without knowing the largest key, in one pass (GPU only;
 * scankit::cuda::bincount_capped): keys below capacity into counts[0, capacity), keys at or
 * above it into counts[capacity], negative keys into counts[capacity + 1]; counts has room for
 * capacity + 5 (the last three hold the summary on the device). summary (host memory, three
 * int64): the negative keys, the keys at or above capacity, the largest key below capacity (-1
 * if none). Synchronises with the stream to read the summary. */
typedef struct sk_bincount_capped_args {
  int64_t device, dtype;
  uint64_t samples;
  int64_t n;
  uint64_t counts;
  int64_t capacity;
  uint64_t algorithm, stream, summary;
} sk_bincount_capped_args;
SK_API int sk_bincount_capped(const sk_bincount_capped_args* args);

/* ---- reductions over n items -------------------------------------------------------------
 * op: an SK_OP_* code (and, or, xor need integers), or SK_REDUCE_ARGMIN / SK_REDUCE_ARGMAX /
 * SK_REDUCE_MIN_MAX. out (device memory on the GPU, where the result is left: stream-ordered,
 * no synchronisation):
 *   SK_OP_*            one item of dtype: op over the items (the identity for n == 0);
 *   ARGMIN, ARGMAX     16 bytes: the extreme item (dtype) at byte 0 and its first position
 *                      (int64) at byte 8 (a NaN wins, as numpy.argmin); n must be >= 1;
 *   MIN_MAX            two items of dtype: the smallest, then the largest (NaN if any is NaN).
 * Types: int32/64, uint32/64, float32/64. */
#define SK_REDUCE_ARGMIN 16
#define SK_REDUCE_ARGMAX 17
#define SK_REDUCE_MIN_MAX 18
typedef struct sk_reduce_args {
  int64_t device, dtype, op;
  uint64_t in;
  int64_t n;
  uint64_t out, workspace;
  int64_t workspace_bytes;
  uint64_t stream;
} sk_reduce_args;
/* Reads device, dtype and op. */
SK_API int sk_reduce_workspace(const sk_reduce_args* args, int64_t* bytes);
SK_API int sk_reduce(const sk_reduce_args* args);

/* ---- segmented operations (scankit/segments.hpp) ------------------------------------------
 * Values: int32/64, uint32/64, float32/64; op: SK_OP_SUM, PROD, MIN or MAX. offsets: CSR, the
 * n_segments + 1 int64 positions of the segments (where the data lies). init, empty: one item
 * of dtype in host memory, or NULL. check: 0 takes the segments as valid (invalid ones give
 * unspecified results but no access out of bounds); 1 checks that every segment lies in
 * [0, n] and none decreases or overlaps the previous one; 2 also that they cover [0, n)
 * (offsets[0] == 0, offsets[n_segments] == n). The GPU's check synchronises the stream; the
 * CPU always checks (1 at least). Workspace: sk_segments_workspace with n_segments (0 for
 * flags and keys) and the value bytes. */
typedef struct sk_segments_workspace_args {
  int64_t device, n, n_segments, value_bytes;
} sk_segments_workspace_args;
SK_API int sk_segments_workspace(const sk_segments_workspace_args* args, int64_t* bytes);
/* out[s] = op(init, in[offsets[s]], ..., in[offsets[s+1] - 1]) (without init when NULL); mean
 * != 0 (op SUM): that divided by the segment's length (in the value type: integers truncate).
 * An empty segment gets *empty if given, else init if given, else the identity (mean: NaN for
 * floats, 0 for integers) -- torch.segment_reduce's rules. out may not overlap in. */
typedef struct sk_segmented_reduce_args {
  int64_t device, dtype, op, mean;
  uint64_t in;
  int64_t n;
  uint64_t offsets;
  int64_t n_segments;
  uint64_t init, empty, out;
  int64_t check;
  uint64_t workspace;
  int64_t workspace_bytes;
  uint64_t stream;
} sk_segmented_reduce_args;
SK_API int sk_segmented_reduce(const sk_segmented_reduce_args* args);
/* A scan of each segment on its own (the carry starts again at init, NULL: the identity): the
 * segments by covering offsets, or (offsets NULL) by head flags, one uint8 per item, non-zero
 * starting a segment (item 0 always starts one). out may equal in. */
typedef struct sk_segmented_scan_args {
  int64_t device, dtype, op, exclusive;
  uint64_t init, in, out;
  int64_t n;
  uint64_t offsets;
  int64_t n_segments;
  uint64_t flags;
  int64_t check;
  uint64_t workspace;
  int64_t workspace_bytes;
  uint64_t stream;
} sk_segmented_scan_args;
SK_API int sk_segmented_scan(const sk_segmented_scan_args* args);
/* The segmented scan whose segments are the runs of equal keys (key_bytes 4 or 8, compared by
 * their bits). */
typedef struct sk_scan_by_key_args {
  int64_t device, dtype, op, exclusive;
  uint64_t init, keys;
  int64_t key_bytes;
  uint64_t in, out;
  int64_t n;
  uint64_t workspace;
  int64_t workspace_bytes;
  uint64_t stream;
} sk_scan_by_key_args;
SK_API int sk_scan_by_key(const sk_scan_by_key_args* args);
/* For each run of equal keys, in order: its key to unique_keys[r], op over its values to
 * aggregates[r]; the number of runs to count (as the compactions' count: device memory on the
 * GPU). unique_keys and aggregates hold n items. */
typedef struct sk_reduce_by_key_args {
  int64_t device, dtype, op;
  uint64_t keys;
  int64_t key_bytes;
  uint64_t in;
  int64_t n;
  uint64_t unique_keys, aggregates, count, workspace;
  int64_t workspace_bytes;
  uint64_t stream;
} sk_reduce_by_key_args;
SK_API int sk_reduce_by_key(const sk_reduce_by_key_args* args);

#ifdef __cplusplus
}
#endif

#endif /* SCANKIT_CAPI_H */
