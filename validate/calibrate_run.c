/* calibrate_run.c - a whole calibration (calibrate_run.h): which keys,
 * which rows, the stages one after another, the residuals before and
 * after.  Moved out of the calibrate command, so that it only parses,
 * loads and prints. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calibrate_run.h"

const cal_probe *cal_probe_find(const cal_probe *probes, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(probes[i].name, name))
            return &probes[i];
    return NULL;
}

int cal_probe_known(const char *name)
{
    size_t nstages;
    const cal_stage *stages = cal_stages(&nstages);
    for (size_t s = 0; s < nstages; s++)
        if (stages[s].probe && !strcmp(stages[s].probe, name))
            return 1;
    return 0;
}

int cal_keys_parse(const char *list, const cfg_option **keys, int max, char err[CFG_ERR_MAX])
{
    char buf[2048];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const cfg_option *o;
        /* a calibratable key is one a stage fits (tests/unit/test_calibrate.c) */
        if (cal_key_lookup(tok, &o, err))
            return -1;
        if (n < max)
            keys[n++] = o;
    }
    return n;
}

int cal_keys_all(const cfg_option **keys, int max)
{
    size_t nstages;
    const cal_stage *stages = cal_stages(&nstages);
    char err[CFG_ERR_MAX];
    int n = 0;
    for (size_t s = 0; s < nstages; s++)
        for (int k = 0; k < CAL_MAX_STAGE_KEYS && stages[s].keys[k]; k++)
            if (n < max && cal_key_lookup(stages[s].keys[k], &keys[n], err) == 0)
                n++;
    return n;
}

int cal_run_init(cal_run *r, const val_dataset *d, const val_split *split, char err[CFG_ERR_MAX])
{
    size_t rows = d->count ? d->count : 1;
    memset(r, 0, sizeof *r);
    r->fit = calloc(rows, 1);
    r->test = calloc(rows, 1);
    r->before = calloc(rows, sizeof *r->before);
    r->after = calloc(rows, sizeof *r->after);
    if (!r->fit || !r->test || !r->before || !r->after) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    r->nfit = d->count;
    if (split) {
        r->nfit = val_split_mask(split, d, VAL_ROWS_FIT, r->fit);
        r->ntest = val_split_mask(split, d, VAL_ROWS_TEST, r->test);
        r->nspent = d->count - r->nfit - r->ntest;
    } else
        memset(r->fit, 1, d->count);
    return 0;
}

void cal_run_free(cal_run *r)
{
    free(r->fit);
    free(r->test);
    free(r->before);
    free(r->after);
    memset(r, 0, sizeof *r);
}

/* The stage's keys among keys[0..nkeys): how many, into sel. */
static int stage_keys(const cal_stage *st, const cfg_option *const *keys, int nkeys, const cfg_option **sel)
{
    char msg[CFG_ERR_MAX];
    int nsel = 0;
    for (int k = 0; k < CAL_MAX_STAGE_KEYS && st->keys[k]; k++) {
        const cfg_option *ko;
        if (cal_key_lookup(st->keys[k], &ko, msg))
            continue;
        for (int w = 0; w < nkeys; w++)
            if (keys[w] == ko)
                sel[nsel++] = ko;
    }
    return nsel;
}

/* The refusal for a stage whose probe was not given. */
static void missing_probe(const cal_stage *st, char err[CFG_ERR_MAX])
{
    snprintf(err, CFG_ERR_MAX, "stage %s fits on a probe dataset: give --probe %s=FILE, or --keys without %s", st->name,
             st->probe, st->keys[0]);
}

int cal_run_check_probes(const cal_run *r, const cfg_option *const *keys, int nkeys, char err[CFG_ERR_MAX])
{
    size_t nstages;
    const cal_stage *stages = cal_stages(&nstages);
    const cfg_option *sel[CAL_MAX_STAGE_KEYS];
    for (size_t s = 0; s < nstages; s++)
        if (stages[s].probe && stage_keys(&stages[s], keys, nkeys, sel) &&
            !cal_probe_find(r->probes, r->nprobes, stages[s].probe)) {
            missing_probe(&stages[s], err);
            return -1;
        }
    return 0;
}

int cal_run_drop_unprobed(const cal_run *r, const cfg_option **keys, int *nkeys, char *skipped, size_t len)
{
    size_t nstages, used = 0;
    const cal_stage *stages = cal_stages(&nstages);
    const cfg_option *sel[CAL_MAX_STAGE_KEYS];
    int dropped = 0;
    if (len)
        skipped[0] = '\0';
    for (size_t s = 0; s < nstages; s++) {
        if (!stages[s].probe || cal_probe_find(r->probes, r->nprobes, stages[s].probe))
            continue;
        int nsel = stage_keys(&stages[s], keys, *nkeys, sel);
        if (!nsel)
            continue;
        for (int k = 0; k < nsel; k++)
            for (int w = 0; w < *nkeys; w++)
                if (keys[w] == sel[k]) {
                    keys[w] = keys[--*nkeys];
                    break;
                }
        if (used < len)
            used += (size_t)snprintf(skipped + used, len - used, "%s%s", dropped ? ", " : "", stages[s].name);
        dropped++;
    }
    return dropped;
}

int cal_run_stages(cal_run *r, cfg_config *cfg, const cfg_option *const *keys, int nkeys, const val_dataset *d,
                   const cal_options *o, cal_stage_done done, void *ctx, char err[CFG_ERR_MAX])
{
    size_t nstages;
    const cal_stage *stages = cal_stages(&nstages);
    char msg[CFG_ERR_MAX];
    /* a result slot for every stage, or a stage would be dropped unsaid */
    if (nstages > CAL_MAX_RESULTS) {
        snprintf(err, CFG_ERR_MAX, "%zu stages, room for %d results (CAL_MAX_RESULTS)", nstages, CAL_MAX_RESULTS);
        return -1;
    }
    for (size_t s = 0; s < nstages; s++) {
        /* the stage's keys among those asked for */
        const cfg_option *sel[CAL_MAX_STAGE_KEYS];
        int nsel = stage_keys(&stages[s], keys, nkeys, sel);
        if (!nsel)
            continue;
        /* a probe stage fits every row of its probe the filter accepts */
        const val_dataset *sd = d;
        const unsigned char *keep = r->fit;
        if (stages[s].probe) {
            const cal_probe *p = cal_probe_find(r->probes, r->nprobes, stages[s].probe);
            if (!p) {
                missing_probe(&stages[s], err);
                return -2;
            }
            sd = &p->d;
            keep = NULL;
        }
        time_t t0 = time(NULL);
        int rc = cal_fit_stage(cfg, &stages[s], sel, nsel, sd, keep, o, &r->res[r->nres], msg);
        if (rc < 0) {
            snprintf(err, CFG_ERR_MAX, "stage %s: %s", stages[s].name, msg);
            return -1;
        }
        if (done)
            done(ctx, &stages[s], rc == 1 ? NULL : &r->res[r->nres], difftime(time(NULL), t0));
        if (rc == 0)
            r->nres++;
    }
    return 0;
}

int cal_run_residuals(cal_run *r, const cfg_config *before, const cfg_config *after, const val_dataset *d,
                      const cal_options *o, char err[CFG_ERR_MAX])
{
    if (val_predict_all(before, d, o->engine, o->jobs, r->before, err) ||
        val_predict_all(after, d, o->engine, o->jobs, r->after, err))
        return -1;
    return 0;
}
