/* cmd_validate.c - `atomsim validate`: predict every measured row of a
 * dataset and report how far the predictions fall from the hardware, per
 * pattern and overall; optionally fail when the error passes a threshold. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../validate/compare.h"
#include "../../validate/split.h"
#include "../print.h"
#include "args.h"
#include "commands.h"

enum { OPT_DATA = 2000, OPT_JOBS, OPT_MAX_EVENTS, OPT_MAX_MEDIAN, OPT_MAX_P90, OPT_MIN_SPEARMAN, OPT_WORST, OPT_ONLY, OPT_SPLIT,
       OPT_ROWS, OPT_TIE_PCT };

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim validate --config FILE --data validate/data/GPU.csv [--engine sim|model]\n"
               "                        [-p section.key=value ...] [--format text|csv] [-j JOBS]\n"
               "                        [--max-events N] [--only PATTERN[,PATTERN...]] [--worst K]\n"
               "                        [--max-median-ape F] [--max-p90-ape F] [--min-spearman R]\n"
               "                        [--split FILE --rows fit|test|all] [--tie-pct P]\n"
               "Rows the engine cannot finish within --max-events (default 2e7 per row) are\n"
               "reported as not run, never guessed.  With thresholds, exits 1 when the overall\n"
               "error passes them.  --split (validate/split.h) with --rows keeps only the fit or\n"
               "the held-out test rows of a calibration split.  --tie-pct P adds a column,\n"
               "spearman~, the rank correlation with measured times closer than P%% counted\n"
               "as equal and the prediction's order among them not scored (two boards measure\n"
               "a row 0.45%% apart at the median).\n");
}

static int cmp_ape_desc(const void *a, const void *b, void *ctx)
{
    const val_prediction *p = ctx;
    double x = p[*(const size_t *)a].ape, y = p[*(const size_t *)b].ape;
    return (x < y) - (x > y);
}

static void fmt_rho(char *buf, size_t len, double rho)
{
    if (isnan(rho))
        snprintf(buf, len, "%s", "-");
    else
        snprintf(buf, len, "%.3f", rho);
}

/* tied: also the spearman~ column (--tie-pct). */
static void print_summary_line(const char *name, const val_summary *s, int tied)
{
    char sp[16], st[16];
    fmt_rho(sp, sizeof sp, s->spearman);
    fmt_rho(st, sizeof st, s->spearman_tied);
    printf("%-20s %5d %5d %9.1f %9.1f %9s %9.1f", name, s->rows, s->ran, 100 * s->ape_median, 100 * s->ape_p90, sp,
           s->span);
    if (tied)
        printf(" %9s", st);
    printf("\n");
}

/* The GPU's own compare-and-swap counts (vkbench --count-cas) against the
 * engine's: a check of the retry dynamics that the time alone cannot give
 * (a count twice too high with each attempt half as dear times the same). */
static void print_cas_summary(const val_dataset *d, const val_prediction *pr, const unsigned char *keep)
{
    printf("\ncompare-and-swaps, simulated / counted on the GPU (lanes, summed over threads):\n");
    printf("%-20s %5s %9s %9s %9s\n", "pattern", "rows", "median", "min", "max");
    val_cas_summary c;
    for (int p = 0; p < PAT_COUNT; p++) {
        val_summarize_cas(d, pr, keep, p, &c);
        if (c.rows)
            printf("%-20s %5d %9.2f %9.2f %9.2f\n", pat_name((enum pat_id)p), c.rows, c.ratio_median, c.ratio_min,
                   c.ratio_max);
    }
    val_summarize_cas(d, pr, keep, -1, &c);
    if (c.rows)
        printf("%-20s %5d %9.2f %9.2f %9.2f\n", "overall", c.rows, c.ratio_median, c.ratio_min, c.ratio_max);
    else
        printf("  (no row with a count ran)\n");
}

