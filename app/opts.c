/* opts.c - opt_parse: a command's table of options (opts.h) turned into
 * getopt_long's, every argument checked against its spec with the strict
 * number parsers of args.h, and one line "atomsim <cmd>: ..." for the
 * first bad one.  getopt_long stays underneath so that abbreviations
 * (--conf) and arguments after options behave as they always did. */
#include "../util/out.h"
#include "../util/progress.h"
#include "opts.h"

#include <string.h>

const opt_choice opt_format_choices[] = {
    { "text", CLI_FORMAT_TEXT }, { "csv", CLI_FORMAT_CSV }, { "json", CLI_FORMAT_JSON }, { NULL, 0 },
};

void (*opt_help_hook)(const opt_cmd *c, const struct option *taken, const char *shorts);

/* The code getopt_long returns for spec i; the common flags keep theirs
 * (1000.., and 'p'), --no-progress its own. */
#define SPEC_CODE(i) (3000 + (i))
#define NO_PROGRESS_CODE 2999

/* --no-progress's line under a command's usage: every long command takes
 * the flag, so its words are written once, here. */
static void progress_usage(FILE *f)
{
    fprintf(f, "  --no-progress    no progress line on stderr (rows done, total, time left: drawn only\n"
               "                   when stderr is a terminal, never on stdout)\n");
}

/* "1", "1024", "1e15", "0.5": a bound as a person writes it. */
static void bound_text(double v, char *buf, size_t len)
{
    if (v == floor(v) && fabs(v) < 1e7) {
        snprintf(buf, len, "%.0f", v);
        return;
    }
    char tmp[48], *e;
    snprintf(tmp, sizeof tmp, "%g", v);
    if ((e = strchr(tmp, 'e')) != NULL) { /* 1e+15 -> 1e15, 2e+06 -> 2e6 */
        char *p = e + 1, *q = e + 1;
        if (*p == '+')
            p++;
        if (*p == '-')
            *q++ = *p++;
        while (*p == '0' && p[1])
            p++;
        memmove(q, p, strlen(p) + 1);
    }
    snprintf(buf, len, "%s", tmp);
}

/* "is not an integer in [1, 1024]", "is not a number > 0" */
static void range_text(const opt_spec *s, const char *what, char *buf, size_t len)
{
    char lo[48], hi[48];
    bound_text(s->min, lo, sizeof lo);
    bound_text(s->max, hi, sizeof hi);
    if (isinf(s->max))
        snprintf(buf, len, "is not %s %s %s", what, s->min_open ? ">" : ">=", lo);
    else
        snprintf(buf, len, "is not %s in %s%s, %s]", what, s->min_open ? "(" : "[", lo, hi);
}

static int in_range(const opt_spec *s, double v)
{
    return (s->min_open ? v > s->min : v >= s->min) && v <= s->max;
}

