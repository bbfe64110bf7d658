/* export_run.h - what `atomsim export` does beyond writing the model's
 * table: the error bands from measured datasets, and the whole of
 * --engine sim: the simulator's cells (export_sim.h) planned, a shard of
 * them run or carried over from an earlier config's parts (--reuse), or
 * every part merged (export_part.h), then the table; and the cost of it.
 * It uses the simulator, the model and validate/ together, so it lives
 * with the application; the caller parses the flags and writes the
 * results. */
#ifndef ATOM_APP_EXPORT_RUN_H
#define ATOM_APP_EXPORT_RUN_H

#include <stddef.h>

#include "../model/export.h"
#include "export_sim.h"

#define XR_MAX_RESIDUALS 64

/* The measured datasets behind each side's bands: vkbench rows of the
 * table's GPU (--residuals), cpubench rows of hosts with the table's CPU
 * tier's workers (--cpu-residuals). */
typedef struct xr_band_sources {
    const char *paths[EXP_SIDES][XR_MAX_RESIDUALS];
    int count[EXP_SIDES];
} xr_band_sources;

/* Error bands for every pattern of t, for each side with datasets.  0, or
 * -1 with err (a dataset of another GPU, or a CPU dataset not from
 * cpubench or with another worker count, is refused). */
int xr_add_bands(exp_table *t, const xr_band_sources *src, char err[CFG_ERR_MAX]);

#define XR_MAX_REUSE 1024

/* What --engine sim makes. */
enum xr_mode {
    XR_TABLE,                         /* the table: every cell run, or merged from parts */
    XR_PART,                          /* a shard's cells run: a part */
    XR_LIST,                          /* a shard's cells, not run (--list) */
    XR_COUNT                          /* only how many cells the shard has (--count) */
};

typedef struct xr_request {
    enum xr_mode mode;
    xs_scope scope;
    int sharded;                      /* --shard: only the K-th of N blocks of cells */
    unsigned long long shard_k, shard_n;
    int merge;                        /* XR_TABLE from parts, nothing run */
    const char *const *parts;
    int nparts;
    const char *reuse_config;         /* --reuse-config: the config the reuse parts were made from */
    const char *const *reuse;         /* --reuse: its parts */
    int nreuse;
    unsigned anchor;                  /* patterns whose model cells take their anchor's ratio (XR_TABLE) */
    int jobs, progress;
} xr_request;

typedef struct xr_outcome {
    xs_plan plan;                     /* every cell; those of [begin, end) filled */
    int planned;                      /* plan holds cells to free */
    size_t begin, end;                /* the shard's cells */
    size_t reused;                    /* of them, carried over from --reuse */
    double started;                   /* xr_now() when the cells began */
    exp_table *table;                 /* XR_TABLE: the caller's to free */
    int quiet;                        /* a failure the worker pool has already explained on stderr */
} xr_outcome;

/* Plans the simulator's cells of cfg and cpu and does what r asks.
 * Returns 0; 1 when the plan or the table could not be made or a run
 * failed; 2 for bad input (a scope off the table's grid, --reuse parts
 * that do not fit, parts that do not merge).  With a failure err says why,
 * unless o->quiet.  xr_outcome_free in every case. */
int xr_sim(const cfg_config *cfg, const cpu_config *cpu, const xr_request *r, xr_outcome *o, char err[CFG_ERR_MAX]);
void xr_outcome_free(xr_outcome *o);

/* Monotonic seconds, for the wall time of a report: clk_now (util/clock.h),
 * kept under this name while cmd_export.c calls it. */
double xr_now(void);

/* What the shard's runs cost and, with a table, how many cells each
 * engine filled. */
typedef struct xr_cost {
    size_t runs, over_budget, reused;
    double cpu_s;
    size_t cells_sim, cells_model, cells_anchored; /* anchored: model cells scaled to the simulator */
} xr_cost;

void xr_cost_of(const xr_outcome *o, const exp_table *t, xr_cost *c);

#endif
