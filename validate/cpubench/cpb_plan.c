/* cpb_plan.c - the plan reader of cpb_plan.h.  It accepts what vkbench
 * accepts (the same flags, ranges, lists and 2^E): the parameters, their
 * kinds and the harnesses' ranges come from the contract's table
 * (model/params.c, linked in), and it is stricter about numbers than
 * vkbench: a leading zero (octal to a C reader), hex, a sign, trailing
 * characters, nan and inf are refused rather than read as something else. */
#include "cpb_plan.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../model/params_csv.h"
#include "../../util/lines.h"
#include "../../util/num.h"

#define MAX_WORDS 64
#define LIST_MAX 64

typedef enum { K_PATTERN, K_UINT, K_FRAC, K_INT } kind;

/* One line's sweep: a list per flag (value k of parameter i in v[k]'s
 * field i), and the line's reps and warmup. */
typedef struct sweep {
    int npattern;
    enum pat_id pattern[LIST_MAX];
    int len[PP_COUNT];
    pat_params v[LIST_MAX];
    int reps, warmup;
} sweep;

/* A plan's flag: --pattern, a parameter of the contract's table that the
 * harnesses take (model/params.c: its name, kind and the harnesses' range,
 * which are vkbench's, build/vkbench --help), --reps or --warmup. */
typedef struct flag {
    const char *name;
    kind k;
    const pat_param_desc *d; /* the parameter's; NULL for the others */
    double lo, hi;
    int allow_max;           /* accepts "max" (--smem-per-wg) */
} flag;

static const flag own[] = {
    { "pattern", K_PATTERN, NULL, 0, 0, 0 },
    { "reps", K_INT, NULL, 1, 1000, 0 },
    { "warmup", K_INT, NULL, 0, 100, 0 },
};
#define NOWN (int)(sizeof own / sizeof own[0])

/* The flag named by the len characters at name; 0 or -1. */
static int find_flag(const char *name, size_t len, flag *out)
{
    char dashed[72];
    for (int i = 0; i < NOWN; i++)
        if (strlen(own[i].name) == len && !strncmp(own[i].name, name, len)) {
            *out = own[i];
            return 0;
        }
    snprintf(dashed, sizeof dashed, "--%.*s", (int)(len > 64 ? 64 : len), name);
    const pat_param_desc *d = len <= 64 ? pat_param_find_flag(dashed, len + 2) : NULL;
    if (!d || d->hmax <= 0)
        return -1;
    *out = (flag){ d->flag + 2, d->type == PP_DOUBLE ? K_FRAC : K_UINT, d, d->hmin, d->hmax, pat_param_id(d) == PP_SMEM_PER_WG };
    return 0;
}

static int errf(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int errf(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, CPB_ERRLEN, fmt, ap);
    va_end(ap);
    return -1;
}

/* Decimal, 2^E or 1e6, and fractions, through the project's one strict
 * parser (util/num.h): what vkbench and atomsim read in the same places. */
int cpb_parse_uint(const char *t, uint64_t *v)
{
    unsigned long long a;
    if (num_parse_u64(t, &a))
        return -1;
    *v = a;
    return 0;
}

static int parse_frac(const char *t, double *v)
{
    return num_parse_double(t, v);
}

static int parse_item(const flag *o, const char *t, sweep *s, int idx, char *err)
{
    if (o->k == K_PATTERN) {
        enum pat_id id;
        if (pat_from_name(t, &id))
            return errf(err, "unknown pattern '%s' for --pattern", t);
        s->pattern[idx] = id;
        return 0;
    }
    if (o->k == K_FRAC) {
        double d;
        if (parse_frac(t, &d) || d < o->lo || d > o->hi)
            return errf(err, "--%s: '%s' is not a number in [%g, %g]", o->name, t, o->lo, o->hi);
        pat_param_set_value(o->d, &s->v[idx], d);
        return 0;
    }
    if (o->allow_max && !strcmp(t, "max")) {
        pat_param_set_value(o->d, &s->v[idx], CPB_SMEM_MAX);
        return 0;
    }
    uint64_t v;
    if (cpb_parse_uint(t, &v) || (double)v < o->lo || (double)v > o->hi)
        return errf(err, "--%s: '%s' is not an integer in [%.0f, %.0f]%s (decimal without leading zeros, 2^E or 1e6)",
                    o->name, t, o->lo, o->hi, o->allow_max ? " or max" : "");
    if (!o->d)
        *(!strcmp(o->name, "reps") ? &s->reps : &s->warmup) = (int)v;
    else
        pat_param_set_value(o->d, &s->v[idx], (double)v);
    return 0;
}

