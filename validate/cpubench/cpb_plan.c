/* cpb_plan.c - the plan reader of cpb_plan.h.  It accepts what vkbench
 * accepts (the same flags, ranges, lists and 2^E), written again here
 * because cpubench is built alone and static, and it is stricter about
 * numbers: a leading zero (octal to a C reader), hex, a sign, trailing
 * characters, nan and inf are refused rather than read as something else. */
#include "cpb_plan.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_WORDS 64
#define LIST_MAX 64

typedef enum { K_PATTERN, K_UINT, K_FRAC, K_INT } kind;

/* One line's sweep: a list per flag, and the line's reps and warmup. */
typedef struct sweep {
    int len[8];
    uint32_t u[8][LIST_MAX];
    double f[8][LIST_MAX];
    int reps, warmup;
} sweep;

enum { F_PATTERN, F_N, F_WG, F_SMEM, F_BINS, F_HOT, F_ADDR, F_SEL, F_REPS, F_WARMUP };

/* The ranges are vkbench's (build/vkbench --help). */
static const struct flag {
    const char *name;
    kind k;
    double lo, hi;
    int allow_max;
} flags[] = {
    [F_PATTERN] = { "pattern", K_PATTERN, 0, 0, 0 },
    [F_N] = { "n", K_UINT, 1, 268435456.0, 0 },
    [F_WG] = { "wg", K_UINT, 1, 1024, 0 },
    [F_SMEM] = { "smem-per-wg", K_UINT, 0, 1048576.0, 1 },
    [F_BINS] = { "bins", K_UINT, 1, 16777216.0, 0 },
    [F_HOT] = { "hot", K_FRAC, 0, 1, 0 },
    [F_ADDR] = { "addresses", K_UINT, 1, 4194304.0, 0 },
    [F_SEL] = { "selectivity", K_FRAC, 0, 1, 0 },
    [F_REPS] = { "reps", K_INT, 1, 1000, 0 },
    [F_WARMUP] = { "warmup", K_INT, 0, 100, 0 },
};
#define NFLAGS (int)(sizeof flags / sizeof flags[0])

static int errf(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int errf(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, CPB_ERRLEN, fmt, ap);
    va_end(ap);
    return -1;
}

static int digits(const char *t, const char **end)
{
    const char *p = t;
    while (*p >= '0' && *p <= '9')
        p++;
    *end = p;
    /* "0" alone is zero; "010" would be eight to strtoul(, 0) */
    return p > t && !(t[0] == '0' && p - t > 1);
}

int cpb_parse_uint(const char *t, uint64_t *v)
{
    const char *end;
    if (!digits(t, &end))
        return -1;
    errno = 0;
    unsigned long long a = strtoull(t, NULL, 10);
    if (errno)
        return -1;
    if (*end == '^') {
        const char *e = end + 1;
        if (a != 2 || !digits(e, &end) || *end)
            return -1;
        unsigned long x = strtoul(e, NULL, 10);
        if (x > 63)
            return -1;
        a = 1ull << x;
    } else if (*end) {
        return -1;
    }
    *v = a;
    return 0;
}

/* A plain decimal fraction, optionally with an exponent: 0.25, .5, 1e-3. */
static int parse_frac(const char *t, double *v)
{
    char *end;
    if (!((t[0] >= '0' && t[0] <= '9') || t[0] == '.') || strspn(t, "0123456789.eE+-") != strlen(t))
        return -1;
    errno = 0;
    double d = strtod(t, &end);
    if (errno || end == t || *end || !isfinite(d))
        return -1;
    *v = d;
    return 0;
}

static int parse_item(int f, const char *t, sweep *s, int idx, char *err)
{
    const struct flag *o = &flags[f];
    if (o->k == K_PATTERN) {
        enum pat_id id;
        if (pat_from_name(t, &id))
            return errf(err, "unknown pattern '%s' for --pattern", t);
        s->u[f][idx] = (uint32_t)id;
        return 0;
    }
    if (o->k == K_FRAC) {
        double d;
        if (parse_frac(t, &d) || d < o->lo || d > o->hi)
            return errf(err, "--%s: '%s' is not a number in [%g, %g]", o->name, t, o->lo, o->hi);
        s->f[f][idx] = d;
        return 0;
    }
    if (o->allow_max && !strcmp(t, "max")) {
        s->u[f][idx] = CPB_SMEM_MAX;
        return 0;
    }
    uint64_t v;
    if (cpb_parse_uint(t, &v) || (double)v < o->lo || (double)v > o->hi)
        return errf(err, "--%s: '%s' is not an integer in [%.0f, %.0f]%s (decimal without leading zeros, or 2^E)",
                    o->name, t, o->lo, o->hi, o->allow_max ? " or max" : "");
    if (f == F_REPS)
        s->reps = (int)v;
    else if (f == F_WARMUP)
        s->warmup = (int)v;
    else
        s->u[f][idx] = (uint32_t)v;
    return 0;
}

static int set_flag(sweep *s, int f, const char *value, char *err)
{
    const struct flag *o = &flags[f];
    char buf[4096];
    int count = 0;
    size_t len = strlen(value);
    if (!len)
        return errf(err, "--%s needs a value", o->name);
    if (len >= sizeof buf)
        return errf(err, "--%s: value too long", o->name);
    if (o->k == K_INT)
        return parse_item(f, value, s, 0, err);
    if (f == F_PATTERN && !strcmp(value, "all")) {
        for (int id = 0; id < PAT_COUNT; id++)
            s->u[f][id] = (uint32_t)id;
        s->len[f] = PAT_COUNT;
        return 0;
    }
    if (value[0] == ',' || value[len - 1] == ',' || strstr(value, ",,"))
        return errf(err, "--%s: malformed list '%s'", o->name, value);
    memcpy(buf, value, len + 1);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (count == LIST_MAX)
            return errf(err, "--%s: more than %d values", o->name, LIST_MAX);
        if (parse_item(f, t, s, count, err))
            return -1;
        count++;
    }
    s->len[f] = count;
    return 0;
}

