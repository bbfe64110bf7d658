/* dispatch_query.c - the queries of `atomsim dispatch` (see
 * dispatch_query.h): building them, reading a batch, answering it. */
#include "dispatch_query.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../util/clock.h"
#include "../util/csv.h"
#include "../util/lines.h"
#include "export.h"

int dq_param_has_axis(const pat_param_desc *d)
{
    enum exp_axis_kind k;
    return d->csv && exp_axis_from_name(d->csv, &k) == 0;
}

void dq_query(const pat_params *p, int rule, int data_on, int extrapolate, tbl_query *q)
{
    tbl_query_init(q, p->pattern);
    q->n = (double)p->n;
    q->wg = p->wg;
    q->smem_per_wg = p->smem_per_wg;
    q->selectivity = p->selectivity;
    q->bins = p->bins;
    q->hot = p->hot;
    q->addresses = p->addresses;
    q->rule = rule;
    q->data_on = data_on;
    q->extrapolate = extrapolate;
}

/* ---- batch ------------------------------------------------------------------ */

/* What a column of the header holds. */
enum col_kind { COL_NONE, COL_PARAM, COL_PATTERN, COL_RULE, COL_DATA_ON };

typedef struct column {
    enum col_kind kind;
    const pat_param_desc *param;      /* COL_PARAM */
} column;

/* one bit a column a header may name, to find one named twice */
_Static_assert(PP_COUNT + COL_DATA_ON < 32, "column bits overlap");

static column column_of(const char *name)
{
    const pat_param_desc *d = pat_param_find_csv(name);
    if (d && dq_param_has_axis(d))
        return (column){ COL_PARAM, d };
    if (!strcmp(name, "pattern"))
        return (column){ COL_PATTERN, NULL };
    if (!strcmp(name, "rule"))
        return (column){ COL_RULE, NULL };
    if (!strcmp(name, "data_on"))
        return (column){ COL_DATA_ON, NULL };
    return (column){ COL_NONE, NULL };
}

static unsigned column_bit(column c)
{
    return 1u << (c.kind == COL_PARAM ? (unsigned)pat_param_id(c.param) : PP_COUNT + (unsigned)c.kind);
}

