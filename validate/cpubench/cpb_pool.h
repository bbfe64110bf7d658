/* cpb_pool.h - a persistent pthreads worker pool, as a CPU-tier dispatcher
 * keeps one: workers sleep on a condition variable, a task wakes them all,
 * each runs its share, and the caller waits until every worker is done. */
#ifndef CPB_POOL_H
#define CPB_POOL_H

typedef struct cpb_pool cpb_pool;
typedef void (*cpb_task_fn)(int worker, int workers, void *arg);

/* Returns 0, or -1 when the threads cannot be created. */
int cpb_pool_open(int workers, cpb_pool **out);
/* Runs fn on every worker (worker 0 is the calling thread) and returns when
 * all of them have finished. */
void cpb_pool_run(cpb_pool *p, cpb_task_fn fn, void *arg);
void cpb_pool_close(cpb_pool *p);

#endif
