/* cpb_pool.c - the worker pool: one generation counter under a mutex; a
 * task bumps it and broadcasts, workers run and count themselves out. */
#include "cpb_pool.h"

#include <pthread.h>
#include <stdlib.h>

struct cpb_pool {
    int workers;
    pthread_t *threads;
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    unsigned long generation;
    int running;
    int stop;
    cpb_task_fn fn;
    void *arg;
};

struct worker_arg {
    cpb_pool *p;
    int id;
};

static void *worker_main(void *v)
{
    struct worker_arg *wa = v;
    cpb_pool *p = wa->p;
    int id = wa->id;
    unsigned long seen = 0;
    free(wa);
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (p->generation == seen && !p->stop)
            pthread_cond_wait(&p->wake, &p->mu);
        if (p->stop) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        seen = p->generation;
        cpb_task_fn fn = p->fn;
        void *arg = p->arg;
        pthread_mutex_unlock(&p->mu);
        fn(id, p->workers, arg);
        pthread_mutex_lock(&p->mu);
        if (--p->running == 0)
            pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->mu);
    }
}

int cpb_pool_open(int workers, cpb_pool **out)
{
    cpb_pool *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    p->workers = workers;
    p->threads = calloc((size_t)workers, sizeof *p->threads);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    for (int i = 1; p->threads && i < workers; i++) {
        struct worker_arg *wa = malloc(sizeof *wa);
        if (!wa)
            return -1;
        wa->p = p;
        wa->id = i;
        if (pthread_create(&p->threads[i], NULL, worker_main, wa))
            return -1;
    }
    *out = p;
    return p->threads ? 0 : -1;
}

void cpb_pool_run(cpb_pool *p, cpb_task_fn fn, void *arg)
{
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->arg = arg;
    p->running = p->workers - 1;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    fn(0, p->workers, arg);
    pthread_mutex_lock(&p->mu);
    while (p->running > 0)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

void cpb_pool_close(cpb_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (int i = 1; i < p->workers; i++)
        pthread_join(p->threads[i], NULL);
    free(p->threads);
    free(p);
}
