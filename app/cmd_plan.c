/* cmd_plan.c - `atomsim plan --random`: a reproducible random sample of
 * configurations over every pattern, written as a vkbench plan or as the CSV
 * that `atomsim dispatch --batch` reads.  The hand-made plans in
 * validate/plans sweep one axis at a time around the contract's defaults;
 * a random sample tests the model where nobody thought to look. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "../model/params.h"
#include "args.h"
#include "commands.h"

#define CMD "plan"
#define MAX_ROWS 1000000ull
/* A configuration drawn before is drawn again at most this often: vkbench
 * runs a repeated configuration once, so repeats only shrink the dataset,
 * but ranges too narrow for --rows must not loop forever. */
#define MAX_REDRAWS 64

/* Integer axes.  Each domain is the parameter's harness range in the
 * contract's table (model/params.c: what vkbench and cpubench accept, inside
 * atomsim's bounds), so that every plan written runs on all three. */
enum { AX_N, AX_WG, AX_SMEM, AX_BINS, AX_CAS_BINS, AX_ADDRESSES, AX_COUNT };

static const struct {
    const char *flag;
    enum pat_param_id param; /* the domain: its hmin..hmax */
    uint64_t lo, hi;         /* the default range */
} axes[AX_COUNT] = {
    [AX_N] = { "n-range", PP_N, 1u << 10, 1u << 24 },
    [AX_WG] = { "wg-range", PP_WG, 32, 1024 },
    [AX_SMEM] = { "smem-range", PP_SMEM_PER_WG, 0, 49152 },
    [AX_BINS] = { "bins-range", PP_BINS, 1, 1u << 22 },
    [AX_CAS_BINS] = { "cas-bins-range", PP_BINS, 1, 1u << 16 },
    [AX_ADDRESSES] = { "addresses-range", PP_ADDRESSES, 1, 1u << 22 },
};

/* Fractions are kept as integers on their grid (selectivity in millionths,
 * as the contract's round(S*1e6) threshold; hot in thousandths), so that
 * the plan and the CSV print exactly the value that was drawn. */
typedef struct {
    uint64_t lo, hi;
} range;

typedef struct {
    range ax[AX_COUNT];
    range sel; /* millionths */
    range hot; /* thousandths */
} ranges;

typedef struct {
    enum pat_id pattern;
    uint32_t n, wg, sel, bins, hot, addresses, smem;
} row;

enum {
    OPT_RANDOM = 3000, OPT_SEED, OPT_ROWS, OPT_PATTERNS, OPT_FORMAT, OPT_OUTPUT, OPT_HELP,
    OPT_SEL_RANGE, OPT_HOT_RANGE, OPT_MAX_CAS, OPT_AXIS /* + AX_* */
};

