/* cpb_pool.h - a persistent pthreads worker pool, as a CPU-tier dispatcher
 * keeps one: between tasks the workers spin for a while and then sleep on a
 * futex, so back-to-back tasks find them awake and an idle pool costs no
 * CPU; the caller runs worker 0's share itself and waits for the rest. */
#ifndef CPB_POOL_H
#define CPB_POOL_H

#include <stdatomic.h>
#include <stdint.h>

typedef struct cpb_pool cpb_pool;
typedef void (*cpb_task_fn)(int worker, int workers, void *arg);

/* How long an idle worker (or a waiting caller) spins before it sleeps.
 * Longer than any gap between back-to-back repetitions, far shorter than
 * the pause of a dispatcher that has nothing to do. */
#define CPB_SPIN_US 200

/* Returns 0, or -1 when the threads cannot be created.  Each worker is
 * pinned to a CPU of its own, the caller to the first, when the process
 * may use that many; with more workers than CPUs nothing is pinned and
 * nobody spins: a spinner would hold the CPU a sleeping worker needs. */
int cpb_pool_open(int workers, cpb_pool **out);
/* Runs fn on every worker (worker 0 is the calling thread) and returns when
 * all of them have finished. */
void cpb_pool_run(cpb_pool *p, cpb_task_fn fn, void *arg);
/* Lets the workers fall asleep (waits out the spin), so that the next
 * cpb_pool_run measures a cold wake-up. */
void cpb_pool_settle(cpb_pool *p);
/* The spin budget in microseconds the pool uses (0 when oversubscribed). */
int cpb_pool_spin_us(const cpb_pool *p);
/* 1 when every worker has a CPU of its own. */
int cpb_pool_pinned(const cpb_pool *p);
void cpb_pool_close(cpb_pool *p);

/* A barrier between the phases of one task (scan, then merge), with the
 * pool's spin-then-sleep waiting.  The counters sit on a line of their own
 * so that waiting on them does not slow the data the workers write. */
typedef struct cpb_barrier {
    _Alignas(64) atomic_uint arrived;
    atomic_uint phase;
    atomic_uint sleepers;
    unsigned workers;
    int spin_us;
} cpb_barrier;

void cpb_barrier_init(cpb_barrier *b, int workers, int spin_us);
void cpb_barrier_wait(cpb_barrier *b);

#endif
