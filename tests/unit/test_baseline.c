/* test_baseline.c - the cost-table baselines (validate/baseline.h): a
 * shipped baseline read and written again is byte-identical; one cell
 * moved past its tolerance is one move, within it none; a flipped decision
 * is one flip; a changed config value is one key; the tolerance list is
 * read strictly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../validate/baseline.h"

/* baseline: the shipped file's bytes come back from bl_load + bl_write */
static void test_round_trip_byte_identical(void **state)
{
    (void)state;
    const char *path = "tests/baselines/h100.baseline";
    if (access(path, R_OK))
        skip();
    char err[CFG_ERR_MAX], *buf = NULL;
    size_t len = 0;
    bl_table b;
    assert_int_equal(bl_load(path, &b, err), 0);
    FILE *m = open_memstream(&buf, &len);
    bl_write(&b, m);
    fclose(m);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *want = malloc(len + 2);
    size_t got = fread(want, 1, len + 1, f);
    fclose(f);
    assert_int_equal(got, len);
    assert_memory_equal(buf, want, len);
    free(want);
    free(buf);
    bl_free(&b);
}

static void two_tables(bl_table *base, bl_table *cur)
{
    cfg_config c;
    cpu_config cpu;
    char err[CFG_ERR_MAX];
    cfg_defaults(&c);
    cpu_defaults(&cpu);
    exp_options o = { .only = 1u << PAT_COUNTER };
    exp_table *t;
    assert_int_equal(exp_build(&c, &cpu, &o, &t, err), 0);
    assert_int_equal(bl_from_export(t, NULL, base, err), 0);
    assert_int_equal(bl_from_export(t, NULL, cur, err), 0);
    exp_free(t);
}

/* baseline: moves, flips and config keys are counted one by one */
static void test_compare_counts_each_change(void **state)
{
    (void)state;
    bl_table base, cur;
    bl_result r;
    double tol[BL_COLUMNS] = { 0.5, 0.5 };
    two_tables(&base, &cur);
    assert_int_equal(bl_compare(&base, &cur, tol, &r), 0);
    assert_int_equal(r.drift, 0);
    assert_int_equal(r.cells[BL_GPU_US], 18700);
    bl_result_free(&r);

    bl_row *g = &cur.rows[0];
    assert_int_equal(g->column, BL_GPU_US);
    g->v[1] *= 1.001; /* within 0.5% */
    assert_int_equal(bl_compare(&base, &cur, tol, &r), 0);
    assert_int_equal(r.drift, 0);
    assert_int_equal(r.changed[BL_GPU_US], 1);
    assert_int_equal(r.moved[BL_GPU_US], 0);
    bl_result_free(&r);

    g->v[2] *= 1.02; /* past it, and its decision flipped */
    g->dec[2] = g->dec[2] == 'g' ? 'c' : 'g';
    assert_int_equal(bl_compare(&base, &cur, tol, &r), 0);
    assert_int_equal(r.drift, 1);
    assert_int_equal(r.nmoves, 1);
    assert_int_equal(r.moves[0].j, 2);
    assert_true(r.moves[0].rel > 1.99 && r.moves[0].rel < 2.01);
    assert_int_equal(r.nflips, 1);
    assert_int_equal(r.nkeys, 0);
    bl_result_free(&r);

    free(cur.config[3].value);
    cur.config[3].value = strdup("12345");
    assert_int_equal(bl_compare(&base, &cur, tol, &r), 0);
    assert_int_equal(r.nkeys, 1);
    assert_string_equal(r.keys[0].cur, "12345");
    bl_result_free(&r);
    bl_free(&base);
    bl_free(&cur);
}

/* baseline: --tolerance takes COLUMN=P% and nothing else */
static void test_tolerance_strict(void **state)
{
    (void)state;
    char err[CFG_ERR_MAX];
    double t[BL_COLUMNS] = { 0.5, 0.5 };
    int given[BL_COLUMNS] = { 0 };
    assert_int_equal(bl_parse_tolerance("gpu_us=1.5%", t, given, err), 0);
    assert_true(t[BL_GPU_US] == 1.5 && t[BL_CPU_US] == 0.5 && given[BL_GPU_US] && !given[BL_CPU_US]);
    assert_int_equal(bl_parse_tolerance("gpu_us=0%,cpu_us=2%", t, given, err), 0);
    assert_true(t[BL_GPU_US] == 0 && t[BL_CPU_US] == 2);
    const char *bad[] = { "gpu_us=1", "gpu_us=-1%", "gpu_us=0x1%", "gpu_us=nan%", "density=1%", "gpu_us", "", "," };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(bl_parse_tolerance(bad[i], t, NULL, err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_byte_identical),
        cmocka_unit_test(test_compare_counts_each_change),
        cmocka_unit_test(test_tolerance_strict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
