/* test_sweep.c - the sweep's grid (app/sweep_values.c, sweep_spec.c): value lists and
 * ranges (geometric, arithmetic, 2^E, `all`), the refusals, the row order
 * (configs, config keys, pattern keys, last fastest), --canonical, shards
 * that partition the rows in order, the label columns, and a small run whose
 * output is the same bytes for 1 and 3 worker processes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../app/opts.h"
#include "../../app/sweep.h"

static char err[CFG_ERR_MAX];

/* Expands KEY=VALUES and joins the values with spaces. */
static const char *expand(const char *key, const char *values)
{
    static char out[4096];
    char **v;
    size_t n;
    if (swp_expand(key, values, &v, &n, err))
        return NULL;
    out[0] = 0;
    for (size_t i = 0; i < n; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, v[i]);
    }
    swp_free_values(v, n);
    return out;
}

static void lists_and_ranges(void **state)
{
    (void)state;
    assert_string_equal(expand("bins", "1..65536:x2"), "1 2 4 8 16 32 64 128 256 512 1024 2048 4096 8192 16384 32768 65536");
    assert_string_equal(expand("bins", "1..100:x10"), "1 10 100");
    assert_string_equal(expand("bins", "1..150:x10"), "1 10 100"); /* stops at the last value <= b */
    assert_string_equal(expand("n", "2^10..2^14:x4"), "1024 4096 16384");
    assert_string_equal(expand("wg", "32..128:+32"), "32 64 96 128");
    assert_string_equal(expand("addresses", "1..4"), "1 2 3 4");
    assert_string_equal(expand("selectivity", "0..1:+0.1"), "0 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1");
    assert_string_equal(expand("hot", "0.001..1:x10"), "0.001 0.01 0.1 1");
    /* a factor below 2 on integers rounds, and repeats are dropped */
    assert_string_equal(expand("bins", "1..4:x1.5"), "1 2 3");
    /* lists mix values and ranges; a repeated value runs once */
    assert_string_equal(expand("bins", "3, 1..4:x2 ,4,7"), "3 1 2 4 7");
    assert_string_equal(expand("l2.slice_count", "40,80,160"), "40 80 160");
    assert_string_equal(expand("l2.slice_hash", "mod,xor"), "mod xor");
    assert_string_equal(expand("engine", "sim, model"), "sim model");
    const char *all = expand("pattern", "all");
    assert_non_null(all);
    assert_non_null(strstr(all, "histogram-u8-cas"));
    assert_int_equal(strlen(all) > 100, 1);
}

static void refusals(void **state)
{
    (void)state;
    assert_null(expand("nope", "1"));
    assert_non_null(strstr(err, "unknown key 'nope'"));
    assert_null(expand("l2.nope", "1"));
    assert_null(expand("bins", ""));
    assert_null(expand("bins", "1,,2"));
    assert_null(expand("bins", "4..1"));
    assert_non_null(strstr(err, "empty range"));
    assert_null(expand("bins", "1..x"));
    assert_null(expand("bins", "1..8:x1"));   /* factor must exceed 1 */
    assert_null(expand("bins", "0..8:x2"));   /* geometric from 0 */
    assert_null(expand("bins", "1..8:+0"));
    assert_null(expand("bins", "1..8:y2"));
    assert_null(expand("bins", "0.5..8"));    /* integer key, fractional end */
    assert_null(expand("pattern", "a..b"));
    assert_null(expand("bins", "1..2^40:+1")); /* too many values */

    swp_spec *s;
    assert_int_equal(swp_spec_new(&s), 0);
    assert_int_equal(swp_set_axis(s, -1, "bins", "0", err), -1);        /* out of range for --bins */
    assert_int_equal(swp_set_axis(s, -1, "selectivity", "0..2:+1", err), -1);
    assert_int_equal(swp_set_axis(s, -1, "l2.slice_count", "0", err), -1);
    assert_int_equal(swp_set_axis(s, -1, "pattern", "histogram,nope", err), -1);
    assert_int_equal(swp_set_shard(s, 0, 3, err), -1);
    assert_int_equal(swp_set_shard(s, 4, 3, err), -1);
    /* no pattern: the plan refuses */
    swp_plan *p;
    assert_int_equal(swp_set_axis(s, -1, "bins", "1,2", err), 0);
    assert_int_equal(swp_plan_open(s, &p, err), 2);
    assert_non_null(strstr(err, "no pattern"));
    swp_spec_free(s);
}

