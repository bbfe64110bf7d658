/* export_part.h - the parts of a sharded `atomsim export --engine sim`:
 * one shard's simulator cells written as CSV, and parts merged back into
 * a plan (export_sim.h) whose table is then the unsharded one, byte for
 * byte.
 *
 * A part: '#' lines (the format, the GPU config's hash, the scope, the
 * plan's cell count and the shard), a header, then one row a cell:
 *
 *   # atomsim-export-part 1
 *   # config_hash 4099b61d3498a77a
 *   # scope only=counter sim_max_n=16384 sim_wg=64,256 sim_smem=0
 *   # cells 110 shard 1/3
 *   index,pattern,n,wg,smem_per_wg,selectivity,bins,hot,addresses,source,gpu_us,cpu_s
 *   0,counter,1024,64,0,0,256,0,1,s,3.1250000000000004,0.000412
 *
 * index is the cell's place in the plan; source s (gpu_us: the simulator's
 * time, exact) or m (over the event budget: the model fills it at the
 * merge); cpu_s what the run cost.  The columns name sweep --points' keys,
 * so a part (or --list's output) is also a points file.  The parameters'
 * columns are the parameter table's (model/params_csv.h, export's order:
 * those every pattern reads, then the pattern's own). */
#ifndef ATOM_APP_EXPORT_PART_H
#define ATOM_APP_EXPORT_PART_H

#include <stdio.h>

#include "export_sim.h"

#define XS_PART_MAGIC "# atomsim-export-part 1"

/* Writes cells [begin, end) of the plan, shard k of n.  With `run` 0 the
 * cells are listed without results and without the part's '#' provenance
 * lines (a points file: --list, a plain CSV).  0 or -1. */
int xs_part_write(const xs_plan *p, size_t begin, size_t end, unsigned long long k, unsigned long long n, int run,
                  FILE *f);

/* Reads every part into the plan's cells.  Refuses, with one line in err,
 * a file that is not a part, a part of another config hash, scope or cell
 * count, a row cut short, a cell in two parts (a part given twice) and a
 * cell in none (a part left out).  0, or -1. */
int xs_part_merge(xs_plan *p, const char *const *paths, int count, char err[CFG_ERR_MAX]);

/* Carries cells [begin, end) over from parts made from another config, `old`,
 * that differs from the plan's only in keys the simulator reads through
 * the occupancy rule (cfg_wg_per_sm): a cell that holds as many workgroups
 * an SM under both runs the same events.  Cells are matched by their
 * coordinates (the two plans may differ); the others stay to be run.
 * 0 with *reused set, or -1 with err (a key beyond occupancy differs, a
 * part is not one of `old`'s). */
int xs_part_reuse(xs_plan *p, const cfg_config *old, const char *const *paths, int count, size_t begin, size_t end,
                  size_t *reused, char err[CFG_ERR_MAX]);

#endif