/* "expected a, b or c" */
static void choices_text(const opt_choice *ch, char *buf, size_t len)
{
    size_t n = 0, at = 0;
    while (ch[n].name)
        n++;
    at += (size_t)snprintf(buf, len, "expected");
    for (size_t k = 0; k < n && at < len; k++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s", k == 0 ? " " : k + 1 == n ? " or " : ", ", ch[k].name);
}

/* One option's argument into its destination: 0, or -1 with err set.
 * `flag` is the option as written ("-j" or "--jobs"). */
static int apply(const opt_spec *s, const char *flag, const char *arg, char err[CFG_ERR_MAX])
{
    char why[160];
    unsigned long long u;
    double d;
    switch (s->kind) {
    case OPT_K_FLAG:
        *s->i = 1;
        break;
    case OPT_K_STRING:
        *s->s = arg;
        break;
    case OPT_K_LIST:
        if (*s->count == s->max_count) {
            snprintf(err, CFG_ERR_MAX, "%s: at most %d %s", flag, s->max_count, s->noun ? s->noun : "values");
            return -1;
        }
        s->s[(*s->count)++] = arg;
        break;
    case OPT_K_UINT:
    case OPT_K_INT:
        if (cli_parse_u64(arg, &u) || !in_range(s, (double)u)) {
            range_text(s, "an integer", why, sizeof why);
            snprintf(err, CFG_ERR_MAX, "%s '%s' %s", flag, arg, why);
            return -1;
        }
        if (s->kind == OPT_K_UINT)
            *s->u = u;
        else
            *s->i = (int)u;
        break;
    case OPT_K_DOUBLE:
        if (cli_parse_double(arg, &d) || !in_range(s, d)) {
            range_text(s, "a number", why, sizeof why);
            snprintf(err, CFG_ERR_MAX, "%s '%s' %s", flag, arg, why);
            return -1;
        }
        *s->d = d;
        break;
    case OPT_K_CHOICE: {
        const opt_choice *ch = s->choices;
        while (ch->name && strcmp(ch->name, arg))
            ch++;
        if (!ch->name) {
            choices_text(s->choices, why, sizeof why);
            snprintf(err, CFG_ERR_MAX, "%s '%s': %s", flag, arg, why);
            return -1;
        }
        *s->i = ch->value;
        break;
    }
    case OPT_K_CALL:
        if (s->call(s->ctx, s, arg, err))
            return -1;
        break;
    }
    if (s->given)
        *s->given = 1;
    return 0;
}

/* The common flag's bit in OPT_COMMON_*; 0 for --help, which every
 * command takes. */
static unsigned common_bit(int code)
{
    switch (code) {
    case CLI_OPT_CONFIG: return OPT_COMMON_CONFIG;
    case CLI_OPT_PATTERN: return OPT_COMMON_PATTERN;
    case CLI_OPT_ENGINE: return OPT_COMMON_ENGINE;
    case CLI_OPT_FORMAT: return OPT_COMMON_FORMAT;
    case CLI_OPT_HELP: return 0;
    }
    return OPT_COMMON_PARAMS;
}

static int common_taken(const opt_cmd *c, int code)
{
    const pat_param_desc *d = cli_opt_param(code);
    if (d && c->param_ok && !c->param_ok(d))
        return 0;
    unsigned bit = common_bit(code);
    return !bit || (c->args && (c->common & bit));
}

/* The long options: the command's, then the common ones it takes (or
 * refuses by name) that it does not name itself. */
static int build(const opt_cmd *c, struct option *lo, int cap, char *shorts, size_t slen)
{
    struct option common[CLI_MAX_LONGOPTS];
    int n = 0;
    size_t sn = 0;
    for (int i = 0; c->specs[i].name && n < cap - 1; i++) {
        const opt_spec *s = &c->specs[i];
        int arg = s->kind == OPT_K_FLAG ? no_argument : s->kind == OPT_K_CALL && !s->has_arg ? no_argument
                                                                                                : required_argument;
        if (!(s->short_name && s->name[0] == s->short_name && !s->name[1])) /* "p": -p only */
            lo[n++] = (struct option){ s->name, arg, NULL, SPEC_CODE(i) };
        if (s->short_name && sn + 3 < slen) {
            shorts[sn++] = s->short_name;
            if (arg == required_argument)
                shorts[sn++] = ':';
        }
    }
    if (c->args && (c->common & OPT_COMMON_OVERRIDES) && sn + 3 < slen) {
        shorts[sn++] = 'p';
        shorts[sn++] = ':';
    }
    shorts[sn] = 0;
    cli_longopts(common, NULL);
    for (const struct option *o = common; o->name && n < cap - 1; o++) {
        int mine = 0;
        for (int i = 0; c->specs[i].name; i++)
            mine |= !strcmp(c->specs[i].name, o->name);
        if (!mine && (common_taken(c, o->val) || c->refused))
            lo[n++] = *o;
    }
    if ((c->common & OPT_COMMON_PROGRESS) && n < cap - 1)
        lo[n++] = (struct option){ "no-progress", no_argument, NULL, NO_PROGRESS_CODE };
    lo[n] = (struct option){ 0, 0, 0, 0 };
    return n;
}

static void flag_text(const struct option *lo, int longindex, int code, char *buf, size_t len)
{
    if (longindex >= 0)
        snprintf(buf, len, "--%s", lo[longindex].name);
    else
        snprintf(buf, len, "-%c", code);
}

/* 1 for an option that gathers values (opts.h): the rest are refused the
 * second time. */
static int repeatable(const opt_spec *s)
{
    return s->kind == OPT_K_LIST || (s->kind == OPT_K_CALL && s->repeat);
}

int opt_parse(const opt_cmd *c, int argc, char **argv)
{
    struct option lo[2 * CLI_MAX_LONGOPTS];
    char shorts[64], flag[80], err[CFG_ERR_MAX], see[120];
    int nspecs = 0, code, longindex;
    /* which options were given: the command's by index, the common ones by
     * code (CLI_OPT_CONFIG..: args.h) */
    unsigned char seen_spec[3 * CLI_MAX_LONGOPTS] = { 0 }, seen_common[2 * CLI_MAX_LONGOPTS] = { 0 };
    int seen_no_progress = 0;
    while (c->specs[nspecs].name)
        nspecs++;
    if (nspecs > (int)sizeof seen_spec) {
        cli_error(c->name, "internal: %d options (at most %zu)", nspecs, sizeof seen_spec);
        return 2;
    }
    build(c, lo, (int)(sizeof lo / sizeof lo[0]), shorts, sizeof shorts);
    if (c->see)
        snprintf(see, sizeof see, "%s", c->see);
    else
        snprintf(see, sizeof see, "atomsim %s --help", c->name);
    optind = 1;
    opterr = 0;
    for (;;) {
        longindex = -1;
        if ((code = getopt_long(argc, argv, shorts, lo, &longindex)) == -1)
            break;
        if (code == '?' || code == ':') {
            cli_error(c->name, "bad option '%s' (see %s)", argv[optind - 1], see);
            return 2;
        }
        flag_text(lo, longindex, code, flag, sizeof flag);
        const opt_spec *s = NULL;
        if (code >= SPEC_CODE(0) && code < SPEC_CODE(nspecs))
            s = &c->specs[code - SPEC_CODE(0)];
        for (int i = 0; !s && i < nspecs; i++)
            if (c->specs[i].short_name && c->specs[i].short_name == code)
                s = &c->specs[i];
        if (s) {
            if (seen_spec[s - c->specs]++ && !repeatable(s)) {
                cli_error(c->name, "%s is given twice (it takes one value)", flag);
                return 2;
            }
            if (apply(s, flag, optarg, err)) {
                cli_error(c->name, "%s", err);
                return 2;
            }
            continue;
        }
        if (code == NO_PROGRESS_CODE) {
            if (seen_no_progress++) {
                cli_error(c->name, "%s is given twice (it takes one value)", flag);
                return 2;
            }
            prog_quiet();
            continue;
        }
        if (code == CLI_OPT_HELP) {
            if (opt_help_hook) {
                struct option taken[2 * CLI_MAX_LONGOPTS];
                int k = 0;
                for (const struct option *o = lo; o->name; o++)
                    if (o->val >= SPEC_CODE(0) || common_taken(c, o->val))
                        taken[k++] = *o;
                taken[k] = (struct option){ 0, 0, 0, 0 };
                opt_help_hook(c, taken, shorts);
                return 0;
            }
            if (c->usage)
                c->usage(stdout);
            if (c->common & OPT_COMMON_PROGRESS)
                progress_usage(stdout);
            return out_stdout_failed(c->name);
        }
        if (code != 'p' && !common_taken(c, code)) {
            cli_error(c->name, "%s: %s", flag, c->refused);
            return 2;
        }
        if (code != 'p' && code >= CLI_OPT_CONFIG && code - CLI_OPT_CONFIG < (int)sizeof seen_common &&
            seen_common[code - CLI_OPT_CONFIG]++) {
            cli_error(c->name, "%s is given twice (it takes one value)", flag);
            return 2;
        }
        int rc = cli_common_opt(c->args, code, optarg, err);
        if (rc) {
            cli_error(c->name, "%s", rc < 0 ? err : "unexpected option");
            return 2;
        }
    }
    if (c->max_positional >= 0 && argc - optind > c->max_positional) {
        cli_error(c->name, "unexpected argument '%s'", argv[optind + c->max_positional]);
        return 2;
    }
    if (c->positional)
        *c->positional = optind;
    return OPT_GO;
}
