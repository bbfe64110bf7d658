/* calibrate_fit.c - what `atomsim calibrate` does once its flags are read
 * (cmd_calibrate.c): loads the config, dataset and split, fits stage by
 * stage (validate/calibrate_run.h), prints the residuals before and after
 * and writes the overlay (calibrate_report.c).  Its progress line
 * (util/progress.h) counts simulated rows against the run's budget: the
 * pools of every evaluation count into it. */
#include "calibrate_fit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/progress.h"
#include "calibrate_report.h"

/* What the stages may simulate, stage by stage, for the progress line. */
typedef struct fit_budget {
    uint64_t stage[CAL_MAX_RESULTS * 4]; /* by index in cal_stages() */
    uint64_t done;                     /* the budgets of the stages finished */
    uint64_t total;
    int quiet;
} fit_budget;

/* A stage simulates its fit rows once before its search, once per
 * evaluation (max_evals; its last step may take one or two more) and once
 * after; the residuals simulate every row twice. */
static void budget_of(fit_budget *b, const cfg_option *const *want, int nwant, const val_dataset *d,
                      const cal_run *run, int max_evals)
{
    size_t nstages;
    const cal_stage *st = cal_stages(&nstages);
    unsigned char *mask = malloc(d->count ? d->count : 1);
    char err[CFG_ERR_MAX];
    b->total = 2 * (uint64_t)d->count;
    for (size_t s = 0; mask && s < nstages && s < sizeof b->stage / sizeof b->stage[0]; s++) {
        int mine = 0;
        for (int k = 0; k < CAL_MAX_STAGE_KEYS && st[s].keys[k]; k++) {
            const cfg_option *o;
            if (cal_key_lookup(st[s].keys[k], &o, err))
                continue;
            for (int w = 0; w < nwant; w++)
                mine |= want[w] == o;
        }
        const cal_probe *p = st[s].probe ? cal_probe_find(run->probes, run->nprobes, st[s].probe) : NULL;
        unsigned char *pmask = p ? malloc(p->d.count ? p->d.count : 1) : NULL;
        size_t rows = !mine                ? 0
                      : !st[s].probe       ? cal_stage_rows(&st[s], d, run->fit, mask)
                      : p && pmask         ? cal_stage_rows(&st[s], &p->d, NULL, pmask)
                                           : 0;
        free(pmask);
        b->stage[s] = (uint64_t)rows * (uint64_t)(max_evals + 2);
        b->total += b->stage[s];
    }
    free(mask);
}

/* Each stage's line as it finishes (not with --quiet), and the progress
 * line moved to the end of its budget, however much of it the stage used. */
static void stage_done(void *ctx, const cal_stage *st, const cal_stage_result *res, double seconds)
{
    fit_budget *b = ctx;
    size_t nstages;
    const cal_stage *all = cal_stages(&nstages);
    size_t s = (size_t)(st - all);
    if (s < sizeof b->stage / sizeof b->stage[0])
        b->done += b->stage[s];
    prog_set(b->done);
    if (!b->quiet) {
        prog_stdout();
        calrep_stage(stdout, st, res, seconds);
    }
}

static void free_probes(cal_probe *probes, int n)
{
    for (int i = 0; i < n; i++)
        val_dataset_free(&probes[i].d);
}

/* --probe NAME=FILE: each name one a stage fits on, given once, its file
 * loaded and measured on the GPU d was.  Returns how many, or -1 having
 * said why on stderr (and freed what it loaded). */
static int load_probes(const calfit_request *r, const val_dataset *d, cal_probe *probes, char names[][64])
{
    char err[CFG_ERR_MAX];
    int n = 0;
    for (int i = 0; i < r->nprobes; i++) {
        const char *eq = strchr(r->probes[i], '=');
        size_t len = eq ? (size_t)(eq - r->probes[i]) : 0;
        if (!eq || !len || len >= 64 || !eq[1]) {
            cli_error("calibrate", "--probe '%s' is not NAME=FILE", r->probes[i]);
            free_probes(probes, n);
            return -1;
        }
        memcpy(names[n], r->probes[i], len);
        names[n][len] = '\0';
        if (!cal_probe_known(names[n])) {
            cli_error("calibrate", "--probe %s: no stage fits on a probe of that name (see atomsim calibrate --help)",
                      names[n]);
            free_probes(probes, n);
            return -1;
        }
        if (cal_probe_find(probes, n, names[n])) {
            cli_error("calibrate", "--probe %s is given twice", names[n]);
            free_probes(probes, n);
            return -1;
        }
        probes[n].name = names[n];
        probes[n].path = eq + 1;
        if (val_dataset_load(probes[n].path, &probes[n].d, err)) {
            cli_error("calibrate", "--probe %s: %s", names[n], err);
            free_probes(probes, n);
            return -1;
        }
        n++;
        /* a probe of another GPU would fit this GPU's keys to it */
        if (strcmp(probes[n - 1].d.gpu, d->gpu)) {
            cli_error("calibrate", "--probe %s: %s was measured on %s, the dataset on %s", names[n - 1],
                      probes[n - 1].path, probes[n - 1].d.gpu, d->gpu);
            free_probes(probes, n);
            return -1;
        }
    }
    return n;
}

