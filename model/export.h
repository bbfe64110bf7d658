/* export.h - the dispatcher's cost tables: for every pattern, a grid over
 * n, the kernel's shape (workgroup size, shared memory per workgroup) and
 * the pattern's own axes (selectivity, bins, hot fraction, addresses).
 *
 * A table holds what does not depend on the query's data location: the
 * GPU's kernel time over every axis, and the CPU tier's compute time and
 * seed 000's contention density over the axes the CPU sees (the shape axes
 * are the GPU's alone).  Beside them, the decision of the table's rule and
 * the seed rule's verdict for the table's own data location, so a consumer
 * that never interpolates can read them off a cell.
 *
 *   exp_table *t;
 *   rc = exp_build(&gpu_cfg, &cpu_cfg, &opts, &t, err);  0, or -1 with err
 *   rc = exp_write(t, EXP_JSON, stdout, err);
 *   exp_free(t);
 *
 * Output is a pure function of the configs and options: no clock, no host,
 * no randomness, so identical input gives byte-identical tables.  The JSON
 * layout is model/schema/cost-table.schema.json, version EXP_SCHEMA_VERSION
 * (docs/dispatch.md). */
#ifndef ATOM_MODEL_EXPORT_H
#define ATOM_MODEL_EXPORT_H

#include <stdio.h>

#include "config.h"
#include "cpu_config.h"
#include "params.h"
#include "score.h"

#define EXP_SCHEMA_NAME "atomsim-cost-table"
#define EXP_SCHEMA_VERSION 3
#define EXP_MAX_AXES 5
#define EXP_MAX_VALUES 32

/* EXP_CSV_META: the CSV's provenance (configs, hashes, policy, version),
 * which the CSV leaves out so that it loads with default options; export
 * writes it as FILE.meta.json beside --output FILE. */
enum exp_format { EXP_JSON, EXP_CSV, EXP_C_HEADER, EXP_CSV_META };
#define EXP_CSV_META_SCHEMA_NAME "atomsim-cost-table-csv-meta"
#define EXP_CSV_META_SCHEMA_VERSION 1

/* Which pattern parameter an axis varies. */
enum exp_axis_kind {
    EXP_AXIS_N,
    EXP_AXIS_WG,
    EXP_AXIS_SMEM,
    EXP_AXIS_SELECTIVITY,
    EXP_AXIS_BINS,
    EXP_AXIS_HOT,
    EXP_AXIS_ADDRESSES,
    EXP_AXIS_KIND_COUNT
};
const char *exp_axis_name(enum exp_axis_kind k);
int exp_axis_from_name(const char *name, enum exp_axis_kind *out); /* 0, or -1 */
int exp_axis_log2(enum exp_axis_kind k);     /* 1: interpolated in log2 (positive values) */
int exp_axis_gpu_only(enum exp_axis_kind k); /* 1: the kernel's shape, which the CPU tier ignores */
void exp_axis_set(pat_params *p, enum exp_axis_kind k, double v);

typedef struct exp_axis {
    enum exp_axis_kind kind;
    int count;
    double values[EXP_MAX_VALUES];
} exp_axis;

/* Where a cell's GPU time came from: the model, the simulator, or the
 * model scaled by simulator / model at its simulator anchors
 * (export_anchor.c). */
enum exp_source { EXP_SOURCE_MODEL, EXP_SOURCE_SIM, EXP_SOURCE_ANCHORED };

/* One cell of a pattern's full grid (every axis). */
typedef struct exp_cell {
    double gpu_us;                    /* the kernel between its timestamps, no data movement */
    enum exp_source source;
    enum dsp_target decision;         /* per the table's rule and data location */
    enum dsp_target seed_decision;    /* seed 000's rule, same data location */
    enum dsp_reason seed_reason;
} exp_cell;

/* One cell of the CPU's grid (every axis but the kernel's shape). */
typedef struct exp_host_cell {
    double cpu_us;                    /* the CPU tier's compute, no data movement */
    double density, density_fraction;
} exp_host_cell;

/* The error of one side's column over one region of a pattern: the 10th,
 * 50th and 90th percentiles of measured / the table's answer over the
 * measured rows that fall in it (docs/dispatch.md, "Error bands"). */
typedef struct exp_band {
    double n_lo, n_hi;                /* n in [n_lo, n_hi) */
    int rows;
    double p10, p50, p90;
} exp_band;
#define EXP_MAX_BANDS 4

