/* test_params_csv.c - the parameter table's CSV columns (model/params_csv.h):
 * both column orders as the outputs' headers have always spelled them (runs,
 * plans and check's rows in the table's order; export's CSV and parts with
 * the shared parameters first), values written and read back exactly, the
 * cell order, and the harnesses' grid order, which the measured datasets'
 * row order depends on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/params_csv.h"

static void headers_in_both_orders(void **state)
{
    (void)state;
    char h[256];
    pat_csv_header(PAT_CSV_TABLE, h, sizeof h);
    assert_string_equal(h, "n,wg,selectivity,bins,hot,addresses,smem_per_wg");
    pat_csv_header(PAT_CSV_SHARED_FIRST, h, sizeof h);
    assert_string_equal(h, "n,wg,smem_per_wg,selectivity,bins,hot,addresses");
    const pat_param_desc *c[PP_COUNT];
    assert_int_equal(pat_csv_columns(PAT_CSV_TABLE, c), PP_COUNT - 1); /* seed has no column */
}

/* Written to a memory stream, split at the commas, read back. */
static void write_then_read(void **state)
{
    (void)state;
    pat_params p, q;
    pat_defaults(&p);
    p.pattern = PAT_HISTOGRAM;
    p.n = 3000;
    p.wg = 96;
    p.smem_per_wg = 4096;
    p.selectivity = 0.1;
    p.hot = 1.0 / 3;
    p.bins = 7;
    char buf[512] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_non_null(f);
    pat_csv_write(f, PAT_CSV_SHARED_FIRST, &p, 0);
    fclose(f);
    assert_string_equal(buf, "3000,96,4096,0.1,7,0.3333333333333333,1");
    char *field[PP_COUNT], *s = buf;
    for (int i = 0; i < PP_COUNT && s; i++) {
        field[i] = s;
        s = strchr(s, ',');
        if (s)
            *s++ = 0;
    }
    pat_defaults(&q);
    q.pattern = PAT_HISTOGRAM;
    assert_int_equal(pat_csv_read(PAT_CSV_SHARED_FIRST, field, &q), 0);
    assert_int_equal(pat_csv_cmp(PAT_CSV_SHARED_FIRST, &p, &q), 0);
    field[3] = "x";
    assert_int_equal(pat_csv_read(PAT_CSV_SHARED_FIRST, field, &q), -1);
    /* out of the table's bounds: refused before the cast, never wrapped */
    field[3] = "0.1";
    field[1] = "4294967296"; /* wg: no int */
    assert_int_equal(pat_csv_read(PAT_CSV_SHARED_FIRST, field, &q), -1);
    field[1] = "96";
    field[3] = "1.5"; /* selectivity past 1 */
    assert_int_equal(pat_csv_read(PAT_CSV_SHARED_FIRST, field, &q), -1);

    /* a precision: doubles as %.*g, integers as ever */
    memset(buf, 0, sizeof buf);
    f = fmemopen(buf, sizeof buf, "w");
    pat_csv_write(f, PAT_CSV_TABLE, &p, 6);
    fclose(f);
    assert_string_equal(buf, "3000,96,0.1,7,0.333333,1,4096");
}

static void cells_order_by_pattern_then_columns(void **state)
{
    (void)state;
    pat_params a, b;
    pat_defaults(&a);
    b = a;
    b.smem_per_wg = 1; /* third in export's order, before selectivity */
    a.selectivity = 0.5;
    assert_int_equal(pat_csv_cmp(PAT_CSV_SHARED_FIRST, &a, &b), -1);
    assert_int_equal(pat_csv_cmp(PAT_CSV_TABLE, &a, &b), -1); /* 0.5 < 1 comes first there */
    b.pattern = PAT_STORE; /* before the counter */
    assert_int_equal(pat_csv_cmp(PAT_CSV_SHARED_FIRST, &a, &b), 1);
    b = a;
    b.seed = 7; /* no column: the same cell */
    assert_int_equal(pat_csv_cmp(PAT_CSV_TABLE, &a, &b), 0);
}

static void harness_grid_order(void **state)
{
    (void)state;
    enum pat_param_id o[PP_COUNT];
    static const enum pat_param_id want[] = { PP_N, PP_WG, PP_SMEM_PER_WG, PP_BINS, PP_HOT, PP_ADDRESSES,
                                              PP_SELECTIVITY };
    int n = pat_grid_order(o);
    assert_int_equal(n, 7); /* seed is no harness flag */
    for (int i = 0; i < n; i++)
        assert_int_equal(o[i], want[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(headers_in_both_orders),
        cmocka_unit_test(write_then_read),
        cmocka_unit_test(cells_order_by_pattern_then_columns),
        cmocka_unit_test(harness_grid_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