int calfit_run(const calfit_request *r)
{
    cfg_config cfg, cfg0;
    char err[CFG_ERR_MAX];
    /* the keys to fit: --keys, or every calibratable key some stage fits */
    const cfg_option *want[CAL_MAX_KEYS];
    int nwant = r->keys ? cal_keys_parse(r->keys, want, CAL_MAX_KEYS, err) : cal_keys_all(want, CAL_MAX_KEYS);
    if (nwant < 0) {
        cli_error("calibrate", "--keys: %s", err);
        return 2;
    }
    if (r->keys && !nwant) {
        cli_error("calibrate", "--keys names no key");
        return 2;
    }

    /* from the hand-written values: a config that includes the overlay
     * being rewritten is read without it */
    if (cli_load_config_except(r->args, r->out, &cfg, err)) {
        cli_error("calibrate", "%s", err);
        return 2;
    }
    cfg.sim.max_events = r->max_events;
    val_dataset d;
    if (val_dataset_load(r->data, &d, err)) {
        cli_error("calibrate", "%s", err);
        return 2;
    }
    val_split split;
    if (r->split && val_split_load(r->split, &split, err)) {
        cli_error("calibrate", "%s", err);
        val_dataset_free(&d);
        return 2;
    }
    cal_run run;
    cal_probe probes[CAL_MAX_PROBES];
    char probe_names[CAL_MAX_PROBES][64];
    int nprobes = 0, rc = 1;
    memset(&run, 0, sizeof run);
    if ((nprobes = load_probes(r, &d, probes, probe_names)) < 0) {
        nprobes = 0;
        rc = 2;
        goto done;
    }
    if (cal_run_init(&run, &d, r->split ? &split : NULL, err)) {
        cli_error("calibrate", "%s", err);
        goto done;
    }
    if (!run.nfit) {
        cli_error("calibrate", "the split %s leaves no fit rows in %s", r->split, r->data);
        rc = 2;
        goto done;
    }

    run.probes = probes;
    run.nprobes = nprobes;
    /* keys named by --keys need their stage's probe; a calibration of
     * every key leaves a probe stage's keys as they are without one */
    char skipped[256] = "";
    if (r->keys && cal_run_check_probes(&run, want, nwant, err)) {
        cli_error("calibrate", "%s", err);
        rc = 2;
        goto done;
    }
    if (!r->keys && cal_run_drop_unprobed(&run, want, &nwant, skipped, sizeof skipped) && !r->quiet)
        printf("not fitted, their probes not given (--probe): %s; their keys keep the config's values\n", skipped);
    run.skipped = skipped;
    cal_options o;
    cal_options_default(&o);
    o.jobs = r->jobs;
    o.max_evals = r->max_evals;
    o.engine = cli_sim_engine;
    o.model_engine = cli_model_engine;
    o.log = r->quiet ? NULL : stdout;
    cfg0 = cfg;
    fit_budget b = { .quiet = r->quiet };
    budget_of(&b, want, nwant, &d, &run, r->max_evals);
    if (!r->quiet)
        printf("calibrating %s on %s: %zu fit rows, %zu test rows, %zu spent, %d keys, -j %d, --max-events %g\n",
               cfg.path[0] ? cfg.path : "(defaults)", r->data, run.nfit, run.ntest, run.nspent, nwant, r->jobs,
               r->max_events);
    fflush(stdout); /* before the progress line, on a terminal */
    prog_begin("calibrate", "rows", b.total);
    rc = cal_run_stages(&run, &cfg, want, nwant, &d, &o, stage_done, &b, err);
    if (rc == 0 && run.nres)
        rc = cal_run_residuals(&run, &cfg0, &cfg, &d, &o, err);
    prog_end();
    if (rc) {
        /* a missing probe is bad input; anything else, a failed run */
        rc = rc == -2 ? 2 : 1;
        cli_error("calibrate", "%s", err);
        goto done;
    }
    if (!run.nres) {
        cli_error("calibrate", "no stage has fit rows in %s", r->data);
        rc = 2;
        goto done;
    }
    /* the residuals, every row before and after, ran with the stages (one
     * progress line for both) */
    if (!r->quiet) {
        printf("\nresiduals (rows run/rows, median and p90 absolute error, Spearman):\n");
        calrep_residuals(stdout, "  ", &d, run.before, run.after, run.fit, run.test);
    }
    if (calrep_overlay(r->out, r->argc, r->argv, r->data, r->split, &cfg, &d, &run, err)) {
        cli_error("calibrate", "%s", err);
        rc = 2;
        goto done;
    }
    if (!r->quiet)
        printf("\nwrote %s\n", r->out);
    rc = 0;
done:
    cal_run_free(&run);
    free_probes(probes, nprobes);
    val_dataset_free(&d);
    return rc;
}
