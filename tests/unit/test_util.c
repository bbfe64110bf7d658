/* test_util.c - what util/ shares between the layers besides the pool:
 * the CSV line splitter (csv.h), whose rule every reader of the project's
 * CSVs relies on to accept and refuse the same lines, and the monotonic
 * clock (clock.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../../util/clock.h"
#include "../../util/csv.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_fields),
        cmocka_unit_test(csv_limit),
        cmocka_unit_test(clock_moves_forward),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
