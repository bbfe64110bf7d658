/* calibrate_fit.c - what `atomsim calibrate` does once its flags are read
 * (cmd_calibrate.c): loads the config, dataset and split, fits stage by
 * stage (validate/calibrate_run.h), prints the residuals before and after
 * and writes the overlay (calibrate_report.c). */
#include "calibrate_fit.h"

#include <stdio.h>

#include "calibrate_report.h"

/* Each stage's line as it finishes (not with --quiet). */
static void stage_done(void *f, const cal_stage *st, const cal_stage_result *res, double seconds)
{
    calrep_stage(f, st, res, seconds);
}

int calfit_run(const calfit_request *r)
{
    cfg_config cfg, cfg0;
    char err[CFG_ERR_MAX];
    /* the keys to fit: --keys, or every calibratable key some stage fits */
    const cfg_option *want[CAL_MAX_KEYS];
    int nwant = r->keys ? cal_keys_parse(r->keys, want, CAL_MAX_KEYS, err) : cal_keys_all(want, CAL_MAX_KEYS);
    if (nwant < 0) {
        cli_error("calibrate", "--keys: %s%s", err, nwant == -2 ? " (see atomsim calibrate --help)" : "");
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
    int rc = 1;
    if (cal_run_init(&run, &d, r->split ? &split : NULL, err)) {
        cli_error("calibrate", "%s", err);
        goto done;
    }
    if (!run.nfit) {
        cli_error("calibrate", "the split %s leaves no fit rows in %s", r->split, r->data);
        rc = 2;
        goto done;
    }

    cal_options o;
    cal_options_default(&o);
    o.jobs = r->jobs;
    o.max_evals = r->max_evals;
    o.engine = cli_sim_engine;
    o.log = r->quiet ? NULL : stdout;
    cfg0 = cfg;
    if (!r->quiet)
        printf("calibrating %s on %s: %zu fit rows, %zu test rows, %d keys, -j %d, --max-events %g\n",
               cfg.path[0] ? cfg.path : "(defaults)", r->data, run.nfit, run.ntest, nwant, r->jobs, r->max_events);
    if (cal_run_stages(&run, &cfg, want, nwant, &d, &o, r->quiet ? NULL : stage_done, stdout, err)) {
        cli_error("calibrate", "%s", err);
        goto done;
    }
    if (!run.nres) {
        cli_error("calibrate", "no stage has fit rows in %s", r->data);
        rc = 2;
        goto done;
    }
    /* residuals over every row, before and after */
    if (cal_run_residuals(&run, &cfg0, &cfg, &d, &o, err)) {
        cli_error("calibrate", "%s", err);
        goto done;
    }
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
    val_dataset_free(&d);
    return rc;
}
