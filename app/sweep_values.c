/* sweep_values.c - the keys an axis may take (pattern flags, engine,
 * config keys section.key) and the expansion of an axis's value list:
 * values, ranges a..b, a..b:xF, a..b:+S, 2^E, `all` patterns, with repeats
 * dropped where they first repeat. */
#include "sweep_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- keys ------------------------------------------------------------- */

/* A pattern axis's key: pattern, a parameter of the table (by its flag's
 * name, smem-per-wg, or its own, smem_per_wg) or engine.  Returns its
 * option code, with the (static) name the axis takes and its kind, or 0. */
int swp_pkey_find(const char *key, const char **canon, enum swp_kind *kind)
{
    const pat_param_desc *d = pat_param_find(key);
    const char *c = key;
    enum swp_kind k = SWP_WORD;
    int code = 0;
    if (d) {
        c = d->flag + 2;
        k = d->type == PP_DOUBLE ? SWP_REAL : SWP_INT;
        code = cli_param_opt(d);
    } else if (!strcmp(key, "pattern")) {
        c = "pattern";
        code = CLI_OPT_PATTERN;
    } else if (!strcmp(key, "engine")) {
        c = "engine";
        code = CLI_OPT_ENGINE;
    }
    if (canon)
        *canon = c;
    if (kind)
        *kind = k;
    return code;
}

const cfg_option *swp_ckey_find(const char *key)
{
    char sec[64];
    const char *dot = strchr(key, '.');
    if (!dot || (size_t)(dot - key) >= sizeof sec)
        return NULL;
    memcpy(sec, key, (size_t)(dot - key));
    sec[dot - key] = 0;
    return cfg_find(sec, dot + 1);
}

char *swp_dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

char *swp_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
        *--e = 0;
    return s;
}

/* ---- range expansion -------------------------------------------------- */

/* The values of one axis, in order, with a hash set that drops repeats. */
typedef struct strlist {
    char **v;
    size_t n, cap;
    size_t *set;                       /* index + 1 per slot, 0 empty */
    size_t set_cap;
} strlist;

static size_t str_hash(const char *s)
{
    size_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int sl_push(strlist *l, const char *s)
{
    if (l->n >= SWP_MAX_AXIS_VALUES)
        return -3;
    if (2 * (l->n + 1) > l->set_cap) { /* grow and rehash */
        size_t cap = l->set_cap ? 2 * l->set_cap : 64;
        size_t *set = calloc(cap, sizeof *set);
        if (!set)
            return -2;
        for (size_t i = 0; i < l->n; i++) {
            size_t h = str_hash(l->v[i]) & (cap - 1);
            while (set[h])
                h = (h + 1) & (cap - 1);
            set[h] = i + 1;
        }
        free(l->set);
        l->set = set;
        l->set_cap = cap;
    }
    size_t h = str_hash(s) & (l->set_cap - 1);
    for (; l->set[h]; h = (h + 1) & (l->set_cap - 1))
        if (!strcmp(l->v[l->set[h] - 1], s))
            return 0; /* a repeated value runs once, where it first appears */
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -2;
        l->v = v;
        l->cap = cap;
    }
    if (!(l->v[l->n] = swp_dupstr(s)))
        return -2;
    l->set[h] = ++l->n;
    return 0;
}

void swp_free_values(char **v, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(v[i]);
    free(v);
}

/* A number of a range: decimal, 1e6 style, or 2^E. */
static int range_number(const char *s, double *out)
{
    if (!strncmp(s, "2^", 2)) {
        double e;
        if (cli_parse_double(s + 2, &e) || e != floor(e) || e < 0 || e > 63)
            return -1;
        *out = ldexp(1.0, (int)e);
        return 0;
    }
    return cli_parse_double(s, out);
}

