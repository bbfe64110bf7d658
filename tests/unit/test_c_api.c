/* test_c_api.c - the public C API (include/atomsim/dispatch.h), through
 * nothing but that header: versions, every way opening a table can fail
 * (with its code and a message that says what to do), lookups and their
 * refusals, names, and lookups from 4 threads at once giving exactly the
 * single-threaded answers, allocating nothing.  The table is one export of configs/h100.ini
 * (CAPI_TABLE, made by tests/tests.mk). */
#ifndef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#endif
#include <atomsim/dispatch.h>

#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#ifndef CAPI_TABLE
#define CAPI_TABLE "build/tests/c_api/h100.json"
#endif

static atomsim_table *table;
static char dir[64];

/* tests/tests.mk links this test with -Wl,--wrap=malloc (calloc, realloc):
 * every allocation the library's code makes comes through here. */
void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);
static _Atomic long allocations;

void *__wrap_malloc(size_t size)
{
    allocations++;
    return __real_malloc(size);
}

void *__wrap_calloc(size_t count, size_t size)
{
    allocations++;
    return __real_calloc(count, size);
}

void *__wrap_realloc(void *p, size_t size)
{
    allocations++;
    return __real_realloc(p, size);
}

static int setup(void **state)
{
    char err[256];
    (void)state;
    if (atomsim_table_open(CAPI_TABLE, &table, err, sizeof err) != ATOMSIM_OK)
        fail_msg("%s", err);
    snprintf(dir, sizeof dir, "/tmp/atomsim_c_api_XXXXXX");
    assert_non_null(mkdtemp(dir));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    atomsim_table_close(table);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static char *read_table(size_t *len)
{
    FILE *f = fopen(CAPI_TABLE, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    char *text = malloc(*len + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, *len, f), *len);
    text[*len] = 0;
    fclose(f);
    return text;
}

static void test_version(void **state)
{
    char want[32];
    (void)state;
    snprintf(want, sizeof want, "%d.%d", ATOMSIM_VERSION_MAJOR, ATOMSIM_VERSION_MINOR);
    assert_string_equal(atomsim_version(), want);
    assert_int_equal(atomsim_version_number(), ATOMSIM_VERSION_NUMBER);
    atomsim_table_info info;
    assert_int_equal(atomsim_table_get_info(table, &info), ATOMSIM_OK);
    assert_int_equal(info.schema_version, ATOMSIM_TABLE_SCHEMA_VERSION);
    assert_true(strlen(info.gpu_name) > 0 && strlen(info.gpu_config_hash) == 16 && strlen(info.cpu_name) > 0);
    assert_true(info.rule == ATOMSIM_RULE_COST || info.rule == ATOMSIM_RULE_SEED);
    assert_true(info.pcie_bandwidth_gbps > 0);
}

/* Opens path and expects code rc with a message containing `says`. */
static void expect_open(const char *path, int rc, const char *says)
{
    atomsim_table *t = (atomsim_table *)&t; /* must come back NULL */
    char err[512] = "";
    assert_int_equal(atomsim_table_open(path, &t, err, sizeof err), rc);
    assert_null(t);
    if (!strstr(err, says))
        fail_msg("opening %s: '%s' does not say '%s'", path, err, says);
}

static void test_open_failures(void **state)
{
    char path[128];
    size_t len;
    (void)state;
    snprintf(path, sizeof path, "%s/none.json", dir);
    expect_open(path, ATOMSIM_EOPEN, "cannot open");
    expect_open(dir, ATOMSIM_EOPEN, "not a regular file");

    snprintf(path, sizeof path, "%s/bad.json", dir);
    write_file(path, "{\"schema\": ", 11);
    expect_open(path, ATOMSIM_ETABLE, "not valid JSON");
    write_file(path, "{\"schema\": \"something-else\"}", 28);
    expect_open(path, ATOMSIM_ESCHEMA, "not an atomsim cost table");

    /* the same table, one schema version back */
    char *text = read_table(&len);
    char *v = strstr(text, "\"schema_version\": 3");
    assert_non_null(v);
    v[strlen("\"schema_version\": ")] = '2';
    snprintf(path, sizeof path, "%s/v2.json", dir);
    write_file(path, text, len);
    expect_open(path, ATOMSIM_ESCHEMA, "schema version 2; libatomsim");
    expect_open(path, ATOMSIM_ESCHEMA, "reads version 3 only (export the table again");

    /* the right version, a broken layout: a cell count that does not match */
    v = strstr(text, "\"schema_version\": 2");
    assert_non_null(v);
    v[strlen("\"schema_version\": ")] = '3';
    char *cells = strstr(text, "\"gpu_us\": [");
    assert_non_null(cells);
    cells += strlen("\"gpu_us\": [");
    char *next = strchr(cells, ',') + 1; /* drop the first cell */
    memmove(cells, next, len + 1 - (size_t)(next - text));
    write_file(path, text, strlen(text));
    expect_open(path, ATOMSIM_ETABLE, "gpu_us");
    free(text);

    /* bad arguments, and no buffer for the text */
    atomsim_table *t;
    assert_int_equal(atomsim_table_open(NULL, &t, NULL, 0), ATOMSIM_EINVAL);
    assert_int_equal(atomsim_table_open(CAPI_TABLE, NULL, NULL, 0), ATOMSIM_EINVAL);
    assert_int_equal(atomsim_table_open(dir, &t, NULL, 0), ATOMSIM_EOPEN);
    char tiny[8];
    assert_int_equal(atomsim_table_open(dir, &t, tiny, sizeof tiny), ATOMSIM_EOPEN);
    assert_int_equal(strlen(tiny), sizeof tiny - 1); /* truncated, terminated */
    atomsim_table_close(NULL);
}

static void lookup_ok(const atomsim_query *q, atomsim_answer *a)
{
    char err[256];
    int rc = atomsim_lookup(table, q, a, err, sizeof err);
    if (rc != ATOMSIM_OK)
        fail_msg("%s: rc %d: %s", atomsim_pattern_name(q->pattern), rc, err);
}

static void test_lookup(void **state)
{
    atomsim_query q;
    atomsim_answer a;
    (void)state;
    assert_int_equal(atomsim_query_init(&q, "compaction"), ATOMSIM_OK);
    assert_int_equal(q.pattern, ATOMSIM_PATTERN_COMPACTION);
    assert_true(q.n == 1048576 && q.wg == 256 && q.smem_per_wg == 0 && q.selectivity == 1 && q.bins == 256);
    assert_true(q.rule == ATOMSIM_RULE_TABLE && q.data_on == ATOMSIM_DATA_ON_TABLE && !q.extrapolate);
    q.n = 10e6;
    q.selectivity = 0.25;
    lookup_ok(&q, &a);
    assert_true(a.gpu_us > 0 && a.cpu_us > 0 && a.gpu_kernel_us > 0 && a.cpu_compute_us > 0);
    assert_true(a.gpu_lo_us <= a.gpu_us && a.gpu_us <= a.gpu_hi_us);
    assert_true(a.band_rows > 0); /* the table was exported with residuals */
    assert_true(a.cpu_band_rows > 0 && a.cpu_lo_us <= a.cpu_hi_us); /* and CPU residuals */
    assert_true(a.cpu_lo_us != a.cpu_hi_us);
    assert_int_equal(a.close_call, a.gpu_lo_us <= a.cpu_hi_us && a.cpu_lo_us <= a.gpu_hi_us);
    assert_int_equal(a.cost_decision, a.gpu_us <= a.cpu_us ? ATOMSIM_GPU : ATOMSIM_CPU);
    assert_false(a.extrapolated);
    assert_true(a.source == ATOMSIM_SOURCE_MODEL || a.source == ATOMSIM_SOURCE_SIM || a.source == ATOMSIM_SOURCE_MIXED);

    /* each rule decides by its own verdict */
    q.rule = ATOMSIM_RULE_COST;
    lookup_ok(&q, &a);
    assert_int_equal(a.decision, a.cost_decision);
    assert_int_equal(a.reason, a.decision == ATOMSIM_GPU ? ATOMSIM_REASON_GPU_FASTER : ATOMSIM_REASON_CPU_FASTER);
    q.rule = ATOMSIM_RULE_SEED;
    lookup_ok(&q, &a);
    assert_int_equal(a.rule, ATOMSIM_RULE_SEED);
    assert_int_equal(a.decision, a.seed_decision);
    assert_int_equal(a.reason, a.seed_reason);

    /* where the data lives moves the costs: nothing moves when it is on both sides */
    atomsim_answer both, host;
    q.rule = ATOMSIM_RULE_COST;
    q.data_on = ATOMSIM_DATA_ON_BOTH;
    lookup_ok(&q, &both);
    q.data_on = ATOMSIM_DATA_ON_HOST;
    lookup_ok(&q, &host);
    assert_true(both.gpu_kernel_us == host.gpu_kernel_us && host.gpu_us > both.gpu_us && host.cpu_us == both.cpu_us);
    assert_int_equal(host.data_on, ATOMSIM_DATA_ON_HOST);

    /* the seed rule inhibits compare-and-swap when the table says so */
    atomsim_table_info info;
    atomsim_table_get_info(table, &info);
    assert_int_equal(atomsim_query_init(&q, "cas-append"), ATOMSIM_OK);
    q.rule = ATOMSIM_RULE_SEED;
    lookup_ok(&q, &a);
    if (info.inhibit_cas) {
        assert_int_equal(a.decision, ATOMSIM_CPU);
        assert_int_equal(a.reason, ATOMSIM_REASON_CAS);
        assert_true(a.inhibited);
    }

    /* a histogram of another shape, between grid points */
    assert_int_equal(atomsim_query_init(&q, "histogram"), ATOMSIM_OK);
    q.n = 1 << 24;
    q.wg = 96;
    q.smem_per_wg = 40 * 1024;
    q.bins = 300;
    q.hot = 0.03;
    lookup_ok(&q, &a);
    assert_true(a.gpu_us > 0 && a.density_fraction >= 0 && a.density_fraction <= 1 && !a.extrapolated);
}

static void expect_lookup(const atomsim_query *q, int rc, const char *says)
{
    atomsim_answer a;
    char err[256] = "";
    memset(&a, 0x5a, sizeof a);
    unsigned char untouched[sizeof a];
    memcpy(untouched, &a, sizeof a);
    assert_int_equal(atomsim_lookup(table, q, &a, err, sizeof err), rc);
    assert_memory_equal(&a, untouched, sizeof a);
    if (!strstr(err, says))
        fail_msg("'%s' does not say '%s'", err, says);
}

static void test_lookup_refusals(void **state)
{
    atomsim_query q;
    (void)state;
    assert_int_equal(atomsim_query_init(&q, "no-such-pattern"), ATOMSIM_EINVAL);
    assert_int_equal(q.pattern, -1);
    expect_lookup(&q, ATOMSIM_EINVAL, "pattern code -1");
    assert_int_equal(atomsim_query_init(&q, NULL), ATOMSIM_EINVAL);
    assert_int_equal(atomsim_query_init(NULL, "counter"), ATOMSIM_EINVAL);

    atomsim_query_init(&q, "counter");
    q.n = 1e12;
    expect_lookup(&q, ATOMSIM_ERANGE, "n=1e+12 is outside the table's grid [1024, 67108864] for counter (set extrapolate");
    q.extrapolate = 1;
    atomsim_answer a;
    lookup_ok(&q, &a);
    assert_true(a.extrapolated);
    q.extrapolate = 0;
    q.n = 1 << 20;
    q.wg = 4096;
    expect_lookup(&q, ATOMSIM_ERANGE, "wg=4096");
    q.wg = 256;
    static const double bad[] = { -1, 0, NAN, INFINITY };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        q.n = bad[i];
        expect_lookup(&q, ATOMSIM_EINVAL, "n=");
    }
    q.n = 1 << 20;
    q.selectivity = -0.5;
    expect_lookup(&q, ATOMSIM_EINVAL, "selectivity=-0.5: must be non-negative");
    q.selectivity = 1;
    q.n = 1e12; /* an invalid value wins over one outside the grid */
    q.hot = 0;
    q.smem_per_wg = NAN;
    expect_lookup(&q, ATOMSIM_EINVAL, "smem_per_wg=nan");
    q.smem_per_wg = 0;
    q.n = 1 << 20;
    q.bins = -1; /* counter has no bins axis: ignored */
    lookup_ok(&q, &a);
    q.rule = 2;
    expect_lookup(&q, ATOMSIM_EINVAL, "rule 2");
    q.rule = ATOMSIM_RULE_TABLE;
    q.data_on = 3;
    expect_lookup(&q, ATOMSIM_EINVAL, "data_on 3");
    q.data_on = ATOMSIM_DATA_ON_TABLE;
    q.pattern = ATOMSIM_PATTERN_COUNT;
    expect_lookup(&q, ATOMSIM_EINVAL, "pattern code 12");
    assert_int_equal(atomsim_lookup(NULL, &q, &a, NULL, 0), ATOMSIM_EINVAL);
    assert_int_equal(atomsim_lookup(table, NULL, &a, NULL, 0), ATOMSIM_EINVAL);
    assert_int_equal(atomsim_lookup(table, &q, NULL, NULL, 0), ATOMSIM_EINVAL);
}

