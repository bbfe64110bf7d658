/* check_report.c - the printers of `atomsim check` (check_report.h). */
#include "../util/out.h"
#include "check_report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../model/params_csv.h"
#include "args.h"

/* ---- atomsim check ---------------------------------------------------------- */

static void check_table(FILE *f, const chk_report *rep, int csv)
{
    if (csv) {
        fprintf(f, "formula,against,metric,value,tolerance,points,within,status,where\n");
        for (int i = 0; i < rep->count; i++) {
            const chk_result *r = &rep->results[i];
            fprintf(f, "\"%s\",%s,\"%s\",%.6g,%.6g,%d,%d,%s,\"%s\"\n", r->name, r->against, r->metric, r->value,
                    r->tolerance, r->points, r->within, chk_status_name(r->status), r->where);
        }
        return;
    }
    fprintf(f, "%-34s %-9s %-32s %9s %9s %7s  %-10s %s\n", "formula", "against", "metric", "value", "tolerance",
            "within", "status", "where");
    for (int i = 0; i < rep->count; i++) {
        const chk_result *r = &rep->results[i];
        char within[24];
        snprintf(within, sizeof within, "%d/%d", r->within, r->points);
        fprintf(f, "%-34s %-9s %-32s %9.4g %9.4g %7s  %-10s %s\n", r->name, r->against, r->metric, r->value, r->tolerance,
                within, chk_status_name(r->status), r->where);
    }
}

void crep_check(const chk_report *rep, const cfg_config *cfg, const char *data, int csv)
{
    if (!csv)
        printf("atomsim check: %s (hash %016llx), %d simulated grid points, %s%s\n\n", cfg->path[0] ? cfg->path : "defaults",
               (unsigned long long)cfg_hash(cfg), rep->grid_points, data ? "measured " : "no measured dataset",
               data ? data : "");
    check_table(stdout, rep, csv);
    if (!csv)
        printf("\n%d checks, %d drifted past their tolerance; seeds are reported, never failed\n", rep->count,
               rep->drifted);
}

/* ---- atomsim check --against sim ---------------------------------------------- */

static void describe_point(char *buf, size_t len, const mvs_point *p)
{
    mvs_describe(buf, len, &p->p);
    size_t u = strlen(buf);
    snprintf(buf + u, len - u, ": %+.1f%% (%.4g vs %.4g us)", 100 * mvs_error(p), p->model_us, p->sim_us);
}

static const char *verdict(const mvs_score *s)
{
    return !s->scored ? "not scored" : s->meets ? "met" : "MISSED";
}

static void print_line(const char *name, const mvs_score *s, int csv)
{
    char worst[256] = "";
    if (s->worst_pt)
        describe_point(worst, sizeof worst, s->worst_pt);
    if (csv) {
        printf("%s,%d,%d,%d,%d,%.6g,%.6g,%s,\"%s\"\n", name, s->rows, s->unfinished, s->failed, s->scored,
               s->median, s->p90, verdict(s), worst);
        return;
    }
    printf("%-19s %5d %10d %6d %6d %8.2f %8.2f  %-10s %s\n", name, s->rows, s->unfinished, s->failed, s->scored,
           100 * s->median, 100 * s->p90, verdict(s), worst);
}

int crep_mvs_rows(const char *path, const mvs_point *pts, uint64_t n)
{
    static const char *const status[] = { "scored", "unfinished", "failed" };
    out_file of;
    char err[CFG_ERR_MAX];
    if (out_open(&of, path, err, sizeof err)) {
        cli_error("check", "%s", err);
        return -1;
    }
    FILE *f = of.f;
    char params[256];
    pat_csv_header(PAT_CSV_TABLE, params, sizeof params);
    fprintf(f, "pattern,%s,sim_us,model_us,error,status\n", params);
    for (uint64_t i = 0; i < n; i++) {
        const mvs_point *p = &pts[i];
        fprintf(f, "%s,", pat_name(p->p.pattern));
        pat_csv_write(f, PAT_CSV_TABLE, &p->p, 9);
        fputc(',', f);
        /* a time is written only when its engine finished */
        if (p->status == MVS_SCORED)
            fprintf(f, "%.9g,%.9g,%.6g", p->sim_us, p->model_us, mvs_error(p));
        else if (p->status == MVS_UNFINISHED)
            fprintf(f, ",%.9g,", p->model_us);
        else
            fputs(",,", f);
        fprintf(f, ",%s\n", status[p->status]);
    }
    if (out_commit(&of, err, sizeof err)) {
        cli_error("check", "%s", err);
        return -1;
    }
    return 0;
}

