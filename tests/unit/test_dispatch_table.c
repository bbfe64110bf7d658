/* test_dispatch_table.c - cost tables end to end in memory: export is
 * deterministic and writes no NaN or infinity; a loaded table answers every
 * grid point exactly as export decided it, interpolates between them, and
 * refuses what it cannot answer (outside the grid, another schema version,
 * a pattern it lacks, a missing or malformed file). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../model/export.h"
#include "../../model/table.h"

static char *export_text(unsigned only, enum exp_format f, size_t *len)
{
    cfg_config c;
    cpu_config cpu;
    exp_table *t;
    char err[CFG_ERR_MAX], *buf = NULL;
    cfg_defaults(&c);
    cpu_defaults(&cpu);
    if (exp_build(&c, &cpu, only, &t, err))
        fail_msg("export: %s", err);
    FILE *m = open_memstream(&buf, len);
    assert_int_equal(exp_write(t, f, m, err), 0);
    fclose(m);
    exp_free(t);
    return buf;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char table_path[64];

static int setup(void **state)
{
    size_t len;
    char *json = export_text(0, EXP_JSON, &len);
    snprintf(table_path, sizeof table_path, "/tmp/atomsim_table_%d.json", (int)getpid());
    write_file(table_path, json);
    free(json);
    tbl_table *t;
    char err[CFG_ERR_MAX];
    if (tbl_load(table_path, &t, err))
        fail_msg("load: %s", err);
    *state = t;
    return 0;
}

static int teardown(void **state)
{
    tbl_free(*state);
    unlink(table_path);
    return 0;
}

static void test_export_is_deterministic_and_finite(void **state)
{
    (void)state;
    for (int f = EXP_JSON; f <= EXP_C_HEADER; f++) {
        size_t la, lb;
        char *a = export_text(0, (enum exp_format)f, &la), *b = export_text(0, (enum exp_format)f, &lb);
        assert_int_equal(la, lb);
        assert_memory_equal(a, b, la);
        if (f == EXP_JSON) {
            assert_null(strstr(a, "nan"));
            assert_null(strstr(a, "NaN"));
            assert_null(strstr(a, "inf"));
            assert_null(strstr(a, "Infinity"));
            assert_non_null(strstr(a, "\"schema_version\": 1"));
            assert_non_null(strstr(a, "\"config_hash\""));
            assert_non_null(strstr(a, "\"inhibited\": ["));
        }
        free(a);
        free(b);
    }
}

/* Every cell of a pattern, looked up at its own grid point, gives back the
 * decision and costs export wrote. */
static void check_grid(tbl_table *t, enum pat_id id)
{
    cfg_config c;
    cpu_config cpu;
    exp_table *e;
    char err[CFG_ERR_MAX];
    cfg_defaults(&c);
    cpu_defaults(&cpu);
    assert_int_equal(exp_build(&c, &cpu, 1u << id, &e, err), 0);
    const exp_pattern *ep = &e->patterns[0];
    for (size_t i = 0; i < ep->cell_count; i += 7) {
        tbl_query q = { id, 0, ep->fixed.selectivity, ep->fixed.bins, ep->fixed.hot, ep->fixed.addresses, 0 };
        size_t rest = i;
        for (int a = ep->axis_count - 1; a >= 0; a--) {
            double v = ep->axes[a].values[rest % (size_t)ep->axes[a].count];
            rest /= (size_t)ep->axes[a].count;
            switch (ep->axes[a].kind) {
            case EXP_AXIS_N: q.n = v; break;
            case EXP_AXIS_SELECTIVITY: q.selectivity = v; break;
            case EXP_AXIS_BINS: q.bins = v; break;
            case EXP_AXIS_HOT: q.hot = v; break;
            case EXP_AXIS_ADDRESSES: q.addresses = v; break;
            }
        }
        tbl_answer ans;
        if (tbl_lookup(t, &q, 0, &ans, err))
            fail_msg("%s cell %zu: %s", pat_name(id), i, err);
        const exp_cell *cell = &ep->cells[i];
        assert_int_equal(ans.extrapolated, 0);
        assert_true(fabs(ans.gpu_us - cell->gpu_us) <= 1e-5 * cell->gpu_us);
        assert_true(fabs(ans.cpu_us - cell->cpu_us) <= 1e-5 * cell->cpu_us);
        if (ans.inhibited != cell->inhibited)
            fail_msg("%s cell %zu: inhibited %d, export %d (fraction %.17g vs %.17g)", pat_name(id), i, ans.inhibited,
                     cell->inhibited, ans.density_fraction, cell->density_fraction);
        if (fabs(cell->gpu_us * (1 + cell->penalty) - cell->cpu_us) > 1e-4 * cell->cpu_us) {
            assert_int_equal(ans.decision, cell->decision);
            assert_int_equal(ans.reason, cell->reason);
        }
    }
    exp_free(e);
}