int cmd_validate(int argc, char **argv)
{
    static const struct option longopts[] = {
        CLI_COMMON_LONGOPTS,
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
        { 0, 0, 0, 0 },
    };
    cli_args a;
    cfg_config cfg;
    char err[CFG_ERR_MAX];
    const char *data = NULL, *only = NULL, *split_path = NULL;
    int rows = -1;
    double max_events = 2e7, max_median = NAN, max_p90 = NAN, min_spearman = NAN, tie_pct = 0;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned long long worst = 5;
    int c;
    cli_args_init(&a);
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
    size_t kept = 0;
    for (size_t i = 0; i < d.count; i++) {
        const char *name = pat_name(d.rows[i].params.pattern);
        int k = 1;
        if (only) {
            k = 0;
            size_t len = strlen(name);
            for (const char *p = only; (p = strstr(p, name)); p += len)
                if ((p == only || p[-1] == ',') && (p[len] == 0 || p[len] == ','))
                    k = 1;
        }
        if (split_path && rows != VAL_ROWS_ALL && (rows == VAL_ROWS_TEST) != val_split_is_test(&split, &d.rows[i].params))
            k = 0;
        keep[i] = (unsigned char)k;
        kept += (size_t)k;
    }
    if (!kept) {
        cli_error("validate", "no rows of %s match --only %s / --split %s --rows", data, only ? only : "(all)",
                  split_path ? split_path : "(none)");
        return 2;
    }
    /* predict only kept rows: compact, run, scatter back */
    val_dataset sub = d;
    sub.rows = malloc(kept * sizeof *sub.rows);
    val_prediction *spr = calloc(kept, sizeof *spr);
    if (!sub.rows || !spr) {
        cli_error("validate", "out of memory");
        return 1;
    }
    sub.count = 0;
    for (size_t i = 0; i < d.count; i++)
        if (keep[i])
            sub.rows[sub.count++] = d.rows[i];
    int rc = val_predict_all(&cfg, &sub, a.engine == CLI_ENGINE_MODEL ? cli_model_engine : cli_sim_engine, (int)jobs, spr,
                             err);
    if (rc) {
        cli_error("validate", "%s", err);
        return 1;
    }
    for (size_t i = 0, k = 0; i < d.count; i++)
        if (keep[i])
            pr[i] = spr[k++];
    free(sub.rows);
    free(spr);

    const char *engine = a.engine == CLI_ENGINE_MODEL ? "model" : "sim";
    if (a.format == CLI_FORMAT_CSV) {
        printf("pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg,engine,measured_us,measured_min_us,measured_max_us,"
               "predicted_us,ape,status%s\n", d.has_cas ? ",measured_cas_attempts,predicted_cas_attempts" : "");
        for (size_t i = 0; i < d.count; i++) {
            if (!keep[i])
                continue;
            const pat_params *p = &d.rows[i].params;
            char sel[32], hot[32], pred[40], ape[40];
            prn_double(sel, sizeof sel, p->selectivity);
            prn_double(hot, sizeof hot, p->hot);
            if (pr[i].status == VAL_OK) {
                prn_double(pred, sizeof pred, round(pr[i].time_us * 1e3) / 1e3);
                prn_double(ape, sizeof ape, round(pr[i].ape * 1e4) / 1e4);
            } else {
                strcpy(pred, "");
                strcpy(ape, "");
            }
            printf("%s,%llu,%d,%s,%u,%s,%u,%u,%s,%g,%g,%g,%s,%s,%s", pat_name(p->pattern), (unsigned long long)p->n,
                   p->wg, sel, p->bins, hot, p->addresses, p->smem_per_wg, engine, d.rows[i].time_us_median,
                   d.rows[i].time_us_min, d.rows[i].time_us_max, pred, ape,
                   pr[i].status == VAL_OK ? "ok" : (pr[i].status == VAL_FAILED ? "not_run" : "bad_input"));
            if (d.has_cas) {
                char mc[40] = "", pc[40] = "";
                if (d.rows[i].cas_attempts >= 0)
                    snprintf(mc, sizeof mc, "%.0f", d.rows[i].cas_attempts);
                if (pr[i].status == VAL_OK && d.rows[i].cas_attempts >= 0)
                    snprintf(pc, sizeof pc, "%.0f", pr[i].cas_attempts);
                printf(",%s,%s", mc, pc);
            }
            printf("\n");
        }
    } else {
        printf("%s engine on %s (%s), config %s\n\n", engine, data, d.gpu, cfg.path[0] ? cfg.path : "(defaults)");
        int tied = tie_pct > 0;
        printf("%-20s %5s %5s %9s %9s %9s %9s", "pattern", "rows", "ran", "med_ape%", "p90_ape%", "spearman", "span");
        printf(tied ? " %9s\n" : "\n", "spearman~");
        val_summary s;
        for (int p = 0; p < PAT_COUNT; p++) {
            val_summarize(&d, pr, keep, p, tie_pct / 100, &s);
            if (s.rows)
                print_summary_line(pat_name((enum pat_id)p), &s, tied);
        }
        val_summarize(&d, pr, keep, -1, tie_pct / 100, &s);
        print_summary_line("overall", &s, tied);
        if (tied)
            printf("(spearman~: measured times within %g%% of each other ranked equal, the prediction's order among them not scored)\n",
                   tie_pct);
        if (d.has_cas)
            print_cas_summary(&d, pr, keep);
        size_t *order = malloc(d.count * sizeof *order), n = 0;
        for (size_t i = 0; order && i < d.count; i++)
            if (keep[i] && pr[i].status == VAL_OK)
                order[n++] = i;
        if (order && worst) {
            qsort_r(order, n, sizeof *order, cmp_ape_desc, pr);
            printf("\nworst rows (line in %s: measured_us -> predicted_us):\n", data);
            for (size_t k = 0; k < n && k < worst; k++) {
                const val_row *r = &d.rows[order[k]];
                printf("  line %4d %-18s n=%llu wg=%d S=%g K=%u F=%g P=%u smem=%u: %.2f -> %.2f (%+.0f%%)\n", r->line,
                       pat_name(r->params.pattern), (unsigned long long)r->params.n, r->params.wg, r->params.selectivity,
                       r->params.bins, r->params.hot, r->params.addresses, r->params.smem_per_wg, r->time_us_median,
                       pr[order[k]].time_us, 100 * (pr[order[k]].time_us / r->time_us_median - 1));
            }
        }
        free(order);
        int notrun = 0;
        for (size_t i = 0; i < d.count; i++)
            if (keep[i] && pr[i].status != VAL_OK) {
                if (!notrun++)
                    printf("\nrows not run:\n");
                if (notrun <= 10)
                    printf("  line %4d %s: %s\n", d.rows[i].line, pat_name(d.rows[i].params.pattern), pr[i].err);
            }
        if (notrun > 10)
            printf("  ... and %d more\n", notrun - 10);
    }
    int fail = 0;
    val_summary all;
    val_summarize(&d, pr, keep, -1, 0, &all);
    if (!isnan(max_median) && !(all.ape_median <= max_median)) {
        fprintf(stderr, "atomsim validate: median absolute error %.4f exceeds the threshold %.4f\n", all.ape_median, max_median);
        fail = 1;
    }
    if (!isnan(max_p90) && !(all.ape_p90 <= max_p90)) {
        fprintf(stderr, "atomsim validate: 90th-percentile error %.4f exceeds the threshold %.4f\n", all.ape_p90, max_p90);
        fail = 1;
    }
    if (!isnan(min_spearman) && !(all.spearman >= min_spearman)) {
        fprintf(stderr, "atomsim validate: Spearman %.4f is below the threshold %.4f\n", all.spearman, min_spearman);
        fail = 1;
    }
    free(keep);
    free(pr);
    val_dataset_free(&d);
    return fail;
}
