/* engine.h - the cycle-level simulator's public face.
 *
 *   sim_engine *e;
 *   if (sim_engine_open(&cfg, &params, &e, err)) ...   bad input: err says why
 *   rc = sim_engine_run(e, &stats);                     1: run failed, see error
 *   sim_engine_close(e);
 *
 * The engine computes its own numbers from the config's mechanisms; it never
 * calls the analytical model. */
#ifndef ATOM_SIM_ENGINE_H
#define ATOM_SIM_ENGINE_H

#include "../model/config.h"
#include "../model/params.h"
#include "../model/stats.h"

typedef struct sim_engine sim_engine;

/* Checks the parameters against the config (workgroup size, shared memory,
 * occupancy) and allocates everything the run needs: the event loop itself
 * never allocates.  Returns 0, 2 with err set (bad input) or 1 (over the
 * memory budget, below). */
int sim_engine_open(const cfg_config *cfg, const pat_params *p, sim_engine **out, char err[CFG_ERR_MAX]);
/* Before allocating, open estimates every byte the run will hold (an upper
 * bound: its allocation sites counted, each with the allocator's overhead)
 * and fails with 1 and the estimate named when it passes
 * sim.max_memory_mb, a budget as sim.max_events is.  The same estimate
 * without opening: 0, or 2 with err set (bad input). */
int sim_engine_estimate(const cfg_config *cfg, const pat_params *p, double *bytes, char err[CFG_ERR_MAX]);

/* Simulates the dispatch and checks the functional result.  Returns 0, or 1
 * when the run failed (event budget exceeded, wrong result): see error. */
int sim_engine_run(sim_engine *e, atom_stats *st);
const char *sim_engine_error(const sim_engine *e);
void sim_engine_close(sim_engine *e);

/* open + run + close; returns 0, 1 (run failed) or 2 (bad input). */
int sim_run(const cfg_config *cfg, const pat_params *p, atom_stats *st, char err[CFG_ERR_MAX]);

#endif
