/* test_engine_memory.c - the simulator's memory estimate (sim.max_memory_mb)
 * is an honest upper bound: held, at several sizes and patterns, to what
 * the engine really allocates, counted by wrapping malloc, calloc, realloc
 * and free at link time (tests/tests.mk) and taking the peak of the bytes
 * held from open to close, the functional check's reference histogram
 * included; and not a loose one (within 10% and 2 MiB of it).  A run over
 * the budget fails with 1 before allocating, naming the estimate. */
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "sim_helpers.h"

/* ---- the allocator, counted --------------------------------------------- */

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);
void __wrap_free(void *p);

static double held, peak;

static void *counted(void *p)
{
    if (p) {
        held += (double)malloc_usable_size(p);
        if (held > peak)
            peak = held;
    }
    return p;
}

void *__wrap_malloc(size_t size)
{
    return counted(__real_malloc(size));
}

void *__wrap_calloc(size_t count, size_t size)
{
    return counted(__real_calloc(count, size));
}

void *__wrap_realloc(void *p, size_t size)
{
    if (p)
        held -= (double)malloc_usable_size(p);
    return counted(__real_realloc(p, size));
}

void __wrap_free(void *p)
{
    if (p)
        held -= (double)malloc_usable_size(p);
    __real_free(p);
}

/* ---- the cases ------------------------------------------------------------ */

/* Opens (and with run, runs) one configuration; checks the estimate
 * against the peak the engine held. */
static void holds(const cfg_config *c, const pat_params *p, int run)
{
    char err[CFG_ERR_MAX];
    double est;
    if (sim_engine_estimate(c, p, &est, err))
        fail_msg("%s n=%llu: %s", pat_name(p->pattern), (unsigned long long)p->n, err);
    sim_engine *e;
    held = peak = 0;
    if (sim_engine_open(c, p, &e, err))
        fail_msg("%s n=%llu: %s", pat_name(p->pattern), (unsigned long long)p->n, err);
    if (run) {
        atom_stats st;
        if (sim_engine_run(e, &st))
            fail_msg("%s n=%llu: %s", pat_name(p->pattern), (unsigned long long)p->n, sim_engine_error(e));
    }
    sim_engine_close(e);
    if (getenv("TEM_VERBOSE"))
        printf("%s n=%llu bins=%u: estimate %.0f, peak %.0f\n", pat_name(p->pattern), (unsigned long long)p->n, p->bins, est, peak);
    if (!(peak <= est) || !(est <= 1.10 * peak + 2 * 1048576.0))
        fail_msg("%s n=%llu bins=%u: estimate %.0f bytes, peak held %.0f", pat_name(p->pattern),
                 (unsigned long long)p->n, p->bins, est, peak);
}

static void bound_by_size(void **state)
{
    (void)state;
    cfg_config c;
    pat_params p;
    th_config(&c, NULL);
    static const uint64_t sizes[] = { 1u << 10, 1u << 16, 1u << 20, 1u << 24 };
    static const enum pat_id ids[] = { PAT_STORE, PAT_COUNTER, PAT_COMPACTION, PAT_BITMASK, PAT_DISTINCT_LINES };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
            th_params(&p, ids[k], sizes[i], 256);
            holds(&c, &p, 0);
        }
}

/* The histograms' functional check allocates one count a bin: runs, so
 * that the peak holds it. */
static void bound_with_the_check(void **state)
{
    (void)state;
    cfg_config c;
    pat_params p;
    th_config(&c, NULL);
    static const enum pat_id ids[] = { PAT_HISTOGRAM, PAT_HISTOGRAM_U8_CAS, PAT_HISTOGRAM_U16_CAS, PAT_CAS_APPEND };
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        th_params(&p, ids[k], 4096, 128);
        p.bins = 1u << 20;
        holds(&c, &p, 1);
    }
    th_params(&p, PAT_HISTOGRAM, 1024, 64);
    p.bins = 1u << 24; /* the reference dwarfs the rest */
    holds(&c, &p, 1);
}

/* Compare-and-swaps served at the slices (cas_sched.c) add their waiting
 * rooms. */
static void bound_with_cas_service(void **state)
{
    (void)state;
    cfg_config c;
    pat_params p;
    th_config(&c, "l2.cas_service=class", NULL);
    th_params(&p, PAT_HISTOGRAM_U8_CAS, 8192, 256);
    p.bins = 1u << 16;
    holds(&c, &p, 1);
    th_config(&c, "l2.cas_service=random", NULL);
    th_params(&p, PAT_CAS_APPEND, 8192, 256);
    holds(&c, &p, 1);
}

static void over_budget_fails_before_allocating(void **state)
{
    (void)state;
    cfg_config c;
    pat_params p;
    char err[CFG_ERR_MAX];
    double est;
    th_config(&c, "sim.max_memory_mb=64", NULL);
    th_params(&p, PAT_STORE, 1u << 24, 256); /* 5 bytes an element */
    assert_int_equal(sim_engine_estimate(&c, &p, &est, err), 0);
    assert_true(est > 64 * 1048576.0);
    sim_engine *e = (sim_engine *)&err;
    held = peak = 0;
    assert_int_equal(sim_engine_open(&c, &p, &e, err), 1);
    assert_null(e);
    assert_non_null(strstr(err, "sim.max_memory_mb=64 exceeded"));
    assert_non_null(strstr(err, "estimated 100 MB")); /* 80 MB of buffer, 20 MB of L2 tags and the rest */
    assert_true(peak < 1048576.0); /* the engine struct at most, freed again */
    assert_true(held == 0);
    th_params(&p, PAT_STORE, 1u << 23, 256); /* 60 MB: under it */
    assert_int_equal(sim_engine_open(&c, &p, &e, err), 0);
    sim_engine_close(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bound_by_size),
        cmocka_unit_test(bound_with_the_check),
        cmocka_unit_test(bound_with_cas_service),
        cmocka_unit_test(over_budget_fails_before_allocating),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
