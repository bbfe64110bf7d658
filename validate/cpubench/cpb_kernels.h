/* cpb_kernels.h - the CPU tier's algorithms for the contract's patterns,
 * each worker on its own slice of [0, n) with private state and no
 * atomics (seed 000's Web Worker tier): a private count, a private
 * compaction region, a private histogram, then a merge. */
#ifndef CPB_KERNELS_H
#define CPB_KERNELS_H

#include <stdint.h>

#define CPB_MAX_WORKERS 256

typedef struct cpb_job {
    uint64_t n;
    uint32_t threshold;                /* round(S * 1e6) */
    uint32_t bins;
    uint32_t *priv[CPB_MAX_WORKERS];   /* private bins or compaction regions */
    uint64_t count[CPB_MAX_WORKERS * 8]; /* per worker, a cache line apart */
    uint32_t *out;                     /* merged bins or concatenated keys */
    uint64_t offset[CPB_MAX_WORKERS + 1];
    uint64_t checksum;                 /* keeps the compiler from dropping work */
} cpb_job;

/* The slice [lo, hi) of worker w among W. */
void cpb_slice(uint64_t n, int w, int W, uint64_t *lo, uint64_t *hi);

void cpb_task_empty(int w, int W, void *job);
void cpb_task_count(int w, int W, void *job);     /* counter, bitmask, reduce */
void cpb_task_compact(int w, int W, void *job);   /* compaction into a private region */
void cpb_task_concat(int w, int W, void *job);    /* copy regions into place (offsets set) */
void cpb_task_zero(int w, int W, void *job);      /* zero the private bins */
void cpb_task_hist(int w, int W, void *job);      /* zero + private histogram */
void cpb_task_merge(int w, int W, void *job);     /* out[b] = sum of private bins, bins split */

#endif
