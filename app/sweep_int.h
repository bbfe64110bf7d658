/* sweep_int.h - what the sweep grid's files share and nothing else sees
 * (sweep.h is the public side): the spec's structs, the key lookups and
 * the small string helpers, and the functions one file calls in another:
 *   sweep_values.c  axis keys, value lists and ranges (swp_expand)
 *   sweep_spec.c    the spec: grids, axes, configs, options, shards
 *   sweep_points.c  --points: explicit points from a CSV, as one axis
 *   sweep_plan.c    the plan: effective configs, row decoding, --canonical
 *   sweep_write.c   the writers of a run's rows (CSV, JSON, text)
 *   sweep_run.c     the runner: the rows as jobs of the worker pool
 *   sweep_cli.c     the command line shared by `sweep` and `study` */
#ifndef ATOM_APP_SWEEP_INT_H
#define ATOM_APP_SWEEP_INT_H

#include "sweep.h"

/* ---- keys and values (sweep_values.c) -------------------------------------- */

enum swp_kind { SWP_INT, SWP_REAL, SWP_WORD };

/* A pattern axis's key: pattern, a parameter of the table (by its flag's
 * name, smem-per-wg, or its own, smem_per_wg) or engine.  Returns its
 * option code, with the (static) name the axis takes and its kind, or 0. */
int swp_pkey_find(const char *key, const char **canon, enum swp_kind *kind);
/* A config axis's key, section.key: its option, or NULL. */
const cfg_option *swp_ckey_find(const char *key);

/* strdup, without relying on POSIX for it. */
char *swp_dupstr(const char *s);
/* Strips blanks (and a line's end) around s, in place. */
char *swp_trim(char *s);

/* ---- the spec (sweep_spec.c) ------------------------------------------------ */

/* One assignment of an axis value: a pattern flag (code) or a config key. */
typedef struct swp_assign {
    int code;                          /* CLI_OPT_*, or 0 for a config key */
    const cfg_option *opt;
    char *text;
} swp_assign;

/* One value of an axis: one assignment, or a point's several. */
typedef struct swp_value {
    int count;
    swp_assign *a;
} swp_value;

typedef struct swp_axis {
    char key[96];
    int is_config;
    size_t count;
    swp_value *v;
} swp_axis;

typedef struct swp_grid {
    swp_axis axes[SWP_MAX_AXES];
    int axis_count;
} swp_grid;

struct swp_spec {
    swp_grid grids[SWP_MAX_GRIDS];
    int grid_count;
    char *configs[SWP_MAX_CONFIGS];
    int config_count;
    char *overrides[CLI_MAX_OVERRIDES];
    int override_count;
    int canonical, config_column;
    unsigned long long shard_k, shard_n;
};

void swp_axis_free(swp_axis *a);
/* Checks one pattern-flag value as `run` would, on a scratch copy of
 * `defaults` (cli_args_init's, made once by the caller: a list of a
 * million values would otherwise rebuild them a million times). */
int swp_check_pattern_value(const cli_args *defaults, int code, const char *key, const char *text,
                            char err[CFG_ERR_MAX]);
/* Puts `ax` into grid `grid`, or a copy into every grid for -1, in place
 * of an axis with the same key or appended.  Takes ownership of ax's
 * values. */
int swp_spec_put_axis(swp_spec *s, int grid, swp_axis *ax, char err[CFG_ERR_MAX]);

/* ---- the writers (sweep_write.c), for the runner ----------------------------- */

typedef struct swp_writer {
    const swp_plan *p;
    const swp_output *outs;
    int nouts;
    struct prn_json *json;             /* the document being collected */
    int *json_index;                   /* each group's index in "configs", -1 before its first row */
    int rows;
} swp_writer;

/* Writes the CSV headers and starts the JSON document.  Returns 0, or -1
 * when the JSON could not be started (out of memory). */
int swp_writer_begin(swp_writer *w, const swp_plan *p, const swp_output *outs, int nouts);
/* Writes one finished row to every output.  Returns 0 or -1. */
int swp_writer_row(swp_writer *w, const swp_row *r, const atom_stats *st);
/* Ends the JSON documents and flushes every output.  Returns 0 or -1.
 * Not `complete` (an interrupted run): no JSON is written, since half a
 * document is no document; the CSV and text rows written stay, whole. */
int swp_writer_end(swp_writer *w, int complete);

#endif
