/* export.h - the dispatcher's cost tables: for every pattern, a grid over
 * n and the pattern's own axes (selectivity, bins, hot fraction,
 * addresses), each cell with the predicted GPU and CPU times, contention
 * density, the seed rule's penalty and inhibition, and the decision with
 * its reason; plus the thresholds the predictions themselves support.
 *
 *   exp_table *t;
 *   rc = exp_build(&gpu_cfg, &cpu_cfg, &t, err);      0, or -1 with err
 *   rc = exp_write(t, EXP_JSON, stdout, err);
 *   exp_free(t);
 *
 * Output is a pure function of the two configs: no clock, no host, no
 * randomness, so identical input gives byte-identical tables.  The JSON
 * layout is model/schema/cost-table.schema.json, version EXP_SCHEMA_VERSION
 * (documented in docs/model.md). */
#ifndef ATOM_MODEL_EXPORT_H
#define ATOM_MODEL_EXPORT_H

#include <stdio.h>

#include "config.h"
#include "cpu_config.h"
#include "params.h"
#include "score.h"

#define EXP_SCHEMA_NAME "atomsim-cost-table"
#define EXP_SCHEMA_VERSION 1
#define EXP_MAX_AXES 3
#define EXP_MAX_VALUES 32

enum exp_format { EXP_JSON, EXP_CSV, EXP_C_HEADER };

/* Which pattern parameter an axis varies. */
enum exp_axis_kind { EXP_AXIS_N, EXP_AXIS_SELECTIVITY, EXP_AXIS_BINS, EXP_AXIS_HOT, EXP_AXIS_ADDRESSES };
const char *exp_axis_name(enum exp_axis_kind k);
int exp_axis_log2(enum exp_axis_kind k); /* 1: powers of two, interpolated in log2 */

typedef struct exp_axis {
    enum exp_axis_kind kind;
    int count;
    double values[EXP_MAX_VALUES];
} exp_axis;

/* One cell of a pattern's grid. */
typedef struct exp_cell {
    double gpu_us, cpu_us;            /* data movement included, per dispatch.data_on_gpu */
    double density, density_fraction, penalty;
    int inhibited;
    enum dsp_reason reason;
    enum dsp_target decision;
} exp_cell;

/* Where the GPU stops beating the CPU tier for one pattern at one n: the
 * lowest density fraction on the pattern's density axis at which the CPU's
 * predicted cost is below the GPU's (no penalty, no inhibition). */
enum exp_threshold_status { EXP_CROSSOVER, EXP_GPU_ALWAYS, EXP_CPU_ALWAYS, EXP_NO_ATOMICS, EXP_NO_DENSITY_AXIS };
typedef struct exp_threshold {
    double n;
    enum exp_threshold_status status;
    double fraction;                  /* EXP_CROSSOVER only */
} exp_threshold;

typedef struct exp_pattern {
    enum pat_id pattern;
    int axis_count;
    exp_axis axes[EXP_MAX_AXES];      /* the first is n; the last varies fastest */
    pat_params fixed;                 /* the parameters no axis varies */
    size_t cell_count;
    exp_cell *cells;
    int threshold_count;
    exp_threshold thresholds[EXP_MAX_VALUES];
} exp_pattern;

typedef struct exp_table {
    cfg_config gpu;
    cpu_config cpu;
    int pattern_count;
    exp_pattern patterns[PAT_COUNT];
} exp_table;

/* The grid of one pattern for a config (histogram-shared's bins stop where
 * its shared memory stops fitting). */
int exp_axes_of(const cfg_config *c, enum pat_id id, exp_axis *axes, int *count);

/* Evaluates one cell: both engines' predictions, density and decision. */
int exp_cell_of(const cfg_config *gpu, const cpu_config *cpu, const pat_params *p, exp_cell *out,
                char err[CFG_ERR_MAX]);

/* `only`: a mask of (1 << pat_id) to export, 0 for every pattern. */
int exp_build(const cfg_config *gpu, const cpu_config *cpu, unsigned only, exp_table **out, char err[CFG_ERR_MAX]);
int exp_write(const exp_table *t, enum exp_format f, FILE *out, char err[CFG_ERR_MAX]);
void exp_free(exp_table *t);

#endif
