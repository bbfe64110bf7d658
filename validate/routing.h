/* routing.h - scores a dispatcher against a measured routing truth set:
 * the same configurations timed on the GPU (vkbench) and on the CPU tier
 * (cpubench) of one host, each side with the data already resident.
 *
 * For every configuration both sides measured, each rule's choice is
 * looked up in the cost table and compared with the measured faster side:
 *   - a misroute is a choice whose measured time is more than
 *     VAL_ROUTE_SLACK (10%) above the other side's;
 *   - regret = sum of the chosen sides' measured times / sum of the
 *     faster sides' - 1.
 * Beside them, the table's own accuracy on the set: its GPU kernel time
 * against the GPU's, its CPU time against the CPU's (absolute percentage
 * errors), and how often each side's measured time falls inside the
 * answer's error band. */
#ifndef ATOM_VALIDATE_ROUTING_H
#define ATOM_VALIDATE_ROUTING_H

#include "../model/export.h"
#include "../model/table.h"
#include "dataset.h"

#define VAL_ROUTE_SLACK 0.10

typedef struct val_route_row {
    pat_params params;
    double gpu_us, cpu_us;            /* measured medians */
    tbl_answer cost, seed;            /* the table's answers under each rule */
    /* the cost answer's bands on the part each scales and measured
     * times hold: [EXP_SIDE_GPU] the kernel, [EXP_SIDE_CPU] the CPU tier's
     * compute (= the answer's part when it has no band) */
    double part_lo_us[EXP_SIDES], part_hi_us[EXP_SIDES];
    int misroute[2];                  /* [rule] */
} val_route_row;

typedef struct val_route_stats {
    size_t rows;                      /* configurations both sides measured */
    size_t gpu_only, cpu_only;        /* measured on one side alone (not scored) */
    size_t outside;                   /* outside the table's grid (not scored) */
    size_t gpu_faster;                /* measured */
    size_t misroutes[2];              /* [enum dsp_rule] */
    double regret[2];
    double gpu_median_ape, gpu_p90_ape;
    double cpu_median_ape, cpu_p90_ape;
    /* each side's error band coverage: of the rows whose answer has a
     * band (p10..p90, so 80% inside when the band is right), how many
     * measured times fall inside it, below it and above it */
    size_t banded[EXP_SIDES], band_below[EXP_SIDES], band_above[EXP_SIDES];
    /* the cost answer's close calls (its two bands overlap): how many, how
     * many of the cost rule's misroutes are among them, and the regret of
     * the rows that are not close calls */
    size_t close_calls, close_misroutes;
    double clear_regret;
} val_route_stats;

/* Joins the two datasets on their configuration and scores the table with
 * the data on `data_on` (the truth set's: both).  rows may be NULL; when
 * not, *rows receives the scored rows (free() them).  0, or -1 with err. */
int val_route_score(const tbl_table *t, const val_dataset *gpu, const val_dataset *cpu, enum dsp_data_on data_on,
                    val_route_stats *st, val_route_row **rows, char err[CFG_ERR_MAX]);

#endif