/* A table of one pattern refuses the others. */
static void test_missing_pattern(void **state)
{
    char path[128];
    size_t len;
    (void)state;
    char *text = read_table(&len);
    /* keep the first pattern (store): cut from the second entry to the list's end */
    char *second = strstr(text, "\n    {\n      \"pattern\": \"counter\"");
    char *end = strstr(text, "\n  ]\n}");
    assert_non_null(second);
    assert_non_null(end);
    second[-1] = ' '; /* the comma after the first entry */
    memmove(second, end, strlen(end) + 1);
    snprintf(path, sizeof path, "%s/store.json", dir);
    write_file(path, text, strlen(text));
    free(text);
    atomsim_table *t;
    char err[256];
    if (atomsim_table_open(path, &t, err, sizeof err))
        fail_msg("%s", err);
    atomsim_query q;
    atomsim_answer a;
    atomsim_query_init(&q, "counter");
    assert_int_equal(atomsim_lookup(t, &q, &a, err, sizeof err), ATOMSIM_ENOPATTERN);
    assert_non_null(strstr(err, "no pattern 'counter'"));
    atomsim_query_init(&q, "store");
    assert_int_equal(atomsim_lookup(t, &q, &a, err, sizeof err), ATOMSIM_OK);
    double lo, hi;
    assert_int_equal(atomsim_table_axis_range(t, ATOMSIM_PATTERN_COUNTER, "n", &lo, &hi), ATOMSIM_ENOPATTERN);
    atomsim_table_close(t);
}