static void row_order(void **state)
{
    (void)state;
    swp_spec *s;
    swp_plan *p;
    swp_row r;
    assert_int_equal(swp_spec_new(&s), 0);
    assert_int_equal(swp_set_axis(s, -1, "bins", "1,2,4", err), 0);
    assert_int_equal(swp_set_axis(s, -1, "pattern", "histogram,counter", err), 0);
    assert_int_equal(swp_set_axis(s, -1, "l2.slice_count", "40,80", err), 0);
    assert_int_equal(swp_plan_open(s, &p, err), 0);
    assert_int_equal(swp_plan_total(p), 12);
    assert_int_equal(swp_plan_count(p), 12);
    /* config key outermost, then bins, then pattern fastest */
    static const struct { int slices; unsigned bins; enum pat_id pat; } want[] = {
        { 40, 1, PAT_HISTOGRAM }, { 40, 1, PAT_COUNTER }, { 40, 2, PAT_HISTOGRAM }, { 40, 2, PAT_COUNTER },
        { 40, 4, PAT_HISTOGRAM }, { 40, 4, PAT_COUNTER }, { 80, 1, PAT_HISTOGRAM }, { 80, 1, PAT_COUNTER },
        { 80, 2, PAT_HISTOGRAM }, { 80, 2, PAT_COUNTER }, { 80, 4, PAT_HISTOGRAM }, { 80, 4, PAT_COUNTER },
    };
    for (uint64_t i = 0; i < 12; i++) {
        assert_int_equal(swp_plan_row(p, i, &r, err), 0);
        assert_int_equal(r.cfg->l2.slice_count, want[i].slices);
        assert_int_equal(r.params.bins, want[i].bins);
        assert_int_equal(r.params.pattern, want[i].pat);
        assert_int_equal(r.params.n, 1u << 20); /* the contract's defaults elsewhere */
        assert_int_equal(r.engine, CLI_ENGINE_SIM);
    }
    char h[256];
    swp_plan_label_header(p, h, sizeof h);
    assert_string_equal(h, ",l2.slice_count");
    assert_string_equal(swp_plan_labels(p, 0), ",40");
    assert_string_equal(swp_plan_labels(p, 1), ",80");
    swp_plan_close(p);

    /* a second axis of the same key replaces the first, in place */
    assert_int_equal(swp_set_axis(s, -1, "bins", "8", err), 0);
    swp_set_config_column(s, 1);
    assert_int_equal(swp_plan_open(s, &p, err), 0);
    assert_int_equal(swp_plan_total(p), 4);
    swp_plan_label_header(p, h, sizeof h);
    assert_string_equal(h, ",config,l2.slice_count");
    assert_string_equal(swp_plan_labels(p, 1), ",default,80");
    swp_plan_close(p);
    swp_spec_free(s);
}

static void canonical_dedupes(void **state)
{
    (void)state;
    swp_spec *s;
    swp_plan *p;
    swp_row r;
    assert_int_equal(swp_spec_new(&s), 0);
    assert_int_equal(swp_set_axis(s, -1, "pattern", "counter,histogram", err), 0);
    assert_int_equal(swp_set_axis(s, -1, "bins", "1,2,4", err), 0);
    assert_int_equal(swp_set_axis(s, -1, "selectivity", "0.5,1", err), 0);
    assert_int_equal(swp_plan_open(s, &p, err), 0);
    assert_int_equal(swp_plan_total(p), 12);
    swp_plan_close(p);
    swp_set_canonical(s, 1);
    assert_int_equal(swp_plan_open(s, &p, err), 0);
    /* counter: 2 selectivities (bins ignored); histogram: 3 bins (selectivity ignored) */
    assert_int_equal(swp_plan_total(p), 5);
    assert_int_equal(swp_plan_row(p, 0, &r, err), 0);
    assert_int_equal(r.params.pattern, PAT_COUNTER);
    assert_int_equal(r.params.bins, 256); /* reset to the default */
    assert_true(r.params.selectivity == 0.5);
    assert_int_equal(swp_plan_row(p, 1, &r, err), 0);
    assert_int_equal(r.params.pattern, PAT_COUNTER);
    assert_true(r.params.selectivity == 1.0);
    assert_int_equal(swp_plan_row(p, 2, &r, err), 0);
    assert_int_equal(r.params.pattern, PAT_HISTOGRAM);
    assert_int_equal(r.params.bins, 1);
    assert_true(r.params.selectivity == 1.0); /* reset to the default */
    swp_plan_close(p);
    swp_spec_free(s);
}

