/* cpb_job.h - the CPU tier's implementation of one configuration: what a
 * dispatcher that sends the operation to the CPU would run.  Every worker
 * scans its slice into private state (a count, a compaction region, bins),
 * and where the result needs it, a barrier and a merge split across the
 * workers.  A run is one task on the pool, so its wall time is the
 * dispatch, the zeroing of private state, the scan and the merge. */
#ifndef CPB_JOB_H
#define CPB_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "cpb_div.h"
#include "cpb_plan.h"
#include "cpb_pool.h"

/* What store's untouched elements and compaction's slots past the count
 * hold: the key of an index no plan reaches (n <= 2^28), so no element's
 * key can be mistaken for it. */
#define CPB_FILL_INDEX 0xffffffffu

/* One worker's slice and private state, a cache line of its own. */
typedef struct cpb_slot {
    _Alignas(64) void *priv; /* bins (copies * K) or compaction region */
    uint64_t count;          /* selected elements, or reduce's sum */
    uint32_t lo, cnt;        /* elements [lo, lo + cnt); bitmask: words */
    uint32_t blo, bhi;       /* the bins this worker merges */
} cpb_slot;

typedef struct cpb_job {
    cpb_cfg c;
    uint32_t sel_thr, hot_thr;
    cpb_div k;           /* histograms: K; distinct-lines: P */
    unsigned bin_bytes;  /* 4, 2 or 1; 0: not a bins pattern */
    unsigned copies;     /* private copies of the bins (cpu_hist_copies) */
    int workers;
    cpb_slot *slot;
    void **priv;         /* slot[w].priv, contiguous for the merge */
    void *out;           /* keys (n), mask words or merged bins */
    size_t out_bytes;
    uint64_t total;      /* counter, reduce: the merged result */
    int failed;          /* a worker could not allocate its state */
    cpb_barrier bar;
} cpb_job;

/* Allocates the buffers and has each worker allocate and touch its own
 * private state (first touch puts it on the worker's node), then fills the
 * outputs so that a run which leaves something unwritten is caught.
 * Nothing of this is timed.  0, or -1 when memory runs out. */
int cpb_job_open(cpb_job *j, const cpb_cfg *c, cpb_pool *pool, int workers);
/* About how many bytes cpb_job_open allocates for c (the outputs and every
 * worker's private state), so a caller can hold several jobs open within a
 * memory budget. */
size_t cpb_job_bytes(const cpb_cfg *c, int workers);
/* One run: the timed part. */
void cpb_job_run(cpb_job *j, cpb_pool *pool);
void cpb_job_close(cpb_job *j);

#endif