static void usage(FILE *f)
{
    fprintf(f,
        "usage: atomsim plan --random --seed S --rows N [--patterns LIST] [range flags]\n"
        "                    [--format plan|csv] [--output FILE]\n"
        "draws N configurations at random and writes them as a vkbench plan or as CSV.  The same\n"
        "seed and flags give the same bytes (GSL's mt19937 seeded with S, on the same build).  Every\n"
        "row is a complete configuration: a parameter its pattern ignores gets the contract's\n"
        "default (selectivity 1, bins 256, hot 0, addresses 1).\n"
        "\n"
        "  --random              the only mode so far; required\n"
        "  --seed S              an integer in [1, 4294967295] (mt19937 keeps 32 bits and takes 0\n"
        "                        as 4357, so other seeds would repeat another's output); required\n"
        "  --rows N              configurations to write, in [1, 1000000]; required\n"
        "  --patterns LIST       comma list of pattern names, or all (default all).  Rows are dealt\n"
        "                        in rounds, every listed pattern once a round in a fresh random\n"
        "                        order, so each pattern gets N/P rows or one more\n"
        "  --format plan|csv     plan (default): two comment lines (the command, what the file is),\n"
        "                        then one vkbench line a configuration: --pattern --n --wg\n"
        "                        --selectivity --bins --hot --addresses --smem-per-wg.  csv: the\n"
        "                        header pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg\n"
        "                        and the same rows in the same order (atomsim dispatch --batch)\n"
        "  --output FILE         write to FILE instead of stdout\n"
        "\n");
    fprintf(f,
        "Ranges are LO..HI, both ends included.  Integers are decimal, 2^E or 1eE (no octal or\n"
        "hex); fractions are decimal.  A log-uniform integer is floor(e^U), U uniform on\n"
        "[ln LO, ln(HI+1)].  The domains are what both atomsim and vkbench accept.\n"
        "  --n-range LO..HI      default 2^10..2^24, domain [1, 2^28].  Each pattern's rows\n"
        "                        alternate, from a random start, between exact powers of two\n"
        "                        (log-uniform: a uniform exponent) and other integers (log-uniform,\n"
        "                        drawn again when it lands on a power of two; not rounded to a\n"
        "                        multiple of 32, so the last workgroup is usually partial).  A\n"
        "                        range that holds only one kind gives only that kind\n"
        "  --wg-range LO..HI     default 32..1024, domain [1, 1024]: multiples of 32 in range (96,\n"
        "                        192, 640 occur), log-uniform over the multiple; the range must\n"
        "                        hold one\n"
        "  --smem-range LO..HI   default 0..49152, domain [0, 2^20]: shared memory a workgroup\n"
        "                        allocates, in bytes.  30%% exactly LO (0: nothing beyond the\n"
        "                        pattern's own need), 70%% a multiple of 1024 in range, uniform\n"
        "                        (the range must hold one).  The value written is max(draw, the\n"
        "                        pattern's own need: histogram-shared 4*bins, reduce 4), which\n"
        "                        the bins limit below keeps <= HI.  The device's own limit (48 KiB\n"
        "                        under Vulkan on an H100) is vkbench's to check\n"
        "  --selectivity-range LO..HI\n"
        "                        default 0..1, multiples of 0.000001 (the contract selects on\n"
        "                        round(S*1e6)): 10%% exactly LO, 20%% exactly HI, 70%% log-uniform\n"
        "                        from max(LO, HI/1000) to HI rounded to 6 decimals.  Read by store,\n"
        "                        counter, counter-aggregated, compaction, cas-append, bitmask\n"
        "  --bins-range LO..HI   default 1..2^22, domain [1, 2^24]: histogram and\n"
        "                        histogram-shared, log-uniform.  histogram-shared's HI is lowered\n"
        "                        to the smem HI / 4, since its bins live in shared memory\n"
        "  --cas-bins-range LO..HI\n"
        "                        default 1..2^16, domain [1, 2^24]: the same for\n"
        "                        histogram-u8-cas and histogram-u16-cas\n"
        "  --max-cas-contenders N  default 131072 (2^17): a compare-and-swap row whose hottest word\n"
        "                        more threads race on (cas-append n x S, u8 n/(K/4), u16 n/(K/2)) is\n"
        "                        drawn again: past it one GPU dispatch can outlast the harness's timeout\n"
        "  --hot-range LO..HI    default 0..1, multiples of 0.001: histogram only.  60%% exactly LO,\n"
        "                        40%% uniform over the range in steps of 0.001\n"
        "  --addresses-range LO..HI\n"
        "                        default 1..2^22, domain [1, 2^22]: distinct-lines, log-uniform\n"
        "\n"
        "\n"
        "A configuration drawn before is drawn again, up to %d times, since vkbench runs a\n"
        "repeated configuration once; only ranges too narrow for N rows leave repeats (a note on\n"
        "stderr counts them).  Exit status: 0; 1 the output could not be written (a file is left\n"
        "incomplete); 2 bad usage, with one line on stderr.\n",
        MAX_REDRAWS);
}