void crep_mvs(const mvs_report *rep, const crep_mvs_run *run, int csv)
{
    int n = rep->npatterns;
    if (csv)
        printf("pattern,rows,unfinished,failed,scored,median,p90,goals,worst\n");
    else {
        printf("atomsim check --against sim: %s (hash %016llx), seed %llu, %llu points over %d pattern%s, n %s, "
               "sim.max_events %g\n",
               run->config_path, run->hash, run->seed, run->points, n, n == 1 ? "" : "s", run->n_range,
               run->max_events);
        printf("error = |model/sim - 1| over the scored rows; goals: median <= %g%%, p90 <= %g%%\n\n",
               100 * MVS_GOAL_MEDIAN, 100 * MVS_GOAL_P90);
        printf("%-19s %5s %10s %6s %6s %8s %8s  %-10s %s\n", "pattern", "rows", "unfinished", "failed", "scored",
               "median%", "p90%", "goals", "worst");
    }
    /* patterns in the table's order, whatever the order of --only */
    for (int id = 0; id < PAT_COUNT; id++)
        if (rep->listed[id])
            print_line(pat_name((enum pat_id)id), &rep->per[id], csv);
    print_line("all", &rep->all, csv);
    if (csv)
        return;
    printf("\n%d of %d pattern%s miss%s a goal", rep->missed, n, n == 1 ? "" : "s", rep->missed == 1 ? "es" : "");
    for (int id = 0, first = 1; id < PAT_COUNT; id++)
        if (rep->listed[id] && !rep->per[id].meets) {
            printf("%s%s", first ? ": " : ", ", pat_name((enum pat_id)id));
            first = 0;
        }
    printf("; %d row%s unfinished within sim.max_events (not scored)\n", rep->all.unfinished,
           rep->all.unfinished == 1 ? "" : "s");
}

void crep_mvs_fault(void *ctx, const mvs_point *pt, const char *engine, const char *why)
{
    char d[256];
    (void)ctx;
    mvs_describe(d, sizeof d, &pt->p);
    cli_error("check", "%s %s (%s): %s", pat_name(pt->p.pattern), d, engine, why);
}

int crep_mvs_write(const mvs_check_result *res, const crep_mvs_run *run, const char *rows_out, int csv)
{
    if (rows_out && crep_mvs_rows(rows_out, res->pts, res->count))
        return 1;
    crep_mvs(&res->rep, run, csv);
    if (out_stdout_failed("check"))
        return 1;
    return res->rep.missed || res->rep.failed ? 1 : 0;
}

/* ---- atomsim check --routing ------------------------------------------------- */

void crep_routing_rows(FILE *f, const val_route_row *rows, size_t n)
{
    char params[256];
    pat_csv_header(PAT_CSV_TABLE, params, sizeof params);
    fprintf(f, "pattern,%s,gpu_us,cpu_us,faster,pred_gpu_us,pred_cpu_us,cost_decision,seed_decision,seed_reason,"
               "cost_misroute,seed_misroute,band_rows,pred_gpu_lo_us,pred_gpu_hi_us,cpu_band_rows,pred_cpu_lo_us,"
               "pred_cpu_hi_us,close_call\n",
            params);
    for (size_t i = 0; i < n; i++) {
        const val_route_row *r = &rows[i];
        fprintf(f, "%s,", pat_name(r->params.pattern));
        pat_csv_write(f, PAT_CSV_TABLE, &r->params, 6);
        fprintf(f, ",%.6g,%.6g,%s,%.6g,%.6g,%s,%s,%s,%d,%d,%d,%.6g,%.6g,%d,%.6g,%.6g,%d\n", r->gpu_us, r->cpu_us,
                r->gpu_us < r->cpu_us ? "gpu" : "cpu", r->cost.gpu_kernel_us, r->cost.cpu_compute_us,
                dsp_target_name(r->cost.d.target), dsp_target_name(r->seed.d.target), dsp_reason_name(r->seed.d.seed_reason),
                r->misroute[0], r->misroute[1], r->cost.band_rows, r->part_lo_us[EXP_SIDE_GPU], r->part_hi_us[EXP_SIDE_GPU],
                r->cost.cpu_band_rows, r->part_lo_us[EXP_SIDE_CPU], r->part_hi_us[EXP_SIDE_CPU], r->cost.close_call);
    }
}