static int set_flag(sweep *s, const flag *o, const char *value, char *err)
{
    char buf[4096];
    int count = 0;
    size_t len = strlen(value);
    if (!len)
        return errf(err, "--%s needs a value", o->name);
    if (len >= sizeof buf)
        return errf(err, "--%s: value too long", o->name);
    if (o->k == K_INT)
        return parse_item(o, value, s, 0, err);
    if (o->k == K_PATTERN && !strcmp(value, "all")) {
        for (int id = 0; id < PAT_COUNT; id++)
            s->pattern[id] = (enum pat_id)id;
        s->npattern = PAT_COUNT;
        return 0;
    }
    if (value[0] == ',' || value[len - 1] == ',' || strstr(value, ",,"))
        return errf(err, "--%s: malformed list '%s'", o->name, value);
    memcpy(buf, value, len + 1);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (count == LIST_MAX)
            return errf(err, "--%s: more than %d values", o->name, LIST_MAX);
        if (parse_item(o, t, s, count, err))
            return -1;
        count++;
    }
    if (o->d)
        s->len[pat_param_id(o->d)] = count;
    else
        s->npattern = count;
    return 0;
}

static void sweep_init(sweep *s)
{
    memset(s, 0, sizeof *s);
    pat_defaults(&s->v[0]);
    for (int i = 0; i < PP_COUNT; i++)
        s->len[i] = 1;
    s->reps = s->warmup = -1;
}

/* Walks "--flag value" and "--flag=value" words. */
static int walk(int nw, char **w, sweep *s, char *err)
{
    for (int k = 0; k < nw; k++) {
        const char *word = w[k], *value;
        if (strncmp(word, "--", 2) || !word[2])
            return errf(err, "unexpected argument '%s'", word);
        const char *eq = strchr(word + 2, '=');
        size_t len = eq ? (size_t)(eq - word - 2) : strlen(word + 2);
        flag f;
        if (find_flag(word + 2, len, &f))
            return errf(err, "unknown flag --%.*s", (int)(len > 64 ? 64 : len), word + 2);
        if (eq)
            value = eq + 1;
        else if (k + 1 < nw)
            value = w[++k];
        else
            return errf(err, "--%s needs a value", f.name);
        if (set_flag(s, &f, value, err))
            return -1;
    }
    return 0;
}

void cpb_cfg_params(const cpb_cfg *c, pat_params *p)
{
    pat_defaults(p);
    p->pattern = c->pattern;
    p->n = c->n;
    p->wg = (int)c->wg;
    p->selectivity = c->selectivity;
    p->bins = c->bins;
    p->hot = c->hot;
    p->addresses = c->addresses;
    p->smem_per_wg = c->smem_per_wg;
}

/* Field by field, not through the parameter table: the list's duplicate
 * check is quadratic, and converting both sides for the table's compare
 * made a 20,000-row plan's dry run take 69 s instead of 0.4 s.  The
 * assertion makes a parameter added to the table stop the build here
 * until this harness carries it. */
_Static_assert(PP_COUNT == 8, "a new pattern parameter: add it to the harness's config and this comparison");
static int same(const cpb_cfg *a, const cpb_cfg *b)
{
    return a->pattern == b->pattern && a->n == b->n && a->wg == b->wg && a->bins == b->bins &&
           a->addresses == b->addresses && a->smem_per_wg == b->smem_per_wg && a->selectivity == b->selectivity &&
           a->hot == b->hot;
}

/* vkbench's vkb_cfg_normalize, from the contract's own table of the flags
 * each pattern reads: parameters the pattern ignores take the defaults,
 * "max" shared memory smem_max, and shared memory rises to the pattern's
 * own need. */
static void normalize(pat_params *p, uint32_t smem_max)
{
    pat_canonical(p);
    if (p->smem_per_wg == CPB_SMEM_MAX)
        p->smem_per_wg = smem_max;
    uint32_t need = pat_own_smem_bytes(p);
    if (p->smem_per_wg < need)
        p->smem_per_wg = need;
}

static int push(cpb_cfg_list *l, const cpb_cfg *c)
{
    for (size_t k = 0; k < l->len; k++)
        if (same(&l->v[k], c))
            return 0;
    if (l->len == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        cpb_cfg *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->len++] = *c;
    return 0;
}

/* The grid in vkbench's order: the pattern, then the parameters in the
 * harnesses' grid order (pat_grid_order, shared with vkbench), the last
 * varying fastest. */