/* cli_parse_u64 reads strtoull's base 0, where 010 is 8 and 0x10 is 16; a
 * range someone typed as 010 almost surely meant ten, so both are refused,
 * as are a sign or space that strtoull would skip. */
static int plain_number(const char *s)
{
    if (!strncmp(s, "2^", 2))
        s += 2;
    if (*s < '0' || *s > '9')
        return 0;
    if (s[0] == '0' && s[1] && s[1] != '.')
        return 0;
    return !strpbrk(s, "xXpP");
}

static int parse_int(const char *s, uint64_t *out)
{
    unsigned long long v;
    if (!plain_number(s) || cli_parse_u64(s, &v))
        return -1;
    *out = v;
    return 0;
}

/* A decimal fraction in [0, 1] that lies on a grid of `scale` steps; it is
 * returned in steps. */
static int parse_grid_fraction(const char *s, double scale, uint64_t *out)
{
    double v;
    if (!plain_number(s) || !strncmp(s, "2^", 2) || cli_parse_double(s, &v) || v < 0 || v > 1)
        return -1;
    double steps = v * scale;
    if (fabs(steps - nearbyint(steps)) > 1e-6)
        return -1;
    *out = (uint64_t)llround(steps);
    return 0;
}

/* LO..HI into two texts; returns -1 when there is no "..". */
static int split_range(const char *arg, char *lo, char *hi, size_t len)
{
    const char *dots = strstr(arg, "..");
    if (!dots || (size_t)(dots - arg) >= len || strlen(dots + 2) >= len)
        return -1;
    memcpy(lo, arg, (size_t)(dots - arg));
    lo[dots - arg] = 0;
    strcpy(hi, dots + 2);
    return 0;
}

static int parse_int_range(int ax, const char *arg, range *r)
{
    char lo[64], hi[64];
    if (split_range(arg, lo, hi, sizeof lo) || parse_int(lo, &r->lo) || parse_int(hi, &r->hi)) {
        cli_error(CMD, "--%s '%s' is not LO..HI with decimal or 2^E integers", axes[ax].flag, arg);
        return -1;
    }
    const pat_param_desc *d = pat_param_get(axes[ax].param);
    if ((double)r->lo < d->hmin || (double)r->hi > d->hmax) {
        cli_error(CMD, "--%s '%s' leaves the domain [%.0f, %.0f]", axes[ax].flag, arg, d->hmin, d->hmax);
        return -1;
    }
    if (r->lo > r->hi) {
        cli_error(CMD, "--%s '%s': LO is above HI", axes[ax].flag, arg);
        return -1;
    }
    return 0;
}

static int parse_fraction_range(const char *flag, const char *arg, double scale, const char *grid, range *r)
{
    char lo[64], hi[64];
    if (split_range(arg, lo, hi, sizeof lo) || parse_grid_fraction(lo, scale, &r->lo) ||
        parse_grid_fraction(hi, scale, &r->hi)) {
        cli_error(CMD, "--%s '%s' is not LO..HI with decimal fractions in [0, 1], multiples of %s", flag, arg,
                  grid);
        return -1;
    }
    if (r->lo > r->hi) {
        cli_error(CMD, "--%s '%s': LO is above HI", flag, arg);
        return -1;
    }
    return 0;
}

static int parse_patterns(const char *arg, enum pat_id *pats, int *count)
{
    char buf[1024], *save = NULL;
    unsigned seen = 0;
    if (!strcmp(arg, "all")) {
        for (int i = 0; i < PAT_COUNT; i++)
            pats[i] = (enum pat_id)i;
        *count = PAT_COUNT;
        return 0;
    }
    size_t len = strlen(arg);
    if (!len || len >= sizeof buf || arg[0] == ',' || arg[len - 1] == ',' || strstr(arg, ",,")) {
        cli_error(CMD, "--patterns '%s' is not a comma list of pattern names", arg);
        return -1;
    }
    memcpy(buf, arg, len + 1);
    *count = 0;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        enum pat_id id;
        if (pat_from_name(t, &id)) {
            cli_error(CMD, "--patterns: unknown pattern '%s' (see atomsim --help)", t);
            return -1;
        }
        if (seen & (1u << id)) {
            cli_error(CMD, "--patterns: '%s' is listed twice", t);
            return -1;
        }
        seen |= 1u << id;
        pats[(*count)++] = id;
    }
    return 0;
}

