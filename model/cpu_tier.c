/* cpu_tier.c - closed-form CPU costs: pool dispatch + zeroing + each
 * worker's scan of n / workers elements + merge or concatenation. */
#include "cpu_tier.h"
#include "cpu_copies.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Log-linear blend from one level's cost to the next over the factor of two
 * past the boundary: the footprint spills gradually, and the table stays
 * smooth enough to interpolate. */
static double blend(double fp, double edge, double below, double above)
{
    if (fp <= edge)
        return below;
    if (fp >= 2 * edge)
        return above;
    double t = log2(fp / edge);
    return below + t * (above - below);
}

double cpu_update_ns(const cpu_config *c, double fp, double p_same)
{
    /* the LLC is shared: all workers' private bins fill it together, and
     * they start to spill at a quarter of a worker's share (the edges
     * cpubench classifies its measurements by) */
    double spill = c->llc_bytes / c->workers / 4;
    double ns;
    if (fp <= c->l2_bytes)
        ns = blend(fp, c->l1_bytes, c->update_l1_ns, c->update_l2_ns);
    else if (fp <= spill)
        ns = blend(fp, c->l2_bytes, c->update_l2_ns, c->update_llc_ns);
    else
        ns = blend(fp, spill, c->update_llc_ns, c->update_dram_ns);
    return ns + p_same * c->update_same_bin_ns;
}

static void histogram(const cpu_config *c, double n, double bins, double bytes_per_bin, double hot, int sequential,
                      cpu_cost *o)
{
    double e = n / c->workers;
    double q0 = hot + (1 - hot) / bins, qo = (1 - hot) / bins;
    double p_same = q0 * q0 + (bins - 1) * qo * qo;
    /* The per-bin costs were measured on 4-byte bins.  Zeroing and merging
     * move lines, and cpubench keeps the sub-word histograms' private copies
     * at the pattern's width (cpb_job.c), so a bin of 1 or 2 bytes costs a
     * quarter or a half: routing truth sets 1-4 put the 8-bit CAS histogram
     * at 2-2.8x its measured time where the merge dominates (small n, 10^4
     * bins and more) with the 4-byte price. */
    double width = bytes_per_bin / 4;
    o->zero_us = bins * width * c->zero_ns_per_bin / 1e3;
    /* distinct-lines steps through its counters in order (cpb_scan_lines:
     * element i adds to counter i mod P), so the prefetcher has every line
     * in L1 before it is needed and an update costs what one in L1 does at
     * any P; a histogram's bins are hashed, and the footprint sets their
     * level */
    double fp = sequential ? fmin(bins * bytes_per_bin, c->l1_bytes) : bins * bytes_per_bin;
    o->scan_us = e * (c->key_ns + cpu_update_ns(c, fp, p_same)) / 1e3;
    /* Each worker adds its copies into the first before the barrier
     * (cpb_scan.c's HIST_SCAN): (copies - 1) x K scalar adds of private,
     * L1-resident bins, the load-add-store of an update in L1 (GCC leaves
     * the loop scalar, -fopt-info-vec).  It is what makes a sub-word
     * histogram dearer than a 4-byte one at the same K: 8 copies of 1-byte
     * bins fit 16 KiB up to K = 2048, of 4-byte bins up to 512. */
    o->scan_us += (cpu_hist_copies((uint64_t)bins, (unsigned)bytes_per_bin) - 1.0) * bins * c->update_l1_ns / 1e3;
    o->merge_us = bins * width * c->merge_ns_per_bin / 1e3;
    /* while every worker's copy fits in the LLC, a bin costs what the
     * cached measurement says (cross-core transfers, not DRAM streaming) */
    if (c->bins_cached_ns_per_bin > 0 && bins * bytes_per_bin * c->workers <= c->llc_bytes) {
        o->zero_us = 0;
        o->merge_us = bins * width * c->bins_cached_ns_per_bin / 1e3;
    }
}

/* What a task costs before it does any work: the pool's hand-over, and
 * each phase's barrier.  Measured per algorithm at n = 64 x workers (cpubench
 * --plan validate/cpubench/fixed.plan): on the 16-core host a compaction's
 * three phases and a histogram's zeroing and merge cost several times the
 * one hand-over of a count.  A count or a sum also costs its caller a read
 * of every worker's result, each a line another core last wrote: store and
 * bitmask, which have none, took 0.84 of a count's fixed time in all 54
 * fixed.plan runs of truth sets 5-7's hosts (docs/findings.md 39). */
