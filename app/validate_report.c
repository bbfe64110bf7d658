/* validate_report.c - the printers of `atomsim validate` (validate_report.h). */
#include "validate_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"

static void fmt_rho(char *buf, size_t len, double rho)
{
    if (isnan(rho))
        snprintf(buf, len, "%s", "-");
    else
        snprintf(buf, len, "%.3f", rho);
}

void vrep_rows_csv(const val_dataset *d, const val_prediction *pr, const unsigned char *keep, const char *engine)
{
    prn_csv_params_header(stdout);
    printf(",engine,measured_us,measured_min_us,measured_max_us,predicted_us,ape,status%s\n",
           d->has_cas ? ",measured_cas_attempts,predicted_cas_attempts" : "");
    for (size_t i = 0; i < d->count; i++) {
        if (!keep[i])
            continue;
        char pred[40] = "", ape[40] = "";
        if (pr[i].status == VAL_OK) {
            prn_double(pred, sizeof pred, round(pr[i].time_us * 1e3) / 1e3);
            prn_double(ape, sizeof ape, round(pr[i].ape * 1e4) / 1e4);
        }
        prn_csv_params(stdout, &d->rows[i].params);
        printf(",%s,%g,%g,%g,%s,%s,%s", engine, d->rows[i].time_us_median, d->rows[i].time_us_min,
               d->rows[i].time_us_max, pred, ape,
               pr[i].status == VAL_OK ? "ok" : (pr[i].status == VAL_FAILED ? "not_run" : "bad_input"));
        if (d->has_cas) {
            char mc[40] = "", pc[40] = "";
            if (d->rows[i].cas_attempts >= 0)
                snprintf(mc, sizeof mc, "%.0f", d->rows[i].cas_attempts);
            if (pr[i].status == VAL_OK && d->rows[i].cas_attempts >= 0)
                snprintf(pc, sizeof pc, "%.0f", pr[i].cas_attempts);
            printf(",%s,%s", mc, pc);
        }
        printf("\n");
    }
}

/* a fraction for the CSV summary: empty when it does not exist */
static void csv_figure(double v)
{
    if (isnan(v))
        printf(",");
    else
        printf(",%.6g", v);
}

static void summary_csv_line(const char *name, const val_summary *s)
{
    printf("%s,%d,%d", name, s->rows, s->ran);
    csv_figure(s->ran ? s->ape_median : NAN);
    csv_figure(s->ran ? s->ape_p90 : NAN);
    csv_figure(s->spearman);
    csv_figure(s->spearman_tied);
    csv_figure(s->span);
    printf("\n");
}

void vrep_summary_csv(const val_dataset *d, const val_prediction *pr, const unsigned char *keep, double tie_frac,
                      enum val_axis by)
{
    printf("%s,rows,ran,median_ape,p90_ape,spearman,spearman_tied,span\n", val_axis_column(by));
    val_summary s;
    for (int r = 0; r < val_regions(by); r++) {
        val_summarize_region(d, pr, keep, by, r, tie_frac, &s);
        if (s.rows)
            summary_csv_line(val_region_label(by, r), &s);
    }
    val_summarize(d, pr, keep, -1, tie_frac, &s);
    summary_csv_line("overall", &s);
}

/* tied: also the spearman~ column (--tie-pct). */
static void summary_text_line(const char *name, const val_summary *s, int tied)
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
static void cas_text(const val_dataset *d, const val_prediction *pr, const unsigned char *keep)
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

static int cmp_ape_desc(const void *a, const void *b, void *ctx)
{
    const val_prediction *p = ctx;
    double x = p[*(const size_t *)a].ape, y = p[*(const size_t *)b].ape;
    return (x < y) - (x > y);
}

static void worst_text(const val_dataset *d, const val_prediction *pr, const unsigned char *keep, const char *data_path,
                       size_t worst)
{
    size_t *order = malloc((d->count ? d->count : 1) * sizeof *order), n = 0;
    for (size_t i = 0; order && i < d->count; i++)
        if (keep[i] && pr[i].status == VAL_OK)
            order[n++] = i;
    if (order && worst) {
        qsort_r(order, n, sizeof *order, cmp_ape_desc, (void *)pr);
        printf("\nworst rows (line in %s: measured_us -> predicted_us):\n", data_path);
        for (size_t k = 0; k < n && k < worst; k++) {
            const val_row *r = &d->rows[order[k]];
            printf("  line %4d %-18s n=%llu wg=%d S=%g K=%u F=%g P=%u smem=%u: %.2f -> %.2f (%+.0f%%)\n", r->line,
                   pat_name(r->params.pattern), (unsigned long long)r->params.n, r->params.wg, r->params.selectivity,
                   r->params.bins, r->params.hot, r->params.addresses, r->params.smem_per_wg, r->time_us_median,
                   pr[order[k]].time_us, 100 * (pr[order[k]].time_us / r->time_us_median - 1));
        }
    }
    free(order);
}

static void not_run_text(const val_dataset *d, const val_prediction *pr, const unsigned char *keep)
{
    int notrun = 0;
    for (size_t i = 0; i < d->count; i++)
        if (keep[i] && pr[i].status != VAL_OK) {
            if (!notrun++)
                printf("\nrows not run:\n");
            if (notrun <= 10)
                printf("  line %4d %s: %s\n", d->rows[i].line, pat_name(d->rows[i].params.pattern), pr[i].err);
        }
    if (notrun > 10)
        printf("  ... and %d more\n", notrun - 10);
}

void vrep_summary_text(const val_dataset *d, const val_prediction *pr, const unsigned char *keep, const char *data_path,
                       const char *config_path, const char *engine, double tie_frac, enum val_axis by, size_t worst)
{
    printf("%s engine on %s (%s), config %s\n\n", engine, data_path, d->gpu, config_path[0] ? config_path : "(defaults)");
    int tied = tie_frac > 0;
    printf("%-20s %5s %5s %9s %9s %9s %9s", val_axis_column(by), "rows", "ran", "med_ape%", "p90_ape%", "spearman",
           "span");
    printf(tied ? " %9s\n" : "\n", "spearman~");
    val_summary s;
    for (int r = 0; r < val_regions(by); r++) {
        val_summarize_region(d, pr, keep, by, r, tie_frac, &s);
        if (s.rows)
            summary_text_line(val_region_label(by, r), &s, tied);
    }
    val_summarize(d, pr, keep, -1, tie_frac, &s);
    summary_text_line("overall", &s, tied);
    if (tied)
        printf("(spearman~: measured times within %g%% of each other ranked equal, the prediction's order among them not scored)\n",
               100 * tie_frac);
    if (d->has_cas)
        cas_text(d, pr, keep);
    worst_text(d, pr, keep, data_path, worst);
    not_run_text(d, pr, keep);
}

/* 1 (having said why on stderr) when the overall figures pass a threshold */
int vrep_past_thresholds(const val_summary *all, double max_median, double max_p90, double min_spearman)
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