static void test_grid_points_reproduce_export(void **state)
{
    for (int id = 0; id < PAT_COUNT; id++)
        check_grid(*state, (enum pat_id)id);
}

static void test_interpolation_between_points(void **state)
{
    tbl_table *t = *state;
    tbl_answer lo, mid, hi;
    char err[CFG_ERR_MAX];
    tbl_query q = { PAT_HISTOGRAM, 1 << 20, 1, 4, 0, 1, 0 };
    assert_int_equal(tbl_lookup(t, &q, 0, &lo, err), 0);
    q.bins = 8;
    assert_int_equal(tbl_lookup(t, &q, 0, &hi, err), 0);
    q.bins = 6;
    assert_int_equal(tbl_lookup(t, &q, 0, &mid, err), 0);
    assert_true(mid.gpu_us <= fmax(lo.gpu_us, hi.gpu_us) && mid.gpu_us >= fmin(lo.gpu_us, hi.gpu_us));
    /* the density 1/K is exact between powers of two (log-log interpolation) */
    assert_float_equal(mid.density_fraction, 1.0 / 6, 1e-9);
    q.bins = 4;
    q.n = 1000000; /* between 2^19 and 2^20 */
    assert_int_equal(tbl_lookup(t, &q, 0, &mid, err), 0);
    assert_int_equal(mid.extrapolated, 0);
    /* the brief's example: a histogram of 4 bins is inhibited by density */
    assert_int_equal(mid.inhibited, 1);
    assert_int_equal(mid.decision, DSP_CPU);
    tbl_query s = { PAT_COUNTER, 1 << 20, 0.15, 256, 0, 1, 0 };
    assert_int_equal(tbl_lookup(t, &s, 0, &mid, err), 0);
    assert_float_equal(mid.density_fraction, 0.15, 1e-9); /* linear in S */
}

static void test_refusals(void **state)
{
    tbl_table *t = *state, *u;
    tbl_answer a;
    char err[CFG_ERR_MAX];
    tbl_query q = { PAT_COUNTER, 100, 0.5, 256, 0, 1, 0 };
    assert_int_not_equal(tbl_lookup(t, &q, 0, &a, err), 0);
    assert_non_null(strstr(err, "outside the table's grid"));
    assert_int_equal(tbl_lookup(t, &q, 1, &a, err), 0);
    assert_int_equal(a.extrapolated, 1);
    assert_true(isfinite(a.gpu_us) && a.gpu_us > 0);
    q.n = 1 << 20;
    q.wg = 128;
    assert_int_not_equal(tbl_lookup(t, &q, 0, &a, err), 0);
    assert_non_null(strstr(err, "wg=256 only"));
    q.wg = 0;
    q.pattern = PAT_HISTOGRAM;
    q.bins = 1u << 23;
    assert_int_not_equal(tbl_lookup(t, &q, 0, &a, err), 0);

    /* a table with one pattern lacks the others */
    size_t len;
    char *json = export_text(1u << PAT_COUNTER, EXP_JSON, &len), path[64];
    snprintf(path, sizeof path, "/tmp/atomsim_table_one_%d.json", (int)getpid());
    write_file(path, json);
    assert_int_equal(tbl_load(path, &u, err), 0);
    q.pattern = PAT_HISTOGRAM;
    q.bins = 4;
    assert_int_not_equal(tbl_lookup(u, &q, 0, &a, err), 0);
    assert_non_null(strstr(err, "no pattern 'histogram'"));
    tbl_free(u);
    /* another schema version */
    char *v = strstr(json, "\"schema_version\": 1");
    assert_non_null(v);
    v[strlen("\"schema_version\": ")] = '2';
    write_file(path, json);
    assert_int_not_equal(tbl_load(path, &u, err), 0);
    assert_non_null(strstr(err, "schema version 2"));
    /* not JSON, and no file at all */
    write_file(path, "{\"schema\": ");
    assert_int_not_equal(tbl_load(path, &u, err), 0);
    assert_non_null(strstr(err, "not valid JSON"));
    unlink(path);
    assert_int_not_equal(tbl_load(path, &u, err), 0);
    assert_non_null(strstr(err, "cannot open table"));
    free(json);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_export_is_deterministic_and_finite),
        cmocka_unit_test(test_grid_points_reproduce_export),
        cmocka_unit_test(test_interpolation_between_points),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
