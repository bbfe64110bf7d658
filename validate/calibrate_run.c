/* calibrate_run.c - a whole calibration (calibrate_run.h): which keys,
 * which rows, the stages one after another, the residuals before and
 * after.  Moved out of the calibrate command, so that it only parses,
 * loads and prints. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calibrate_run.h"

/* Whether some stage fits option o. */
static int staged(const cfg_option *o)
{
    size_t nstages;
    const cal_stage *stages = cal_stages(&nstages);
    char full[160];
    int hit = 0;
    snprintf(full, sizeof full, "%s.%s", o->section, o->key);
    for (size_t s = 0; s < nstages; s++)
        for (int k = 0; k < CAL_MAX_STAGE_KEYS && stages[s].keys[k]; k++)
            hit |= !strcmp(stages[s].keys[k], full);
    return hit;
}

int cal_keys_parse(const char *list, const cfg_option **keys, int max, char err[CFG_ERR_MAX])
{
    char buf[2048];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const cfg_option *o;
        if (cal_key_lookup(tok, &o, err))
            return -1;
        if (!staged(o)) {
            snprintf(err, CFG_ERR_MAX, "no stage fits '%s' yet", tok);
            return -2;
        }
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

int cal_run_stages(cal_run *r, cfg_config *cfg, const cfg_option *const *keys, int nkeys, const val_dataset *d,
                   const cal_options *o, cal_stage_done done, void *ctx, char err[CFG_ERR_MAX])
{
    size_t nstages;
    const cal_stage *stages = cal_stages(&nstages);
    char msg[CFG_ERR_MAX];
    for (size_t s = 0; s < nstages && r->nres < CAL_MAX_RESULTS; s++) {
        /* the stage's keys among those asked for */
        const cfg_option *sel[CAL_MAX_STAGE_KEYS];
        int nsel = 0;
        for (int k = 0; k < CAL_MAX_STAGE_KEYS && stages[s].keys[k]; k++) {
            const cfg_option *ko;
            if (cal_key_lookup(stages[s].keys[k], &ko, msg))
                continue;
            for (int w = 0; w < nkeys; w++)
                if (keys[w] == ko)
                    sel[nsel++] = ko;
        }
        if (!nsel)
            continue;
        time_t t0 = time(NULL);
        int rc = cal_fit_stage(cfg, &stages[s], sel, nsel, d, r->fit, o, &r->res[r->nres], msg);
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
