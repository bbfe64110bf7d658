/* sweep.h - `atomsim sweep` and `atomsim study`: grids of runs over pattern
 * flags and config keys, over one or several configs.
 *
 *   swp_spec *s;  swp_spec_new(&s);
 *   swp_set_axis(s, -1, "bins", "1..65536:x2", err);     every grid
 *   swp_set_axis(s, -1, "l2.slice_count", "40,80,160", err);
 *   swp_plan *p;  rc = swp_plan_open(s, &p, err);         2: bad input
 *   rc = swp_run(p, &opts, outs, nouts);                  0, 1 or 2
 *
 * Row order (deterministic, documented in docs/cli.md): grids in the order they
 * were added; inside one grid, configs (in the order given) outermost, then
 * the config-key axes, then the pattern axes, each in the order given, the
 * last one varying fastest.  `--canonical` resets flags a pattern ignores to
 * the contract's defaults and drops points that repeat an earlier one.
 * Sharding cuts that row list into N contiguous blocks: shard k (1..N) holds
 * rows floor((k-1)R/N) .. floor(kR/N)-1, so the shards' rows, concatenated
 * in k order, are the whole sweep's rows byte for byte.
 *
 * Rows run on worker processes (fork, one socket each); the parent hands
 * out rows in order and writes results in row order, so the output is
 * byte-identical whatever the number of workers. */
#ifndef ATOM_APP_SWEEP_H
#define ATOM_APP_SWEEP_H

#include <stdint.h>
#include <stdio.h>

#include "../util/pool.h"
#include "args.h"

#define SWP_MAX_AXES 32
#define SWP_MAX_GRIDS 32
#define SWP_MAX_CONFIGS 64
#define SWP_MAX_GROUPS 4096
#define SWP_MAX_ROWS 10000000ull
/* Values one axis may list: each is at least one run, so a longer axis is
 * a sweep nobody can simulate, refused at once rather than after seconds of
 * expanding (a million-value range took 5 s under the sanitizers). */
#define SWP_MAX_AXIS_VALUES 65536u
/* Steps one range a..b:xF or a..b:+S may take, repeats included (an
 * integer axis's small factor repeats values: 1..2^20:x1.001 takes about
 * 14,000 steps for 2,800 values) */
#define SWP_MAX_RANGE_STEPS 262144u

typedef struct swp_spec swp_spec;
typedef struct swp_plan swp_plan;

int swp_spec_new(swp_spec **out);
void swp_spec_free(swp_spec *s);

/* Adds a grid (a spec starts with one) and returns its index via *grid. */
int swp_add_grid(swp_spec *s, int *grid, char err[CFG_ERR_MAX]);

/* Sets axis KEY of grid `grid` (-1: every grid) to VALUES, replacing an
 * axis of the same key in place.  KEY: pattern, a parameter of the
 * parameter table (model/params.c: n wg selectivity bins hot addresses
 * smem-per-wg seed), engine, or section.key of the option table.
 * VALUES: comma list of values and ranges a..b (step 1), a..b:xF
 * (geometric), a..b:+S (arithmetic); numbers may be written 2^E; pattern
 * also takes `all`.  Returns 0 or -1 (unknown key, malformed or
 * out-of-range value, empty list). */
int swp_set_axis(swp_spec *s, int grid, const char *key, const char *values, char err[CFG_ERR_MAX]);

/* Sets grid `grid` (-1: every grid) to the explicit points of a CSV file
 * (a header naming pattern and any of the parameters, n wg selectivity
 * bins hot addresses smem_per_wg seed, and engine; other columns and '#'
 * lines are skipped), as one axis named "points". */
int swp_set_points(swp_spec *s, int grid, const char *path, char err[CFG_ERR_MAX]);

/* Configs: none means the built-in defaults.  swp_clear_configs drops the
 * list (a study's list, before the command line's). */
int swp_add_config(swp_spec *s, const char *path, char err[CFG_ERR_MAX]);
void swp_clear_configs(swp_spec *s);
/* `section.key=value` applied to every config before the axes. */
int swp_add_override(swp_spec *s, const char *assignment, char err[CFG_ERR_MAX]);

void swp_set_canonical(swp_spec *s, int on);
/* 1: always write the `config` column (otherwise only with 2+ configs). */
void swp_set_config_column(swp_spec *s, int on);
/* Shard k of n, 1 <= k <= n.  Returns -1 when out of range. */
int swp_set_shard(swp_spec *s, unsigned long long k, unsigned long long n, char err[CFG_ERR_MAX]);
/* The text of --shard, "K/N".  Returns 0, or -1 with err set. */
int swp_parse_shard(const char *text, unsigned long long *k, unsigned long long *n, char err[CFG_ERR_MAX]);
/* Shard k of n of `rows` rows: [*begin, *end), floor((k-1)R/N) ..
 * floor(kR/N) - 1 (export --engine sim cuts its cells the same way). */