void crep_routing_stats(const val_route_stats *s, int csv)
{
    double n = s->rows ? (double)s->rows : NAN;
    if (csv) {
        /* the bands' coverage belongs to the table, not a rule: the same on both lines */
        printf("rule,rows,misroutes,misroute_pct,regret_pct,banded,band_inside,band_below,band_above,"
               "cpu_banded,cpu_band_inside,cpu_band_below,cpu_band_above,close_calls,close_call_misroutes,"
               "clear_regret_pct\n");
        for (int r = 0; r < 2; r++) {
            printf("%s,%zu,%zu,%.2f,%.2f", dsp_rule_name((enum dsp_rule)r), s->rows, s->misroutes[r],
                   100 * s->misroutes[r] / n, 100 * s->regret[r]);
            for (int side = 0; side < EXP_SIDES; side++)
                printf(",%zu,%zu,%zu,%zu", s->banded[side], s->banded[side] - s->band_below[side] - s->band_above[side],
                       s->band_below[side], s->band_above[side]);
            /* the close calls and what falls outside them are the cost
             * rule's: the seed rule's line leaves them empty */
            if (r == DSP_RULE_COST)
                printf(",%zu,%zu,%.2f\n", s->close_calls, s->close_misroutes, 100 * s->clear_regret);
            else
                printf(",,,\n");
        }
        return;
    }
    printf("truth set: %zu configurations measured on both sides (%zu GPU faster, %zu CPU faster)", s->rows,
           s->gpu_faster, s->rows - s->gpu_faster);
    printf("; not scored: %zu GPU only, %zu CPU only, %zu outside the table\n", s->gpu_only, s->cpu_only, s->outside);
    printf("%-6s %10s %12s %10s\n", "rule", "misroutes", "misroute %", "regret %");
    for (int r = 0; r < 2; r++)
        printf("%-6s %10zu %12.2f %10.2f\n", dsp_rule_name((enum dsp_rule)r), s->misroutes[r], 100 * s->misroutes[r] / n,
               100 * s->regret[r]);
    printf("table vs measured: GPU kernel median %.1f%%, p90 %.1f%%; CPU tier median %.1f%%, p90 %.1f%%\n",
           100 * s->gpu_median_ape, 100 * s->gpu_p90_ape, 100 * s->cpu_median_ape, 100 * s->cpu_p90_ape);
    static const char *const label[EXP_SIDES] = { "GPU error band", "CPU error band" };
    for (int side = 0; side < EXP_SIDES; side++) {
        if (s->banded[side]) {
            size_t inside = s->banded[side] - s->band_below[side] - s->band_above[side];
            printf("%s (p10..p90, 80%% inside if right): %zu of %zu banded rows inside (%.1f%%), %zu below, %zu above\n",
                   label[side], inside, s->banded[side], 100.0 * inside / s->banded[side], s->band_below[side],
                   s->band_above[side]);
        } else
            printf("%s: no scored row's answer has a band\n", label[side]);
    }
    printf("close calls (the two bands overlap): %zu of %zu rows, holding %zu of the cost rule's %zu misroutes; "
           "the other rows' regret %.2f%%\n",
           s->close_calls, s->rows, s->close_misroutes, s->misroutes[DSP_RULE_COST], 100 * s->clear_regret);
}
