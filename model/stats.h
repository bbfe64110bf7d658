/* stats.h - what one run (simulated or modelled) reports.
 *
 * A plain struct that engines fill and printers serialize; the column table
 * names each field once so that text, CSV and JSON never disagree and a new
 * counter is one line here plus one line in stats.c. */
#ifndef ATOM_MODEL_STATS_H
#define ATOM_MODEL_STATS_H

#include <stddef.h>
#include <stdint.h>

typedef struct atom_stats {
    double cycles;
    double time_us;
    /* occupancy */
    double workgroups;
    double wg_per_sm;                 /* resident workgroups per SM (occupancy limit) */
    double waves;
    /* instruction mix */
    double warp_instructions;         /* every instruction the warps issue, ALU included */
    double atomic_instructions;       /* global atomic warp instructions */
    double l2_requests;               /* line requests that reached L2 (atomics) */
    double l2_atomic_ops;             /* per-address operations the atomic units performed */
    double requests_per_atomic_instruction;
    double store_requests;
    double l2_misses;
    double cas_attempts;              /* lane-level compare-and-swap operations */
    double cas_failures;
    double smem_atomic_instructions;
    double smem_conflict_cycles;
    /* where the time went */
    double busiest_slice_utilization; /* busy cycles / kernel cycles of the busiest slice */
    double queue_depth_mean;          /* time-averaged over slices that saw traffic */
    double queue_depth_max;
    double stall_issue_cycles;        /* warps ready but their scheduler busy */
    double stall_memory_cycles;       /* warps waiting on atomic replies */
    double stall_backpressure_cycles; /* warps waiting on a full L2 queue or busy memory port */
    double stall_barrier_cycles;
    double stall_smem_cycles;
    double split_exit_warps;          /* warps that exited well before their workgroup's last (launch.split_exit_*) */
    double events;
    /* not a column: the share of a simulated run's units (successful
     * compare-and-swaps) in workgroups it skipped (sim/fastfwd.c), for the
     * note `atomsim run` prints */
    double fast_forward_share;
} atom_stats;

typedef struct atom_stat_column {
    const char *name;                 /* CSV/JSON name, with unit */
    size_t offset;
    int integer;                      /* printed without a fraction */
} atom_stat_column;

/* The columns after `engine` in CSV, in order (cycles and time_us first). */
const atom_stat_column *atom_stat_columns(size_t *count);

static inline double atom_stat_get(const atom_stats *s, const atom_stat_column *c)
{
    return *(const double *)((const char *)s + c->offset);
}

#endif
