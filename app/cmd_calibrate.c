/* cmd_calibrate.c - `atomsim calibrate`: fits the calibratable options of a
 * GPU config to its measured dataset, stage by stage on the fit rows of a
 * split (validate/calibrate_run.h), reports the error on the fit and test
 * rows before and after, and writes an overlay INI that holds only the
 * fitted keys (calibrate_report.c). */
#include <stdio.h>

#include "args.h"
#include "calibrate_fit.h"
#include "calibrate_report.h"
#include "commands.h"
#include "opts.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim calibrate --config FILE --data validate/data/GPU.csv --out OVERLAY.ini\n"
               "                         [--split FILE] [--probe NAME=FILE ...] [--keys section.key,...] [-j JOBS]\n"
               "                         [--max-events N] [--max-evals N] [-p section.key=value ...] [--quiet]\n"
               "Fits the calibratable options (or those named by --keys), one mechanism at a\n"
               "time on the fit rows that mechanism dominates (stages below), and writes an\n"
               "overlay INI with only the fitted keys and the fit/test error summary.\n"
               "--split holds rows out for testing (validate/split.h); default: every row fits.\n"
               "--probe NAME=FILE names the probe dataset a stage marked (probe NAME) fits on instead:\n"
               "every row of it the stage's filter accepts.  Without it such a stage is left out (its\n"
               "keys keep the config's values), unless --keys names one of its keys.\n"
               "--max-events (default 2e6) bounds each simulated row; --max-evals (default 14)\n"
               "bounds each stage's search.\nstages:\n");
    size_t n;
    const cal_stage *st = cal_stages(&n);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "  %-13s", st[i].name);
        for (int k = 0; k < CAL_MAX_STAGE_KEYS && st[i].keys[k]; k++)
            fprintf(f, "%s%s", k ? "," : "", st[i].keys[k]);
        fprintf(f, "  on %s\n", st[i].rows);
    }
}

int cmd_calibrate(int argc, char **argv)
{
    cli_args a;
    const char *data = NULL, *out = NULL, *split_path = NULL, *keys = NULL;
    const char *probes[CAL_MAX_PROBES];
    int nprobes = 0;
    double max_events = 2e6;
    int max_evals = 14, jobs = pool_default_jobs(), quiet = 0, rc;
    const opt_spec specs[] = {
        OPT_STRING("data", &data),
        OPT_STRING("out", &out),
        OPT_STRING("split", &split_path),
        OPT_LIST("probe", probes, &nprobes, CAL_MAX_PROBES, .noun = "probes"),
        OPT_STRING("keys", &keys),
        OPT_JOBS(&jobs),
        OPT_MAX_EVENTS(&max_events),
        OPT_INT("max-evals", &max_evals, 2, 1000),
        OPT_FLAG("quiet", &quiet),
        OPT_END,
    };
    cli_args_init(&a);
    opt_cmd cmd = { .name = "calibrate", .specs = specs, .args = &a, .common = OPT_COMMON_ALL | OPT_COMMON_PROGRESS,
                    .usage = usage };
    if ((rc = opt_parse(&cmd, argc, argv)) != OPT_GO)
        return rc;
    if (!data || !out) {
        cli_error("calibrate", "--data FILE and --out FILE are required");
        return 2;
    }
    if (a.engine == CLI_ENGINE_MODEL) {
        cli_error("calibrate", "--engine model is not calibrated here (the simulator is)");
        return 2;
    }
    calfit_request r = { &a, data, out, split_path, keys, max_events, max_evals, jobs, quiet, argc, argv, probes, nprobes };
    return calfit_run(&r);
}
