/* Flag parsing, grid expansion and normalization of configurations. One
 * table holds each flag's name, kind, range and help, and drives parsing,
 * range checks and --help alike: --pattern, --reps and --warmup here, the
 * parameters (their flags, kinds, defaults, units, help and the harnesses'
 * ranges) from the contract's table in model/params.c. */
#include "vkb_cfg.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/params_csv.h"
#include "vkb_common.h"
#include "../../util/num.h"

typedef enum { OPT_PATTERNS, OPT_U32S, OPT_FRACS, OPT_INT } opt_kind;

typedef struct opt {
    const char *name;
    opt_kind kind;
    const pat_param_desc *d; /* a parameter's; NULL for the others */
    double lo, hi;
    int allow_max; /* accepts the word "max" */
    const char *unit;
    const char *help;
} opt;

static const opt own[] = {
    {"pattern", OPT_PATTERNS, NULL, 0, 0, 0, "", "pattern name(s), or all"},
    {"reps", OPT_INT, NULL, 1, 1000, 0, "",
     "timed repetitions per configuration (default 9)"},
    {"warmup", OPT_INT, NULL, 0, 100, 0, "",
     "untimed repetitions before them (default 2)"},
};

#define NOWN (sizeof own / sizeof own[0])

/* The parameter's flag, or NULL when the harnesses take none (seed). */
static int param_opt(const pat_param_desc *d, opt *o)
{
    if (d->hmax <= 0)
        return -1;
    *o = (opt){d->flag + 2, d->type == PP_DOUBLE ? OPT_FRACS : OPT_U32S, d,
               d->hmin, d->hmax, pat_param_id(d) == PP_SMEM_PER_WG, d->unit,
               d->help};
    return 0;
}

static int find_opt(const char *name, opt *o)
{
    char flag[72];
    for (size_t k = 0; k < NOWN; k++)
        if (strcmp(own[k].name, name) == 0) {
            *o = own[k];
            return 0;
        }
    snprintf(flag, sizeof flag, "--%s", name);
    const pat_param_desc *d = pat_param_find_flag(flag, strlen(flag));
    return d ? param_opt(d, o) : -1;
}

void vkb_sweep_init(vkb_sweep *s)
{
    memset(s, 0, sizeof *s);
    pat_defaults(&s->v[0]);
    for (int i = 0; i < PP_COUNT; i++)
        s->len[i] = 1;
    s->reps = s->warmup = -1;
}

int vkb_sweep_has_flag(const char *name)
{
    opt o;
    return find_opt(name, &o) == 0;
}

/* Decimal, 2^E or 1e6, through the project's one strict parser
 * (util/num.h), as atomsim reads the same flags: no leading zero, no hex. */
static int parse_u64(const char *t, uint64_t *v)
{
    unsigned long long a;
    if (num_parse_u64(t, &a))
        return -1;
    *v = a;
    return 0;
}

static int parse_item(const opt *o, const char *t, vkb_sweep *s, int idx,
                      char *err)
{
    if (o->kind == OPT_PATTERNS) {
        int id = vkb_pattern_find(t);
        if (id < 0)
            return vkb_errf(err, VKB_EUSAGE, "unknown pattern '%s' for --%s",
                            t, o->name);
        s->pattern[idx] = id;
        return VKB_OK;
    }
    if (o->kind == OPT_FRACS) {
        double d;
        if (num_parse_double(t, &d) || d < o->lo || d > o->hi)
            return vkb_errf(err, VKB_EUSAGE,
                            "--%s: '%s' is not a number in [%g, %g]", o->name,
                            t, o->lo, o->hi);
        pat_param_set_value(o->d, &s->v[idx], d);
        return VKB_OK;
    }
    if (o->allow_max && strcmp(t, "max") == 0) {
        pat_param_set_value(o->d, &s->v[idx], VKB_SMEM_MAX);
        return VKB_OK;
    }
    uint64_t v;
    if (parse_u64(t, &v) || (double)v < o->lo || (double)v > o->hi)
        return vkb_errf(err, VKB_EUSAGE,
                        "--%s: '%s' is not an integer in [%.0f, %.0f]%s",
                        o->name, t, o->lo, o->hi,
                        o->allow_max ? " or max" : "");
    if (o->kind == OPT_INT)
        *(strcmp(o->name, "reps") == 0 ? &s->reps : &s->warmup) = (int)v;
    else
        pat_param_set_value(o->d, &s->v[idx], (double)v);
    return VKB_OK;
}

int vkb_sweep_set(vkb_sweep *s, const char *name, const char *value,
                  char *err)
{
    opt o;
    char buf[4096];
    int count = 0;

    if (find_opt(name, &o))
        return vkb_errf(err, VKB_EUSAGE, "unknown flag --%s", name);
    if (!value || !*value)
        return vkb_errf(err, VKB_EUSAGE, "--%s needs a value", name);
    if (strlen(value) >= sizeof buf)
        return vkb_errf(err, VKB_EUSAGE, "--%s: value too long", name);
    if (o.kind == OPT_INT)
        return parse_item(&o, value, s, 0, err);
    if (o.kind == OPT_PATTERNS && strcmp(value, "all") == 0) {
        for (int id = 0; id < VKB_NPATTERNS; id++)
            s->pattern[id] = id;
        s->npattern = VKB_NPATTERNS;
        return VKB_OK;
    }
    strcpy(buf, value);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        if (count == VKB_LIST_MAX)
            return vkb_errf(err, VKB_EUSAGE, "--%s: more than %d values",
                            name, VKB_LIST_MAX);
        int rc = parse_item(&o, t, s, count, err);
        if (rc)
            return rc;
        count++;
    }
    if (count == 0 || value[strlen(value) - 1] == ',' || value[0] == ',' ||
        strstr(value, ",,"))
        return vkb_errf(err, VKB_EUSAGE, "--%s: malformed list '%s'", name,
                        value);
    if (o.d)
        s->len[pat_param_id(o.d)] = count;
    else
        s->npattern = count;
    return VKB_OK;
}