static void test_names_and_ranges(void **state)
{
    (void)state;
    for (int p = 0; p < ATOMSIM_PATTERN_COUNT; p++) {
        int back = -1;
        assert_int_equal(atomsim_pattern_from_name(atomsim_pattern_name(p), &back), ATOMSIM_OK);
        assert_int_equal(back, p);
    }
    assert_string_equal(atomsim_pattern_name(ATOMSIM_PATTERN_HISTOGRAM_U8_CAS), "histogram-u8-cas");
    assert_string_equal(atomsim_pattern_name(-1), "?");
    int p;
    assert_int_equal(atomsim_pattern_from_name("nope", &p), ATOMSIM_EINVAL);
    assert_string_equal(atomsim_target_name(ATOMSIM_GPU), "gpu");
    assert_string_equal(atomsim_target_name(ATOMSIM_CPU), "cpu");
    assert_string_equal(atomsim_reason_name(ATOMSIM_REASON_DENSITY), "density");
    assert_string_equal(atomsim_reason_name(ATOMSIM_REASON_CAS), "cas");
    assert_string_equal(atomsim_reason_name(9), "?");
    assert_string_equal(atomsim_rule_name(ATOMSIM_RULE_SEED), "seed");
    assert_string_equal(atomsim_data_on_name(ATOMSIM_DATA_ON_BOTH), "both");
    for (int rc = ATOMSIM_OK; rc <= ATOMSIM_ERANGE; rc++)
        assert_string_not_equal(atomsim_strerror(rc), "unknown error");
    assert_string_equal(atomsim_strerror(99), "unknown error");

    double lo, hi;
    assert_int_equal(atomsim_table_axis_range(table, ATOMSIM_PATTERN_HISTOGRAM, "bins", &lo, &hi), ATOMSIM_OK);
    assert_true(lo == 1 && hi == 4194304);
    assert_int_equal(atomsim_table_axis_range(table, ATOMSIM_PATTERN_HISTOGRAM, "n", &lo, &hi), ATOMSIM_OK);
    assert_true(lo == 1024 && hi == 67108864);
    assert_int_equal(atomsim_table_axis_range(table, ATOMSIM_PATTERN_COMPACTION, "bins", &lo, &hi), ATOMSIM_EINVAL);
    assert_int_equal(atomsim_table_axis_range(table, ATOMSIM_PATTERN_COMPACTION, "colour", &lo, &hi), ATOMSIM_EINVAL);
    assert_int_equal(atomsim_table_axis_range(table, 99, "n", &lo, &hi), ATOMSIM_EINVAL);
}

