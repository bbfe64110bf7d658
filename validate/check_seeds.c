/* check_seeds.c - the seeds' claims, checked by `atomsim check`
 * (check_formulas.h): each seed formula against what the simulator's CAS
 * loops do, what the measured dataset shows and where the model with the
 * CPU tier puts the GPU/CPU crossover.  Only reported: a seed that is
 * wrong is a finding, so every verdict is "seed holds" or "seed fails",
 * never a drift. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../model/density.h"
#include "../model/export.h"
#include "../model/seed_formulas.h"
#include "check_int.h"

/* The dataset's row of these parameters at the defaults otherwise (wg 256,
 * no hot fraction, no shared memory beyond the pattern's own), or NULL. */
static const val_row *find_row(const val_dataset *d, enum pat_id id, uint64_t n, double s, uint32_t k, uint32_t p)
{
    for (size_t i = 0; d && i < d->count; i++) {
        const pat_params *q = &d->rows[i].params;
        if (q->pattern == id && q->n == n && fabs(q->selectivity - s) < 1e-9 && q->bins == k && q->addresses == p &&
            q->wg == 256 && q->hot == 0 && (q->smem_per_wg == 0 || q->smem_per_wg == pat_own_smem_bytes(q)))
            return &d->rows[i];
    }
    return NULL;
}

static void seed_verdict(chk_result *r, int holds)
{
    r->status = holds ? CHK_SEED_HOLDS : CHK_SEED_FAILS;
}

