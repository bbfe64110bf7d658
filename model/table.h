/* table.h - loads a cost table written by `atomsim export` (JSON, schema
 * version 3) and answers GPU or CPU for one operation by interpolating
 * within the grid:
 *
 *   tbl_table *t;
 *   rc = tbl_load("tables/h100.json", &t, err);   0, or -1 with err
 *   tbl_query q; tbl_query_init(&q, PAT_HISTOGRAM); q.n = 1e6; q.bins = 4096;
 *   rc = tbl_lookup(t, &q, &answer, err);          0, or -1: q outside the grid
 *   tbl_free(t);
 *
 * Interpolation runs axis by axis.  Times interpolate their logarithm on
 * every axis (a cost that doubles per step stays exact); the density
 * interpolates in each axis's own scale: the logarithm on log2 axes (n, wg,
 * bins, addresses), the value on linear ones (selectivity, hot).  The
 * shared-memory axis brackets by the workgroups an SM holds.  The GPU's
 * kernel time interpolates over every axis, the CPU tier's time and the
 * density over the axes the CPU sees.  A query on grid points returns the
 * stored numbers exactly.  Data movement, the host's launch cost and the
 * decision are then derived from the interpolated costs with the table's
 * own policy (model/score.c), which a query may override.  Outside the grid
 * a lookup fails, unless the query asks to extrapolate, and then the answer
 * says so.
 *
 * A loaded table is read-only: lookups allocate nothing, touch no global
 * state and may run from any number of threads at once. */
#ifndef ATOM_MODEL_TABLE_H
#define ATOM_MODEL_TABLE_H

#include "config.h"
#include "params.h"
#include "score.h"

typedef struct tbl_table tbl_table;

typedef struct tbl_query {
    enum pat_id pattern;
    double n, selectivity, bins, hot, addresses;
    double wg;                        /* threads per workgroup */
    double smem_per_wg;               /* bytes requested per workgroup (0: the pattern's own) */
    int rule;                         /* enum dsp_rule, or -1: the table's */
    int data_on;                      /* enum dsp_data_on, or -1: the table's */
    int extrapolate;                  /* 1: answer outside the grid, and mark it */
} tbl_query;

/* The contract's defaults (n 2^20, wg 256, S 1, K 256, F 0, P 1, smem 0),
 * the table's rule and data location, no extrapolation. */
void tbl_query_init(tbl_query *q, enum pat_id pattern);

typedef struct tbl_answer {
    double gpu_us, cpu_us;            /* data movement and host launch included */
    double gpu_kernel_us, cpu_compute_us;
    double gpu_lo_us, gpu_hi_us;      /* the error band: gpu_us with its kernel part at p10..p90 of measured / answered */
    int band_rows;                    /* measured rows behind the band; 0: no band (gpu_lo = gpu_hi = gpu) */
    double cpu_lo_us, cpu_hi_us;      /* the CPU's band: cpu_us with its compute part at p10..p90 of measured / answered */
    int cpu_band_rows;                /* measured rows behind it; 0: no band (cpu_lo = cpu_hi = cpu) */
    int close_call;                   /* the two sides' bands overlap: the hardware has been on either side */
    double density_fraction;
    dsp_decision d;                   /* both rules' verdicts and the one in force */
    enum dsp_rule rule;
    enum dsp_data_on data_on;
    char source;                      /* 'm' model, 's' simulator, 'a' model scaled to the simulator, 'x' a mix among the corners */
    int extrapolated;                 /* some axis was outside the grid */
} tbl_answer;

/* Fails (-1, err) on a missing, unreadable or non-regular file, malformed
 * JSON, another schema or schema version, or a table that breaks its own
 * layout (a pattern or axis given twice, counts that do not match). */
int tbl_load(const char *path, tbl_table **out, char err[CFG_ERR_MAX]);
/* The same from JSON text already in memory (the exporter reads its own
 * table back this way to measure its answers); `path` names it in errors. */
int tbl_load_text(const char *text, const char *path, tbl_table **out, char err[CFG_ERR_MAX]);
void tbl_free(tbl_table *t);

/* Fails (-1, err) for a pattern the table lacks, or a query outside the
 * grid without extrapolate. */
int tbl_lookup(const tbl_table *t, const tbl_query *q, tbl_answer *a, char err[CFG_ERR_MAX]);

/* What the table was made from. */
const char *tbl_gpu_name(const tbl_table *t);
const char *tbl_gpu_config_path(const tbl_table *t);
/* The GPU config's trust level (gpu.trust) as the table recorded it. */
const char *tbl_gpu_trust(const tbl_table *t);
const char *tbl_config_hash(const tbl_table *t);
const char *tbl_cpu_name(const tbl_table *t);
const dsp_policy *tbl_policy(const tbl_table *t);
/* The grid's range on one axis of a pattern; -1 when the pattern or axis is absent. */
int tbl_axis_range(const tbl_table *t, enum pat_id id, const char *axis, double *lo, double *hi);

#endif
