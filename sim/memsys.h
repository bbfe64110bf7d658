/* memsys.h - global memory as atomics see it: the coalescer that merges
 * same-address lanes and groups lanes into line requests, the SM memory
 * port, the crossbar, L2 slices with their atomic units and bounded queues,
 * and DRAM behind them.  It also holds the real values, so compare-and-swap
 * outcomes follow the simulated order of operations. */
#ifndef ATOM_SIM_MEMSYS_H
#define ATOM_SIM_MEMSYS_H

#include "../model/stats.h"
#include "pattern.h"

typedef struct mem_sys mem_sys;

int mem_open(const cfg_config *cfg, const sim_layout *lay, mem_sys **out, char err[CFG_ERR_MAX]);
void mem_close(mem_sys *m);

/* A warp's global atomic issued by SM `sm` at cycle t.  Old values land in
 * ret[lane].  Returns the cycle the last reply reaches the SM; *sent is when
 * the SM's memory port finished sending (back-pressure included). */
double mem_atomic(mem_sys *m, int sm, double t, const sim_op *op, uint32_t *ret, double *sent);

/* A warp's global store; returns the cycle its last line is in L2. */
double mem_store(mem_sys *m, int sm, double t, const sim_op *op, double *sent);

/* Adds the memory system's counters to st for a kernel of `cycles`. */
void mem_stats(const mem_sys *m, double cycles, atom_stats *st);

/* When SM `sm`'s memory port can take its next instruction. */
double mem_port_free(const mem_sys *m, int sm);

void mem_view(const mem_sys *m, sim_memview *v);

#endif
