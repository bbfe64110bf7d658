/* calibrate_report.c - the printers of `atomsim calibrate`: a stage's
 * progress line, the residual table (before and after, fit and test rows)
 * and the overlay INI with its header.  The figures come from
 * validate/calibrate_run.h and validate/compare.h; these only format them. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../util/out.h"
#include "calibrate_report.h"

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

void calrep_residuals(FILE *f, const char *prefix, const val_dataset *d, const val_prediction *before,
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


void calrep_stage(FILE *f, const cal_stage *st, const cal_stage_result *res, double seconds)
{
    if (!res) {
        fprintf(f, "stage %s: no fit rows that finish (%s), skipped\n", st->name, st->rows);
        return;
    }
    fprintf(f, "stage %s:", st->name);
    for (int k = 0; k < res->nkeys; k++)
        fprintf(f, " %s.%s %g -> %g", res->keys[k].opt->section, res->keys[k].opt->key, res->keys[k].before,
                res->keys[k].after);
    fprintf(f, "; objective %.5f -> %.5f, median error %.1f%% -> %.1f%% (%d evaluations, %.0f s)\n", res->obj_before,
            res->obj_after, 100 * res->ape_before, 100 * res->ape_after, res->evals, seconds);
    fflush(f);
}

int calrep_overlay(const char *out, int argc, char **argv, const char *data, const char *split, const cfg_config *cfg,
                   const val_dataset *d, const cal_run *run, char err[CFG_ERR_MAX])
{
    const cal_stage_result *res = run->res;
    int nres = run->nres;
    out_file of;
    if (out_open(&of, out, err, CFG_ERR_MAX))
        return -1;
    FILE *f = of.f;
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
        /* an option and its value stay on one line, so the command can be
         * copied back as it reads, where the pair fits a line of its own
         * (the reader's limit holds either way) */
        int pair = argv[i][0] == '-' && i + 1 < argc && argv[i + 1][0] != '-' &&
                   strlen(argv[i]) + strlen(argv[i + 1]) + 2 <= 120 - 14;
        int len = (int)strlen(argv[i]) + 1 + (pair ? (int)strlen(argv[i + 1]) + 1 : 0);
        if (col + len > 120 && col > 14) {
            fprintf(f, "\n;             ");
            col = 14;
        }
        fprintf(f, " %.150s", argv[i]);
        if (pair)
            fprintf(f, " %.150s", argv[++i]);
        col += len;
    }
    fprintf(f, "\n; config:   %.150s\n; data:     %.100s (%.40s, %.40s)\n; split:    %.120s (%zu fit rows, %zu test rows, %zu spent)\n",
            cfg->path[0] ? cfg->path : "(defaults)", data, d->gpu, d->driver, split ? split : "(none: every row fits)",
            run->nfit, run->ntest, run->nspent);
    if (run->skipped && run->skipped[0])
        fprintf(f, "; not fitted: %.200s (no --probe given: their keys keep the config's values)\n", run->skipped);
    for (int i = 0; i < run->nprobes; i++)
        fprintf(f, "; probe:    %s = %.100s (%.40s, %zu rows: every row the stage's filter accepts fits)\n",
                run->probes[i].name, run->probes[i].path, run->probes[i].d.gpu, run->probes[i].d.count);
    fprintf(f, "; date:     %s\n; events:   --max-events %g per row (rows needing more are not run)\n", date,
            cfg->sim.max_events);
    fprintf(f, ";\n; residuals, simulator vs measured, before and after this overlay: rows run/rows,\n"
               "; median and 90th-percentile absolute error, Spearman (where the measured span > 2x)\n");
    calrep_residuals(f, ";   ", d, run->before, run->after, run->fit, run->test);
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
                /* a model stage runs no simulator: no budget, every row predicted */
                int model = res[r].stage->model;
                char engine[48];
                if (model)
                    snprintf(engine, sizeof engine, "the analytical model");
                else
                    snprintf(engine, sizeof engine, "--max-events %g", res[r].max_events);
                fprintf(f, "; stage %s: was %g; %d fit rows%s (%.120s), %d evaluations;\n", res[r].stage->name, kf->before,
                        res[r].rows, model ? "" : " that finish", res[r].stage->rows, res[r].evals);
                fprintf(f, ";   %s; objective (mean |log(predicted/measured)|) %.5f -> %.5f, median error %.1f%% -> %.1f%%\n",
                        engine, res[r].obj_before, res[r].obj_after, 100 * res[r].ape_before, 100 * res[r].ape_after);
                fprintf(f, "%s = %s\n", kf->opt->key, val);
            }
    return out_commit(&of, err, CFG_ERR_MAX);
}