void chk_seeds(chk_report *rep, const cfg_config *cfg, const cpu_config *cpu, const chk_point *g, int count,
               const val_dataset *d)
{
    double f = cfg->gpu.sm_clock_mhz; /* cycles per microsecond */
    chk_result *r;

    /* seed 000: N(N+1)/2 CAS attempts, in the simulator's real CAS loops */
    r = chk_new_result(rep, "seed N(N+1)/2 CAS attempts", "sim", "median APE", 0.25);
    double e[CHK_GRID_MAX], worst = -1;
    int m = 0;
    for (int i = 0; i < count; i++) {
        if (g[i].sim_rc || g[i].p.pattern != PAT_CAS_APPEND)
            continue;
        double n = (double)g[i].p.n * g[i].p.selectivity, want = seed_cas_attempts(n), got = g[i].sim.cas_attempts;
        double err = (want - got) / got;
        e[m++] = fabs(err);
        r->points++;
        r->within += fabs(err) <= 0.25;
        if (fabs(err) > worst) {
            worst = fabs(err);
            snprintf(r->where, sizeof r->where, "N=%.0f: seed %.4g attempts, simulated %.4g (%+.0f%%)", n, want, got, 100 * err);
        }
    }
    r->value = chk_median(e, m);
    seed_verdict(r, m && r->value <= 0.25);

    if (d) {
        /* seed 000: time grows as N^2 (the exponent between the largest two
         * contender counts measured on one word) */
        r = chk_new_result(rep, "seed N(N+1)/2: time ~ N^2", "measured", "exponent", 0.2);
        const val_row *a = find_row(d, PAT_CAS_APPEND, 131072, 0.5, 256, 1), *b = find_row(d, PAT_CAS_APPEND, 131072, 1, 256, 1);
        if (a && b) {
            r->value = log(b->time_us_median / a->time_us_median) / log(2.0);
            r->points = 1;
            double per_attempt = b->time_us_median * f / seed_cas_attempts(131072);
            snprintf(r->where, sizeof r->where, "N 65536 -> 131072: x%.2f; %.2f cycles per attempt (seed: 1)",
                     b->time_us_median / a->time_us_median, per_attempt);
            seed_verdict(r, fabs(r->value - 2) <= 0.2);
        } else
            r->status = CHK_SKIPPED;

        /* seed 000: latency = base + N cycles for N queued threads: a
         * counter's N selected threads would drain at 1 cycle each */
        r = chk_new_result(rep, "seed base + N cycles", "measured", "measured/seed", 0.5);
        const val_row *c1 = find_row(d, PAT_COUNTER, 1048576, 1, 256, 1), *s0 = find_row(d, PAT_COUNTER, 1048576, 0, 256, 1);
        const val_row *h2 = find_row(d, PAT_HISTOGRAM, 1048576, 1, 2, 1);
        if (c1 && s0 && h2) {
            double drain = (c1->time_us_median - s0->time_us_median) * f;
            double seed = seed_contended_latency_cycles(cfg->model.seed_l2_base_latency_cycles, 1048576);
            double per_lane = (h2->time_us_median - s0->time_us_median) * f / 524288;
            r->value = drain / seed;
            r->points = 2;
            snprintf(r->where, sizeof r->where,
                     "counter 2^20 threads: %.3g cycles, seed %.3g (warps aggregate); unaggregated lanes (K=2): %.2f cycles each",
                     drain, seed, per_lane);
            seed_verdict(r, fabs(log(r->value)) <= log(2.0));
        } else
            r->status = CHK_SKIPPED;

        /* seed 001: one atomic per 2 x DRAM latency on one location */
        r = chk_new_result(rep, "seed 1 atomic / (2 x DRAM lat)", "measured", "measured/seed", 0.5);
        if (c1 && s0 && h2) {
            double seed_rate = seed_dram_atomics_per_cycle(cfg->model.seed_dram_latency_cycles);
            double lane_rate = 524288 / ((h2->time_us_median - s0->time_us_median) * f);
            r->value = lane_rate / seed_rate;
            r->points = 1;
            snprintf(r->where, sizeof r->where, "one address: %.3g atomics/cycle measured (K=2, per lane), seed %.3g",
                     lane_rate, seed_rate);
            seed_verdict(r, fabs(log(r->value)) <= log(2.0));
        } else
            r->status = CHK_SKIPPED;

        /* seed 001: a uniform histogram runs bins times faster */
        r = chk_new_result(rep, "seed histogram x bins", "measured", "median |log2 ratio|", 1);
        static const uint32_t ks[] = { 2, 4, 16, 256, 4096, 65536 };
        double lr[8];
        int nk = 0;
        char buf[200] = "";
        for (size_t i = 0; i < sizeof ks / sizeof ks[0] && h2 && s0; i++) {
            const val_row *h = find_row(d, PAT_HISTOGRAM, 1048576, 1, ks[i], 1);
            if (!h)
                continue;
            double speedup = (h2->time_us_median - s0->time_us_median) / fmax(h->time_us_median - s0->time_us_median, 1e-3);
            double want = ks[i] / 2.0;
            lr[nk++] = fabs(log2(speedup / want));
            size_t len = strlen(buf);
            snprintf(buf + len, sizeof buf - len, "%sK=%u x%.3g (seed x%.3g)", len ? ", " : "", ks[i], speedup, want);
        }
        r->value = chk_median(lr, nk);
        r->points = nk;
        snprintf(r->where, sizeof r->where, "speedup over K=2: %s", buf);
        seed_verdict(r, nk && r->value <= 1);

        /* seed 000: a counting filter at 25% selectivity runs 22x slower than at 2% */
        r = chk_new_result(rep, "seed counter 2% -> 25%: x22", "measured", "measured slowdown", 0);
        const val_row *lo = find_row(d, PAT_COUNTER, 1048576, 0.01, 256, 1), *hi = find_row(d, PAT_COUNTER, 1048576, 0.25, 256, 1);
        const val_row *lo24 = find_row(d, PAT_COUNTER, 16777216, 0.01, 256, 1), *hi24 = find_row(d, PAT_COUNTER, 16777216, 0.25, 256, 1);
        if (lo && hi) {
            r->value = hi->time_us_median / lo->time_us_median;
            r->points = 1 + (lo24 && hi24);
            snprintf(r->where, sizeof r->where, "1%% -> 25%%: x%.2f at n=2^20%s%.2f at 2^24 (even from 1%%, not 2%%); seed x%.1f",
                     r->value, lo24 && hi24 ? ", x" : "", lo24 && hi24 ? hi24->time_us_median / lo24->time_us_median : 0,
                     SEED_COUNTER_SLOWDOWN_2_TO_25);
            seed_verdict(r, r->value >= SEED_COUNTER_SLOWDOWN_2_TO_25 / 2);
        } else
            r->status = CHK_SKIPPED;

        /* seed 002: sub-word CAS histograms are slower than native 32-bit */
        r = chk_new_result(rep, "seed sub-word CAS slower", "measured", "median slowdown", 1);
        static const uint32_t sk[] = { 256, 1024, 4096, 16384, 65536, 262144, 1048576 };
        double sl[8];
        int ns = 0;
        for (size_t i = 0; i < sizeof sk / sizeof sk[0]; i++) {
            const val_row *u8 = find_row(d, PAT_HISTOGRAM_U8_CAS, 1048576, 1, sk[i], 1);
            const val_row *h = find_row(d, PAT_HISTOGRAM, 1048576, 1, sk[i], 1);
            if (u8 && h)
                sl[ns++] = u8->time_us_median / h->time_us_median;
        }
        r->points = ns;
        r->value = chk_median(sl, ns);
        snprintf(r->where, sizeof r->where, "u8 CAS / u32 atomic histogram at n=2^20 over %d bin counts: x%.3g to x%.3g", ns,
                 ns ? sl[0] : 0, ns ? sl[ns - 1] : 0);
        seed_verdict(r, ns && r->value > 1);
    }

    /* seed 000: inhibit above 10% of thread capacity; where does the GPU
     * actually stop beating the CPU tier?  (model predictions, data on GPU) */
    static const enum pat_id dens[] = { PAT_COUNTER, PAT_COMPACTION, PAT_HISTOGRAM, PAT_DISTINCT_LINES };
    for (size_t k = 0; k < sizeof dens / sizeof dens[0]; k++) {
        char name[64];
        snprintf(name, sizeof name, "seed 10%% threshold: %s", pat_name(dens[k]));
        r = chk_new_result(rep, name, "model+cpu", "crossover fraction", cfg->dispatch.density_inhibit);
        exp_axis axes[EXP_MAX_AXES];
        int na;
        exp_axes_of(cfg, dens[k], axes, &na);
        const exp_axis *dax = &axes[na - 1]; /* the pattern's own density axis comes last */
        char buf[200] = "";
        int cross = 0, gpu_always = 0, cpu_always = 0;
        double fr[4];
        static const uint64_t ns_[] = { 1 << 16, 1 << 20, 1 << 24 };
        for (size_t j = 0; j < 3; j++) {
            double first = -1;
            int gw = 0, cw = 0;
            for (int s = 0; s < dax->count; s++) {
                int asc = dax->kind == EXP_AXIS_SELECTIVITY;
                double v = dax->values[asc ? s : dax->count - 1 - s];
                pat_params p;
                pat_defaults(&p);
                p.pattern = dens[k];
                p.n = ns_[j];
                exp_axis_set(&p, dax->kind, v);
                dsp_decision c;
                dsp_density dd;
                char why[CFG_ERR_MAX];
                if (exp_decide_point(cfg, cpu, &p, &c, &dd, why) || dd.fraction <= 0)
                    continue;
                if (c.cpu_us < c.gpu_us) {
                    cw++;
                    if (first < 0)
                        first = dd.fraction;
                } else
                    gw++;
            }
            size_t len = strlen(buf);
            if (cw && gw) {
                fr[cross++] = first;
                snprintf(buf + len, sizeof buf - len, "%sn=2^%d: CPU wins from %.3g", len ? ", " : "", j == 0 ? 16 : j == 1 ? 20 : 24, first);
            } else {
                gpu_always += !cw;
                cpu_always += !gw;
                snprintf(buf + len, sizeof buf - len, "%sn=2^%d: %s", len ? ", " : "", j == 0 ? 16 : j == 1 ? 20 : 24,
                         !cw ? "GPU always wins" : "CPU always wins");
            }
        }
        r->points = 3;
        r->value = cross ? chk_median(fr, cross) : (gpu_always ? 1 : 0);
        snprintf(r->where, sizeof r->where, "%s", buf);
        /* the seed's threshold holds when the crossovers sit within 2x of it */
        seed_verdict(r, cross == 3 && r->value >= cfg->dispatch.density_inhibit / 2 && r->value <= 2 * cfg->dispatch.density_inhibit);
    }
}
