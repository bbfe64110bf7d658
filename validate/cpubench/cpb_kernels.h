/* cpb_kernels.h - the tasks cpubench's cost mode (cpb_costs.c) times to
 * derive a CPU-tier config: each the same per-element loop (cpb_scan.h)
 * and merge (cpb_merge.h) that the plan mode's jobs run, one phase at a
 * time, so that the constants describe the code the plan mode measures. */
#ifndef CPB_KERNELS_H
#define CPB_KERNELS_H

#include <stdint.h>

#define CPB_MAX_WORKERS 256

typedef struct cpb_kjob {
    uint64_t n;
    uint32_t threshold;                /* round(S * 1e6) */
    uint32_t bins;
    uint32_t *priv[CPB_MAX_WORKERS];   /* private bins or compaction regions, 64-byte aligned */
    uint64_t count[CPB_MAX_WORKERS * 8]; /* per worker, a cache line apart */
    uint32_t *out;                     /* merged bins or concatenated keys */
    uint64_t offset[CPB_MAX_WORKERS + 1];
} cpb_kjob;

/* The slice [lo, hi) of worker w among W, cut at multiples of 16 items (a
 * 64-byte line of 32-bit words): elements, or for bitmask mask words (512
 * elements, so below about 2^17 elements on 16 workers the busiest worker
 * holds up to 512 more than n/W, which the tier's n/w ignores). */
void cpb_slice(uint64_t n, int w, int W, uint64_t *lo, uint64_t *hi);

void cpb_task_empty(int w, int W, void *job);
void cpb_task_count(int w, int W, void *job);     /* counter, counter-aggregated */
void cpb_task_bitmask(int w, int W, void *job);   /* bitmask: whole words of 32 flags into out */
void cpb_task_reduce(int w, int W, void *job);    /* reduce: sum of key & 255, no selection */
void cpb_task_store(int w, int W, void *job);     /* store: the selected keys written in place */
void cpb_task_compact(int w, int W, void *job);   /* compaction into a private region */
void cpb_task_concat(int w, int W, void *job);    /* copy regions into place (offsets set) */
void cpb_task_zero(int w, int W, void *job);      /* zero the private bins (every copy) */
void cpb_task_hist(int w, int W, void *job);      /* zero + private histogram */
void cpb_task_merge(int w, int W, void *job);     /* out[b] = sum of private bins, bins split */
void cpb_task_lines(int w, int W, void *job);     /* zero + distinct-lines' counters (bins of them) */

/* Private bins a worker needs for K bins (copies included). */
uint64_t cpb_kjob_bins_words(uint32_t bins);

#endif
