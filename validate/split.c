/* split.c - parses split files (see split.h) and classifies rows. */
#include "split.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const field_names[VSF_COUNT] = { "n", "wg", "selectivity", "bins", "hot", "addresses", "smem_per_wg" };

static double field_value(const pat_params *p, int f)
{
    switch (f) {
    case VSF_N: return (double)p->n;
    case VSF_WG: return p->wg;
    case VSF_SELECTIVITY: return p->selectivity;
    case VSF_BINS: return p->bins;
    case VSF_HOT: return p->hot;
    case VSF_ADDRESSES: return p->addresses;
    default: return p->smem_per_wg;
    }
}

static int parse_values(char *list, val_split_rule *r, int f, char *why, size_t whylen)
{
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        char *end;
        errno = 0;
        double v = strtod(tok, &end);
        if (end == tok || *end || errno || !isfinite(v)) {
            snprintf(why, whylen, "'%s' is not a number", tok);
            return -1;
        }
        if (r->nvalues[f] >= VAL_SPLIT_MAX_VALUES) {
            snprintf(why, whylen, "more than %d values for %s", VAL_SPLIT_MAX_VALUES, field_names[f]);
            return -1;
        }
        r->values[f][r->nvalues[f]++] = v;
    }
    if (!r->nvalues[f]) {
        snprintf(why, whylen, "no values for %s", field_names[f]);
        return -1;
    }
    return 0;
}

static int parse_line(char *line, val_split_rule *r, char *why, size_t whylen)
{
    char *save, *tok = strtok_r(line, " \t", &save);
    memset(r, 0, sizeof *r);
    if (!tok || strcmp(tok, "test")) {
        snprintf(why, whylen, "expected 'test PATTERN [field=v1,v2,...]...'");
        return -1;
    }
    tok = strtok_r(NULL, " \t", &save);
    if (!tok) {
        snprintf(why, whylen, "missing pattern (a name or *)");
        return -1;
    }
    enum pat_id id;
    if (!strcmp(tok, "*"))
        r->pattern = -1;
    else if (pat_from_name(tok, &id)) {
        snprintf(why, whylen, "unknown pattern '%s'", tok);
        return -1;
    } else
        r->pattern = (int)id;
    while ((tok = strtok_r(NULL, " \t", &save))) {
        char *eq = strchr(tok, '=');
        int f = -1;
        if (eq) {
            *eq = 0;
            for (int k = 0; k < VSF_COUNT; k++)
                if (!strcmp(tok, field_names[k]))
                    f = k;
        }
        if (f < 0) {
            snprintf(why, whylen, "'%s' is not field=v1,v2,... with a field of n, wg, selectivity, bins, hot, addresses, smem_per_wg", tok);
            return -1;
        }
        if (r->nvalues[f]) {
            snprintf(why, whylen, "field %s given twice", tok);
            return -1;
        }
        if (parse_values(eq + 1, r, f, why, whylen))
            return -1;
    }
    return 0;
}

int val_split_load(const char *path, val_split *s, char err[CFG_ERR_MAX])
{
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", path);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, CFG_ERR_MAX, "%s: cannot open split file: %s", path, strerror(errno));
        return -1;
    }
    char line[1024], why[200];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        line[strcspn(line, "\r\n")] = 0;
        if (!line[strspn(line, " \t")])
            continue;
        if (s->count >= VAL_SPLIT_MAX_RULES) {
            snprintf(err, CFG_ERR_MAX, "%s:%d: more than %d test lines", path, lineno, VAL_SPLIT_MAX_RULES);
            fclose(f);
            return -1;
        }
        if (parse_line(line, &s->rules[s->count], why, sizeof why)) {
            snprintf(err, CFG_ERR_MAX, "%s:%d: %s", path, lineno, why);
            fclose(f);
            return -1;
        }
        s->count++;
    }
    fclose(f);
    return 0;
}

static int rule_matches(const val_split_rule *r, const pat_params *p)
{
    if (r->pattern >= 0 && r->pattern != (int)p->pattern)
        return 0;
    for (int f = 0; f < VSF_COUNT; f++) {
        if (!r->nvalues[f])
            continue;
        double v = field_value(p, f);
        int any = 0;
        for (int k = 0; k < r->nvalues[f]; k++)
            if (fabs(v - r->values[f][k]) <= 1e-9 * fmax(1.0, fabs(v)))
                any = 1;
        if (!any)
            return 0;
    }
    return 1;
}

int val_split_is_test(const val_split *s, const pat_params *p)
{
    for (int i = 0; i < s->count; i++)
        if (rule_matches(&s->rules[i], p))
            return 1;
    return 0;
}

size_t val_split_mask(const val_split *s, const val_dataset *d, enum val_rows which, unsigned char *keep)
{
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++) {
        int t = val_split_is_test(s, &d->rows[i].params);
        keep[i] = (unsigned char)(which == VAL_ROWS_ALL || (which == VAL_ROWS_TEST) == t);
        n += keep[i];
    }
    return n;
}

int val_rows_from_name(const char *name)
{
    if (!strcmp(name, "all"))
        return VAL_ROWS_ALL;
    if (!strcmp(name, "fit"))
        return VAL_ROWS_FIT;
    if (!strcmp(name, "test"))
        return VAL_ROWS_TEST;
    return -1;
}
