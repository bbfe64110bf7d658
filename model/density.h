/* density.h - seed 000's contention density for every pattern: how many
 * threads per GPU cycle would hit the hottest atomic target if the GPU ran
 * at its full thread capacity (SM count x FP32 lanes per SM, a config
 * value), and that as a fraction of the capacity.
 *
 * The fraction is what seed 000's 5% and 10% thresholds compare against.
 * Capacity cancels out of it: for a counter it is the selectivity, for a
 * uniform histogram selectivity / bins, on every GPU alike (see
 * docs/model.md, "What the seed's rule reduces to"). */
#ifndef ATOM_MODEL_DENSITY_H
#define ATOM_MODEL_DENSITY_H

#include "config.h"
#include "params.h"

typedef struct dsp_density {
    double threads_per_cycle;         /* capacity: sm_count x fp32_lanes_per_sm */
    double targets;                   /* effective atomic targets the threads spread over */
    double density;                   /* threads per cycle on the hottest target */
    double fraction;                  /* density / threads_per_cycle */
    int atomics;                      /* 0: the pattern does no global atomic (store) */
    int cas;                          /* 1: a compare-and-swap algorithm */
} dsp_density;

/* Returns 0, or -1 for a pattern it does not know. */
int dsp_density_of(const cfg_config *c, const pat_params *p, dsp_density *d);

#endif
