/* dataset.c - strict parser for the measured dataset CSV of the contract. */
#include "dataset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/csv.h"
#include "../util/lines.h"
#include "../util/num.h"

/* The header: pattern, each parameter's CSV column (the parameter table's,
 * in its order), then the timings' columns; then vkbench --count-cas's, and
 * the clock guard's evidence (vkbench/vkb_csv.h), each where present. */
static const char *const timings = ",reps,time_us_median,time_us_min,time_us_max,check";
static const char *const cas_column = ",cas_attempts";
static const char *const clock_columns = ",clock_ratio_max,clock_rewarms";

/* The parameters with a column, in the table's order; how many. */
static int param_columns(const pat_param_desc *cols[PP_COUNT])
{
    int k = 0;
    for (int i = 0; i < PP_COUNT; i++)
        if (pat_param_get(i)->csv)
            cols[k++] = pat_param_get(i);
    return k;
}

static void make_header(char *buf, size_t len)
{
    const pat_param_desc *cols[PP_COUNT];
    int k = param_columns(cols);
    snprintf(buf, len, "pattern");
    for (int i = 0; i < k; i++) {
        size_t u = strlen(buf);
        snprintf(buf + u, len - u, ",%s", cols[i]->csv);
    }
    size_t u = strlen(buf);
    snprintf(buf + u, len - u, "%s", timings);
}

/* A field that is empty or a finite number >= 0; *out = -1 when empty. */
static int optional_count(const char *s, double *out)
{
    *out = -1;
    if (!s[0])
        return 0;
    return num_parse_range(s, 0, HUGE_VAL, 0, out) ? -1 : 0;
}

/* A parameter's column through the table's own parser: bounds and
 * integrality are checked on the text, before any cast, so -5 or 4096.7
 * cannot wrap or truncate into a valid-looking row.  The message names
 * the column, not the flag. */
static int param_field(const pat_param_desc *d, pat_params *p, const char *text, char *why, size_t whylen)
{
    char msg[160];
    if (!pat_param_parse(d, p, text, msg, sizeof msg))
        return 0;
    size_t fl = strlen(d->flag);
    snprintf(why, whylen, "%s%s", d->csv, strncmp(msg, d->flag, fl) ? msg : msg + fl);
    return -1;
}

static int parse_row(char *line, int has_cas, int has_clock, val_row *r, char *why, size_t whylen)
{
    enum { MAXF = PP_COUNT + 10 };
    const pat_param_desc *cols[PP_COUNT];
    int k = param_columns(cols); /* fields 1..k; then reps, three timings, check */
    char *f[MAXF];
    int nf = csv_split(line, f, MAXF);
    int want = k + 6 + has_cas + 2 * has_clock;
    if (nf != want) {
        snprintf(why, whylen, "expected %d fields, found %d", want, nf);
        return -1;
    }
    r->cas_attempts = -1;
    if (has_cas && optional_count(f[k + 6], &r->cas_attempts)) {
        snprintf(why, whylen, "cas_attempts '%s' is not a count", f[k + 6]);
        return -1;
    }
    r->clock_ratio_max = r->clock_rewarms = -1;
    int ck = k + 6 + has_cas;
    if (has_clock && (optional_count(f[ck], &r->clock_ratio_max) || optional_count(f[ck + 1], &r->clock_rewarms))) {
        snprintf(why, whylen, "clock evidence '%s,%s' is not a ratio and a count", f[ck], f[ck + 1]);
        return -1;
    }
    pat_defaults(&r->params);
    if (pat_from_name(f[0], &r->params.pattern)) {
        snprintf(why, whylen, "unknown pattern '%s'", f[0]);
        return -1;
    }
    for (int i = 0; i < k; i++)
        if (param_field(cols[i], &r->params, f[1 + i], why, whylen))
            return -1;
    /* reps, then the three timings: finite, never a wrapped or NaN time */
    static const char *const names[] = { "reps", "time_us_median", "time_us_min", "time_us_max" };
    double v[4];
    for (int i = 0; i < 4; i++) {
        int rc = num_parse_range(f[k + 1 + i], i ? 0 : 1, i ? HUGE_VAL : 1e9, i ? 0 : NUM_INTEGER, &v[i]);
        if (rc) {
            snprintf(why, whylen, "%s '%s' is not %s", names[i], f[k + 1 + i],
                     i ? "a finite number >= 0" : "an integer in [1, 1000000000]");
            return -1;
        }
    }
    if (strcmp(f[k + 5], "ok")) {
        snprintf(why, whylen, "check is '%s', not ok: not a measurement", f[k + 5]);
        return -1;
    }
    r->time_us_median = v[1];
    r->time_us_min = v[2];
    r->time_us_max = v[3];
    if (!(r->time_us_median > 0)) {
        snprintf(why, whylen, "time_us_median %g is not positive", v[1]);
        return -1;
    }
    return pat_check(&r->params, why, (unsigned)whylen);
}