void swp_shard_range(uint64_t rows, unsigned long long k, unsigned long long n, uint64_t *begin, uint64_t *end);

/* Expands one VALUES text for KEY into its list of values (as text).
 * Exposed for the unit tests; free with swp_free_values. */
int swp_expand(const char *key, const char *values, char ***out, size_t *count, char err[CFG_ERR_MAX]);
void swp_free_values(char **v, size_t count);

/* One row: its effective config and parameters. */
typedef struct swp_row {
    const cfg_config *cfg;
    pat_params params;
    enum cli_engine engine;
    int group;                         /* effective-config group of the plan */
    uint64_t index;                    /* row index in the whole sweep */
} swp_row;

/* Loads the configs, checks every axis value, expands the grid, applies
 * --canonical and the shard.  The spec must outlive the plan.  Returns 0
 * or 2 with err set. */
int swp_plan_open(const swp_spec *s, swp_plan **out, char err[CFG_ERR_MAX]);
void swp_plan_close(swp_plan *p);
uint64_t swp_plan_total(const swp_plan *p);   /* rows of the whole sweep */
uint64_t swp_plan_count(const swp_plan *p);   /* rows of this shard */
/* Row `pos` (0 <= pos < count) of this shard. */
int swp_plan_row(const swp_plan *p, uint64_t pos, swp_row *row, char err[CFG_ERR_MAX]);
int swp_plan_group_count(const swp_plan *p);
/* The CSV columns a sweep writes after the run's, each with its leading
 * comma ("" when none): `config` when there are several configs (or
 * swp_set_config_column), then each config key an axis varies.  The
 * header's, and those of effective-config group `group`. */
void swp_plan_label_header(const swp_plan *p, char *buf, size_t len);
const char *swp_plan_labels(const swp_plan *p, int group);
/* For JSON: the config name of a group ("h100" for configs/h100.ini,
 * "default" without one) and the config keys the axes vary. */
const char *swp_plan_config_name(const swp_plan *p, int group);
int swp_plan_label_keys(const swp_plan *p, const char *const **keys);
/* Text naming a row, for error lines: "histogram n=1048576 ... config=h100". */
void swp_row_describe(const swp_plan *p, const swp_row *r, char *buf, size_t len);

typedef struct swp_output {
    enum cli_format format;
    FILE *f;
} swp_output;

typedef struct swp_run_opts {
    int jobs;                          /* worker processes; <= 1 runs inline */
    int keep_going;                    /* a failed row is reported and skipped */
    int progress;                      /* progress line on stderr (if a terminal) */
    const char *cmd;                   /* "sweep" or "study", for messages */
} swp_run_opts;

/* Runs this shard's rows and writes them to every output, in row order.
 * Returns 0, 1 (a row failed, or a write failed) or 2 (a row's input was
 * refused); without keep_going it stops at the first failed row.  A
 * SIGINT or SIGTERM stops it between two rows (no JSON written): 130 or
 * 143, the line on stderr said.  A failure of stdout is reported here;
 * a file's is left to whoever closes the file. */
int swp_run(const swp_plan *p, const swp_run_opts *o, const swp_output *outs, int nouts);

/* The command line shared by `sweep` and `study` (sweep_cli.c). */
typedef struct swp_cli {
    const char *axis_key[SWP_MAX_AXES];
    const char *axis_values[SWP_MAX_AXES];
    int axis_count;
    const char *points;
    const char *configs[SWP_MAX_CONFIGS];
    int config_count;
    const char *overrides[CLI_MAX_OVERRIDES];
    int override_count;
    enum cli_format format;
    int format_given;
    int canonical, config_column, count_only;
    unsigned long long shard_k, shard_n;
    swp_run_opts run;
    const char *out_dir;               /* study only */
    int to_stdout;                     /* study only */
    const char *positional;            /* study: the study file */
} swp_cli;

/* Parses argv (argv[0] is the subcommand).  Returns OPT_GO (opts.h) to go
 * on, or the exit status: 0 after --help, 2 after a bad option (its line
 * printed). */
int swp_cli_parse(swp_cli *c, int argc, char **argv, int study);
/* Applies the command line to a spec: its axes to every grid (replacing a
 * study's axis of the same key), its configs instead of the study's. */
int swp_cli_apply(const swp_cli *c, swp_spec *s, char err[CFG_ERR_MAX]);
/* The usage text of both subcommands. */
void swp_cli_usage(FILE *f, int study);

#endif
