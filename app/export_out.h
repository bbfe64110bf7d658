/* export_out.h - `atomsim export` once its flags are read (cmd_export.c):
 * what the command line asks for, checked as a whole, then the model's
 * table or the simulator's count, cell list, part or table (export_run.h)
 * written where --output says, with the runs' cost on stderr. */
#ifndef ATOM_APP_EXPORT_OUT_H
#define ATOM_APP_EXPORT_OUT_H

#include "../model/cpu_config.h"
#include "../model/export.h"
#include "export_run.h"

typedef struct xo_args {
    enum exp_format format;
    int format_given;
    const char *out_path;               /* --output; NULL: stdout */
    xr_band_sources bands;              /* --residuals, --cpu-residuals */
    /* --engine sim and what only it takes */
    int sim, sim_flags;                 /* sim_flags: a flag of the simulator's was given */
    int merge, count_only, list, jobs, shard_given;
    unsigned long long shard_k, shard_n;
    double max_events;                  /* NAN: the config's */
    xs_scope scope;                     /* scope.only: --only, for the model too */
    const char *const *parts;           /* --merge's parts */
    int nparts;
    const char *reuse_config;           /* --reuse-config: the parts' config */
    const char *reuse[XR_MAX_REUSE];    /* --reuse: its parts */
    int nreuse;
    unsigned anchor;                    /* --anchor: a pattern mask (default: the compare-and-swap patterns) */
} xo_args;

void xo_args_init(xo_args *x);
/* The flags together: the simulator's need --engine sim, a part is CSV, a
 * merge takes the parts (argv[first..argc-1]) and no shard.  0, or 2 with
 * the line printed. */
int xo_check(xo_args *x, int argc, char **argv, int first);
/* The table, count, list or part of cfg and cpu, written: 0, 1 (a run or
 * a write failed) or 2 (bad input), having said why on stderr. */
int xo_run(const cfg_config *cfg, const cpu_config *cpu, const xo_args *x);

#endif
