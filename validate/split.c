/* split.c - parses split files (see split.h) and classifies rows; the
 * fields are the parameter table's CSV columns (model/params.c). */
#include "split.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/lines.h"
#include "../util/num.h"

static int parse_values(char *list, val_split_rule *r, int f, char *why, size_t whylen)
{
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        /* the parameter's own bounds: a value no row can have is a typo */
        const pat_param_desc *d = pat_param_get(f);
        double v;
        int rc = num_parse_range(tok, d->min, d->max, d->type == PP_DOUBLE ? 0 : NUM_INTEGER, &v);
        if (rc == -1) {
            snprintf(why, whylen, "'%s' is not %s", tok, d->type == PP_DOUBLE ? "a number" : "an integer");
            return -1;
        }
        if (rc) {
            snprintf(why, whylen, "%s=%s is out of range [%.17g, %.17g]", d->csv, tok, d->min, d->max);
            return -1;
        }
        if (r->nvalues[f] >= VAL_SPLIT_MAX_VALUES) {
            snprintf(why, whylen, "more than %d values for %s", VAL_SPLIT_MAX_VALUES, pat_param_get(f)->csv);
            return -1;
        }
        r->values[f][r->nvalues[f]++] = v;
    }
    if (!r->nvalues[f]) {
        snprintf(why, whylen, "no values for %s", pat_param_get(f)->csv);
        return -1;
    }
    return 0;
}

static int parse_line(char *line, val_split_rule *r, char *why, size_t whylen)
{
    char *save, *tok = strtok_r(line, " \t", &save);
    memset(r, 0, sizeof *r);
    if (!tok || (strcmp(tok, "test") && strcmp(tok, "spent"))) {
        snprintf(why, whylen, "expected 'test PATTERN [field=v1,v2,...]...' or 'spent PATTERN ...'");
        return -1;
    }
    r->spent = !strcmp(tok, "spent");
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
        const pat_param_desc *d = NULL;
        if (eq) {
            *eq = 0;
            d = pat_param_find_csv(tok);
        }
        if (!d) {
            char fields[256] = "";
            for (int k = 0; k < PP_COUNT; k++)
                if (pat_param_get(k)->csv) {
                    size_t u = strlen(fields);
                    snprintf(fields + u, sizeof fields - u, "%s%s", u ? ", " : "", pat_param_get(k)->csv);
                }
            snprintf(why, whylen, "'%s' is not field=v1,v2,... with a field of %s", tok, fields);
            return -1;
        }
        int f = (int)pat_param_id(d);
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
    /* a directory would read as an empty split, sending held-out rows into
     * the fit; /dev/zero would never end */
    lin_reader in;
    if (lin_open_as(&in, path, "split file", LIN_MAX_LINE, err, CFG_ERR_MAX))
        return -1;
    char why[200];
    int got;
    while ((got = lin_next(&in, err, CFG_ERR_MAX)) > 0) {
        char *line = in.line;
        int lineno = (int)in.lineno;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        line[strcspn(line, "\r\n")] = 0;
        if (!line[strspn(line, " \t")])
            continue;
        if (s->count >= VAL_SPLIT_MAX_RULES) {
            snprintf(err, CFG_ERR_MAX, "%s:%d: more than %d test and spent lines", path, lineno, VAL_SPLIT_MAX_RULES);
            lin_close(&in);
            return -1;
        }
        if (parse_line(line, &s->rules[s->count], why, sizeof why)) {
            snprintf(err, CFG_ERR_MAX, "%s:%d: %s", path, lineno, why);
            lin_close(&in);
            return -1;
        }
        s->count++;
    }
    lin_close(&in);
    return got < 0 ? -1 : 0;
}

static int rule_matches(const val_split_rule *r, const pat_params *p)
{
    if (r->pattern >= 0 && r->pattern != (int)p->pattern)
        return 0;
    for (int f = 0; f < PP_COUNT; f++) {
        if (!r->nvalues[f])
            continue;
        double v = pat_param_value(pat_param_get(f), p);
        int any = 0;
        for (int k = 0; k < r->nvalues[f]; k++)
            if (fabs(v - r->values[f][k]) <= 1e-9 * fmax(1.0, fabs(v)))
                any = 1;
        if (!any)
            return 0;
    }
    return 1;
}

enum val_rows val_split_side(const val_split *s, const pat_params *p)
{
    int test = 0, spent = 0;
    for (int i = 0; i < s->count; i++)
        if (rule_matches(&s->rules[i], p))
            *(s->rules[i].spent ? &spent : &test) = 1;
    return !test ? VAL_ROWS_FIT : spent ? VAL_ROWS_SPENT : VAL_ROWS_TEST;
}

int val_split_is_test(const val_split *s, const pat_params *p)
{
    return val_split_side(s, p) == VAL_ROWS_TEST;
}

size_t val_split_mask(const val_split *s, const val_dataset *d, enum val_rows which, unsigned char *keep)
{
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++) {
        keep[i] = (unsigned char)(which == VAL_ROWS_ALL || val_split_side(s, &d->rows[i].params) == which);
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
    if (!strcmp(name, "spent"))
        return VAL_ROWS_SPENT;
    return -1;
}