/* The command as typed, quoted for a POSIX shell, so the header can be
 * pasted back to make the file again. */
static void print_quoted(FILE *f, const char *s)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_^-";
    int control = 0;
    for (const char *p = s; *p; p++)
        control |= (unsigned char)*p < 0x20 || *p == 0x7f;
    if (*s && strspn(s, safe) == strlen(s)) {
        fputs(s, f);
    } else if (!control) {
        fputc('\'', f);
        for (const char *p = s; *p; p++) {
            if (*p == '\'')
                fputs("'\\''", f);
            else
                fputc(*p, f);
        }
        fputc('\'', f);
    } else {
        /* bash's $'...', so that a newline cannot end the comment line */
        fputs("$'", f);
        for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
            if (*p < 0x20 || *p == 0x7f)
                fprintf(f, "\\x%02x", *p);
            else if (*p == '\'' || *p == '\\')
                fprintf(f, "\\%c", *p);
            else
                fputc(*p, f);
        }
        fputc('\'', f);
    }
}

static int pattern_reads(enum pat_id p, unsigned flag)
{
    return (pat_flags(p) & flag) != 0;
}

static uint64_t uniform_int(gsl_rng *r, uint64_t lo, uint64_t hi)
{
    return lo + gsl_rng_uniform_int(r, (unsigned long)(hi - lo + 1));
}

static uint64_t log_uniform_int(gsl_rng *r, uint64_t lo, uint64_t hi)
{
    if (lo == hi)
        return lo;
    double a = log((double)lo), b = log((double)hi + 1.0);
    double x = floor(exp(a + gsl_rng_uniform(r) * (b - a)));
    /* exp may round a hair past either end */
    if (x < (double)lo)
        return lo;
    if (x > (double)hi)
        return hi;
    return (uint64_t)x;
}

static int is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

/* The exponents of the powers of two in [lo, hi]; 0 if there are none. */
static int pow2_exponents(uint64_t lo, uint64_t hi, int *elo, int *ehi)
{
    int count = 0;
    for (int e = 0; e < 63; e++)
        if ((1ull << e) >= lo && (1ull << e) <= hi) {
            if (!count++)
                *elo = e;
            *ehi = e;
        }
    return count;
}

static uint64_t draw_n(gsl_rng *r, const range *n, int want_pow2)
{
    int elo = 0, ehi = 0, pows = pow2_exponents(n->lo, n->hi, &elo, &ehi);
    int others = n->hi - n->lo + 1 > (uint64_t)pows;
    if (pows && (want_pow2 || !others))
        return 1ull << uniform_int(r, (uint64_t)elo, (uint64_t)ehi);
    for (;;) {
        uint64_t v = log_uniform_int(r, n->lo, n->hi);
        if (!is_pow2(v))
            return v;
    }
}

static uint32_t draw_selectivity(gsl_rng *r, const range *s)
{
    double u = gsl_rng_uniform(r);
    if (u < 0.1)
        return (uint32_t)s->lo;
    if (u < 0.3 || s->hi == 0)
        return (uint32_t)s->hi;
    double a = fmax((double)s->lo, (double)s->hi / 1000.0), b = (double)s->hi;
    double v = nearbyint(a * exp(gsl_rng_uniform(r) * log(b / a)));
    return (uint32_t)fmin(fmax(v, (double)s->lo), b);
}

static uint32_t draw_smem(gsl_rng *r, const range *m)
{
    if (gsl_rng_uniform(r) < 0.3)
        return (uint32_t)m->lo;
    return (uint32_t)(1024 * uniform_int(r, (m->lo + 1023) / 1024, m->hi / 1024));
}

