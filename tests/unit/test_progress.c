/* test_progress.c - the progress line (util/progress.c): its words for
 * the time left, one line for a command that runs several pools (an inner
 * begin counts into the outer line, as calibrate's evaluations do), the
 * line cleared at the end, and prog_quiet (--no-progress) silencing it.
 * stderr goes to a file and ATOMSIM_PROGRESS=force stands in for a
 * terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../util/progress.h"

/* Runs fn with stderr in a temporary file; returns what it wrote. */
static char *captured(void (*fn)(void))
{
    static char buf[8192];
    char path[] = "/tmp/test_progress_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(fd, STDERR_FILENO);
    fn();
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    lseek(fd, 0, SEEK_SET);
    ssize_t n = read(fd, buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = 0;
    close(fd);
    unlink(path);
    return buf;
}

static void left_words(void **state)
{
    (void)state;
    char b[64];
    prog_left_text(b, sizeof b, 0, 10, 1);
    assert_string_equal(b, "time left unknown");
    prog_left_text(b, sizeof b, 5, 10, 4);
    assert_string_equal(b, "about 4 s left");
    prog_left_text(b, sizeof b, 1, 100, 10);
    assert_string_equal(b, "about 16 min 30 s left");
    prog_left_text(b, sizeof b, 1, 1000, 10);
    assert_string_equal(b, "about 2 h 47 min left");
    prog_left_text(b, sizeof b, 10, 10, 3);
    assert_string_equal(b, "about 0 s left");
}

/* calibrate's shape: an outer line of 10, two inner pools of 3, a jump to
 * the end of the budget */
static void nested(void)
{
    prog_begin("calibrate", "rows", 10);
    for (int p = 0; p < 2; p++) {
        prog_begin("validate", "rows", 3);
        for (int i = 0; i < 3; i++)
            prog_add(1);
        prog_end();
    }
    prog_set(10);
    prog_end();
}

static void inner_counts_into_outer(void **state)
{
    (void)state;
    setenv("ATOMSIM_PROGRESS", "force", 1);
    const char *out = captured(nested);
    assert_non_null(strstr(out, "atomsim calibrate: 0/10 rows (0%)"));
    assert_non_null(strstr(out, "atomsim calibrate: 10/10 rows (100%)"));
    assert_null(strstr(out, "validate")); /* no line of its own */
    assert_null(strstr(out, "/3 rows"));
    assert_null(strchr(out, '\n'));       /* one line, rewritten */
    size_t n = strlen(out);
    assert_true(n >= 4);
    assert_string_equal(out + n - 4, "\r\033[K"); /* cleared at the end */
}

static void quiet_silences_it(void **state)
{
    (void)state;
    setenv("ATOMSIM_PROGRESS", "force", 1);
    prog_quiet();
    assert_int_equal(prog_wanted(), 0);
    assert_string_equal(captured(nested), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(left_words),
        cmocka_unit_test(inner_counts_into_outer),
        cmocka_unit_test(quiet_silences_it), /* last: prog_quiet holds for the process */
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