/* ---- 4 threads at once ----------------------------------------------- */

enum { QUERIES = 6000, THREADS = 4, ROUNDS = 5 };

typedef struct result {
    int rc;
    char err[160];
    atomsim_answer a;
} result;

static atomsim_query queries[QUERIES];
static result expected[QUERIES];

static uint64_t rng_state = 42;
static double uniform(double lo, double hi)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return lo + (hi - lo) * ((double)(z >> 11) / 9007199254740992.0);
}

static void answer(const atomsim_query *q, result *r)
{
    memset(r, 0, sizeof *r); /* padding too, so results compare as bytes */
    r->rc = atomsim_lookup(table, q, &r->a, r->err, sizeof r->err);
}

typedef struct worker {
    int id, mismatches;
} worker;

/* Every query, ROUNDS times, each thread starting elsewhere so that all of
 * them touch the same cells at different moments. */
static void *work(void *arg)
{
    worker *w = arg;
    for (int round = 0; round < ROUNDS; round++)
        for (int k = 0; k < QUERIES; k++) {
            int i = (k + w->id * (QUERIES / THREADS) + round * 977) % QUERIES;
            result r;
            answer(&queries[i], &r);
            w->mismatches += memcmp(&r, &expected[i], sizeof r) != 0;
        }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    for (int i = 0; i < QUERIES; i++) {
        atomsim_query *q = &queries[i];
        atomsim_query_init(q, atomsim_pattern_name(i % ATOMSIM_PATTERN_COUNT));
        q->n = exp2(uniform(9, 27)); /* some outside the grid: refusals race too */
        q->wg = round(exp2(uniform(5, 10)));
        q->smem_per_wg = round(uniform(0, 40000));
        q->selectivity = uniform(0, 1);
        q->bins = round(exp2(uniform(0, 12)));
        q->hot = uniform(0, 1);
        q->addresses = round(exp2(uniform(0, 22)));
        q->rule = (int)uniform(-1, 2);
        q->data_on = (int)uniform(-1, 3);
        q->extrapolate = i % 3 == 0;
        answer(q, &expected[i]);
    }
    int refused = 0;
    for (int i = 0; i < QUERIES; i++)
        refused += expected[i].rc != ATOMSIM_OK;
    assert_true(refused > 0 && refused < QUERIES / 2);

    /* answers and refusals alike allocate nothing */
    long before = allocations;
    for (int i = 0; i < QUERIES; i++) {
        result r;
        answer(&queries[i], &r);
    }
    assert_int_equal(allocations - before, 0);
    assert_int_equal(atomsim_table_open("/nonexistent.json", &(atomsim_table *){ NULL }, NULL, 0), ATOMSIM_EOPEN);
    assert_true(allocations > before); /* the control: the wrap does see the library allocate */

    pthread_t th[THREADS];
    worker w[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker){ i, 0 };
        assert_int_equal(pthread_create(&th[i], NULL, work, &w[i]), 0);
    }
    int mismatches = 0;
    for (int i = 0; i < THREADS; i++) {
        assert_int_equal(pthread_join(th[i], NULL), 0);
        mismatches += w[i].mismatches;
    }
    print_message("%d threads x %d rounds x %d lookups (%d refusals a round): %d differ from one thread's\n", THREADS,
                  ROUNDS, QUERIES, refused, mismatches);
    assert_int_equal(mismatches, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_open_failures),
        cmocka_unit_test(test_lookup),
        cmocka_unit_test(test_lookup_refusals),
        cmocka_unit_test(test_missing_pattern),
        cmocka_unit_test(test_names_and_ranges),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