static void draw_row(gsl_rng *r, const ranges *rg, enum pat_id p, int want_pow2, row *out)
{
    pat_params d;
    pat_defaults(&d);
    out->pattern = p;
    out->n = (uint32_t)draw_n(r, &rg->ax[AX_N], want_pow2);
    out->wg = 32 * (uint32_t)log_uniform_int(r, (rg->ax[AX_WG].lo + 31) / 32, rg->ax[AX_WG].hi / 32);
    out->sel = pattern_reads(p, PF_SELECTIVITY) ? draw_selectivity(r, &rg->sel) : pat_threshold(d.selectivity);
    out->bins = d.bins;
    if (p == PAT_HISTOGRAM_U8_CAS || p == PAT_HISTOGRAM_U16_CAS) {
        out->bins = (uint32_t)log_uniform_int(r, rg->ax[AX_CAS_BINS].lo, rg->ax[AX_CAS_BINS].hi);
    } else if (p == PAT_HISTOGRAM) {
        out->bins = (uint32_t)log_uniform_int(r, rg->ax[AX_BINS].lo, rg->ax[AX_BINS].hi);
    } else if (p == PAT_HISTOGRAM_SHARED) {
        /* Drawing below the cap is the same distribution as drawing the
         * full range and redrawing what does not fit, at one draw. */
        uint64_t cap = rg->ax[AX_SMEM].hi / 4;
        out->bins = (uint32_t)log_uniform_int(r, rg->ax[AX_BINS].lo, cap < rg->ax[AX_BINS].hi ? cap : rg->ax[AX_BINS].hi);
    }
    out->hot = 0;
    if (pattern_reads(p, PF_HOT))
        out->hot = gsl_rng_uniform(r) < 0.6 ? (uint32_t)rg->hot.lo : (uint32_t)uniform_int(r, rg->hot.lo, rg->hot.hi);
    out->addresses = pattern_reads(p, PF_ADDRESSES)
                         ? (uint32_t)log_uniform_int(r, rg->ax[AX_ADDRESSES].lo, rg->ax[AX_ADDRESSES].hi)
                         : d.addresses;
    /* What the workgroup really allocates, as vkbench and the simulator
     * both take it, so that equal rows compare equal. */
    pat_params q = d;
    q.pattern = p;
    q.bins = out->bins;
    q.smem_per_wg = draw_smem(r, &rg->ax[AX_SMEM]);
    out->smem = pat_smem_bytes(&q);
}

/* Threads that race on the hottest word of a compare-and-swap loop: the
 * loop's time grows about as their square, and past 2^17 (the most the
 * contract's datasets measure) one dispatch can outlast the harness's
 * fence timeout and end the whole GPU run. */
static double cas_contenders(const row *w)
{
    switch (w->pattern) {
    case PAT_CAS_APPEND: return w->n * (w->sel / 1e6);
    case PAT_HISTOGRAM_U8_CAS: return w->n / ceil(w->bins / 4.0);
    case PAT_HISTOGRAM_U16_CAS: return w->n / ceil(w->bins / 2.0);
    default: return 0;
    }
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 29);
}

static uint64_t fingerprint(const row *w)
{
    uint64_t h = mix(0, (uint64_t)w->pattern);
    h = mix(h, w->n);
    h = mix(h, w->wg);
    h = mix(h, w->sel);
    h = mix(h, w->bins);
    h = mix(h, w->hot);
    h = mix(h, w->addresses);
    h = mix(h, w->smem);
    return h ? h : 1;
}

/* Open addressing over fingerprints, 0 = empty.  Two rows with one
 * fingerprint would only cost a redraw, never a wrong row. */
typedef struct {
    uint64_t *slot;
    size_t mask;
} fpset;