static int fail(dq_error *e, int line, const char *fmt, ...)
{
    va_list ap;
    e->line = line;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* The header's columns: 0, or -1 with e. */
static int read_header(char **fields, int nf, column *cols, int lineno, dq_error *e)
{
    unsigned seen = 0;
    int has_pattern = 0;
    for (int i = 0; i < nf; i++) {
        cols[i] = column_of(fields[i]);
        if (!cols[i].kind || (seen & column_bit(cols[i])))
            return fail(e, lineno, "column '%s' is %s", fields[i], cols[i].kind ? "named twice" : "not a query field");
        seen |= column_bit(cols[i]);
        has_pattern |= cols[i].kind == COL_PATTERN;
    }
    if (nf < 0 || !has_pattern)
        return fail(e, lineno, "the header must name a pattern column (and at most %d)", DQ_MAX_COLS);
    return 0;
}

/* One row's query: 0, or -1 with e. */
static int read_row(char **fields, int nf, const column *cols, int lineno, int rule, int data_on, int extrapolate,
                    dq_row *out, dq_error *e)
{
    pat_params p;
    char err[CFG_ERR_MAX];
    pat_defaults(&p);
    for (int i = 0; i < nf; i++) {
        if (cols[i].kind == COL_RULE || cols[i].kind == COL_DATA_ON) {
            int is_rule = cols[i].kind == COL_RULE;
            enum dsp_rule r;
            enum dsp_data_on d;
            if (is_rule ? dsp_rule_from_name(fields[i], &r) : dsp_data_on_from_name(fields[i], &d))
                return fail(e, lineno, "%s '%s': expected %s", is_rule ? "rule" : "data_on", fields[i],
                            is_rule ? "cost or seed" : "gpu, host or both");
            if (is_rule)
                rule = (int)r;
            else
                data_on = (int)d;
        } else if (cols[i].kind == COL_PATTERN) {
            /* the words of `atomsim dispatch --pattern` */
            if (pat_from_name(fields[i], &p.pattern)) {
                snprintf(err, sizeof err, "unknown pattern '%s' (see atomsim --help)", fields[i]);
                return fail(e, lineno, "%s", err);
            }
        } else if (pat_param_parse(cols[i].param, &p, fields[i], err, sizeof err)) {
            return fail(e, lineno, "%s", err);
        }
    }
    dq_query(&p, rule, data_on, extrapolate, &out->q);
    out->line = lineno;
    return 0;
}

/* The bounded reader's error as e's line and message: the caller names
 * the path itself, so the reason goes without the reader's prefix. */
static int lin_fail(dq_error *e, const lin_reader *in, const char *msg)
{
    return fail(e, in->err_line <= 0x7fffffff ? (int)in->err_line : 0, "%s", msg + in->err_why);
}

int dq_batch_read(const char *path, int rule, int data_on, int extrapolate, dq_batch *out, dq_error *e)
{
    struct stat sb;
    e->line = e->nomem = 0;
    e->msg[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(e, 0, "cannot open batch: %s", strerror(errno));
    if (fstat(fileno(f), &sb) || !S_ISREG(sb.st_mode)) {
        fclose(f);
        return fail(e, 0, "the batch is not a regular file");
    }
    char *fields[DQ_MAX_COLS + 1], lerr[DQ_ERR_MAX];
    column cols[DQ_MAX_COLS];
    int ncol = -1, lineno = 0, rc = 0, got;
    size_t cap = 0, n = 0;
    dq_row *rows = NULL;
    /* bounded: a line over DQ_LINE_MAX or a NUL byte is refused, with its
     * line, rather than cut or read up to the NUL */
    lin_reader in;
    lin_attach(&in, f, path, DQ_LINE_MAX, LIN_MAX_BYTES);
    while (rc == 0 && (got = lin_next(&in, lerr, sizeof lerr)) != 0) {
        if (got < 0) {
            rc = lin_fail(e, &in, lerr);
            break;
        }
        char *line = in.line;
        lineno = (int)in.lineno;
        if (line[0] == '#' || line[strspn(line, " \t\r\n")] == 0)
            continue;
        /* -1: more columns than a query has (one more asked, to see them) */
        int nf = csv_split(line, fields, DQ_MAX_COLS + 1);
        nf = nf > DQ_MAX_COLS ? -1 : nf;
        if (ncol < 0) {
            ncol = nf;
            rc = read_header(fields, nf, cols, lineno, e);
            continue;
        }
        if (nf != ncol) {
            rc = fail(e, lineno, "%d fields, the header has %d", nf, ncol);
            break;
        }
        dq_row row;
        if ((rc = read_row(fields, nf, cols, lineno, rule, data_on, extrapolate, &row, e)))
            break;
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : 256;
            dq_row *grown = realloc(rows, ncap * sizeof *rows);
            if (!grown) {
                e->line = lineno;
                e->nomem = 1;
                rc = -1;
                break;
            }
            rows = grown;
            cap = ncap;
        }
        rows[n++] = row;
    }
    if (rc == 0 && ncol < 0)
        rc = fail(e, 0, "no header line");
    lin_close(&in);
    fclose(f);
    if (rc) {
        free(rows);
        return -1;
    }
    out->rows = rows;
    out->count = n;
    return 0;
}

void dq_batch_free(dq_batch *b)
{
    free(b->rows);
    b->rows = NULL;
    b->count = 0;
}

int dq_batch_answer(const tbl_table *t, const dq_batch *b, tbl_answer *ans, size_t *bad, char err[CFG_ERR_MAX])
{
    for (size_t i = 0; i < b->count; i++)
        if (tbl_lookup(t, &b->rows[i].q, &ans[i], err)) {
            *bad = i;
            return -1;
        }
    return 0;
}

double dq_time_lookups(const tbl_table *t, const tbl_query *q, unsigned long long repeat, double *checksum)
{
    char err[CFG_ERR_MAX];
    double t0 = clk_now(), sink = 0;
    tbl_query r = *q;
    r.extrapolate = 1;
    for (unsigned long long i = 0; i < repeat; i++) {
        tbl_answer x;
        r.n = q->n * (1 + (double)(i & 7) * 1e-9);
        if (tbl_lookup(t, &r, &x, err) == 0)
            sink += x.gpu_us;
    }
    *checksum = sink;
    return 1e9 * (clk_now() - t0) / (double)repeat;
}