/* vkbench's probe flags (--select-unit, --tail, --spin, --cas-first,
 * --flush, --trace) write one of these provenance lines (only when set off
 * the contract): such a file measured another kernel than the one the
 * simulator models. */
static int is_probe(const char *line)
{
    static const char *const keys[] = { "# select_unit: ", "# tail: ", "# spin: ", "# cas_first: ",
                                          "# flush: ", "# trace: " };
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (!strncmp(line, keys[k], strlen(keys[k])))
            return 1;
    return 0;
}

int val_dataset_load(const char *path, val_dataset *d, char err[CFG_ERR_MAX])
{
    memset(d, 0, sizeof *d);
    /* a device or pipe never ends (/dev/zero): only regular files are data;
     * a line past LIN_MAX_LINE or a NUL byte is refused, never cut in two */
    lin_reader in;
    if (lin_open_as(&in, path, "dataset", LIN_MAX_LINE, err, CFG_ERR_MAX))
        return -1;
    char why[160];
    size_t cap = 0;
    int have_header = 0, got;
    while ((got = lin_next(&in, err, CFG_ERR_MAX)) > 0) {
        char *line = in.line;
        int lineno = (int)in.lineno;
        if (!line[0])
            continue;
        if (line[0] == '#') {
            if (!strncmp(line, "# gpu: ", 7))
                snprintf(d->gpu, sizeof d->gpu, "%s", line + 7);
            else if (!strncmp(line, "# driver: ", 10))
                snprintf(d->driver, sizeof d->driver, "%s", line + 10);
            else if (!strncmp(line, "# harness: ", 11))
                snprintf(d->harness, sizeof d->harness, "%s", line + 11);
            else if (!strncmp(line, "# workers: ", 11)) {
                double w;
                if (num_parse_range(line + 11, 1, 65536, NUM_INTEGER, &w)) {
                    snprintf(err, CFG_ERR_MAX, "%s:%d: workers is not a count of 1 to 65536", path, lineno);
                    goto fail;
                }
                d->workers = (int)w;
            } else if (is_probe(line)) {
                char key[32] = "", val[32] = "";
                sscanf(line + 2, "%31[^:]: %31s", key, val);
                snprintf(err, CFG_ERR_MAX, "%s:%d: a vkbench probe (%s %s), not a dataset atomsim reads", path, lineno, key,
                         val);
                goto fail;
            }
            continue;
        }
        if (!have_header) {
            char header[512];
            make_header(header, sizeof header);
            size_t hl = strlen(header);
            const char *rest = line + hl;
            int base = !strncmp(line, header, hl);
            d->has_cas = base && !strncmp(rest, cas_column, strlen(cas_column));
            if (d->has_cas)
                rest += strlen(cas_column);
            d->has_clock = base && !strcmp(rest, clock_columns);
            if (!base || (*rest && !d->has_clock)) {
                snprintf(err, CFG_ERR_MAX, "%s:%d: expected the dataset header '%s'", path, lineno, header);
                goto fail;
            }
            have_header = 1;
            continue;
        }
        if (d->count == cap) {
            cap = cap ? 2 * cap : 256;
            val_row *nr = realloc(d->rows, cap * sizeof *nr);
            if (!nr) {
                snprintf(err, CFG_ERR_MAX, "%s: out of memory", path);
                goto fail;
            }
            d->rows = nr;
        }
        val_row *r = &d->rows[d->count];
        if (parse_row(line, d->has_cas, d->has_clock, r, why, sizeof why)) {
            snprintf(err, CFG_ERR_MAX, "%s:%d: %s", path, lineno, why);
            goto fail;
        }
        r->line = lineno;
        d->count++;
    }
    if (got < 0)
        goto fail;
    lin_close(&in);
    if (!have_header) {
        snprintf(err, CFG_ERR_MAX, "%s: no dataset header", path);
        val_dataset_free(d);
        return -1;
    }
    return 0;
fail:
    lin_close(&in);
    val_dataset_free(d);
    return -1;
}

void val_dataset_free(val_dataset *d)
{
    free(d->rows);
    memset(d, 0, sizeof *d);
}
