/* test_c_api_header.c - the C header `atomsim export --format c-header`
 * generates answers bit for bit as libatomsim on the JSON of the same
 * export: every grid cell, 2,000 random points between grid points per
 * pattern and 200 extrapolated ones, under every rule and data location,
 * every field of the answer compared as bits (printed with %a when they
 * differ), and the same refusals.  It also times both lookups (printed,
 * not asserted: machines differ).
 *
 *   test_c_api_header [TABLE.json]
 *   test_c_api_header --emit-batch TABLE.json IN.csv EXPECTED.csv EXTRA_IN.csv EXTRA_EXPECTED.csv
 *
 * The second form writes the same queries as `atomsim dispatch --batch`
 * input (in range, then extrapolated) and this library's answers in the
 * CLI's answer columns, for tests/c_api_header.sh to hold the CLI to.
 *
 * Built by tests/tests.mk against $(B)/tests/c_api/h100.h and .json, one
 * export of configs/h100.ini; the two must come from the same export. */
#ifndef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#endif
#include <atomsim/dispatch.h>
#include <h100.h>

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef CAPI_TABLE
#define CAPI_TABLE "build/tests/c_api/h100.json"
#endif

#define RANDOM_POINTS 2000
#define EXTRAPOLATED_POINTS 200
#define MAX_REPORTS 10

static int failures, reports;

