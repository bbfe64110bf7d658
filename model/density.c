/* density.c - contention density per pattern (seed 000's definition,
 * density = selectivity x threads per cycle / bins, with each pattern's
 * share of threads that hit its hottest target standing in for
 * selectivity / bins). */
#include "density.h"

#include <math.h>

#include "formulas.h"
#include "seed_formulas.h"

int dsp_density_of(const cfg_config *c, const pat_params *p, dsp_density *d)
{
    double tpc = seed_threads_per_cycle(c);
    double share; /* fraction of all threads that hit the hottest target */
    d->threads_per_cycle = tpc;
    d->atomics = 1;
    d->cas = pat_uses_cas(p->pattern);
    switch (p->pattern) {
    case PAT_STORE:
        d->atomics = 0;
        d->targets = 0;
        share = 0;
        break;
    case PAT_COUNTER:
    case PAT_COUNTER_AGGREGATED:
    case PAT_COMPACTION:
    case PAT_CAS_APPEND:
        d->targets = 1;
        share = p->selectivity;
        break;
    case PAT_HISTOGRAM: {
        double q0 = p->hot + (1 - p->hot) / p->bins; /* bin 0 is the hottest */
        d->targets = 1 / q0;
        share = q0;
        break;
    }
    case PAT_HISTOGRAM_SHARED: {
        /* only the flush reaches global memory: per workgroup its non-zero
         * bins, spread over the K bins */
        double nz = mdl_nonzero_bins(p->bins, p->wg);
        d->targets = p->bins;
        share = nz / p->bins / p->wg;
        break;
    }
    case PAT_HISTOGRAM_U8_CAS:
    case PAT_HISTOGRAM_U16_CAS: {
        double per = p->pattern == PAT_HISTOGRAM_U8_CAS ? 4 : 2;
        d->targets = ceil(p->bins / per);
        share = 1 / d->targets;
        break;
    }
    case PAT_BITMASK:
        d->targets = ceil((double)p->n / 32);
        share = p->selectivity / d->targets;
        break;
    case PAT_REDUCE:
        d->targets = 1;
        share = 1.0 / p->wg;
        break;
    case PAT_DISTINCT_LINES:
        d->targets = p->addresses;
        share = 1.0 / p->addresses;
        break;
    default:
        return -1;
    }
    d->fraction = share;
    d->density = share * tpc;
    return 0;
}
