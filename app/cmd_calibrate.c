/* cmd_calibrate.c - `atomsim calibrate`: fits the calibratable options of a
 * GPU config to its measured dataset, stage by stage on the fit rows of a
 * split (validate/calibrate_run.h), reports the error on the fit and test
 * rows before and after, and writes an overlay INI that holds only the
 * fitted keys (calibrate_report.c). */
#include <stdio.h>
#include <unistd.h>

#include "args.h"
#include "calibrate_report.h"
#include "commands.h"

enum { OPT_DATA = 2000, OPT_OUT, OPT_SPLIT, OPT_KEYS, OPT_JOBS, OPT_MAX_EVENTS, OPT_MAX_EVALS, OPT_QUIET };

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim calibrate --config FILE --data validate/data/GPU.csv --out OVERLAY.ini\n"
               "                         [--split FILE] [--keys section.key,...] [-j JOBS]\n"
               "                         [--max-events N] [--max-evals N] [-p section.key=value ...] [--quiet]\n"
               "Fits the calibratable options (or those named by --keys), one mechanism at a\n"
               "time on the fit rows that mechanism dominates (stages below), and writes an\n"
               "overlay INI with only the fitted keys and the fit/test error summary.\n"
               "--split holds rows out for testing (validate/split.h); default: every row fits.\n"
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

/* Each stage's line as it finishes (not with --quiet). */
static void stage_done(void *f, const cal_stage *st, const cal_stage_result *res, double seconds)
{
    calrep_stage(f, st, res, seconds);
}

