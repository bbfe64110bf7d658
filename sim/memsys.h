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

/* nwarps: resident warps (ids 0..nwarps-1); seed drives the slices'
 * random service order (l2.cas_service = random or class). */
int mem_open(const cfg_config *cfg, const sim_layout *lay, int nwarps, uint64_t seed, mem_sys **out,
             char err[CFG_ERR_MAX]);
void mem_close(mem_sys *m);
/* The bytes mem_open would allocate for this layout, counted at its
 * allocation sites (keep them in step), and the number of allocations
 * added to *allocs; allocates nothing. */
double mem_estimate(const cfg_config *cfg, const sim_layout *lay, int nwarps, int *allocs);

/* A warp's global atomic issued by SM `sm` at cycle t.  Old values land in
 * ret[lane].  Returns the cycle the last reply reaches the SM; *sent is when
 * the SM's memory port finished sending (back-pressure included). */
double mem_atomic(mem_sys *m, int sm, double t, const sim_op *op, uint32_t *ret, double *sent);

/* With l2.cas_service = random or class and a pattern that issues compare-and-swaps,
 * its global atomics are not resolved when issued: their requests wait at
 * their slices, which serve them one per service event (mem_cas_serve).
 * Its plain atomics (the loop's first read) go the same way, since one
 * resolved at issue would book the atomic unit ahead of the waiting ones.
 * mem_cas_deferred says whether this run does that; then every global
 * atomic goes through mem_cas_send instead of mem_atomic. */
int mem_cas_deferred(const mem_sys *m);

/* Sends warp w's deferred atomic; op and ret must stay put until
 * the reply.  Returns its request count (0: nothing to wait for); *sent as
 * for mem_atomic.  Slices that now need a service event are written to
 * wake_slice[] with its cycle in wake_t[] (*nwake of them, at most
 * SIM_MAX_LANES). */
int mem_cas_send(mem_sys *m, int w, int sm, double t, const sim_op *op, uint32_t *ret, double *sent, int *wake_slice,
                 double *wake_t, int *nwake);

/* Slice s's service event at cycle t: serves what it can before any
 * request not yet sent could arrive.  Returns the cycle of its next
 * service event, or -1 when nothing waits.  The warps whose last reply
 * this was are written to warps[] with their reply cycles (when the last
 * reply reaches the SM) in replies[] (*nwoken of them, at most
 * SIM_MAX_LANES). */
double mem_cas_serve(mem_sys *m, int s, double t, int *warps, double *replies, int *nwoken);

/* A warp's global store; returns the cycle its last line is in L2. */
double mem_store(mem_sys *m, int sm, double t, const sim_op *op, double *sent);

/* Adds the memory system's counters to st for a kernel of `cycles`. */
void mem_stats(const mem_sys *m, double cycles, atom_stats *st);

/* When SM `sm`'s memory port can take its next instruction. */
double mem_port_free(const mem_sys *m, int sm);

void mem_view(const mem_sys *m, sim_memview *v);

/* Fast-forward (the engine's fastfwd.c): the buffers for writing skipped
 * threads' results, the compare-and-swaps that succeeded so far, and the
 * counters a skipped stretch adds, as one vector of mem_ff_count(slices)
 * doubles (the totals, then each slice's busy and queue-sojourn cycles). */
void mem_view_rw(mem_sys *m, sim_memrw *v);
double mem_cas_successes(const mem_sys *m);
int mem_ff_count(int nslices);
void mem_ff_read(const mem_sys *m, double *v);
void mem_ff_add(mem_sys *m, const double *dv, double k);

#endif
