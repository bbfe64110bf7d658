/* cmd_calibrate.c - `atomsim calibrate`: fits the calibratable options of a
 * GPU config to its measured dataset, stage by stage on the fit rows of a
 * split (validate/calibrate.h, validate/split.h), reports the error on the
 * fit and test rows before and after, and writes an overlay INI that holds
 * only the fitted keys. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../validate/calibrate.h"
#include "../validate/split.h"
#include "args.h"
#include "commands.h"

enum { OPT_DATA = 2000, OPT_OUT, OPT_SPLIT, OPT_KEYS, OPT_JOBS, OPT_MAX_EVENTS, OPT_MAX_EVALS, OPT_QUIET };

#define MAX_KEYS 64

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

static void fmt_summary(char *buf, size_t len, const val_summary *s)
{
    if (!s->rows) {
        snprintf(buf, len, "-");
        return;
    }
    char sp[16];
    if (isnan(s->spearman))
        snprintf(sp, sizeof sp, "-");
    else
        snprintf(sp, sizeof sp, "%.3f", s->spearman);
    snprintf(buf, len, "%d/%d %.1f%% %.1f%% %s", s->ran, s->rows, 100 * s->ape_median, 100 * s->ape_p90, sp);
}

/* The residual table: per pattern and overall, fit and test rows, before
 * and after; written to f with `prefix` before every line. */
static void print_residuals(FILE *f, const char *prefix, const val_dataset *d, const val_prediction *before,
                            const val_prediction *after, const unsigned char *fit, const unsigned char *test)
{
    fprintf(f, "%s%-19s %-30s %-30s %-30s %s\n", prefix, "pattern", "fit before (ran med p90 rho)", "fit after",
            "test before", "test after");
    for (int p = 0; p <= PAT_COUNT; p++) {
        int pat = p == PAT_COUNT ? -1 : p; /* overall last */
        val_summary s[4];
        val_summarize(d, before, fit, pat, 0, &s[0]);
        val_summarize(d, after, fit, pat, 0, &s[1]);
        val_summarize(d, before, test, pat, 0, &s[2]);
        val_summarize(d, after, test, pat, 0, &s[3]);
        if (!s[0].rows && !s[2].rows)
            continue;
        char t[4][48];
        for (int k = 0; k < 4; k++)
            fmt_summary(t[k], sizeof t[k], &s[k]);
        fprintf(f, "%s%-19s %-30s %-30s %-30s %s\n", prefix, pat < 0 ? "overall" : pat_name((enum pat_id)pat), t[0], t[1],
                t[2], t[3]);
    }
}

