/* dataset.c - strict parser for the measured dataset CSV of the contract. */
#include "dataset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../util/csv.h"

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

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = 0;
}

/* A field that is empty or a number >= 0; *out = -1 when empty. */
static int optional_count(const char *s, double *out)
{
    *out = -1;
    if (!s[0])
        return 0;
    errno = 0;
    char *e;
    *out = strtod(s, &e);
    return e == s || *e || errno || !(*out >= 0) ? -1 : 0;
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
    char *end;
    double v[MAXF];
    for (int i = 1; i < k + 5; i++) {
        errno = 0;
        v[i] = strtod(f[i], &end);
        if (end == f[i] || *end || errno) {
            snprintf(why, whylen, "field %d '%s' is not a number", i + 1, f[i]);
            return -1;
        }
    }
    if (strcmp(f[k + 5], "ok")) {
        snprintf(why, whylen, "check is '%s', not ok: not a measurement", f[k + 5]);
        return -1;
    }
    for (int i = 0; i < k; i++)
        pat_param_set_value(cols[i], &r->params, v[1 + i]);
    r->time_us_median = v[k + 2];
    r->time_us_min = v[k + 3];
    r->time_us_max = v[k + 4];
    if (!(r->time_us_median > 0)) {
        snprintf(why, whylen, "time_us_median %g is not positive", v[k + 2]);
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
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, CFG_ERR_MAX, "%s: cannot open dataset: %s", path, strerror(errno));
        return -1;
    }
    /* a device or pipe never ends (/dev/zero): only regular files are data */
    struct stat sb;
    if (fstat(fileno(f), &sb) || !S_ISREG(sb.st_mode)) {
        snprintf(err, CFG_ERR_MAX, "%s: not a regular file", path);
        fclose(f);
        return -1;
    }
    char line[1024], why[160];
    size_t cap = 0;
    int lineno = 0, have_header = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        chomp(line);
        if (!line[0])
            continue;
        if (line[0] == '#') {
            if (!strncmp(line, "# gpu: ", 7))
                snprintf(d->gpu, sizeof d->gpu, "%s", line + 7);
            else if (!strncmp(line, "# driver: ", 10))
                snprintf(d->driver, sizeof d->driver, "%s", line + 10);
            else if (is_probe(line)) {
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
    fclose(f);
    if (!have_header) {
        snprintf(err, CFG_ERR_MAX, "%s: no dataset header", path);
        val_dataset_free(d);
        return -1;
    }
    return 0;
fail:
    fclose(f);
    val_dataset_free(d);
    return -1;
}

void val_dataset_free(val_dataset *d)
{
    free(d->rows);
    memset(d, 0, sizeof *d);
}
