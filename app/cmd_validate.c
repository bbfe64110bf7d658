/* cmd_validate.c - `atomsim validate`: predict every measured row of a
 * dataset and report how far the predictions fall from the hardware, per
 * pattern and overall; optionally fail when the error passes a threshold. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../validate/compare.h"
#include "../validate/split.h"
#include "args.h"
#include "commands.h"
#include "validate_report.h"

enum { OPT_DATA = 2000, OPT_JOBS, OPT_MAX_EVENTS, OPT_MAX_MEDIAN, OPT_MAX_P90, OPT_MIN_SPEARMAN, OPT_WORST, OPT_ONLY, OPT_SPLIT,
       OPT_ROWS, OPT_TIE_PCT, OPT_SUMMARY, OPT_BY };

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim validate --config FILE --data validate/data/GPU.csv [--engine sim|model]\n"
               "                        [-p section.key=value ...] [--format text|csv] [-j JOBS]\n"
               "                        [--max-events N] [--only PATTERN[,PATTERN...]] [--worst K]\n"
               "                        [--max-median-ape F] [--max-p90-ape F] [--min-spearman R]\n"
               "                        [--split FILE --rows fit|test|all] [--tie-pct P] [--summary]\n"
               "                        [--by pattern|wg|smem|n]\n"
               "Rows the engine cannot finish within --max-events (default 2e7 per row) are\n"
               "reported as not run, never guessed.  With thresholds, exits 1 when the overall\n"
               "error passes them.  --split (validate/split.h) with --rows keeps only the fit or\n"
               "the held-out test rows of a calibration split.  --tie-pct P adds a column,\n"
               "spearman~, the rank correlation with measured times closer than P%% counted\n"
               "as equal and the prediction's order among them not scored (two boards measure\n"
               "a row 0.45%% apart at the median).  --format csv writes the scored rows; with\n"
               "--summary, the per-pattern and overall figures instead (fractions).  --by groups\n"
               "the summary by workgroup size, shared memory a workgroup or n instead of pattern\n"
               "(the regions of docs/accuracy.md).\n");
}

/* 1 (having said why on stderr) when the overall figures pass a threshold */
static int past_thresholds(const val_summary *all, double max_median, double max_p90, double min_spearman)
{
    int fail = 0;
    if (!isnan(max_median) && !(all->ape_median <= max_median)) {
        fprintf(stderr, "atomsim validate: median absolute error %.4f exceeds the threshold %.4f\n", all->ape_median,
                max_median);
        fail = 1;
    }
    if (!isnan(max_p90) && !(all->ape_p90 <= max_p90)) {
        fprintf(stderr, "atomsim validate: 90th-percentile error %.4f exceeds the threshold %.4f\n", all->ape_p90, max_p90);
        fail = 1;
    }
    if (!isnan(min_spearman) && !(all->spearman >= min_spearman)) {
        fprintf(stderr, "atomsim validate: Spearman %.4f is below the threshold %.4f\n", all->spearman, min_spearman);
        fail = 1;
    }
    return fail;
}

