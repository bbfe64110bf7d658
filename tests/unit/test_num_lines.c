/* test_num_lines.c - the bounded line reader (util/lines.h, lines_ini.h)
 * and the strict number parser (util/num.h) every file reader goes
 * through: what each accepts, what each refuses, and that a refusal says
 * where (FILE:LINE) and never hangs, splits a line or reads past a NUL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../util/lines.h"
#include "../../util/lines_ini.h"
#include "../../util/num.h"

/* A temporary file holding len bytes of text; its path in path[64]. */
static void write_file(char path[64], const char *text, size_t len)
{
    snprintf(path, 64, "/tmp/test_num_lines.XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
}

/* Reads the file whole: the lines joined by '|', and the last rc of lin_next. */
static int read_all(const char *path, size_t max_line, size_t max_bytes, char *joined, size_t len, char *err)
{
    lin_reader r;
    int rc;
    joined[0] = 0;
    if (lin_open(&r, path, max_line, max_bytes, err, 256))
        return -2;
    while ((rc = lin_next(&r, err, 256)) > 0) {
        size_t u = strlen(joined);
        snprintf(joined + u, len - u, "%s%s", u ? "|" : "", r.line);
    }
    lin_close(&r);
    return rc;
}

static void lines_plain_crlf_no_newline(void **state)
{
    (void)state;
    char path[64], got[256], err[256];
    const char text[] = "a,b\r\n\nlast";
    write_file(path, text, sizeof text - 1);
    assert_int_equal(read_all(path, LIN_MAX_LINE, LIN_MAX_BYTES, got, sizeof got, err), 0);
    /* CRLF loses its \r, an empty line is a line, the last needs no \n */
    assert_string_equal(got, "a,b||last");
    unlink(path);
}

static void lines_long_line(void **state)
{
    (void)state;
    char path[64], got[256], err[256];
    /* 8 characters fit a max_line of 8, 9 do not: refused, not cut in two */
    write_file(path, "12345678\n123456789\nafter\n", 25);
    assert_int_equal(read_all(path, 8, LIN_MAX_BYTES, got, sizeof got, err), -1);
    assert_string_equal(got, "12345678");
    char want[128];
    snprintf(want, sizeof want, "%s:2: line longer than 8 bytes", path);
    assert_string_equal(err, want);
    unlink(path);
}

static void lines_nul_byte(void **state)
{
    (void)state;
    char path[64], got[256], err[256];
    write_file(path, "ok\nab\0cd\n", 9);
    assert_int_equal(read_all(path, LIN_MAX_LINE, LIN_MAX_BYTES, got, sizeof got, err), -1);
    char want[128];
    snprintf(want, sizeof want, "%s:2: NUL byte in a text line", path);
    assert_string_equal(err, want);
    unlink(path);
}

static void lines_not_regular(void **state)
{
    (void)state;
    char got[64], err[256];
    /* /dev/zero never ends and a directory reads as empty: both refused at open */
    assert_int_equal(read_all("/dev/zero", LIN_MAX_LINE, LIN_MAX_BYTES, got, sizeof got, err), -2);
    assert_string_equal(err, "/dev/zero: not a regular file");
    assert_int_equal(read_all("/tmp", LIN_MAX_LINE, LIN_MAX_BYTES, got, sizeof got, err), -2);
    assert_string_equal(err, "/tmp: not a regular file");
    assert_int_equal(lin_regular("/dev/zero", err, sizeof err), -1);
    assert_int_equal(lin_regular("/etc/passwd", err, sizeof err), 0);
    /* lin_open_as: the reader's wording, stat before any open */
    lin_reader r;
    assert_int_equal(lin_open_as(&r, "/nonexistent/x.csv", "dataset", LIN_MAX_LINE, err, sizeof err), -1);
    assert_string_equal(err, "/nonexistent/x.csv: cannot open dataset: No such file or directory");
    assert_int_equal(lin_open_as(&r, "/dev/zero", "study", LIN_MAX_LINE, err, sizeof err), -1);
    assert_string_equal(err, "/dev/zero: not a regular file");
}

static void lines_size_cap(void **state)
{
    (void)state;
    char path[64], got[256], err[256];
    write_file(path, "aaaa\nbbbb\ncccc\n", 15);
    /* a file over its cap is refused at open (its size is known) */
    assert_int_equal(read_all(path, LIN_MAX_LINE, 8, got, sizeof got, err), -2);
    assert_non_null(strstr(err, "larger than"));
    /* and on a stream, once the bytes read pass it */
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    lin_reader r;
    lin_attach(&r, f, "stream", LIN_MAX_LINE, 8);
    assert_int_equal(lin_next(&r, err, sizeof err), 1);
    assert_int_equal(lin_next(&r, err, sizeof err), -1);
    assert_non_null(strstr(err, "stream: larger than"));
    lin_close(&r);
    fclose(f);
    unlink(path);
}

/* inih's ini_reader shape, without linking inih: a num-byte buffer */
static void lines_ini_reader(void **state)
{
    (void)state;
    char path[64], buf[16];
    write_file(path, "[a]\nk = 1\nkey = 0123456789abcdef\n", 33);
    lin_ini s;
    char err[256];
    assert_int_equal(lin_ini_open(&s, path, "study", err, sizeof err), 0);
    assert_non_null(lin_ini_read(buf, sizeof buf, &s));
    assert_string_equal(buf, "[a]");
    assert_non_null(lin_ini_read(buf, sizeof buf, &s));
    /* 26 characters into a 16-byte buffer: refused whole, the parse ends */
    assert_null(lin_ini_read(buf, sizeof buf, &s));
    assert_int_equal(s.failed, 1);
    char want[128];
    snprintf(want, sizeof want, "%s:3: line longer than 15 characters", path);
    assert_string_equal(s.err, want);
    lin_ini_close(&s);
    /* the end of a good file is no failure */
    assert_int_equal(lin_ini_open(&s, path, "study", err, sizeof err), 0);
    char big[64];
    while (lin_ini_read(big, sizeof big, &s))
        ;
    assert_int_equal(s.failed, 0);
    lin_ini_close(&s);
    unlink(path);
}

static void num_accepts(void **state)
{
    (void)state;
    double d;
    unsigned long long u;
    assert_int_equal(num_parse_double("0.25", &d), 0);
    assert_true(d == 0.25);
    assert_int_equal(num_parse_double("1e6", &d), 0);
    assert_true(d == 1e6);
    assert_int_equal(num_parse_double("-3", &d), 0);
    assert_true(d == -3);
    assert_int_equal(num_parse_u64("1048576", &u), 0);
    assert_true(u == 1048576);
    assert_int_equal(num_parse_u64("2^20", &u), 0);
    assert_true(u == 1048576);
    assert_int_equal(num_parse_u64("2^63", &u), 0);
    assert_true(u == 1ull << 63);
    assert_int_equal(num_parse_u64("1e6", &u), 0);
    assert_true(u == 1000000);
    assert_int_equal(num_parse_u64("0", &u), 0);
    assert_true(u == 0);
}

static void num_refuses(void **state)
{
    (void)state;
    double d;
    unsigned long long u;
    static const char *const bad[] = { "0x10", "0x1p4", "010", " 1", "1 ", "1x", "", "inf", "nan", "-inf", "1e999", "." };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(num_parse_double(bad[i], &d), -1);
        assert_int_equal(num_parse_u64(bad[i], &u), -1);
    }
    assert_int_equal(num_parse_u64("-1", &u), -1);   /* no sign on a count */
    assert_int_equal(num_parse_u64("2^64", &u), -1); /* past 64 bits */
    assert_int_equal(num_parse_u64("1.5", &u), -1);  /* not whole */
    assert_int_equal(num_parse_u64("18446744073709551616", &u), -1);
}

