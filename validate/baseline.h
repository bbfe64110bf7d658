/* baseline.h - a committed baseline of the model's cost table, and the
 * comparison `atomsim check --baseline FILE` makes with today's table.
 *
 * A baseline belongs to one GPU config (its gpu.name) and records the
 * effective GPU and CPU configs beside every cell: gpu_us and the decision
 * at every point of the table's full grid, cpu_us at every point of the CPU
 * tier's grid.  The file is text, one row of the innermost axis a line, so
 * that a formula change shows in review as the lines it moved
 * (docs/model.md, section 7, "Baselines of the cost table", gives the format):
 *
 *   bl_table cur, base;
 *   bl_from_export(t, tol, &cur, err);        today's, from exp_build
 *   bl_write(&cur, f);                        byte-identical for equal input
 *   bl_load(path, &base, err);                0, or -1 with one line in err
 *   bl_compare(&base, &cur, tol, &res);       res.drift: something moved
 *   bl_result_free(&res); bl_free(&cur); bl_free(&base);
 */
#ifndef ATOM_VALIDATE_BASELINE_H
#define ATOM_VALIDATE_BASELINE_H

#include <stddef.h>
#include <stdio.h>

#include "../model/export.h"

#define BL_SCHEMA_NAME "atomsim-cost-baseline"
#define BL_SCHEMA_VERSION 1
/* The tolerance a baseline is written with unless --tolerance says. */
#define BL_DEFAULT_TOLERANCE 0.5 /* percent */

enum bl_column { BL_GPU_US, BL_CPU_US, BL_COLUMNS };
const char *bl_column_name(int column);

/* One line of cells: a point of every axis but the innermost. */
typedef struct bl_row {
    int pattern;                      /* enum pat_id */
    int column;                       /* enum bl_column */
    char *key;                        /* "n=1024 wg=32 ...", "" when the grid has one axis */
    int count;
    double *v;
    char *dec;                        /* gpu_us rows: 'g' or 'c' a cell (the table's decision); else NULL */
} bl_row;

/* The innermost axis of one pattern's grid for one column. */
typedef struct bl_axis {
    int pattern, column;
    char name[32];
    int count;
    double values[EXP_MAX_VALUES];
} bl_axis;

/* One effective config value: "gpu" or "cpu", "section.key", its text. */
typedef struct bl_kv {
    char side[4];
    char *key, *value;
} bl_kv;

typedef struct bl_table {
    char gpu_name[128], gpu_path[512], gpu_hash[24];
    char cpu_name[128], cpu_path[512], cpu_hash[24];
    /* " -p KEY=VALUE ..." the table was made with, for the command a
     * written baseline and a drift report name (empty from bl_load: the
     * recorded config already holds their values) */
    char overrides[1024];
    double tol[BL_COLUMNS];           /* percent of the baseline's value */
    bl_kv *config;
    size_t nconfig;
    bl_axis axes[2 * PAT_COUNT];
    int naxes;
    bl_row *rows;
    size_t nrows;
    size_t cells[BL_COLUMNS];
} bl_table;

/* Today's table as a baseline, with tolerances tol[] (NULL: the default).
 * 0, or -1 with err (a config string that cannot be written on one line). */
int bl_from_export(const exp_table *t, const double *tol, bl_table *out, char err[CFG_ERR_MAX]);
void bl_write(const bl_table *b, FILE *f);
/* 0, or -1 with err: a missing or unreadable file, another format or
 * schema or schema version, a malformed line ("FILE:LINE: why"). */
int bl_load(const char *path, bl_table *out, char err[CFG_ERR_MAX]);
void bl_free(bl_table *b);

/* "gpu_us=0.5%,cpu_us=1%" into tol[] in percent (columns not named keep
 * their value; given[c] set for those named).
 * 0, or -1 with err. */
int bl_parse_tolerance(const char *s, double *tol, int *given, char err[CFG_ERR_MAX]);

/* A cell whose value moved past its column's tolerance. */
typedef struct bl_move {
    const bl_row *row;                /* today's row */
    int j;                            /* the cell in it */
    double base, cur, rel;            /* rel: (cur - base) / |base| in percent, +-inf from 0 */
} bl_move;

/* A cell whose decision flipped. */
typedef struct bl_flip {
    const bl_row *row;
    int j;
    char from, to;                    /* 'g' or 'c' */
    double base_gpu, cur_gpu;
} bl_flip;

/* A config key whose value differs; base or cur NULL: only on one side. */
typedef struct bl_keydiff {
    const char *side, *key, *base, *cur;
} bl_keydiff;

typedef struct bl_summary {
    size_t cells, moved, to_cpu, to_gpu;
    double up, down;                  /* the largest rise and fall past tolerance (0: none) */
} bl_summary;

typedef struct bl_result {
    double tol[BL_COLUMNS];           /* the tolerances applied, percent */
    size_t cells[BL_COLUMNS], moved[BL_COLUMNS];
    size_t changed[BL_COLUMNS];       /* moved at all, within tolerance or past it */
    bl_move *moves;                   /* largest move first */
    size_t nmoves;
    bl_flip *flips;                   /* in table order */
    size_t nflips;
    bl_keydiff *keys;
    size_t nkeys;
    size_t only_base, only_cur;       /* cells on one side's grid only */
    bl_summary per[PAT_COUNT][BL_COLUMNS];
    int drift;                        /* 1: a cell moved or flipped, the grid or a config key changed */
} bl_result;

/* Compares every cell of cur with base within tol[] (per column, percent).
 * 0, or -1 when out of memory. */
int bl_compare(const bl_table *base, const bl_table *cur, const double *tol, bl_result *res);
void bl_result_free(bl_result *res);

/* "histogram n=1024 wg=32 smem_per_wg=0 bins=1 hot=0.5": the cell j of a row of t. */
void bl_cell_label(const bl_table *t, const bl_row *r, int j, char *buf, size_t len);

#endif
