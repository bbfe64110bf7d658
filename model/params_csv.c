/* params_csv.c - the parameter table's CSV columns and the harnesses' grid
 * order (params_csv.h).  Kept apart from params.c so that the column
 * orders have one home; like params.c it needs only the C library. */
#include "params_csv.h"
#include "../util/num.h"

#include <string.h>

size_t pat_csv_columns(enum pat_csv_order o, const pat_param_desc *out[PP_COUNT])
{
    size_t count, n = 0;
    const pat_param_desc *t = pat_param_table(&count);
    /* shared first: two passes, the parameters every pattern reads
     * (reads == 0), then the pattern's own; the table's order is one */
    for (int pass = 0; pass < (o == PAT_CSV_SHARED_FIRST ? 2 : 1); pass++)
        for (size_t i = 0; i < count; i++) {
            if (!t[i].csv)
                continue;
            if (o == PAT_CSV_SHARED_FIRST && (pass == 0) != (t[i].reads == 0))
                continue;
            out[n++] = &t[i];
        }
    return n;
}

void pat_csv_header(enum pat_csv_order o, char *buf, size_t len)
{
    const pat_param_desc *c[PP_COUNT];
    size_t n = pat_csv_columns(o, c), used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "", c[i]->csv);
}

void pat_csv_format(const pat_param_desc *d, const pat_params *p, int prec, char *buf, size_t len)
{
    if (d->type == PP_DOUBLE && prec > 0)
        snprintf(buf, len, "%.*g", prec, pat_param_value(d, p));
    else
        pat_param_format(d, p, buf, len);
}

void pat_csv_write(FILE *f, enum pat_csv_order o, const pat_params *p, int prec)
{
    const pat_param_desc *c[PP_COUNT];
    size_t n = pat_csv_columns(o, c);
    for (size_t i = 0; i < n; i++) {
        char v[48];
        pat_csv_format(c[i], p, prec, v, sizeof v);
        fprintf(f, "%s%s", i ? "," : "", v);
    }
}

void pat_csv_describe(const pat_params *p, char *buf, size_t len)
{
    const pat_param_desc *c[PP_COUNT];
    size_t n = pat_csv_columns(PAT_CSV_TABLE, c), used = (size_t)snprintf(buf, len, "%s", pat_name(p->pattern));
    for (size_t i = 0; i < n && used < len; i++) {
        char v[48];
        pat_csv_format(c[i], p, 6, v, sizeof v);
        used += (size_t)snprintf(buf + used, len - used, " %s=%s", c[i]->flag + 2, v);
    }
}

int pat_csv_read(enum pat_csv_order o, char *const *field, pat_params *p)
{
    const pat_param_desc *c[PP_COUNT];
    size_t n = pat_csv_columns(o, c);
    for (size_t i = 0; i < n; i++) {
        if (c[i]->type == PP_DOUBLE) {
            double v;
            if (num_parse_double(field[i], &v) || v < c[i]->min || v > c[i]->max)
                return -1;
            pat_param_set_value(c[i], p, v);
            continue;
        }
        /* whole numbers stored as their type, not through a double: a u64
         * past 2^53 keeps its last digits */
        unsigned long long v;
        /* the table's bounds before the cast: 2^40 is no int, -1 no count */
        if (num_parse_u64(field[i], &v) || (double)v < c[i]->min || (double)v > c[i]->max)
            return -1;
        char *to = (char *)p + c[i]->offset;
        if (c[i]->type == PP_U64) {
            uint64_t x = v;
            memcpy(to, &x, sizeof x);
        } else if (c[i]->type == PP_INT) {
            int x = (int)v;
            memcpy(to, &x, sizeof x);
        } else {
            uint32_t x = (uint32_t)v;
            memcpy(to, &x, sizeof x);
        }
    }
    return 0;
}

int pat_csv_cmp(enum pat_csv_order o, const pat_params *a, const pat_params *b)
{
    const pat_param_desc *c[PP_COUNT];
    size_t n = pat_csv_columns(o, c);
    if (a->pattern != b->pattern)
        return a->pattern < b->pattern ? -1 : 1;
    for (size_t i = 0; i < n; i++) {
        if (pat_param_same(c[i], a, b))
            continue;
        /* every field is exact as a double: the integers' bounds are far
         * below 2^53 but seed's, which has no column */
        return pat_param_value(c[i], a) < pat_param_value(c[i], b) ? -1 : 1;
    }
    return 0;
}

int pat_grid_order(enum pat_param_id order[PP_COUNT])
{
    static const enum pat_param_id first[] = { PP_N, PP_WG, PP_SMEM_PER_WG, PP_BINS, PP_HOT, PP_ADDRESSES,
                                               PP_SELECTIVITY };
    enum { NF = sizeof first / sizeof first[0] };
    int n = 0;
    for (int i = 0; i < NF; i++)
        order[n++] = first[i];
    for (int i = 0; i < PP_COUNT; i++) {
        int listed = 0;
        for (int j = 0; j < NF; j++)
            listed |= first[j] == (enum pat_param_id)i;
        if (!listed && pat_param_get((enum pat_param_id)i)->hmax > 0)
            order[n++] = (enum pat_param_id)i;
    }
    return n;
}
