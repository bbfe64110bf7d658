/* table.h - loads a cost table written by `atomsim export` (JSON) and
 * answers GPU or CPU for one operation by interpolating within the grid:
 *
 *   tbl_table *t;
 *   rc = tbl_load("costs.json", &t, err);        0, or -1 with err
 *   rc = tbl_lookup(t, &query, 0, &answer, err);  0, or -1: outside the grid
 *   tbl_free(t);
 *
 * Interpolation runs axis by axis in each axis's own scale: log2 axes (n,
 * bins, addresses) interpolate the logarithm of positive values, so a
 * density of 1/K is exact between powers of two; linear axes (selectivity,
 * hot) interpolate values linearly.  The decision is then re-derived from
 * the interpolated costs and density with the table's own thresholds, the
 * same rule export used (model/score.c).  Outside the grid a lookup fails,
 * unless extrapolation is asked for, and then the answer says so. */
#ifndef ATOM_MODEL_TABLE_H
#define ATOM_MODEL_TABLE_H

#include "config.h"
#include "params.h"
#include "score.h"

typedef struct tbl_table tbl_table;

typedef struct tbl_query {
    enum pat_id pattern;
    double n, selectivity, bins, hot, addresses;
    int wg;                           /* 0: whatever the table holds */
} tbl_query;

typedef struct tbl_answer {
    double gpu_us, cpu_us;
    double density_fraction, penalty;
    int inhibited;
    enum dsp_reason reason;
    enum dsp_target decision;
    int extrapolated;                 /* some axis was outside the grid */
} tbl_answer;

/* Fails (-1, err) on a missing or unreadable file, malformed JSON, another
 * schema or schema version, or a table that breaks its own layout. */
int tbl_load(const char *path, tbl_table **out, char err[CFG_ERR_MAX]);
void tbl_free(tbl_table *t);

/* Fails (-1, err) for a pattern the table lacks, or a query outside the
 * grid when extrapolate is 0. */
int tbl_lookup(const tbl_table *t, const tbl_query *q, int extrapolate, tbl_answer *a, char err[CFG_ERR_MAX]);

/* The GPU the table was made for, and its config hash. */
const char *tbl_gpu_name(const tbl_table *t);
const char *tbl_config_hash(const tbl_table *t);

#endif