static int fpset_init(fpset *s, uint64_t rows)
{
    size_t size = 64;
    while (size < 2 * rows)
        size *= 2;
    s->slot = calloc(size, sizeof *s->slot);
    s->mask = size - 1;
    return s->slot ? 0 : -1;
}

/* 1 if it was new (now added), 0 if seen. */
static int fpset_add(fpset *s, uint64_t fp)
{
    for (size_t i = (size_t)fp & s->mask;; i = (i + 1) & s->mask) {
        if (s->slot[i] == fp)
            return 0;
        if (!s->slot[i]) {
            s->slot[i] = fp;
            return 1;
        }
    }
}

/* A fraction on a grid of 10^digits steps, exactly, without trailing zeros. */
static void format_fraction(char *buf, size_t len, uint32_t steps, int digits)
{
    uint32_t scale = 1;
    for (int i = 0; i < digits; i++)
        scale *= 10;
    if (steps % scale == 0) {
        snprintf(buf, len, "%u", steps / scale);
        return;
    }
    snprintf(buf, len, "0.%0*u", digits, steps);
    for (char *e = buf + strlen(buf) - 1; *e == '0'; e--)
        *e = 0;
}

static int write_row(FILE *f, int csv, const row *w)
{
    char sel[16], hot[16];
    format_fraction(sel, sizeof sel, w->sel, 6);
    format_fraction(hot, sizeof hot, w->hot, 3);
    if (csv)
        return fprintf(f, "%s,%u,%u,%s,%u,%s,%u,%u\n", pat_name(w->pattern), w->n, w->wg, sel, w->bins, hot,
                       w->addresses, w->smem);
    return fprintf(f, "--pattern %s --n %u --wg %u --selectivity %s --bins %u --hot %s --addresses %u --smem-per-wg %u\n",
                   pat_name(w->pattern), w->n, w->wg, sel, w->bins, hot, w->addresses, w->smem);
}

static int write_header(FILE *f, int csv, int argc, char **argv, uint64_t rows, int npat)
{
    if (csv)
        return fprintf(f, "pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg\n");
    fputs("# atomsim", f);
    for (int i = 0; i < argc; i++) {
        fputc(' ', f);
        print_quoted(f, argv[i]);
    }
    return fprintf(f, "\n# %llu random configurations over %d pattern%s for vkbench --plan, one a line with every "
                      "flag given; `atomsim plan --help` says how they are drawn.\n",
                   (unsigned long long)rows, npat, npat == 1 ? "" : "s");
}

/* Ranges that leave some listed pattern nothing to draw are usage errors,
 * found before any output exists. */
static int check_ranges(const ranges *rg, const enum pat_id *pats, int npat)
{
    const range *wg = &rg->ax[AX_WG], *smem = &rg->ax[AX_SMEM];
    if ((wg->lo + 31) / 32 > wg->hi / 32) {
        cli_error(CMD, "--wg-range %llu..%llu holds no multiple of 32", (unsigned long long)wg->lo,
                  (unsigned long long)wg->hi);
        return -1;
    }
    if ((smem->lo + 1023) / 1024 > smem->hi / 1024) {
        cli_error(CMD, "--smem-range %llu..%llu holds no multiple of 1024", (unsigned long long)smem->lo,
                  (unsigned long long)smem->hi);
        return -1;
    }
    for (int i = 0; i < npat; i++) {
        pat_params q;
        pat_defaults(&q);
        q.pattern = pats[i];
        q.bins = (uint32_t)rg->ax[AX_BINS].lo;
        uint32_t need = pat_own_smem_bytes(&q);
        if (need > smem->hi) {
            if (pats[i] == PAT_HISTOGRAM_SHARED)
                cli_error(CMD, "histogram-shared at --bins-range's LO %u needs %u bytes of shared memory; "
                          "--smem-range ends at %llu", q.bins, need, (unsigned long long)smem->hi);
            else
                cli_error(CMD, "%s needs %u bytes of shared memory; --smem-range ends at %llu", pat_name(pats[i]),
                          need, (unsigned long long)smem->hi);
            return -1;
        }
    }
    return 0;
}