int cmd_validate(int argc, char **argv)
{
    static const struct option extra[] = {
        { "data", required_argument, NULL, OPT_DATA },
        { "jobs", required_argument, NULL, OPT_JOBS },
        { "max-events", required_argument, NULL, OPT_MAX_EVENTS },
        { "max-median-ape", required_argument, NULL, OPT_MAX_MEDIAN },
        { "max-p90-ape", required_argument, NULL, OPT_MAX_P90 },
        { "min-spearman", required_argument, NULL, OPT_MIN_SPEARMAN },
        { "worst", required_argument, NULL, OPT_WORST },
        { "only", required_argument, NULL, OPT_ONLY },
        { "split", required_argument, NULL, OPT_SPLIT },
        { "rows", required_argument, NULL, OPT_ROWS },
        { "tie-pct", required_argument, NULL, OPT_TIE_PCT },
        { "summary", no_argument, NULL, OPT_SUMMARY },
        { "by", required_argument, NULL, OPT_BY },
        { 0, 0, 0, 0 },
    };
    struct option longopts[CLI_MAX_LONGOPTS];
    cli_args a;
    cfg_config cfg;
    char err[CFG_ERR_MAX];
    const char *data = NULL, *only = NULL, *split_path = NULL;
    int rows = -1, summary = 0, by = VAL_BY_PATTERN;
    double max_events = 2e7, max_median = NAN, max_p90 = NAN, min_spearman = NAN, tie_pct = 0;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned long long worst = 5;
    int c;
    cli_args_init(&a);
    cli_longopts(longopts, extra);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "p:j:", longopts, NULL)) != -1) {
        double *target = NULL;
        switch (c) {
        case CLI_OPT_HELP:
            usage(stdout);
            return 0;
        case OPT_DATA:
            data = optarg;
            continue;
        case OPT_ONLY:
            only = optarg;
            continue;
        case OPT_SUMMARY:
            summary = 1;
            continue;
        case OPT_BY:
            if ((by = val_axis_from_name(optarg)) < 0) {
                cli_error("validate", "--by '%s' is not pattern, wg, smem or n", optarg);
                return 2;
            }
            continue;
        case OPT_SPLIT:
            split_path = optarg;
            continue;
        case OPT_ROWS:
            if ((rows = val_rows_from_name(optarg)) < 0) {
                cli_error("validate", "--rows '%s' is not fit, test or all", optarg);
                return 2;
            }
            continue;
        case 'j':
        case OPT_JOBS: {
            unsigned long long j;
            if (cli_parse_u64(optarg, &j) || j < 1 || j > 256) {
                cli_error("validate", "--jobs '%s' is not an integer in [1, 256]", optarg);
                return 2;
            }
            jobs = (long)j;
            continue;
        }
        case OPT_WORST:
            if (cli_parse_u64(optarg, &worst) || worst > 1000) {
                cli_error("validate", "--worst '%s' is not an integer in [0, 1000]", optarg);
                return 2;
            }
            continue;
        case OPT_MAX_EVENTS:
            target = &max_events;
            break;
        case OPT_MAX_MEDIAN:
            target = &max_median;
            break;
        case OPT_MAX_P90:
            target = &max_p90;
            break;
        case OPT_MIN_SPEARMAN:
            target = &min_spearman;
            break;
        case OPT_TIE_PCT:
            if (cli_parse_double(optarg, &tie_pct) || !(tie_pct >= 0 && tie_pct <= 50)) {
                cli_error("validate", "--tie-pct '%s' is not a percentage in [0, 50]", optarg);
                return 2;
            }
            continue;
        case '?':
        case ':':
            cli_error("validate", "bad option '%s' (see atomsim validate --help)", argv[optind - 1]);
            return 2;
        default: {
            int rc = cli_common_opt(&a, c, optarg, err);
            if (rc) {
                cli_error("validate", "%s", rc < 0 ? err : "unexpected option");
                return 2;
            }
            continue;
        }
        }
        if (cli_parse_double(optarg, target) || *target <= 0) {
            cli_error("validate", "'%s' is not a positive number", optarg);
            return 2;
        }
    }
    if (optind < argc) {
        cli_error("validate", "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (!data) {
        cli_error("validate", "--data FILE is required");
        return 2;
    }
    if ((rows >= 0) != (split_path != NULL)) {
        cli_error("validate", "--split FILE and --rows fit|test|all go together");
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
    unsigned char *keep = calloc(d.count ? d.count : 1, 1);
    val_prediction *pr = calloc(d.count ? d.count : 1, sizeof *pr);
    if (!keep || !pr) {
        cli_error("validate", "out of memory");
        return 1;
    }
    if (!val_select(&d, only, split_path ? &split : NULL, rows, keep)) {
        cli_error("validate", "no rows of %s match --only %s / --split %s --rows", data, only ? only : "(all)",
                  split_path ? split_path : "(none)");
        return 2;
    }
    if (val_predict_kept(&cfg, &d, keep, a.engine == CLI_ENGINE_MODEL ? cli_model_engine : cli_sim_engine, (int)jobs, pr,
                         err)) {
        cli_error("validate", "%s", err);
        return 1;
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
    int fail = past_thresholds(&all, max_median, max_p90, min_spearman);
    free(keep);
    free(pr);
    val_dataset_free(&d);
    return fail;
}