static double fixed_us(const cpu_config *c, enum pat_id id)
{
    double f;
    switch (id) {
    case PAT_STORE:
    case PAT_BITMASK: f = c->write_fixed_us > 0 ? c->write_fixed_us : c->scan_fixed_us; break;
    case PAT_COMPACTION:
    case PAT_CAS_APPEND: f = c->compact_fixed_us; break;
    case PAT_HISTOGRAM:
    case PAT_HISTOGRAM_SHARED:
    case PAT_HISTOGRAM_U8_CAS:
    case PAT_HISTOGRAM_U16_CAS:
    case PAT_DISTINCT_LINES: f = c->bins_fixed_us; break;
    default: f = c->scan_fixed_us; break;
    }
    return f > 0 ? f : c->pool_dispatch_us;
}

int cpu_predict(const cpu_config *c, const pat_params *p, cpu_cost *o, char err[CFG_ERR_MAX])
{
    double n = (double)p->n, s = p->selectivity, e = n / c->workers;
    memset(o, 0, sizeof *o);
    o->pool_us = fixed_us(c, p->pattern);
    switch (p->pattern) {
    case PAT_STORE: {
        /* The selected write is a masked vector store that a branch skips
         * when no key of the vector is selected: dense or empty it costs
         * what counting does, but where the branch goes either way it
         * mispredicts as often as min(p, 1 - p) (docs/findings.md 34:
         * 2.5x at S = 4% on the GPU host) */
        double lanes = c->store_skip_lanes > 0 ? c->store_skip_lanes : 1;
        double any = 1 - pow(1 - s, lanes), miss = any < 1 - any ? any : 1 - any;
        o->scan_us = e * (c->key_ns + c->store_skip_ns * miss / lanes) / 1e3;
        break;
    }
    case PAT_COUNTER:
    case PAT_COUNTER_AGGREGATED:
        o->scan_us = e * c->key_ns / 1e3;
        break;
    case PAT_BITMASK:
        /* counting's selection, plus folding each word's 32 flags into
         * one word (docs/findings.md 45) */
        o->scan_us = e * (c->bitmask_ns > 0 ? c->bitmask_ns : c->key_ns) / 1e3;
        break;
    case PAT_REDUCE:
        o->scan_us = e * (c->reduce_ns > 0 ? c->reduce_ns : c->key_ns) / 1e3;
        break;
    case PAT_COMPACTION:
    case PAT_CAS_APPEND:
        /* branch-free: every key is written and the cursor moves past the
         * selected ones, so the scan costs the same at any S; only the
         * concatenation grows with it */
        o->scan_us = e * (c->key_ns + c->store_ns) / 1e3;
        o->copy_us = 4.0 * n * s / (c->copy_gbps * 1e3);
        break;
    case PAT_HISTOGRAM:
        histogram(c, n, p->bins, 4, p->hot, 0, o);
        break;
    case PAT_HISTOGRAM_SHARED:
        histogram(c, n, p->bins, 4, 0, 0, o);
        break;
    case PAT_HISTOGRAM_U8_CAS:
        histogram(c, n, p->bins, 1, 0, 0, o);
        break;
    case PAT_HISTOGRAM_U16_CAS:
        histogram(c, n, p->bins, 2, 0, 0, o);
        break;
    case PAT_DISTINCT_LINES:
        histogram(c, n, p->addresses, 4, 0, 1, o);
        /* with one private copy the scan steps through its counters with
         * no hash and no chain through a counter (cpb_scan_lines): its own
         * measured price, well under a hashed update's (findings 51); with
         * several copies (P <= 1,024) the interleaved loop costs what a
         * hashed update does */
        if (c->lines_ns > 0 && cpu_hist_copies(p->addresses, 4) == 1)
            o->scan_us = e * c->lines_ns / 1e3;
        break;
    default:
        snprintf(err, CFG_ERR_MAX, "pattern %d has no CPU-tier model", (int)p->pattern);
        return -1;
    }
    o->us = o->pool_us + o->zero_us + o->scan_us + o->merge_us + o->copy_us;
    return 0;
}