int cmd_plan(int argc, char **argv)
{
    /* the fixed options, one per integer axis, and the terminator */
    struct option longopts[9 + AX_COUNT + 1] = {
        { "random", no_argument, NULL, OPT_RANDOM },
        { "seed", required_argument, NULL, OPT_SEED },
        { "rows", required_argument, NULL, OPT_ROWS },
        { "patterns", required_argument, NULL, OPT_PATTERNS },
        { "format", required_argument, NULL, OPT_FORMAT },
        { "output", required_argument, NULL, OPT_OUTPUT },
        { "help", no_argument, NULL, OPT_HELP },
        { "selectivity-range", required_argument, NULL, OPT_SEL_RANGE },
        { "hot-range", required_argument, NULL, OPT_HOT_RANGE },
        { "max-cas-contenders", required_argument, NULL, OPT_MAX_CAS },
    };
    int nopt = 9;
    for (int ax = 0; ax < AX_COUNT; ax++)
        longopts[nopt++] = (struct option){ axes[ax].flag, required_argument, NULL, OPT_AXIS + ax };
    longopts[nopt] = (struct option){ 0, 0, 0, 0 };

    ranges rg;
    for (int ax = 0; ax < AX_COUNT; ax++)
        rg.ax[ax] = (range){ axes[ax].lo, axes[ax].hi };
    rg.sel = (range){ 0, 1000000 };
    rg.hot = (range){ 0, 1000 };
    enum pat_id pats[PAT_COUNT];
    int npat = PAT_COUNT, random_mode = 0, csv = 0, c;
    uint64_t seed = 0, rows = 0;
    const char *out_path = NULL;
    for (int i = 0; i < PAT_COUNT; i++)
        pats[i] = (enum pat_id)i;

    /* getopt_long permutes argv; the header needs it as typed */
    char **typed = malloc(sizeof *typed * (size_t)(argc + 1));
    if (!typed) {
        cli_error(CMD, "out of memory");
        return 1;
    }
    memcpy(typed, argv, sizeof *typed * (size_t)(argc + 1));

    uint64_t max_cas_u = 0;
    double max_cas = 131072;
    int status = 2;
    FILE *out = NULL;
    gsl_rng *r = NULL;
    fpset seen = { NULL, 0 };
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_HELP:
            usage(stdout);
            status = fflush(stdout) ? 1 : 0;
            goto done;
        case OPT_RANDOM:
            random_mode = 1;
            break;
        case OPT_SEED:
            if (parse_int(optarg, &seed) || seed < 1 || seed > 0xffffffffull) {
                cli_error(CMD, "--seed '%s' is not a decimal integer in [1, 4294967295]", optarg);
                goto done;
            }
            break;
        case OPT_ROWS:
            if (parse_int(optarg, &rows) || rows < 1 || rows > MAX_ROWS) {
                cli_error(CMD, "--rows '%s' is not a decimal integer in [1, %llu]", optarg, MAX_ROWS);
                goto done;
            }
            break;
        case OPT_PATTERNS:
            if (parse_patterns(optarg, pats, &npat))
                goto done;
            break;
        case OPT_FORMAT:
            if (!strcmp(optarg, "plan") || !strcmp(optarg, "csv")) {
                csv = optarg[0] == 'c';
                break;
            }
            cli_error(CMD, "--format '%s': expected plan or csv", optarg);
            goto done;
        case OPT_OUTPUT:
            out_path = optarg;
            break;
        case OPT_SEL_RANGE:
            if (parse_fraction_range("selectivity-range", optarg, 1e6, "0.000001", &rg.sel))
                goto done;
            break;
        case OPT_MAX_CAS:
            if (parse_int(optarg, &max_cas_u) || max_cas_u < 1) {
                cli_error(CMD, "--max-cas-contenders '%s' is not a positive decimal integer", optarg);
                goto done;
            }
            max_cas = (double)max_cas_u;
            break;
        case OPT_HOT_RANGE:
            if (parse_fraction_range("hot-range", optarg, 1e3, "0.001", &rg.hot))
                goto done;
            break;
        default:
            if (c >= OPT_AXIS && c < OPT_AXIS + AX_COUNT) {
                if (parse_int_range(c - OPT_AXIS, optarg, &rg.ax[c - OPT_AXIS]))
                    goto done;
                break;
            }
            /* glibc leaves optopt 0 for an unknown long option and sets it
             * to the option's code when its value is missing */
            if (optopt && strchr(argv[optind - 1], '='))
                cli_error(CMD, "%s: the option takes no value", argv[optind - 1]);
            else if (optopt)
                cli_error(CMD, "%s needs a value (see atomsim plan --help)", argv[optind - 1]);
            else
                cli_error(CMD, "unknown or ambiguous option '%s' (see atomsim plan --help)", argv[optind - 1]);
            goto done;
        }
    }
    if (optind < argc) {
        cli_error(CMD, "unexpected argument '%s'", argv[optind]);
        goto done;
    }
    if (!random_mode || !seed || !rows) {
        cli_error(CMD, "--random, --seed and --rows are required (see atomsim plan --help)");
        goto done;
    }
    if (check_ranges(&rg, pats, npat))
        goto done;
    if (fpset_init(&seen, rows)) {
        cli_error(CMD, "out of memory");
        status = 1;
        goto done;
    }
    out = out_path ? fopen(out_path, "w") : stdout;
    if (!out) {
        cli_error(CMD, "cannot write '%s': %s", out_path, strerror(errno));
        goto done;
    }

    r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r) {
        cli_error(CMD, "out of memory");
        status = 1;
        goto done;
    }
    gsl_rng_set(r, (unsigned long)seed);
    int pow2_next[PAT_COUNT];
    for (int i = 0; i < PAT_COUNT; i++)
        pow2_next[i] = (int)gsl_rng_uniform_int(r, 2);
    enum pat_id order[PAT_COUNT];
    memcpy(order, pats, sizeof order);
    uint64_t repeats = 0;
    int bad = write_header(out, csv, argc, typed, rows, npat) < 0;
    for (uint64_t i = 0; i < rows && !bad; i++) {
        if (i % (uint64_t)npat == 0)
            gsl_ran_shuffle(r, order, (size_t)npat, sizeof order[0]);
        enum pat_id p = order[i % (uint64_t)npat];
        row w;
        int tries = 0;
        do {
            /* an over-contended CAS row is no configuration of the plan:
             * drawn again until it fits, before the repeat check */
            int hot = 0;
            do
                draw_row(r, &rg, p, pow2_next[p], &w);
            while (cas_contenders(&w) > max_cas && ++hot < 100000);
        } while (!fpset_add(&seen, fingerprint(&w)) && ++tries <= MAX_REDRAWS);
        repeats += tries > MAX_REDRAWS;
        pow2_next[p] = !pow2_next[p];
        bad = write_row(out, csv, &w) < 0;
    }
    /* a full disk often shows only when the buffer goes out */
    bad |= fflush(out) != 0 || ferror(out);
    if (out != stdout) {
        bad |= fclose(out) != 0;
        out = NULL;
    }
    if (bad) {
        cli_error(CMD, "writing %s: %s%s", out_path ? out_path : "stdout", strerror(errno),
                  out_path ? " (the file is incomplete)" : "");
        status = 1;
        goto done;
    }
    if (repeats)
        fprintf(stderr, "atomsim plan: note: %llu rows repeat an earlier one; the ranges hold too few configurations\n",
                (unsigned long long)repeats);
    status = 0;
done:
    if (out && out != stdout)
        fclose(out);
    if (r)
        gsl_rng_free(r);
    free(seen.slot);
    free(typed);
    return status;
}
