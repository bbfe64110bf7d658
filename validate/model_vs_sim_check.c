/* model_vs_sim_check.c - `atomsim check --against sim`'s method: the
 * points drawn by the plan's random drawer, both engines on them, the
 * scores (model_vs_sim.h).  The command only parses and prints. */
#include "model_vs_sim.h"

#include <stdio.h>
#include <stdlib.h>

#include "plan_draw.h"

int mvs_draw(uint64_t seed, const enum pat_id *pats, int npat, mvs_point *pts, uint64_t count,
             char err[CFG_ERR_MAX])
{
    pln_spec s;
    pln_drawer *d;
    pln_spec_defaults(&s);
    s.seed = seed;
    s.rows = count;
    for (int i = 0; i < npat; i++)
        s.pats[i] = pats[i];
    s.npat = npat;
    if (pln_parse_int_range(PLN_AX_N, MVS_N_RANGE, &s.ax[PLN_AX_N], err) || pln_check(&s, err))
        return -1;
    if (pln_drawer_new(&s, &d)) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    for (uint64_t i = 0; i < count; i++) {
        pln_row w;
        pln_draw(d, &w);
        pln_row_params(&w, &pts[i].p);
    }
    pln_drawer_free(d);
    return 0;
}

int mvs_check(const cfg_config *cfg, int jobs, uint64_t seed, uint64_t count, const enum pat_id *pats, int npat,
              mvs_fault_fn fault, void *fault_ctx, mvs_check_result *out, char err[CFG_ERR_MAX])
{
    int chosen[PAT_COUNT];
    out->count = count;
    out->pts = calloc(count, sizeof *out->pts);
    double *work = calloc(count, sizeof *work);
    if (!out->pts || !work) {
        free(work);
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    int rc = mvs_draw(seed, pats, npat, out->pts, count, err);
    if (!rc)
        rc = mvs_run(cfg, jobs, out->pts, count, fault, fault_ctx);
    if (!rc) {
        for (int i = 0; i < npat; i++)
            chosen[i] = (int)pats[i];
        mvs_score_all(out->pts, count, chosen, npat, work, &out->rep);
    }
    free(work);
    return rc;
}

void mvs_check_free(mvs_check_result *r)
{
    free(r->pts);
    r->pts = NULL;
}