/* Whose times a band holds: the GPU's kernel (vkbench rows) or the CPU
 * tier's compute (cpubench rows). */
enum exp_side { EXP_SIDE_GPU, EXP_SIDE_CPU, EXP_SIDES };

typedef struct exp_pattern {
    enum pat_id pattern;
    int axis_count;
    exp_axis axes[EXP_MAX_AXES];      /* n, wg, smem_per_wg, then the pattern's own; the last varies fastest */
    pat_params fixed;                 /* the parameters no axis varies */
    size_t cell_count, host_cell_count;
    exp_cell *cells;
    exp_host_cell *host_cells;        /* row-major over the axes that are not GPU-only */
    int band_count[EXP_SIDES];
    exp_band bands[EXP_SIDES][EXP_MAX_BANDS];
} exp_pattern;

/* Fills the GPU time of one grid point; the model's by default. */
typedef int (*exp_gpu_fn)(void *ctx, const cfg_config *gpu, const pat_params *p, double *gpu_us,
                          enum exp_source *src, char err[CFG_ERR_MAX]);

typedef struct exp_options {
    unsigned only;                    /* mask of (1 << pat_id), 0 for every pattern */
    exp_gpu_fn gpu_fn;                /* NULL: the analytical model */
    void *gpu_ctx;
    int every_cell;                   /* 1: run gpu_fn at every cell, even where shared memory holds as many
                                         workgroups an SM as the grid point below (same time) */
    unsigned anchor;                  /* mask of (1 << pat_id): patterns whose model cells take
                                         simulator / model at their anchor (exp_anchor_pattern) */
} exp_options;

typedef struct exp_table {
    cfg_config gpu;
    cpu_config cpu;
    dsp_policy policy;
    int pattern_count;
    exp_pattern patterns[PAT_COUNT];
} exp_table;

/* The point of full-grid cell i, and the index of its host cell (the same
 * row-major walk with the GPU-only axes left out). */
void exp_cell_point(const exp_pattern *ep, size_t i, pat_params *p);
size_t exp_host_index(const exp_pattern *ep, size_t i);

/* The grid of one pattern for a config. */
int exp_axes_of(const cfg_config *c, enum pat_id id, exp_axis *axes, int *count);

/* Workgroups an SM holds at this point (0: the workgroup does not fit):
 * the one way shared memory reaches the GPU's time. */
int exp_wgs_per_sm(const cfg_config *gpu, const pat_params *p);

/* The analytical model's GPU time for one grid point (an exp_gpu_fn). */
int exp_model_gpu(void *ctx, const cfg_config *gpu, const pat_params *p, double *gpu_us, enum exp_source *src,
                  char err[CFG_ERR_MAX]);

/* Scales every model cell of ep by simulator / model at its simulator
 * anchors (export_anchor.c says which, docs/dispatch.md section 6), and marks it
 * EXP_SOURCE_ANCHORED; a pattern without simulator cells is left as it is.
 * 0, or -1 with err. */
int exp_anchor_pattern(const cfg_config *gpu, exp_pattern *ep, char err[CFG_ERR_MAX]);

/* Both sides' predictions at one point, decided by the config's policy
 * (no table, no interpolation): what `check` and the tests compare with. */
int exp_decide_point(const cfg_config *gpu, const cpu_config *cpu, const pat_params *p, dsp_decision *out,
                     dsp_density *dens, char err[CFG_ERR_MAX]);

int exp_build(const cfg_config *gpu, const cpu_config *cpu, const exp_options *opts, exp_table **out,
              char err[CFG_ERR_MAX]);

/* Attaches one side's error bands to one pattern (replacing any it had). */
void exp_set_bands(exp_table *t, enum pat_id id, enum exp_side side, const exp_band *bands, int count);

int exp_write(const exp_table *t, enum exp_format f, FILE *out, char err[CFG_ERR_MAX]);
/* A prediction as every export writes it: six significant digits, an
 * integer in exponent form written out in full (the baseline uses it too,
 * so that it holds the numbers a reader of the table sees). */
void exp_format_value(char *buf, size_t len, double v);
/* v at the six significant digits every cell holds (a cell's verdicts are
 * decided on the number a reader of the table sees). */
double exp_round6(double v);
void exp_free(exp_table *t);

#endif
