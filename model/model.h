/* model.h - the analytical cost model: closed-form predictions of every
 * pattern, fast enough for a dispatcher (microseconds per call). */
#ifndef ATOM_MODEL_MODEL_H
#define ATOM_MODEL_MODEL_H

#include "config.h"
#include "params.h"
#include "stats.h"

/* Fill `st` (cycles, time_us and the counters the formulas can estimate)
 * for one run.  Returns 0, or -1 with `err` set for an impossible input. */
int mdl_predict(const cfg_config *cfg, const pat_params *p, atom_stats *st, char err[CFG_ERR_MAX]);

#endif