static void sweep_init(sweep *s)
{
    memset(s, 0, sizeof *s);
    pat_params d;
    pat_defaults(&d);
    for (int f = F_N; f <= F_SEL; f++)
        s->len[f] = 1;
    s->u[F_N][0] = (uint32_t)d.n;
    s->u[F_WG][0] = (uint32_t)d.wg;
    s->u[F_SMEM][0] = d.smem_per_wg;
    s->u[F_BINS][0] = d.bins;
    s->f[F_HOT][0] = d.hot;
    s->u[F_ADDR][0] = d.addresses;
    s->f[F_SEL][0] = d.selectivity;
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
        int f = 0;
        while (f < NFLAGS && !(strlen(flags[f].name) == len && !strncmp(flags[f].name, word + 2, len)))
            f++;
        if (f == NFLAGS)
            return errf(err, "unknown flag --%.*s", (int)(len > 64 ? 64 : len), word + 2);
        if (eq)
            value = eq + 1;
        else if (k + 1 < nw)
            value = w[++k];
        else
            return errf(err, "--%s needs a value", flags[f].name);
        if (set_flag(s, f, value, err))
            return -1;
    }
    return 0;
}

static int same(const cpb_cfg *a, const cpb_cfg *b)
{
    return a->pattern == b->pattern && a->n == b->n && a->wg == b->wg && a->bins == b->bins &&
           a->addresses == b->addresses && a->smem_per_wg == b->smem_per_wg && a->selectivity == b->selectivity &&
           a->hot == b->hot;
}

/* vkbench's vkb_cfg_normalize, from the contract's own table of the flags
 * each pattern reads. */
static void normalize(cpb_cfg *c, uint32_t smem_max)
{
    unsigned uses = pat_flags(c->pattern);
    if (!(uses & PF_SELECTIVITY))
        c->selectivity = 1.0;
    if (!(uses & PF_BINS))
        c->bins = 256;
    if (!(uses & PF_HOT))
        c->hot = 0.0;
    if (!(uses & PF_ADDRESSES))
        c->addresses = 1;
    if (c->smem_per_wg == CPB_SMEM_MAX)
        c->smem_per_wg = smem_max;
    pat_params p;
    pat_defaults(&p);
    p.pattern = c->pattern;
    p.bins = c->bins;
    uint32_t need = pat_own_smem_bytes(&p);
    if (c->smem_per_wg < need)
        c->smem_per_wg = need;
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

/* The grid in vkbench's order: pattern, n, wg, smem, bins, hot, addresses,
 * selectivity. */
static int expand(const sweep *s, int reps, int warmup, uint32_t smem_max, int line, cpb_cfg_list *out, char *err)
{
    static const int order[] = { F_PATTERN, F_N, F_WG, F_SMEM, F_BINS, F_HOT, F_ADDR, F_SEL };
    int idx[8] = { 0 };
    if (!s->len[F_PATTERN])
        return errf(err, "no --pattern given");
    for (;;) {
        cpb_cfg c;
        memset(&c, 0, sizeof c);
        c.pattern = (enum pat_id)s->u[F_PATTERN][idx[0]];
        c.n = s->u[F_N][idx[1]];
        c.wg = s->u[F_WG][idx[2]];
        c.smem_per_wg = s->u[F_SMEM][idx[3]];
        c.bins = s->u[F_BINS][idx[4]];
        c.hot = s->f[F_HOT][idx[5]];
        c.addresses = s->u[F_ADDR][idx[6]];
        c.selectivity = s->f[F_SEL][idx[7]];
        c.reps = s->reps >= 0 ? s->reps : reps;
        c.warmup = s->warmup >= 0 ? s->warmup : warmup;
        c.line = line;
        normalize(&c, smem_max);
        if (push(out, &c))
            return errf(err, "out of memory");
        int d = 7; /* the last flag varies fastest */
        while (d >= 0 && ++idx[d] == s->len[order[d]])
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

int cpb_plan_read(const char *path, int reps, int warmup, uint32_t smem_max, cpb_cfg_list *out, char *err)
{
    char line[8192], msg[CPB_ERRLEN];
    int lineno = 0, rc = 0;
    int is_stdin = !strcmp(path, "-");
    FILE *f = is_stdin ? stdin : fopen(path, "r");
    struct stat st;
    if (!f)
        return errf(err, "cannot read plan %s: %s", path, strerror(errno));
    /* fopen opens a directory for reading; say so instead of EISDIR later */
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!is_stdin)
            fclose(f);
        return errf(err, "cannot read plan %s: it is a directory", path);
    }
    while (!rc && fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f))
            rc = errf(msg, "line too long");
        else
            rc = read_line(line, reps, warmup, smem_max, lineno, out, msg);
        if (rc)
            errf(err, "%s:%d: %s", path, lineno, msg);
    }
    if (!rc && ferror(f))
        rc = errf(err, "cannot read plan %s: %s", path, strerror(errno));
    if (!is_stdin)
        fclose(f);
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
    snprintf(buf, len, "%s n=%u wg=%u selectivity=%g bins=%u hot=%g addresses=%u smem-per-wg=%u", pat_name(c->pattern),
             c->n, c->wg, c->selectivity, c->bins, c->hot, c->addresses, c->smem_per_wg);
}