static void num_range(void **state)
{
    (void)state;
    double d;
    /* in range, out of range (-2, the value kept for the message), not a number (-1) */
    assert_int_equal(num_parse_range("5", 0, 10, 0, &d), 0);
    assert_int_equal(num_parse_range("-5", 0, 10, 0, &d), -2);
    assert_true(d == -5);
    assert_int_equal(num_parse_range("4294967291", 0, 4096, NUM_INTEGER, &d), -2);
    assert_int_equal(num_parse_range("abc", 0, 10, 0, &d), -1);
    /* integral */
    assert_int_equal(num_parse_range("4096.7", 1, 1e9, NUM_INTEGER, &d), -1);
    assert_int_equal(num_parse_range("4096.0", 1, 1e9, NUM_INTEGER, &d), 0);
    assert_int_equal(num_parse_range("2^12", 1, 1e9, NUM_INTEGER, &d), 0);
    assert_true(d == 4096);
    assert_int_equal(num_parse_range("1e6", 1, 1e9, NUM_INTEGER, &d), 0);
    assert_true(d == 1e6);
    /* inf and nan only with NUM_NONFINITE */
    assert_int_equal(num_parse_range("inf", 0, 10, 0, &d), -1);
    assert_int_equal(num_parse_range("nan", 0, 10, 0, &d), -1);
    assert_int_equal(num_parse_range("-inf", 0, 10, 0, &d), -1);
    assert_int_equal(num_parse_range("inf", -HUGE_VAL, HUGE_VAL, NUM_NONFINITE, &d), 0);
    assert_true(isinf(d) && d > 0);
    assert_int_equal(num_parse_range("-inf", -HUGE_VAL, HUGE_VAL, NUM_NONFINITE, &d), 0);
    assert_true(isinf(d) && d < 0);
    assert_int_equal(num_parse_range("nan", 0, 1, NUM_NONFINITE, &d), 0);
    assert_true(isnan(d));
    /* the same refusals as num_parse_double */
    assert_int_equal(num_parse_range("0x10", 0, 100, 0, &d), -1);
    assert_int_equal(num_parse_range("010", 0, 100, 0, &d), -1);
    assert_int_equal(num_parse_range(" 1", 0, 100, 0, &d), -1);
    assert_int_equal(num_parse_range("1x", 0, 100, 0, &d), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lines_plain_crlf_no_newline),
        cmocka_unit_test(lines_long_line),
        cmocka_unit_test(lines_nul_byte),
        cmocka_unit_test(lines_not_regular),
        cmocka_unit_test(lines_size_cap),
        cmocka_unit_test(lines_ini_reader),
        cmocka_unit_test(num_accepts),
        cmocka_unit_test(num_refuses),
        cmocka_unit_test(num_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
