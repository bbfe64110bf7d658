/* table_helpers.h - a built cost table as a dispatcher sees it: written
 * as JSON and loaded back through the loader, for the export tests.
 * Include after <cmocka.h>. */
#ifndef TESTS_TABLE_HELPERS_H
#define TESTS_TABLE_HELPERS_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../model/export.h"
#include "../../model/table.h"

/* t written to a temporary file and read by tbl_load (the file removed). */
static inline tbl_table *th_table_round_trip(const exp_table *t)
{
    char err[CFG_ERR_MAX], path[] = "/tmp/atomsim-table-XXXXXX";
    tbl_table *tt = NULL;
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    assert_int_equal(exp_write(t, EXP_JSON, f, err), 0);
    fclose(f);
    int rc = tbl_load(path, &tt, err);
    unlink(path);
    if (rc)
        fail_msg("tbl_load: %s", err);
    return tt;
}

#endif