int cmd_calibrate(int argc, char **argv)
{
    static const struct option extra[] = {
        { "data", required_argument, NULL, OPT_DATA },
        { "out", required_argument, NULL, OPT_OUT },
        { "split", required_argument, NULL, OPT_SPLIT },
        { "keys", required_argument, NULL, OPT_KEYS },
        { "jobs", required_argument, NULL, OPT_JOBS },
        { "max-events", required_argument, NULL, OPT_MAX_EVENTS },
        { "max-evals", required_argument, NULL, OPT_MAX_EVALS },
        { "quiet", no_argument, NULL, OPT_QUIET },
        { 0, 0, 0, 0 },
    };
    struct option longopts[CLI_MAX_LONGOPTS];
    cli_args a;
    cfg_config cfg, cfg0;
    char err[CFG_ERR_MAX];
    const char *data = NULL, *out = NULL, *split_path = NULL, *keys = NULL;
    double max_events = 2e6;
    unsigned long long max_evals = 14;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    int quiet = 0, c;
    cli_args_init(&a);
    cli_longopts(longopts, extra);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "p:j:", longopts, NULL)) != -1) {
        switch (c) {
        case CLI_OPT_HELP:
            usage(stdout);
            return 0;
        case OPT_DATA: data = optarg; break;
        case OPT_OUT: out = optarg; break;
        case OPT_SPLIT: split_path = optarg; break;
        case OPT_KEYS: keys = optarg; break;
        case OPT_QUIET: quiet = 1; break;
        case 'j':
        case OPT_JOBS: {
            unsigned long long j;
            if (cli_parse_u64(optarg, &j) || j < 1 || j > 256) {
                cli_error("calibrate", "--jobs '%s' is not an integer in [1, 256]", optarg);
                return 2;
            }
            jobs = (long)j;
            break;
        }
        case OPT_MAX_EVENTS:
            if (cli_parse_double(optarg, &max_events) || !(max_events >= 1)) {
                cli_error("calibrate", "--max-events '%s' is not a number >= 1", optarg);
                return 2;
            }
            break;
        case OPT_MAX_EVALS:
            if (cli_parse_u64(optarg, &max_evals) || max_evals < 2 || max_evals > 1000) {
                cli_error("calibrate", "--max-evals '%s' is not an integer in [2, 1000]", optarg);
                return 2;
            }
            break;
        case '?':
        case ':':
            cli_error("calibrate", "bad option '%s' (see atomsim calibrate --help)", argv[optind - 1]);
            return 2;
        default: {
            int rc = cli_common_opt(&a, c, optarg, err);
            if (rc) {
                cli_error("calibrate", "%s", rc < 0 ? err : "unexpected option");
                return 2;
            }
        }
        }
    }
    if (optind < argc) {
        cli_error("calibrate", "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (!data || !out) {
        cli_error("calibrate", "--data FILE and --out FILE are required");
        return 2;
    }
    if (a.engine == CLI_ENGINE_MODEL) {
        cli_error("calibrate", "--engine model is not calibrated here (the simulator is)");
        return 2;
    }


    /* the keys to fit: --keys, or every calibratable key some stage fits */
    const cfg_option *want[CAL_MAX_KEYS];
    int nwant = keys ? cal_keys_parse(keys, want, CAL_MAX_KEYS, err) : cal_keys_all(want, CAL_MAX_KEYS);
    if (nwant < 0) {
        cli_error("calibrate", "--keys: %s%s", err, nwant == -2 ? " (see atomsim calibrate --help)" : "");
        return 2;
    }
    if (keys && !nwant) {
        cli_error("calibrate", "--keys names no key");
        return 2;
    }

    /* from the hand-written values: a config that includes the overlay
     * being rewritten is read without it */
    if (cli_load_config_except(&a, out, &cfg, err)) {
        cli_error("calibrate", "%s", err);
        return 2;
    }
    cfg.sim.max_events = max_events;
    val_dataset d;
    if (val_dataset_load(data, &d, err)) {
        cli_error("calibrate", "%s", err);
        return 2;
    }
    val_split split;
    if (split_path && val_split_load(split_path, &split, err)) {
        cli_error("calibrate", "%s", err);
        val_dataset_free(&d);
        return 2;
    }
    cal_run run;
    int rc = 1;
    if (cal_run_init(&run, &d, split_path ? &split : NULL, err)) {
        cli_error("calibrate", "%s", err);
        goto done;
    }
    if (!run.nfit) {
        cli_error("calibrate", "the split %s leaves no fit rows in %s", split_path, data);
        rc = 2;
        goto done;
    }

    cal_options o;
    cal_options_default(&o);
    o.jobs = (int)jobs;
    o.max_evals = (int)max_evals;
    o.engine = cli_sim_engine;
    o.log = quiet ? NULL : stdout;
    cfg0 = cfg;
    if (!quiet)
        printf("calibrating %s on %s: %zu fit rows, %zu test rows, %d keys, -j %ld, --max-events %g\n",
               cfg.path[0] ? cfg.path : "(defaults)", data, run.nfit, run.ntest, nwant, jobs, max_events);
    if (cal_run_stages(&run, &cfg, want, nwant, &d, &o, quiet ? NULL : stage_done, stdout, err)) {
        cli_error("calibrate", "%s", err);
        goto done;
    }
    if (!run.nres) {
        cli_error("calibrate", "no stage has fit rows in %s", data);
        rc = 2;
        goto done;
    }
    /* residuals over every row, before and after */
    if (cal_run_residuals(&run, &cfg0, &cfg, &d, &o, err)) {
        cli_error("calibrate", "%s", err);
        goto done;
    }
    if (!quiet) {
        printf("\nresiduals (rows run/rows, median and p90 absolute error, Spearman):\n");
        calrep_residuals(stdout, "  ", &d, run.before, run.after, run.fit, run.test);
    }
    if (calrep_overlay(out, argc, argv, data, split_path, &cfg, &d, &run, err)) {
        cli_error("calibrate", "%s", err);
        rc = 2;
        goto done;
    }
    if (!quiet)
        printf("\nwrote %s\n", out);
    rc = 0;
done:
    cal_run_free(&run);
    val_dataset_free(&d);
    return rc;
}