/* Expands one element "a..b[:xF|:+S]" into l. */
static int expand_range(const char *key, enum swp_kind kind, char *el, char *dots, strlist *l, char err[CFG_ERR_MAX])
{
    char *lo = el, *hi = dots + 2, *step = strchr(hi, ':');
    double a, b, f = 1;
    int geometric = 0;
    *dots = 0;
    if (step)
        *step++ = 0;
    lo = swp_trim(lo);
    hi = swp_trim(hi);
    if (kind == SWP_WORD) {
        snprintf(err, CFG_ERR_MAX, "%s: a range needs numbers ('%s..%s')", key, lo, hi);
        return -1;
    }
    if (range_number(lo, &a) || range_number(hi, &b)) {
        snprintf(err, CFG_ERR_MAX, "%s: malformed range '%s..%s' (expected a..b, a..b:xF or a..b:+S)", key, lo, hi);
        return -1;
    }
    if (step) {
        step = swp_trim(step);
        if ((step[0] != 'x' && step[0] != '*' && step[0] != '+') || cli_parse_double(step + 1, &f)) {
            snprintf(err, CFG_ERR_MAX, "%s: malformed step ':%s' (expected :xF or :+S)", key, step);
            return -1;
        }
        geometric = step[0] != '+';
    }
    if (kind == SWP_INT && (a != floor(a) || b != floor(b))) {
        snprintf(err, CFG_ERR_MAX, "%s: range '%s..%s' needs integer ends", key, lo, hi);
        return -1;
    }
    if (b < a) {
        snprintf(err, CFG_ERR_MAX, "%s: empty range '%s..%s'", key, lo, hi);
        return -1;
    }
    if (geometric && (f <= 1 || a <= 0)) {
        snprintf(err, CFG_ERR_MAX, "%s: a geometric range needs a factor > 1 and a start > 0", key);
        return -1;
    }
    if (!geometric && f <= 0) {
        snprintf(err, CFG_ERR_MAX, "%s: an arithmetic range needs a step > 0", key);
        return -1;
    }
    /* A step the double cannot take (0.5 + 1e-17 is 0.5) never reaches b,
     * and a tiny one takes ~1e16 steps that print alike and are dropped as
     * repeats: count the steps before taking them, and cap the loop too. */
    const char *st = step ? step : "+1";
    if (b > a && (geometric ? a * f == a : a + f == a)) {
        snprintf(err, CFG_ERR_MAX, "%s: step ':%s' does not move the value from %s", key, st, lo);
        return -1;
    }
    double steps = b > a ? (geometric ? log(b / a) / log(f) : (b - a) / f) : 0;
    if (!(steps <= SWP_MAX_RANGE_STEPS)) {
        snprintf(err, CFG_ERR_MAX, "%s: range '%s..%s:%s' takes %.3g steps (at most %u): a step too small for the range",
                 key, lo, hi, st, steps, SWP_MAX_RANGE_STEPS);
        return -1;
    }
    double limit = b + fabs(b) * 1e-9 + 1e-12;
    char buf[64], prev[64] = "";
    for (unsigned long long i = 0; i <= (unsigned long long)SWP_MAX_RANGE_STEPS + 1; i++) {
        double v = geometric ? a * pow(f, (double)i) : a + (double)i * f;
        if (v > limit)
            break;
        if (kind == SWP_INT)
            snprintf(buf, sizeof buf, "%.0f", fmin(round(v), b));
        else
            snprintf(buf, sizeof buf, "%.12g", v);
        if (!strcmp(buf, prev))
            continue; /* a geometric factor below 2 rounds to repeats */
        snprintf(prev, sizeof prev, "%s", buf);
        int rc = sl_push(l, buf);
        if (rc)
            return rc;
    }
    return 0;
}

static int key_kind(const char *key, enum swp_kind *kind, char err[CFG_ERR_MAX])
{
    if (swp_pkey_find(key, NULL, kind))
        return 0;
    const cfg_option *o = swp_ckey_find(key);
    if (!o) {
        char flags[256] = "pattern";
        for (int i = 0; i < PP_COUNT; i++) {
            size_t u = strlen(flags);
            snprintf(flags + u, sizeof flags - u, " %s", pat_param_get(i)->flag + 2);
        }
        snprintf(err, CFG_ERR_MAX, "unknown key '%s' (pattern flags: %s engine; config keys: see atomsim config)", key,
                 flags);
        return -1;
    }
    *kind = o->type == CFG_DOUBLE ? SWP_REAL : (o->type == CFG_INT || o->type == CFG_BOOL) ? SWP_INT : SWP_WORD;
    return 0;
}

int swp_expand(const char *key, const char *values, char ***out, size_t *count, char err[CFG_ERR_MAX])
{
    enum swp_kind kind;
    strlist l = { 0 };
    int rc = 0;
    if (key_kind(key, &kind, err))
        return -1;
    if (strspn(values, " \t") == strlen(values)) {
        snprintf(err, CFG_ERR_MAX, "%s: no values", key);
        return -1;
    }
    char *copy = swp_dupstr(values);
    if (!copy) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    /* strtok would skip empty elements: walk the commas by hand */
    for (char *el = copy; el && !rc;) {
        char *comma = strchr(el, ',');
        if (comma)
            *comma = 0;
        char *t = swp_trim(el), *dots = strstr(t, "..");
        if (!*t) {
            snprintf(err, CFG_ERR_MAX, "%s: empty value in '%s'", key, values);
            rc = -1;
        } else if (dots)
            rc = expand_range(key, kind, t, dots, &l, err);
        else if (swp_pkey_find(key, NULL, NULL) == CLI_OPT_PATTERN && !strcmp(t, "all")) {
            for (int i = 0; i < PAT_COUNT && !rc; i++)
                rc = sl_push(&l, pat_name((enum pat_id)i));
        } else
            rc = sl_push(&l, t);
        el = comma ? comma + 1 : NULL;
    }
    free(copy);
    free(l.set);
    if (rc == -3)
        snprintf(err, CFG_ERR_MAX, "%s: more than %u values", key, SWP_MAX_AXIS_VALUES);
    if (rc == -2)
        goto oom;
    if (rc) {
        swp_free_values(l.v, l.n);
        return -1;
    }
    *out = l.v;
    *count = l.n;
    return 0;
oom:
    swp_free_values(l.v, l.n);
    snprintf(err, CFG_ERR_MAX, "out of memory");
    return -1;
}
