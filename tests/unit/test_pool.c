/* test_pool.c - the worker pool's cap on workers (util/pool.c) and the
 * checked output files (util/out.c), each test named after the hardening
 * audit item it guards (issue 24). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../util/out.h"
#include "../../util/pool.h"

/* Audit item 4: -j 1024 over more than 1,024 rows forked one worker a row. */
static void item4_jobs_capped_at_rows_and_max(void **state)
{
    (void)state;
    assert_int_equal(pool_worker_count(1024, 1500), POOL_MAX_JOBS);
    assert_int_equal(pool_worker_count(1024, 2000000), POOL_MAX_JOBS);
    assert_int_equal(pool_worker_count(100000, 5000), POOL_MAX_JOBS);
    assert_int_equal(pool_worker_count(1024, 3), 3);
    assert_int_equal(pool_worker_count(8, 1500), 8);
    assert_int_equal(pool_worker_count(2, 2), 2);
    assert_int_equal(pool_worker_count(0, 10), 1);
}

/* The pool really starts no more workers than rows: each job reports the
 * pid that ran it. */
static void job_pid(void *ctx, uint64_t pos, void *result)
{
    (void)ctx;
    (void)pos;
    *(pid_t *)result = getpid();
}

typedef struct pids {
    pid_t seen[16];
    int n;
    uint64_t next;
} pids;

static int job_seen(void *ctx, uint64_t pos, void *result)
{
    pids *p = ctx;
    pid_t pid = *(pid_t *)result;
    assert_int_equal(pos, p->next++);
    for (int i = 0; i < p->n; i++)
        if (p->seen[i] == pid)
            return 0;
    assert_true(p->n < 16);
    p->seen[p->n++] = pid;
    return 0;
}

static void item4_no_more_workers_than_rows(void **state)
{
    (void)state;
    pids p = { { 0 }, 0, 0 };
    pool_ops ops = { sizeof(pid_t), job_pid, job_seen, NULL, "test", "jobs" };
    assert_int_equal(pool_run(&ops, &p, 3, 1024, 0), 0);
    assert_int_equal(p.next, 3);
    assert_true(p.n >= 1 && p.n <= 3);
}

/* ---- audit item 6: output files through a temporary and a rename ------------ */

static char dir[] = "/tmp/atomsim-test-out-XXXXXX";

static int entries(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

static void slurp(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    buf[n] = 0;
    if (f)
        fclose(f);
}

static void item6_output_renamed_only_when_whole(void **state)
{
    (void)state;
    char path[256], err[512], buf[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/out.csv", dir);
    FILE *f = fopen(path, "w");
    fputs("old\n", f);
    fclose(f);

    out_file o;
    assert_int_equal(out_open(&o, path, err, sizeof err), 0);
    fputs("half a ro", o.f);
    fflush(o.f);
    slurp(path, buf, sizeof buf);
    assert_string_equal(buf, "old\n");      /* the target untouched while writing */
    assert_int_equal(entries(), 2);          /* the temporary beside it */
    out_abort(&o);
    slurp(path, buf, sizeof buf);
    assert_string_equal(buf, "old\n");
    assert_int_equal(entries(), 1);          /* and gone */

    assert_int_equal(out_open(&o, path, err, sizeof err), 0);
    fputs("new\n", o.f);
    assert_int_equal(out_commit(&o, err, sizeof err), 0);
    slurp(path, buf, sizeof buf);
    assert_string_equal(buf, "new\n");
    assert_int_equal(entries(), 1);

    /* a directory is refused before anything is made */
    assert_int_equal(out_open(&o, dir, err, sizeof err), -1);
    assert_non_null(strstr(err, "Is a directory"));
    /* a file that is no regular file is written in place, errors seen */
    assert_int_equal(out_open(&o, "/dev/full", err, sizeof err), 0);
    fputs("x\n", o.f);
    assert_int_equal(out_commit(&o, err, sizeof err), -1);
    assert_non_null(strstr(err, "/dev/full: cannot write: No space left on device"));

    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(item4_jobs_capped_at_rows_and_max),
        cmocka_unit_test(item4_no_more_workers_than_rows),
        cmocka_unit_test(item6_output_renamed_only_when_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