static void shards_partition(void **state)
{
    (void)state;
    for (unsigned n = 1; n <= 9; n++) {
        uint64_t next = 0;
        for (unsigned k = 1; k <= n; k++) {
            swp_spec *s;
            swp_plan *p;
            swp_row r;
            assert_int_equal(swp_spec_new(&s), 0);
            assert_int_equal(swp_set_axis(s, -1, "pattern", "histogram", err), 0);
            assert_int_equal(swp_set_axis(s, -1, "bins", "1..7", err), 0);
            assert_int_equal(swp_set_shard(s, k, n, err), 0);
            assert_int_equal(swp_plan_open(s, &p, err), 0);
            assert_int_equal(swp_plan_total(p), 7);
            /* contiguous blocks, in order, sizes differing by at most one */
            uint64_t c = swp_plan_count(p);
            assert_true(c == 7 / n || c == 7 / n + 1);
            for (uint64_t i = 0; i < c; i++) {
                assert_int_equal(swp_plan_row(p, i, &r, err), 0);
                assert_int_equal(r.index, next);
                assert_int_equal(r.params.bins, next + 1);
                next++;
            }
            assert_int_equal(swp_plan_row(p, c, &r, err), 2);
            swp_plan_close(p);
            swp_spec_free(s);
        }
        assert_int_equal(next, 7);
    }
}

static void grids_and_points(void **state)
{
    (void)state;
    swp_spec *s;
    swp_plan *p;
    swp_row r;
    int g;
    char path[] = "/tmp/test_sweep_pointsXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("# provenance: ignored\npattern,n,bins,time_us_median\nhistogram,4096,3,1.5\ncounter,2048,,2\n", f);
    fclose(f);
    assert_int_equal(swp_spec_new(&s), 0);
    assert_int_equal(swp_set_axis(s, 0, "pattern", "store", err), 0);
    assert_int_equal(swp_add_grid(s, &g, err), 0);
    assert_int_equal(g, 1);
    assert_int_equal(swp_set_points(s, 1, path, err), 0);
    /* an axis for every grid: a second engine */
    assert_int_equal(swp_set_axis(s, -1, "engine", "sim,model", err), 0);
    assert_int_equal(swp_plan_open(s, &p, err), 0);
    assert_int_equal(swp_plan_total(p), 2 + 4);
    assert_int_equal(swp_plan_row(p, 1, &r, err), 0);
    assert_int_equal(r.params.pattern, PAT_STORE);
    assert_int_equal(r.engine, CLI_ENGINE_MODEL);
    assert_int_equal(swp_plan_row(p, 2, &r, err), 0);
    assert_int_equal(r.params.pattern, PAT_HISTOGRAM);
    assert_int_equal(r.params.n, 4096);
    assert_int_equal(r.params.bins, 3);
    assert_int_equal(swp_plan_row(p, 5, &r, err), 0);
    assert_int_equal(r.params.pattern, PAT_COUNTER);
    assert_int_equal(r.params.n, 2048);
    assert_int_equal(r.params.bins, 256);
    assert_int_equal(r.engine, CLI_ENGINE_MODEL);
    swp_plan_close(p);
    swp_spec_free(s);
    unlink(path);
}

