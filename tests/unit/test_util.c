/* test_util.c - what util/ shares between the layers besides the pool:
 * the CSV line splitter (csv.h), whose rule every reader of the project's
 * CSVs relies on to accept and refuse the same lines, and the monotonic
 * clock (clock.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/clock.h"
#include "../../util/csv.h"
#include "../../util/sig6.h"

static void csv_fields(void **state)
{
    (void)state;
    char line[64], *f[4];
    strcpy(line, "a,bb,,c");
    assert_int_equal(csv_split(line, f, 4), 4);
    assert_string_equal(f[0], "a");
    assert_string_equal(f[1], "bb");
    assert_string_equal(f[2], ""); /* an empty field is a field */
    assert_string_equal(f[3], "c");
    strcpy(line, "x");
    assert_int_equal(csv_split(line, f, 4), 1);
    assert_string_equal(f[0], "x");
    strcpy(line, "");
    assert_int_equal(csv_split(line, f, 4), 1);
    assert_string_equal(f[0], "");
    strcpy(line, "a,");
    assert_int_equal(csv_split(line, f, 4), 2);
    assert_string_equal(f[1], "");
}

/* Past max fields the last is cut at its comma and the rest dropped: a
 * reader asks for one more than it takes to see extra fields. */
static void csv_limit(void **state)
{
    (void)state;
    char line[64], *f[3];
    strcpy(line, "a,b,c,d,e");
    assert_int_equal(csv_split(line, f, 3), 3);
    assert_string_equal(f[2], "c");
    strcpy(line, "a,b");
    assert_int_equal(csv_split(line, f, 3), 2);
}

static void clock_moves_forward(void **state)
{
    (void)state;
    double a = clk_now(), b = clk_now();
    assert_true(a > 0);
    assert_true(b >= a);
}

/* sig6 against snprintf("%.6g") and strtod, byte for byte and bit for bit:
 * random magnitudes over the tables' range and beyond, the six-digit ties
 * (x.xxxxx5 at every scale), integers, powers of ten and their
 * neighbours, and values next to a rounding up to the next exponent. */
static void check_sig6(double v)
{
    char want[64], got[64];
    snprintf(want, sizeof want, "%.6g", v);
    sig6_format(got, sizeof got, v);
    if (strcmp(want, got))
        fail_msg("sig6_format(%.17g): '%s', snprintf: '%s'", v, got, want);
    double w = strtod(want, NULL), g = sig6_round(v);
    if (memcmp(&w, &g, sizeof w))
        fail_msg("sig6_round(%.17g): %.17g, strtod: %.17g", v, g, w);
}

static void sig6_matches_printf(void **state)
{
    (void)state;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 500000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double u = (double)(x >> 11) / 9007199254740992.0; /* [0, 1) */
        check_sig6(pow(10, -20 + 50 * u));
        check_sig6((double)(x % 100000000) / 100); /* cents */
    }
    for (int e = -20; e <= 30; e++) {
        double p = pow(10, e);
        check_sig6(p);
        check_sig6(nextafter(p, 0));
        check_sig6(nextafter(p, INFINITY));
        for (int d = 100000; d < 1000000; d += 7919) {
            double t = (d + 0.5) * pow(10, e - 5); /* a six-digit tie */
            check_sig6(t);
            check_sig6(nextafter(t, 0));
            check_sig6(nextafter(t, INFINITY));
        }
        check_sig6(999999.5 * pow(10, e - 5));
        check_sig6(999999.49999 * pow(10, e - 5));
    }
    double odd[] = { 0, -1.5, 1e-300, 5e-324, 1e300, 123456789, 4.5, 0.0001, 0.00001, 999999, 1000000 };
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        check_sig6(odd[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_fields),
        cmocka_unit_test(sig6_matches_printf),
        cmocka_unit_test(csv_limit),
        cmocka_unit_test(clock_moves_forward),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
