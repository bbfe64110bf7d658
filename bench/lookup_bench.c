/* lookup_bench.c - `make bench`: the time of one dispatch lookup from C
 * through the public API (include/atomsim/dispatch.h), as a runtime
 * dispatcher would call it: 4,096 queries drawn at random over every
 * pattern, shape and parameter inside the table's grid (so the shared-
 * memory bracketing and the interpolation are exercised, not one cached
 * path), cycled through a million lookups.  Prints ns per lookup; exits 1
 * past the 1 us budget or on any refused query.
 *
 *   build/bench/lookup_bench TABLE.json [LOOKUPS] */
#include <atomsim/dispatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define QUERIES 4096

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* A fixed linear congruential stream: the same queries on every run. */
static double uniform(unsigned long long *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) / 9007199254740992.0;
}

int main(int argc, char **argv)
{
    static const char *const patterns[] = { "store", "counter", "counter-aggregated", "compaction", "histogram",
                                            "histogram-u8-cas", "histogram-u16-cas", "cas-append", "bitmask",
                                            "reduce", "distinct-lines" };
    static atomsim_query q[QUERIES];
    char err[256];
    atomsim_table *t;
    if (argc < 2 || atomsim_table_open(argv[1], &t, err, sizeof err) != ATOMSIM_OK) {
        fprintf(stderr, "lookup_bench: %s\n", argc < 2 ? "usage: lookup_bench TABLE.json [LOOKUPS]" : err);
        return 2;
    }
    long lookups = argc > 2 ? atol(argv[2]) : 1000000;
    unsigned long long s = 1;
    for (int i = 0; i < QUERIES; i++) {
        atomsim_query_init(&q[i], patterns[i % 11]);
        q[i].n = floor(1024 * pow(2, uniform(&s) * 16));
        q[i].wg = 32 * floor(1 + uniform(&s) * 31);
        q[i].smem_per_wg = floor(uniform(&s) * 49152);
        q[i].selectivity = uniform(&s);
        q[i].bins = floor(pow(2, uniform(&s) * 22));
        q[i].hot = uniform(&s);
        q[i].addresses = floor(pow(2, uniform(&s) * 22));
    }
    atomsim_answer a;
    double sink = 0;
    for (int i = 0; i < QUERIES; i++) /* every query answers, and warms the caches */
        if (atomsim_lookup(t, &q[i], &a, err, sizeof err) != ATOMSIM_OK) {
            fprintf(stderr, "lookup_bench: query %d (%s): %s\n", i, patterns[i % 11], err);
            return 1;
        }
    double t0 = now_ns();
    for (long i = 0; i < lookups; i++) {
        atomsim_lookup(t, &q[i % QUERIES], &a, err, sizeof err);
        sink += a.gpu_us;
    }
    double per = (now_ns() - t0) / (double)lookups;
    printf("C lookup (libatomsim, public API): %ld lookups over %d random queries, %.0f ns per lookup (budget 1000 ns; checksum %.3g)\n",
           lookups, QUERIES, per, sink);
    atomsim_table_close(t);
    return per <= 1000 ? 0 : 1;
}