static void failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void failf(const char *fmt, ...)
{
    va_list ap;
    failures++;
    if (reports++ >= MAX_REPORTS)
        return;
    printf("FAIL ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

/* splitmix64: a fixed sequence on every platform, unlike rand(). */
static uint64_t rng_state = 0x5eed000000000042ull;
static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double uniform(double lo, double hi)
{
    return lo + (hi - lo) * ((double)(rng() >> 11) / 9007199254740992.0);
}

/* The (rule, data location) pairs every set of points cycles through. */
static const int policies[][2] = {
    { ATOMSIM_RULE_TABLE, ATOMSIM_DATA_ON_TABLE }, { ATOMSIM_RULE_COST, ATOMSIM_DATA_ON_GPU },
    { ATOMSIM_RULE_COST, ATOMSIM_DATA_ON_HOST },   { ATOMSIM_RULE_COST, ATOMSIM_DATA_ON_BOTH },
    { ATOMSIM_RULE_SEED, ATOMSIM_DATA_ON_GPU },    { ATOMSIM_RULE_SEED, ATOMSIM_DATA_ON_HOST },
    { ATOMSIM_RULE_SEED, ATOMSIM_DATA_ON_BOTH },
};
#define POLICY_COUNT (sizeof policies / sizeof policies[0])

static double *axis_field(atomsim_ct_query *q, int kind)
{
    switch (kind) {
    case ATOMSIM_CT_AXIS_N: return &q->n;
    case ATOMSIM_CT_AXIS_WG: return &q->wg;
    case ATOMSIM_CT_AXIS_SMEM_PER_WG: return &q->smem_per_wg;
    case ATOMSIM_CT_AXIS_SELECTIVITY: return &q->selectivity;
    case ATOMSIM_CT_AXIS_BINS: return &q->bins;
    case ATOMSIM_CT_AXIS_HOT: return &q->hot;
    default: return &q->addresses;
    }
}

static void to_public(const atomsim_ct_query *c, atomsim_query *q)
{
    atomsim_query_init(q, atomsim_pattern_name(c->pattern));
    q->pattern = c->pattern;
    q->n = c->n;
    q->wg = c->wg;
    q->smem_per_wg = c->smem_per_wg;
    q->selectivity = c->selectivity;
    q->bins = c->bins;
    q->hot = c->hot;
    q->addresses = c->addresses;
    q->rule = c->rule;
    q->data_on = c->data_on;
    q->extrapolate = c->extrapolate;
}

static int same(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static void describe(const atomsim_ct_query *q, char *buf, size_t len)
{
    snprintf(buf, len, "%s n=%.17g wg=%.17g smem=%.17g S=%.17g K=%.17g F=%.17g P=%.17g rule=%d data_on=%d x=%d",
             atomsim_pattern_name(q->pattern), q->n, q->wg, q->smem_per_wg, q->selectivity, q->bins, q->hot,
             q->addresses, q->rule, q->data_on, q->extrapolate);
}

/* Both answers for one query; every field must agree, doubles as bits. */
static long compared;
static void compare(const atomsim_table *t, const atomsim_ct_query *cq)
{
    atomsim_query q;
    atomsim_answer a;
    atomsim_ct_answer g;
    char err[256], what[400];
    to_public(cq, &q);
    int rc_lib = atomsim_lookup(t, &q, &a, err, sizeof err);
    int rc_gen = atomsim_ct_lookup(cq, &g);
    compared++;
    if (rc_lib != rc_gen) {
        describe(cq, what, sizeof what);
        failf("%s: library rc %d (%s), header rc %d", what, rc_lib, err, rc_gen);
        return;
    }
    if (rc_lib != ATOMSIM_OK)
        return;
#define DBL(f)                                                                                    \
    if (!same(a.f, g.f)) {                                                                        \
        describe(cq, what, sizeof what);                                                          \
        failf("%s: " #f " library %a (%.17g), header %a (%.17g)", what, a.f, a.f, g.f, g.f);      \
    }
#define INT(f)                                                                                    \
    if (a.f != g.f) {                                                                             \
        describe(cq, what, sizeof what);                                                          \
        failf("%s: " #f " library %d, header %d", what, a.f, g.f);                                \
    }
    DBL(gpu_us) DBL(cpu_us) DBL(gpu_lo_us) DBL(gpu_hi_us) DBL(cpu_lo_us) DBL(cpu_hi_us) DBL(gpu_kernel_us)
    DBL(cpu_compute_us)
    DBL(density_fraction) DBL(penalty)
    INT(decision) INT(reason) INT(rule) INT(data_on) INT(band_rows) INT(cost_decision) INT(seed_decision)
    INT(seed_reason) INT(inhibited) INT(source) INT(extrapolated) INT(cpu_band_rows) INT(close_call)
#undef DBL
#undef INT
}

/* The query at grid cell i of a pattern (row-major, the last axis fastest). */
static void cell_query(int pattern, size_t i, atomsim_ct_query *q)
{
    const atomsim_ct_pattern *tp = &atomsim_ct_patterns[pattern];
    atomsim_ct_query_init(q, pattern);
    for (int a = tp->axis_count - 1; a >= 0; a--) {
        *axis_field(q, tp->kind[a]) = tp->values[a][i % (size_t)tp->count[a]];
        i /= (size_t)tp->count[a];
    }
}

/* A point inside the grid (between its ends on every axis), integers where
 * the CLI takes integers so that `dispatch --batch` can ask the same. */
static void random_query(int pattern, int extrapolate, atomsim_ct_query *q)
{
    const atomsim_ct_pattern *tp = &atomsim_ct_patterns[pattern];
    atomsim_ct_query_init(q, pattern);
    for (int a = 0; a < tp->axis_count; a++) {
        double lo = tp->values[a][0], hi = tp->values[a][tp->count[a] - 1], x;
        int kind = tp->kind[a];
        if (extrapolate && kind == ATOMSIM_CT_AXIS_N) { /* within the CLI's limits */
            lo = 1;
            hi = 1 << 30;
        } else if (extrapolate && kind == ATOMSIM_CT_AXIS_WG) {
            lo = 1;
            hi = 4096;
        } else if (extrapolate && kind == ATOMSIM_CT_AXIS_SMEM_PER_WG)
            hi = 2 * hi;
        else if (extrapolate && (kind == ATOMSIM_CT_AXIS_BINS || kind == ATOMSIM_CT_AXIS_ADDRESSES))
            hi = 1 << 24;
        if (tp->log2_scale[a])
            x = fmin(hi, fmax(lo, round(exp2(uniform(log2(lo), log2(hi))))));
        else if (kind == ATOMSIM_CT_AXIS_SMEM_PER_WG)
            x = round(uniform(lo, hi));
        else
            x = uniform(lo, hi);
        *axis_field(q, kind) = x;
    }
    size_t p = (size_t)(rng() % POLICY_COUNT);
    q->rule = policies[p][0];
    q->data_on = policies[p][1];
    q->extrapolate = extrapolate;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Lookups per second over 1e6 calls cycling through 4096 random queries
 * (a dispatcher's mix: every pattern, off-grid values). */
static void bench(const atomsim_table *t)
{
    enum { QUERIES = 4096, CALLS = 1000000 };
    static atomsim_ct_query cq[QUERIES];
    static atomsim_query pq[QUERIES];
    for (int i = 0; i < QUERIES; i++) {
        random_query(i % ATOMSIM_PATTERN_COUNT, 0, &cq[i]);
        to_public(&cq[i], &pq[i]);
    }
    volatile double sink = 0;
    double t0 = now_ns();
    for (int i = 0; i < CALLS; i++) {
        atomsim_answer a;
        if (atomsim_lookup(t, &pq[i % QUERIES], &a, NULL, 0) == ATOMSIM_OK)
            sink += a.gpu_us;
    }
    double t1 = now_ns();
    for (int i = 0; i < CALLS; i++) {
        atomsim_ct_answer a;
        if (atomsim_ct_lookup(&cq[i % QUERIES], &a) == ATOMSIM_OK)
            sink += a.gpu_us;
    }
    double t2 = now_ns();
    printf("time per lookup, %d calls over 4096 random queries: libatomsim %.1f ns, generated header %.1f ns\n", CALLS,
           (t1 - t0) / CALLS, (t2 - t1) / CALLS);

    /* one query again and again, n varied a little (as `dispatch --repeat`) */
    atomsim_ct_query one;
    atomsim_query pub;
    atomsim_ct_query_init(&one, ATOMSIM_PATTERN_COMPACTION);
    one.n = 10e6;
    one.selectivity = 0.25;
    to_public(&one, &pub);
    t0 = now_ns();
    for (int i = 0; i < CALLS; i++) {
        atomsim_answer a;
        pub.n = 10e6 * (1 + (double)(i & 7) * 1e-9);
        if (atomsim_lookup(t, &pub, &a, NULL, 0) == ATOMSIM_OK)
            sink += a.gpu_us;
    }
    t1 = now_ns();
    for (int i = 0; i < CALLS; i++) {
        atomsim_ct_answer a;
        one.n = 10e6 * (1 + (double)(i & 7) * 1e-9);
        if (atomsim_ct_lookup(&one, &a) == ATOMSIM_OK)
            sink += a.gpu_us;
    }
    t2 = now_ns();
    printf("time per lookup, one compaction query repeated: libatomsim %.1f ns, generated header %.1f ns\n",
           (t1 - t0) / CALLS, (t2 - t1) / CALLS);
    (void)sink;
}

static int check_same_export(const atomsim_table *t)
{
    atomsim_table_info info;
    char hash[40];
    atomsim_table_get_info(t, &info);
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)ATOMSIM_COST_TABLE_GPU_CONFIG_HASH);
    if (strcmp(hash, info.gpu_config_hash)) {
        printf("FAIL the JSON (GPU config %s) and the header (%s) come from different exports\n", info.gpu_config_hash,
               hash);
        return -1;
    }
    return 0;
}

static int run_checks(const atomsim_table *t)
{
    long cells = 0, random_points = 0, extrapolated = 0;
    for (int p = 0; p < ATOMSIM_PATTERN_COUNT; p++) {
        double lo, hi;
        const atomsim_ct_pattern *tp = &atomsim_ct_patterns[p];
        int in_lib = atomsim_table_axis_range(t, p, "n", &lo, &hi) == ATOMSIM_OK;
        if (in_lib != tp->present)
            failf("%s: in the JSON %d, in the header %d", atomsim_pattern_name(p), in_lib, tp->present);
        atomsim_ct_query q;
        if (!tp->present) {
            atomsim_ct_query_init(&q, p);
            compare(t, &q); /* both refuse: ATOMSIM_ENOPATTERN */
            continue;
        }
        for (size_t i = 0; i < tp->cells; i++, cells++) {
            cell_query(p, i, &q);
            q.rule = policies[i % POLICY_COUNT][0];
            q.data_on = policies[i % POLICY_COUNT][1];
            compare(t, &q);
        }
        for (int i = 0; i < RANDOM_POINTS; i++, random_points++) {
            random_query(p, 0, &q);
            compare(t, &q);
        }
        for (int i = 0; i < EXTRAPOLATED_POINTS; i++, extrapolated++) {
            random_query(p, 1, &q);
            compare(t, &q);
            q.extrapolate = 0; /* outside the grid, both refuse; inside, both answer */
            compare(t, &q);
        }
        /* the refusals */
        static const double bad[] = { -1, 0, NAN, INFINITY };
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
            atomsim_ct_query_init(&q, p);
            q.n = bad[b];
            compare(t, &q);
        }
        /* shapes that do not fit on an SM, and shapes no int holds */
        static const double shapes[][3] = {
            { 1024, 60000, 0 }, { 1024, 49152, 1 }, { 2048, 0, 1 }, { 0.3, 0, 1 }, { 4294967296.0 - 5, 0, 1 },
            { 256, 4294966272.0, 1 }, { 256, 1e300, 1 }, { 1e300, 0, 1 },
        };
        for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
            atomsim_ct_query_init(&q, p);
            q.wg = shapes[k][0];
            q.smem_per_wg = shapes[k][1];
            q.extrapolate = (int)shapes[k][2];
            compare(t, &q);
        }
        atomsim_ct_query_init(&q, p);
        q.bins = 1073741568; /* 4 bytes a bin wrap around 2^32 with the reserved KiB */
        q.extrapolate = 1;
        compare(t, &q);
        atomsim_ct_query_init(&q, p);
        q.rule = 7;
        compare(t, &q);
        q.rule = ATOMSIM_RULE_TABLE;
        q.data_on = -2;
        compare(t, &q);
    }
    atomsim_ct_query q;
    atomsim_ct_query_init(&q, ATOMSIM_PATTERN_COUNT);
    compare(t, &q);
    printf("%ld lookups compared bit for bit (every field): %ld grid cells, %ld random points inside the grid, "
           "%ld extrapolated (each also without extrapolate), and refusals\n",
           compared, cells, random_points, extrapolated);
    return failures ? -1 : 0;
}

static const char *source_name(int s)
{
    return s == 's' ? "simulator" : s == 'a' ? "anchored" : s == 'x' ? "mixed" : "model";
}

/* A query as a `dispatch --batch` row, and this library's answer in the
 * CLI's answer columns (decision .. cpu_hi_us, %.6g as it prints). */
static long emitted, skipped;
static void emit(const atomsim_table *t, const atomsim_table_info *info, const atomsim_ct_query *cq, FILE *in,
                 FILE *expect)
{
    atomsim_query q;
    atomsim_answer a;
    to_public(cq, &q);
    if (atomsim_lookup(t, &q, &a, NULL, 0) != ATOMSIM_OK) {
        skipped++; /* one refused row fails a whole batch: the refusals are the unit test's */
        return;
    }
    emitted++;
    int rule = q.rule < 0 ? info->rule : q.rule, data_on = q.data_on < 0 ? info->data_on : q.data_on;
    fprintf(in, "%s,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%s,%s\n", atomsim_pattern_name(q.pattern), q.n, q.wg,
            q.smem_per_wg, q.selectivity, q.bins, q.hot, q.addresses, atomsim_rule_name(rule),
            atomsim_data_on_name(data_on));
    fprintf(expect, "%s,%s,%s,%.6g,%.6g,%.6g,%.6g,%s,%s,%s,%s,%s,%d,%.6g,%.6g,%d\n", atomsim_target_name(a.decision),
            atomsim_reason_name(a.reason), atomsim_rule_name(a.rule), a.gpu_us, a.gpu_lo_us, a.gpu_hi_us, a.cpu_us,
            atomsim_target_name(a.cost_decision), atomsim_target_name(a.seed_decision),
            atomsim_reason_name(a.seed_reason), atomsim_data_on_name(a.data_on), source_name(a.source),
            a.extrapolated, a.cpu_lo_us, a.cpu_hi_us, a.close_call);
}

static int emit_batch(const atomsim_table *t, char **paths)
{
    FILE *f[4];
    atomsim_table_info info;
    atomsim_table_get_info(t, &info);
    for (int i = 0; i < 4; i++)
        if (!(f[i] = fopen(paths[i], "w"))) {
            printf("FAIL cannot write %s\n", paths[i]);
            return -1;
        }
    static const char header[] = "pattern,n,wg,smem_per_wg,selectivity,bins,hot,addresses,rule,data_on\n";
    fputs(header, f[0]);
    fputs(header, f[2]);
    for (int p = 0; p < ATOMSIM_PATTERN_COUNT; p++) {
        const atomsim_ct_pattern *tp = &atomsim_ct_patterns[p];
        atomsim_ct_query q;
        if (!tp->present)
            continue;
        for (size_t i = 0; i < tp->cells; i++) {
            cell_query(p, i, &q);
            q.rule = policies[i % POLICY_COUNT][0];
            q.data_on = policies[i % POLICY_COUNT][1];
            emit(t, &info, &q, f[0], f[1]);
        }
        for (int i = 0; i < RANDOM_POINTS; i++) {
            random_query(p, 0, &q);
            emit(t, &info, &q, f[0], f[1]);
        }
        for (int i = 0; i < EXTRAPOLATED_POINTS; i++) {
            random_query(p, 1, &q);
            emit(t, &info, &q, f[2], f[3]);
        }
    }
    int bad = 0;
    for (int i = 0; i < 4; i++)
        bad |= fclose(f[i]) != 0;
    printf("%ld queries written, %ld the library refuses left out\n", emitted, skipped);
    return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
    int emitting = argc == 7 && !strcmp(argv[1], "--emit-batch");
    const char *path = emitting ? argv[2] : argc > 1 ? argv[1] : CAPI_TABLE;
    atomsim_table *t;
    char err[256];
    if ((argc > 2 && !emitting) || (argc > 1 && argv[1][0] == '-' && !emitting)) {
        fprintf(stderr, "usage: %s [TABLE.json] | --emit-batch TABLE.json IN.csv EXPECTED.csv EXTRA_IN.csv "
                        "EXTRA_EXPECTED.csv\n", argv[0]);
        return 2;
    }
    if (atomsim_table_open(path, &t, err, sizeof err) != ATOMSIM_OK) {
        printf("FAIL %s\n", err);
        return 1;
    }
    int rc = check_same_export(t);
    if (rc == 0 && emitting)
        rc = emit_batch(t, argv + 3);
    else if (rc == 0) {
        rc = run_checks(t);
        bench(t);
        printf("%s: %d failed\n", rc ? "FAIL" : "ok", failures);
    }
    atomsim_table_close(t);
    return rc ? 1 : 0;
}
