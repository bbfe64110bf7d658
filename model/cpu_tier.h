/* cpu_tier.h - the CPU tier's cost formulas: the same patterns with private
 * per-worker state and no atomics (seed 000's Web Worker tier): private
 * counts, private compaction regions concatenated afterwards, private
 * histograms merged afterwards, partial reductions.  Costs come from a
 * cpu_config that build/cpubench measured. */
#ifndef ATOM_MODEL_CPU_TIER_H
#define ATOM_MODEL_CPU_TIER_H

#include "cpu_config.h"
#include "params.h"

typedef struct cpu_cost {
    double us;                        /* the whole operation */
    double pool_us;                   /* waking the workers and joining them */
    double zero_us;                   /* zeroing private bins */
    double scan_us;                   /* each worker's slice of the elements */
    double merge_us;                  /* summing the private histograms */
    double copy_us;                   /* concatenating compaction regions */
} cpu_cost;

/* Cost of one private-histogram update beyond key_ns, with `bins` bins of
 * `footprint_bytes` per worker and probability `p_same` that an update hits
 * the bin the previous one did (1/K for a uniform histogram). */
double cpu_update_ns(const cpu_config *c, double footprint_bytes, double p_same);

/* Returns 0, or -1 with err set for a pattern the tier does not know. */
int cpu_predict(const cpu_config *c, const pat_params *p, cpu_cost *out, char err[CFG_ERR_MAX]);

#endif
