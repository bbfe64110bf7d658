/* cpb_pool.c - the worker pool and the phase barrier.  A task is published
 * by bumping a generation counter; workers spin on it for CPB_SPIN_US, then
 * sleep on it with a futex, and the caller issues the wake-up system call
 * only when someone sleeps.  The earlier pool took a mutex and a condition
 * variable on every task, so even back-to-back tasks paid a sleeping
 * thread's wake-up (about 23 us here, 38 us on the GPU host). */
#define _GNU_SOURCE
#include "cpb_pool.h"

#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cpb_host.h"

struct cpb_pool {
    /* written by the caller per task, read by every worker */
    _Alignas(64) atomic_uint generation;
    atomic_uint gen_sleepers;
    atomic_int stop;
    cpb_task_fn fn;
    void *arg;
    /* written by every worker per task: a line of its own */
    _Alignas(64) atomic_uint done;
    atomic_uint done_sleepers;
    _Alignas(64) int workers;
    int spin_us;
    int pinned;
    pthread_t *threads;
};

struct worker_arg {
    cpb_pool *p;
    int id;
};

static void futex_wait(atomic_uint *word, unsigned old)
{
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAIT_PRIVATE, old, NULL, NULL, 0);
}

static void futex_wake(atomic_uint *word, int count)
{
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

/* Spins until *word differs from old (1) or spin_us runs out (0).  The
 * first PURE_SPINS look with a pause only (a few microseconds), the quick
 * hand-over between threads on two idle cores; after that each look also
 * yields, because the thread being waited for may be queued on this very
 * core: on a loaded machine a pure spinner made every task here cost two
 * whole spin budgets (415 us instead of 1), and 1,024 pure spins still
 * cost two times 20 us.  The clock is read only once the pure spins are
 * over, so a quick hand-over never pays for it. */
#define PURE_SPINS 128
static int spin_while(atomic_uint *word, unsigned old, int spin_us)
{
    double deadline = 0;
    for (unsigned k = 1;; k++) {
        if (atomic_load_explicit(word, memory_order_acquire) != old)
            return 1;
        if (spin_us <= 0)
            return 0;
        if (k < PURE_SPINS) {
            cpu_relax();
            continue;
        }
        double t = cpb_now_us();
        if (deadline == 0)
            deadline = t + spin_us;
        else if (t > deadline)
            return 0;
        sched_yield();
    }
}

/* Waits until *word differs from old.  The sleeper count is raised before
 * the last look at *word and the waker bumps *word before it reads the
 * count (both sequentially consistent), so one of the two always sees the
 * other and no wake-up is lost; FUTEX_WAIT itself re-checks the value. */
static unsigned wait_change(atomic_uint *word, unsigned old, atomic_uint *sleepers, int spin_us)
{
    unsigned v;
    if (spin_while(word, old, spin_us))
        return atomic_load_explicit(word, memory_order_acquire);
    atomic_fetch_add(sleepers, 1);
    while ((v = atomic_load(word)) == old)
        futex_wait(word, old);
    atomic_fetch_sub(sleepers, 1);
    return v;
}

static void *worker_main(void *v)
{
    struct worker_arg *wa = v;
    cpb_pool *p = wa->p;
    int id = wa->id;
    unsigned seen = 0;
    free(wa);
    for (;;) {
        seen = wait_change(&p->generation, seen, &p->gen_sleepers, p->spin_us);
        if (atomic_load(&p->stop))
            return NULL;
        p->fn(id, p->workers, p->arg);
        unsigned d = atomic_fetch_add(&p->done, 1) + 1;
        if (d == (unsigned)p->workers - 1 && atomic_load(&p->done_sleepers))
            futex_wake(&p->done, 1);
    }
}

/* The k-th CPU this process may run on, or -1. */
static int nth_cpu(const cpu_set_t *set, int k)
{
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, set) && k-- == 0)
            return c;
    return -1;
}

static void pin(pthread_t t, int cpu)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    pthread_setaffinity_np(t, sizeof one, &one);
}