static int write_overlay(const char *out, int argc, char **argv, const char *data, const char *split,
                         const cfg_config *cfg, const val_dataset *d, const cal_stage_result *res, int nres,
                         const val_prediction *before, const val_prediction *after, const unsigned char *fit,
                         const unsigned char *test, size_t nfit, size_t ntest, char err[CFG_ERR_MAX])
{
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, CFG_ERR_MAX, "%s: cannot write", tmp);
        return -1;
    }
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    fprintf(f, "; calibration overlay written by `atomsim calibrate` (validate/calibrate.h): only the fitted keys.\n");
    fprintf(f, "; Read it after the hand-written config, e.g. at the end of that file:\n;   []\n;   include = %s\n",
            strrchr(out, '/') ? strrchr(out, '/') + 1 : out);
    /* the config reader takes lines of up to 199 characters: wrap */
    fprintf(f, ";\n; command:  atomsim");
    int col = 19;
    for (int i = 0; i < argc; i++) {
        int len = (int)strlen(argv[i]) + 1;
        if (col + len > 120) {
            fprintf(f, "\n;             ");
            col = 14;
        }
        fprintf(f, " %.150s", argv[i]);
        col += len;
    }
    fprintf(f, "\n; config:   %.150s\n; data:     %.100s (%.40s, %.40s)\n; split:    %.120s (%zu fit rows, %zu test rows)\n",
            cfg->path[0] ? cfg->path : "(defaults)", data, d->gpu, d->driver, split ? split : "(none: every row fits)",
            nfit, ntest);
    fprintf(f, "; date:     %s\n; events:   --max-events %g per row (rows needing more are not run)\n", date,
            cfg->sim.max_events);
    fprintf(f, ";\n; residuals, simulator vs measured, before and after this overlay: rows run/rows,\n"
               "; median and 90th-percentile absolute error, Spearman (where the measured span > 2x)\n");
    print_residuals(f, ";   ", d, before, after, fit, test);
    size_t nopt;
    const cfg_option *opts = cfg_options(&nopt);
    const char *section = NULL;
    for (size_t i = 0; i < nopt; i++)
        for (int r = 0; r < nres; r++)
            for (int k = 0; k < res[r].nkeys; k++) {
                const cal_key_fit *kf = &res[r].keys[k];
                if (kf->opt != &opts[i])
                    continue;
                if (!section || strcmp(section, opts[i].section)) {
                    section = opts[i].section;
                    fprintf(f, "\n[%s]\n", section);
                }
                char val[64];
                cfg_format(cfg, kf->opt, val, sizeof val);
                fprintf(f, "; stage %s: was %g; %d fit rows that finish (%.120s), %d evaluations;\n", res[r].stage->name,
                        kf->before, res[r].rows, res[r].stage->rows, res[r].evals);
                fprintf(f, ";   --max-events %g; objective (mean |log(predicted/measured)|) %.5f -> %.5f, median error %.1f%% -> %.1f%%\n",
                        res[r].max_events, res[r].obj_before, res[r].obj_after, 100 * res[r].ape_before, 100 * res[r].ape_after);
                fprintf(f, "%s = %s\n", kf->opt->key, val);
            }
    if (fclose(f) || rename(tmp, out)) {
        snprintf(err, CFG_ERR_MAX, "%s: cannot write", out);
        return -1;
    }
    return 0;
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
    size_t nstages;
    const cal_stage *stages = cal_stages(&nstages);
    const cfg_option *want[MAX_KEYS];
    int nwant = 0;
    if (keys) {
        char buf[2048];
        snprintf(buf, sizeof buf, "%s", keys);
        for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            const cfg_option *o;
            if (cal_key_lookup(tok, &o, err)) {
                cli_error("calibrate", "--keys: %s", err);
                return 2;
            }
            int staged = 0;
            char full[160];
            snprintf(full, sizeof full, "%s.%s", o->section, o->key);
            for (size_t s = 0; s < nstages; s++)
                for (int k = 0; k < CAL_MAX_STAGE_KEYS && stages[s].keys[k]; k++)
                    staged |= !strcmp(stages[s].keys[k], full);
            if (!staged) {
                cli_error("calibrate", "--keys: no stage fits '%s' yet (see atomsim calibrate --help)", tok);
                return 2;
            }
            if (nwant < MAX_KEYS)
                want[nwant++] = o;
        }
        if (!nwant) {
            cli_error("calibrate", "--keys names no key");
            return 2;
        }
    } else {
        for (size_t s = 0; s < nstages; s++)
            for (int k = 0; k < CAL_MAX_STAGE_KEYS && stages[s].keys[k]; k++)
                if (cal_key_lookup(stages[s].keys[k], &want[nwant], err) == 0 && nwant < MAX_KEYS)
                    nwant++;
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
    unsigned char *fit = calloc(d.count ? d.count : 1, 1), *test = calloc(d.count ? d.count : 1, 1);
    val_prediction *before = calloc(d.count ? d.count : 1, sizeof *before);
    val_prediction *after = calloc(d.count ? d.count : 1, sizeof *after);
    cal_stage_result res[16];
    int nres = 0, rc = 1;
    if (!fit || !test || !before || !after) {
        cli_error("calibrate", "out of memory");
        goto done;
    }
    size_t nfit = d.count, ntest = 0;
    if (split_path) {
        nfit = val_split_mask(&split, &d, VAL_ROWS_FIT, fit);
        ntest = val_split_mask(&split, &d, VAL_ROWS_TEST, test);
    } else
        memset(fit, 1, d.count);
    if (!nfit) {
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
               cfg.path[0] ? cfg.path : "(defaults)", data, nfit, ntest, nwant, jobs, max_events);
    for (size_t s = 0; s < nstages && nres < 16; s++) {
        const cfg_option *sel[CAL_MAX_STAGE_KEYS];
        int nsel = 0;
        for (int k = 0; k < CAL_MAX_STAGE_KEYS && stages[s].keys[k]; k++) {
            const cfg_option *ko;
            if (cal_key_lookup(stages[s].keys[k], &ko, err))
                continue;
            for (int w = 0; w < nwant; w++)
                if (want[w] == ko)
                    sel[nsel++] = ko;
        }
        if (!nsel)
            continue;
        time_t t0 = time(NULL);
        int r = cal_fit_stage(&cfg, &stages[s], sel, nsel, &d, fit, &o, &res[nres], err);
        if (r < 0) {
            cli_error("calibrate", "stage %s: %s", stages[s].name, err);
            goto done;
        }
        if (r == 1) {
            if (!quiet)
                printf("stage %s: no fit rows that finish (%s), skipped\n", stages[s].name, stages[s].rows);
            continue;
        }
        if (!quiet) {
            printf("stage %s:", stages[s].name);
            for (int k = 0; k < res[nres].nkeys; k++)
                printf(" %s.%s %g -> %g", res[nres].keys[k].opt->section, res[nres].keys[k].opt->key,
                       res[nres].keys[k].before, res[nres].keys[k].after);
            printf("; objective %.5f -> %.5f, median error %.1f%% -> %.1f%% (%d evaluations, %.0f s)\n", res[nres].obj_before,
                   res[nres].obj_after, 100 * res[nres].ape_before, 100 * res[nres].ape_after, res[nres].evals,
                   difftime(time(NULL), t0));
            fflush(stdout);
        }
        nres++;
    }
    if (!nres) {
        cli_error("calibrate", "no stage has fit rows in %s", data);
        rc = 2;
        goto done;
    }
    /* residuals over every row, before and after */
    if (val_predict_all(&cfg0, &d, cli_sim_engine, (int)jobs, before, err) ||
        val_predict_all(&cfg, &d, cli_sim_engine, (int)jobs, after, err)) {
        cli_error("calibrate", "%s", err);
        goto done;
    }
    if (!quiet) {
        printf("\nresiduals (rows run/rows, median and p90 absolute error, Spearman):\n");
        print_residuals(stdout, "  ", &d, before, after, fit, test);
    }
    if (write_overlay(out, argc, argv, data, split_path, &cfg, &d, res, nres, before, after, fit, test, nfit, ntest, err)) {
        cli_error("calibrate", "%s", err);
        rc = 2;
        goto done;
    }
    if (!quiet)
        printf("\nwrote %s\n", out);
    rc = 0;
done:
    free(fit);
    free(test);
    free(before);
    free(after);
    val_dataset_free(&d);
    return rc;
}
