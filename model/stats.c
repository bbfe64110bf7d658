/* stats.c - the column table that every printer walks. */
#include "stats.h"

#define COL(f, integer) { #f, offsetof(atom_stats, f), integer }

static const atom_stat_column columns[] = {
    COL(cycles, 0),
    COL(time_us, 0),
    COL(workgroups, 1),
    COL(wg_per_sm, 1),
    COL(waves, 0),
    COL(warp_instructions, 1),
    COL(atomic_instructions, 1),
    COL(l2_requests, 1),
    COL(l2_atomic_ops, 1),
    COL(requests_per_atomic_instruction, 0),
    COL(store_requests, 1),
    COL(l2_misses, 1),
    COL(cas_attempts, 1),
    COL(cas_failures, 1),
    COL(smem_atomic_instructions, 1),
    COL(smem_conflict_cycles, 0),
    COL(busiest_slice_utilization, 0),
    COL(queue_depth_mean, 0),
    COL(queue_depth_max, 0),
    COL(stall_issue_cycles, 0),
    COL(stall_memory_cycles, 0),
    COL(stall_backpressure_cycles, 0),
    COL(stall_barrier_cycles, 0),
    COL(stall_smem_cycles, 0),
    COL(split_exit_warps, 1),
    COL(events, 1),
};

const atom_stat_column *atom_stat_columns(size_t *count)
{
    *count = sizeof columns / sizeof columns[0];
    return columns;
}
