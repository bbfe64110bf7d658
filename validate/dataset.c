/* dataset.c - strict parser for the measured dataset CSV of the contract. */
#include "dataset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const header =
    "pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg,reps,time_us_median,time_us_min,time_us_max,check";
static const char *const cas_column = ",cas_attempts";

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = 0;
}

static int parse_row(char *line, int has_cas, val_row *r, char *why, size_t whylen)
{
    char *f[16];
    int nf = 0;
    for (char *p = line; nf < 16;) {
        f[nf++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = 0;
        p = c + 1;
    }
    int want = has_cas ? 14 : 13;
    if (nf != want) {
        snprintf(why, whylen, "expected %d fields, found %d", want, nf);
        return -1;
    }
    r->cas_attempts = -1;
    if (has_cas && f[13][0]) {
        errno = 0;
        char *e;
        r->cas_attempts = strtod(f[13], &e);
        if (e == f[13] || *e || errno || !(r->cas_attempts >= 0)) {
            snprintf(why, whylen, "cas_attempts '%s' is not a count", f[13]);
            return -1;
        }
    }
    pat_defaults(&r->params);
    if (pat_from_name(f[0], &r->params.pattern)) {
        snprintf(why, whylen, "unknown pattern '%s'", f[0]);
        return -1;
    }
    char *end;
    double v[12];
    for (int i = 1; i < 12; i++) {
        errno = 0;
        v[i] = strtod(f[i], &end);
        if (end == f[i] || *end || errno) {
            snprintf(why, whylen, "field %d '%s' is not a number", i + 1, f[i]);
            return -1;
        }
    }
    if (strcmp(f[12], "ok")) {
        snprintf(why, whylen, "check is '%s', not ok: not a measurement", f[12]);
        return -1;
    }
    r->params.n = (uint64_t)v[1];
    r->params.wg = (int)v[2];
    r->params.selectivity = v[3];
    r->params.bins = (uint32_t)v[4];
    r->params.hot = v[5];
    r->params.addresses = (uint32_t)v[6];
    r->params.smem_per_wg = (uint32_t)v[7];
    r->time_us_median = v[9];
    r->time_us_min = v[10];
    r->time_us_max = v[11];
    if (!(r->time_us_median > 0)) {
        snprintf(why, whylen, "time_us_median %g is not positive", v[9]);
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
            size_t hl = strlen(header);
            d->has_cas = !strncmp(line, header, hl) && !strcmp(line + hl, cas_column);
            if (!d->has_cas && strcmp(line, header)) {
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
        if (parse_row(line, d->has_cas, r, why, sizeof why)) {
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
