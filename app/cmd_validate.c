/* cmd_validate.c - `atomsim validate`: predict every measured row of a
 * dataset and report how far the predictions fall from the hardware, per
 * pattern and overall; optionally fail when the error passes a threshold. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../validate/compare.h"
#include "../validate/split.h"
#include "args.h"
#include "commands.h"
#include "opts.h"
#include "validate_report.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim validate --config FILE --data validate/data/GPU.csv [--engine sim|model]\n"
               "                        [-p section.key=value ...] [--format text|csv] [-j JOBS]\n"
               "                        [--max-events N] [--only PATTERN[,PATTERN...]] [--worst K]\n"
               "                        [--max-median-ape F] [--max-p90-ape F] [--min-spearman R]\n"
               "                        [--split FILE --rows fit|test|spent|all] [--tie-pct P] [--summary]\n"
               "                        [--by pattern|wg|smem|n]\n"
               "Rows the engine cannot finish within --max-events (default 2e7 per row) are\n"
               "reported as not run, never guessed.  With thresholds, exits 1 when the overall\n"
               "error passes them.  --split (validate/split.h) with --rows keeps only the fit or\n"
               "the held-out test rows of a calibration split, or its spent rows (held out of the\n"
               "fit, but re-measured in a probe: not scored as test).  --tie-pct P adds a column,\n"
               "spearman~, the rank correlation with measured times closer than P%% counted\n"
               "as equal and the prediction's order among them not scored (two boards measure\n"
               "a row 0.45%% apart at the median).  --format csv writes the scored rows; with\n"
               "--summary, the per-pattern and overall figures instead (fractions).  --by groups\n"
               "the summary by workgroup size, shared memory a workgroup or n instead of pattern\n"
               "(the regions of docs/accuracy.md).\n");
}

int cmd_validate(int argc, char **argv)
{
    static const opt_choice axes[] = {
        { "pattern", VAL_BY_PATTERN }, { "wg", VAL_BY_WG }, { "smem", VAL_BY_SMEM }, { "n", VAL_BY_N }, { NULL, 0 },
    };
    static const opt_choice row_sets[] = {
        { "fit", VAL_ROWS_FIT }, { "test", VAL_ROWS_TEST }, { "spent", VAL_ROWS_SPENT }, { "all", VAL_ROWS_ALL },
        { NULL, 0 },
    };
    cli_args a;
    cfg_config cfg;
    char err[CFG_ERR_MAX];
    const char *data = NULL, *only = NULL, *split_path = NULL;
    int rows = -1, summary = 0, by = VAL_BY_PATTERN, jobs = pool_default_jobs(), worst = 5, rc;
    double max_events = 2e7, max_median = NAN, max_p90 = NAN, min_spearman = NAN, tie_pct = 0;
    const opt_spec specs[] = {
        OPT_STRING("data", &data),
        OPT_JOBS(&jobs),
        OPT_MAX_EVENTS(&max_events),
        OPT_DOUBLE("max-median-ape", &max_median, 0, INFINITY, .min_open = 1),
        OPT_DOUBLE("max-p90-ape", &max_p90, 0, INFINITY, .min_open = 1),
        OPT_DOUBLE("min-spearman", &min_spearman, 0, INFINITY, .min_open = 1),
        OPT_INT("worst", &worst, 0, 1000),
        OPT_STRING("only", &only),
        OPT_STRING("split", &split_path),
        OPT_CHOICE("rows", &rows, row_sets),
        OPT_DOUBLE("tie-pct", &tie_pct, 0, 50),
        OPT_FLAG("summary", &summary),
        OPT_CHOICE("by", &by, axes),
        OPT_END,
    };
    cli_args_init(&a);
    opt_cmd cmd = { .name = "validate", .specs = specs, .args = &a, .common = OPT_COMMON_ALL | OPT_COMMON_PROGRESS,
                    .usage = usage };
    if ((rc = opt_parse(&cmd, argc, argv)) != OPT_GO)
        return rc;
    if (!data) {
        cli_error("validate", "--data FILE is required");
        return 2;
    }
    if ((rows >= 0) != (split_path != NULL)) {
        cli_error("validate", "--split FILE and --rows fit|test|spent|all go together");
        return 2;
    }
    if (a.format == CLI_FORMAT_JSON) {
        cli_error("validate", "--format json is not supported here (text or csv)");
        return 2;
    }
    if (summary && a.format != CLI_FORMAT_CSV) {
        cli_error("validate", "--summary goes with --format csv (the text report always has the summary)");
        return 2;
    }
    if (cli_load_config(&a, &cfg, err)) {
        cli_error("validate", "%s", err);
        return 2;
    }
    cfg.sim.max_events = max_events;

    val_dataset d;
    if (val_dataset_load(data, &d, err)) {
        cli_error("validate", "%s", err);
        return 2;
    }
    val_split split;
    if (split_path && val_split_load(split_path, &split, err)) {
        cli_error("validate", "%s", err);
        val_dataset_free(&d);
        return 2;
    }
    /* one way out, so that an early error frees what a late one does */
    int status = 2;
    unsigned char *keep = calloc(d.count ? d.count : 1, 1);
    val_prediction *pr = calloc(d.count ? d.count : 1, sizeof *pr);
    if (!keep || !pr) {
        cli_error("validate", "out of memory");
        status = 1;
        goto done;
    }
    if (!val_select(&d, only, split_path ? &split : NULL, rows, keep)) {
        cli_error("validate", "no rows of %s match --only %s / --split %s --rows", data, only ? only : "(all)",
                  split_path ? split_path : "(none)");
        goto done;
    }
    if (val_predict_kept(&cfg, &d, keep, a.engine == CLI_ENGINE_MODEL ? cli_model_engine : cli_sim_engine, jobs, pr,
                         err)) {
        cli_error("validate", "%s", err);
        status = 1;
        goto done;
    }
    const char *engine = a.engine == CLI_ENGINE_MODEL ? "model" : "sim";
    if (a.format == CLI_FORMAT_CSV && summary)
        vrep_summary_csv(&d, pr, keep, tie_pct / 100, (enum val_axis)by);
    else if (a.format == CLI_FORMAT_CSV)
        vrep_rows_csv(&d, pr, keep, engine);
    else
        vrep_summary_text(&d, pr, keep, data, cfg.path, engine, tie_pct / 100, (enum val_axis)by, (size_t)worst);
    val_summary all;
    val_summarize(&d, pr, keep, -1, 0, &all);
    status = vrep_past_thresholds(&all, max_median, max_p90, min_spearman);
done:
    free(keep);
    free(pr);
    val_dataset_free(&d);
    return status;
}