static int expand(const sweep *s, int reps, int warmup, uint32_t smem_max, int line, cpb_cfg_list *out, char *err)
{
    enum pat_param_id order[PP_COUNT];
    int nord = pat_grid_order(order), idx[PP_COUNT + 1] = { 0 };
    if (!s->npattern)
        return errf(err, "no --pattern given");
    for (;;) {
        pat_params p;
        cpb_cfg c;
        pat_defaults(&p);
        p.pattern = s->pattern[idx[0]];
        for (int d = 0; d < nord; d++)
            pat_param_copy(pat_param_get(order[d]), &p, &s->v[idx[d + 1]]);
        normalize(&p, smem_max);
        memset(&c, 0, sizeof c);
        c.pattern = p.pattern;
        c.n = (uint32_t)p.n;
        c.wg = (uint32_t)p.wg;
        c.smem_per_wg = p.smem_per_wg;
        c.bins = p.bins;
        c.hot = p.hot;
        c.addresses = p.addresses;
        c.selectivity = p.selectivity;
        c.reps = s->reps >= 0 ? s->reps : reps;
        c.warmup = s->warmup >= 0 ? s->warmup : warmup;
        c.line = line;
        if (push(out, &c))
            return errf(err, "out of memory");
        int d = nord; /* the last flag varies fastest */
        while (d >= 0 && ++idx[d] == (d ? s->len[order[d - 1]] : s->npattern))
            idx[d--] = 0;
        if (d < 0)
            return 0;
    }
}

static int read_line(char *text, int reps, int warmup, uint32_t smem_max, int line, cpb_cfg_list *out, char *err)
{
    char *words[MAX_WORDS];
    int nw = 0;
    sweep s;
    char *hash = strchr(text, '#');
    if (hash)
        *hash = 0;
    for (char *save = NULL, *t = strtok_r(text, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
        if (nw == MAX_WORDS)
            return errf(err, "more than %d words", MAX_WORDS);
        words[nw++] = t;
    }
    if (!nw)
        return 0;
    sweep_init(&s);
    if (walk(nw, words, &s, err))
        return -1;
    return expand(&s, reps, warmup, smem_max, line, out, err);
}

/* The longest plan line read before the bounded reader (an 8 KiB buffer). */
#define PLAN_MAX_LINE 8190

int cpb_plan_read(const char *path, int reps, int warmup, uint32_t smem_max, cpb_cfg_list *out, char *err)
{
    char msg[CPB_ERRLEN];
    int rc = 0, got;
    lin_reader in;
    struct stat st;
    /* stat first: a directory or a device (/dev/zero never ends) is
     * refused before anything is read; a pipe (--plan <(atomsim plan ...))
     * and stdin are read within the same bounds as a file */
    if (strcmp(path, "-")) {
        if (stat(path, &st))
            return errf(err, "cannot read plan %s: %s", path, strerror(errno));
        if (S_ISDIR(st.st_mode))
            return errf(err, "cannot read plan %s: it is a directory", path);
        if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
            return errf(err, "cannot read plan %s: not a regular file", path);
    }
    if (strcmp(path, "-") && S_ISFIFO(st.st_mode)) {
        FILE *f = fopen(path, "r");
        if (!f)
            return errf(err, "cannot read plan %s: %s", path, strerror(errno));
        lin_attach(&in, f, path, PLAN_MAX_LINE, LIN_MAX_BYTES);
        in.owns = 1;
    } else if (lin_open(&in, path, PLAN_MAX_LINE, LIN_MAX_BYTES, msg, sizeof msg)) {
        return errf(err, "cannot read plan %s", msg);
    }
    /* a long line or a NUL byte is refused with its line, never cut */
    while (!rc && (got = lin_next(&in, err, CPB_ERRLEN)) != 0) {
        if (got < 0) {
            rc = -1;
            break;
        }
        rc = read_line(in.line, reps, warmup, smem_max, (int)in.lineno, out, msg);
        if (rc)
            errf(err, "%s:%lu: %s", path, in.lineno, msg);
    }
    lin_close(&in);
    return rc;
}

void cpb_cfg_list_free(cpb_cfg_list *l)
{
    free(l->v);
    l->v = NULL;
    l->len = l->cap = 0;
}

void cpb_cfg_describe(const cpb_cfg *c, char *buf, size_t len)
{
    pat_params p;
    cpb_cfg_params(c, &p);
    pat_csv_describe(&p, buf, len);
}