int cpb_pool_open(int workers, cpb_pool **out)
{
    size_t size = (sizeof(cpb_pool) + 63) / 64 * 64;
    cpb_pool *p = aligned_alloc(64, size);
    cpu_set_t allowed;
    if (!p)
        return -1;
    memset(p, 0, size);
    p->workers = workers;
    /* One worker a CPU, worker 0 (the caller) included: left to itself the
     * scheduler woke the worker onto the caller's CPU and kept it there,
     * and every task paid two spin-and-yield hand-overs (8.5 us here
     * instead of 0.4).  With more workers than CPUs nothing is pinned and
     * nobody spins: a spinner would hold the CPU a sleeping worker needs. */
    int cpus = sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : 0;
    p->pinned = cpus >= workers;
    p->spin_us = cpus && workers > cpus ? 0 : CPB_SPIN_US;
    p->threads = calloc((size_t)workers, sizeof *p->threads);
    if (!p->threads)
        return -1;
    if (p->pinned)
        pin(pthread_self(), nth_cpu(&allowed, 0));
    for (int i = 1; i < workers; i++) {
        struct worker_arg *wa = malloc(sizeof *wa);
        if (!wa)
            return -1;
        wa->p = p;
        wa->id = i;
        if (pthread_create(&p->threads[i], NULL, worker_main, wa))
            return -1;
        if (p->pinned)
            pin(p->threads[i], nth_cpu(&allowed, i));
    }
    *out = p;
    return 0;
}

void cpb_pool_run(cpb_pool *p, cpb_task_fn fn, void *arg)
{
    unsigned want = (unsigned)p->workers - 1;
    p->fn = fn;
    p->arg = arg;
    atomic_store_explicit(&p->done, 0, memory_order_relaxed);
    atomic_fetch_add(&p->generation, 1);
    if (want && atomic_load(&p->gen_sleepers))
        futex_wake(&p->generation, INT_MAX);
    fn(0, p->workers, arg);
    unsigned d;
    while ((d = atomic_load_explicit(&p->done, memory_order_acquire)) != want) {
        if (spin_while(&p->done, d, p->spin_us))
            continue;
        atomic_fetch_add(&p->done_sleepers, 1);
        while ((d = atomic_load(&p->done)) != want)
            futex_wait(&p->done, d);
        atomic_fetch_sub(&p->done_sleepers, 1);
    }
}

void cpb_pool_settle(cpb_pool *p)
{
    struct timespec ts = { 0, 100000 };
    while (atomic_load(&p->gen_sleepers) != (unsigned)p->workers - 1)
        nanosleep(&ts, NULL);
}

int cpb_pool_spin_us(const cpb_pool *p)
{
    return p->spin_us;
}

int cpb_pool_pinned(const cpb_pool *p)
{
    return p->pinned;
}

void cpb_pool_close(cpb_pool *p)
{
    if (!p)
        return;
    atomic_store(&p->stop, 1);
    atomic_fetch_add(&p->generation, 1);
    futex_wake(&p->generation, INT_MAX);
    for (int i = 1; i < p->workers; i++)
        pthread_join(p->threads[i], NULL);
    free(p->threads);
    free(p);
}

void cpb_barrier_init(cpb_barrier *b, int workers, int spin_us)
{
    atomic_init(&b->arrived, 0);
    atomic_init(&b->phase, 0);
    atomic_init(&b->sleepers, 0);
    b->workers = (unsigned)workers;
    b->spin_us = spin_us;
}

void cpb_barrier_wait(cpb_barrier *b)
{
    if (b->workers <= 1)
        return;
    /* read before arriving: the phase cannot move until this worker has */
    unsigned ph = atomic_load(&b->phase);
    if (atomic_fetch_add(&b->arrived, 1) + 1 == b->workers) {
        atomic_store(&b->arrived, 0);
        atomic_fetch_add(&b->phase, 1);
        if (atomic_load(&b->sleepers))
            futex_wake(&b->phase, INT_MAX);
        return;
    }
    wait_change(&b->phase, ph, &b->sleepers, b->spin_us);
}