int vkb_sweep_expand(const vkb_sweep *s, int reps, int warmup, int line,
                     vkb_cfg_list *out, char *err)
{
    /* inside the pattern, the harnesses' grid order (pat_grid_order,
     * shared with cpubench) */
    enum pat_param_id order[PP_COUNT];
    int idx[PP_COUNT + 1] = {0};
    int nord = pat_grid_order(order);
    vkb_cfg c;

    if (s->npattern == 0)
        return vkb_errf(err, VKB_EUSAGE, "no --pattern given");
    memset(&c, 0, sizeof c);
    c.reps = s->reps >= 0 ? s->reps : reps;
    c.warmup = s->warmup >= 0 ? s->warmup : warmup;
    c.line = line;
    for (;;) {
        pat_params p;
        pat_defaults(&p);
        for (int d = 0; d < nord; d++)
            pat_param_copy(pat_param_get(order[d]), &p, &s->v[idx[d + 1]]);
        c.pattern = s->pattern[idx[0]];
        c.n = (uint32_t)p.n;
        c.wg = (uint32_t)p.wg;
        c.smem_per_wg = p.smem_per_wg;
        c.bins = p.bins;
        c.hot = p.hot;
        c.addresses = p.addresses;
        c.selectivity = p.selectivity;
        if (vkb_cfg_list_push(out, &c))
            return vkb_errf(err, VKB_EFAIL, "out of memory");
        int d = nord; /* the last flag varies fastest */
        while (d >= 0 && ++idx[d] == (d ? s->len[order[d - 1]] : s->npattern))
            idx[d--] = 0;
        if (d < 0)
            return VKB_OK;
    }
}

static void help_line(FILE *f, const opt *o, const char *def)
{
    char range[64] = "";
    if (o->kind == OPT_FRACS)
        snprintf(range, sizeof range, "[%g, %g]", o->lo, o->hi);
    else if (o->kind != OPT_PATTERNS)
        snprintf(range, sizeof range, "[%.0f, %.0f]", o->lo, o->hi);
    fprintf(f, "  --%-14s %-22s %s%s%s%s%s\n", o->name, range, o->help,
            o->allow_max ? ", or max" : "", def, *o->unit ? "; " : "",
            o->unit);
}

void vkb_sweep_help(FILE *f)
{
    opt o;
    help_line(f, &own[0], "");
    for (int i = 0; i < PP_COUNT; i++) {
        const pat_param_desc *d = pat_param_get(i);
        char def[64];
        if (param_opt(d, &o))
            continue;
        if (d->show == PP_SHOW_IF_SET) /* 0 means unset */
            snprintf(def, sizeof def, " (default: the pattern's own)");
        else
            snprintf(def, sizeof def, " (default %s)", d->def);
        help_line(f, &o, def);
    }
    for (size_t k = 1; k < NOWN; k++)
        help_line(f, &own[k], "");
}

void vkb_cfg_normalize(vkb_cfg *c, uint32_t smem_max)
{
    unsigned uses = vkb_pattern_get(c->pattern)->uses;

    if (!(uses & VKB_USES_SELECTIVITY))
        c->selectivity = 1.0;
    if (!(uses & VKB_USES_BINS))
        c->bins = 256;
    if (!(uses & VKB_USES_HOT))
        c->hot = 0.0;
    if (!(uses & VKB_USES_ADDRESSES))
        c->addresses = 1;
    if (c->smem_per_wg == VKB_SMEM_MAX)
        c->smem_per_wg = smem_max;
    uint32_t need = vkb_pattern_smem_need(c->pattern, c->bins);
    if (c->smem_per_wg < need)
        c->smem_per_wg = need;
}

void vkb_cfg_params(const vkb_cfg *c, pat_params *p)
{
    pat_defaults(p);
    /* by name: the harness numbers its patterns on its own */
    pat_from_name(vkb_pattern_get(c->pattern)->name, &p->pattern);
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
int vkb_cfg_same(const vkb_cfg *a, const vkb_cfg *b)
{
    return a->pattern == b->pattern && a->n == b->n && a->wg == b->wg &&
           a->bins == b->bins && a->addresses == b->addresses &&
           a->smem_per_wg == b->smem_per_wg &&
           a->selectivity == b->selectivity && a->hot == b->hot;
}

const char *vkb_cfg_describe(const vkb_cfg *c, char *buf, size_t len)
{
    pat_params p;
    vkb_cfg_params(c, &p);
    pat_csv_describe(&p, buf, len);
    return buf;
}

int vkb_cfg_list_push(vkb_cfg_list *l, const vkb_cfg *c)
{
    if (l->len == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        vkb_cfg *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return VKB_EFAIL;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->len++] = *c;
    return VKB_OK;
}

void vkb_cfg_list_free(vkb_cfg_list *l)
{
    free(l->v);
    l->v = NULL;
    l->len = l->cap = 0;
}
