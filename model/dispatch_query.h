/* dispatch_query.h - the queries `atomsim dispatch` puts to a cost table
 * (table.h): one operation's parameters as a query, a CSV of queries read
 * (--batch) and answered as a whole, and a lookup's time.  It needs
 * nothing but the model's tables, as a runtime dispatcher would.
 *
 * A batch is a CSV whose header names some of pattern (required), the
 * parameters the table has an axis for (their CSV columns: n, wg,
 * smem_per_wg, selectivity, bins, hot, addresses), rule and data_on, each
 * once; then one query a row.  '#' lines and blank lines are skipped;
 * fields are names or numbers, never quoted. */
#ifndef ATOM_MODEL_DISPATCH_QUERY_H
#define ATOM_MODEL_DISPATCH_QUERY_H

#include <stddef.h>

#include "params.h"
#include "table.h"

#define DQ_MAX_COLS 16
#define DQ_LINE_MAX 4096
/* a message may quote a whole field */
#define DQ_ERR_MAX (DQ_LINE_MAX + CFG_ERR_MAX)

/* 1 when a cost table has an axis for the parameter (the seed, for one,
 * has none: a query cannot name it). */
int dq_param_has_axis(const pat_param_desc *d);

/* The query of one operation; rule and data_on -1 for the table's. */
void dq_query(const pat_params *p, int rule, int data_on, int extrapolate, tbl_query *q);

typedef struct dq_row {
    tbl_query q;
    int line;                         /* in the batch file, for messages */
} dq_row;

typedef struct dq_batch {
    dq_row *rows;
    size_t count;
} dq_batch;

/* What went wrong reading a batch: the message leaves the file's name to
 * the caller ("PATH: msg", or "PATH:LINE: msg" when line > 0). */
typedef struct dq_error {
    int line;                         /* 0: the file as a whole */
    int nomem;                        /* out of memory at that line, msg empty */
    char msg[DQ_ERR_MAX];
} dq_error;

/* Reads the batch at path; rule, data_on and extrapolate apply to every row
 * (rule and data_on unless its row names them).  Refuses a file that is
 * not a regular file, a line over DQ_LINE_MAX characters, a header with an
 * unknown or repeated column or without pattern (or over DQ_MAX_COLS), a
 * row of another field count or with a bad value, and a file without a
 * header.  0, or -1 with e. */
int dq_batch_read(const char *path, int rule, int data_on, int extrapolate, dq_batch *out, dq_error *e);
void dq_batch_free(dq_batch *b);

/* Answers every row into ans[count]; 0, or -1 at the first row outside
 * the table (its index in *bad, err from tbl_lookup). */
int dq_batch_answer(const tbl_table *t, const dq_batch *b, tbl_answer *ans, size_t *bad, char err[CFG_ERR_MAX]);

/* Times `repeat` lookups of q (n varied a little so the compiler cannot
 * hoist the lookup, extrapolating where that leaves the grid): nanoseconds
 * a lookup, and a checksum of the answers that keeps them alive. */
double dq_time_lookups(const tbl_table *t, const tbl_query *q, unsigned long long repeat, double *checksum);

#endif