/* Runs a plan with `jobs` workers into a string. */
static char *run_to_string(swp_plan *p, int jobs, enum cli_format fmt, int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    swp_output out = { fmt, f };
    swp_run_opts o = { jobs, 0, 0, "sweep" };
    *rc = swp_run(p, &o, &out, 1);
    fclose(f);
    return buf;
}

static void same_output_any_jobs(void **state)
{
    (void)state;
    swp_spec *s;
    swp_plan *p;
    int rc;
    assert_int_equal(swp_spec_new(&s), 0);
    assert_int_equal(swp_set_axis(s, -1, "pattern", "histogram,counter,store", err), 0);
    assert_int_equal(swp_set_axis(s, -1, "n", "2^10,2^12", err), 0);
    assert_int_equal(swp_set_axis(s, -1, "bins", "1..64:x4", err), 0);
    assert_int_equal(swp_set_axis(s, -1, "l2.slice_count", "40,80", err), 0);
    assert_int_equal(swp_plan_open(s, &p, err), 0);
    char *one = run_to_string(p, 1, CLI_FORMAT_CSV, &rc);
    assert_int_equal(rc, 0);
    char *three = run_to_string(p, 3, CLI_FORMAT_CSV, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(one, three);
    /* header plus 48 rows, each ending in the label column */
    int lines = 0;
    for (char *c = one; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 49);
    assert_non_null(strstr(one, ",l2.slice_count\n"));
    free(one);
    free(three);
    one = run_to_string(p, 1, CLI_FORMAT_JSON, &rc);
    three = run_to_string(p, 2, CLI_FORMAT_JSON, &rc);
    assert_string_equal(one, three);
    assert_non_null(strstr(one, "\"atomsim-runs\""));
    free(one);
    free(three);
    swp_plan_close(p);
    swp_spec_free(s);
}

static void cli_parse(void **state)
{
    (void)state;
    swp_cli c;
    char a0[] = "sweep", a1[] = "--vary", a2[] = "bins=1..4:x2", a3[] = "--pattern", a4[] = "histogram", a5[] = "-j",
         a6[] = "3", a7[] = "--shard", a8[] = "2/5", a9[] = "--config", a10[] = "x.ini", a11[] = "--config",
         a12[] = "y.ini";
    char *argv[] = { a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, NULL };
    assert_int_equal(swp_cli_parse(&c, 13, argv, 0), OPT_GO);
    assert_int_equal(c.axis_count, 2);
    assert_string_equal(c.axis_key[0], "bins");
    assert_string_equal(c.axis_values[0], "1..4:x2");
    assert_string_equal(c.axis_key[1], "pattern");
    assert_int_equal(c.run.jobs, 3);
    assert_int_equal(c.shard_k, 2);
    assert_int_equal(c.shard_n, 5);
    assert_int_equal(c.config_count, 2);

    char b0[] = "sweep", b1[] = "--bins", b2[] = "1", b3[] = "--vary", b4[] = "bins=2";
    char *argv2[] = { b0, b1, b2, b3, b4, NULL };
    /* the parser prints the line itself (tests/sweep_errors.sh reads it) */
    assert_int_equal(swp_cli_parse(&c, 5, argv2, 0), 2);

    char d0[] = "sweep", d1[] = "--shard", d2[] = "3/2";
    char *argv3[] = { d0, d1, d2, NULL };
    assert_int_equal(swp_cli_parse(&c, 3, argv3, 0), 2);

    char e0[] = "sweep", e1[] = "--out-dir", e2[] = "x";
    char *argv4[] = { e0, e1, e2, NULL };
    assert_int_equal(swp_cli_parse(&c, 3, argv4, 0), 2); /* a study option */
    assert_int_equal(swp_cli_parse(&c, 3, argv4, 1), OPT_GO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lists_and_ranges),
        cmocka_unit_test(refusals),
        cmocka_unit_test(row_order),
        cmocka_unit_test(canonical_dedupes),
        cmocka_unit_test(shards_partition),
        cmocka_unit_test(grids_and_points),
        cmocka_unit_test(same_output_any_jobs),
        cmocka_unit_test(cli_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
