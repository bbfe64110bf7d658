/* check_report.c - the printers of `atomsim check` (check_report.h). */
#include "check_report.h"

#include <stdio.h>

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
