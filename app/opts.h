/* opts.h - the declarative command line every subcommand parses through:
 * the command lists its options as a table of opt_spec (what each takes,
 * where it goes, its bounds) and opt_parse reads argv into them, applies
 * the common flags (args.h), prints --help and reports bad input as one
 * line "atomsim <cmd>: ..." with exit status 2.  One parser means one
 * number syntax (base 10, 2^E, 1e6) and one message wording for all.
 *
 *   int jobs = pool_default_jobs();
 *   const char *data = NULL;
 *   const opt_spec specs[] = { OPT_JOBS(&jobs), OPT_STRING("data", &data), OPT_END };
 *   opt_cmd c = { .name = "validate", .specs = specs, .args = &args, .common = OPT_COMMON_ALL, .usage = usage };
 *   if ((rc = opt_parse(&c, argc, argv)) != OPT_GO)
 *       return rc;
 */
#ifndef ATOM_APP_OPTS_H
#define ATOM_APP_OPTS_H

#include <math.h>
#include <stdio.h>

#include "../util/pool.h"
#include "args.h"

enum opt_kind {
    OPT_K_FLAG,   /* no argument: *i = 1 */
    OPT_K_STRING, /* *s = the argument */
    OPT_K_LIST,   /* s[(*count)++] = the argument, at most max_count */
    OPT_K_UINT,   /* *u = a whole number in [min, max] */
    OPT_K_INT,    /* *i = a whole number in [min, max] (bounds within int) */
    OPT_K_DOUBLE, /* *d = a finite number in [min, max] ((min, max] with min_open) */
    OPT_K_CHOICE, /* *i = the value of the choice named */
    OPT_K_CALL,   /* call(ctx, spec, arg, err): the odd option with its own rule */
};

typedef struct opt_choice {
    const char *name;
    int value;
} opt_choice;

typedef struct opt_spec opt_spec;
/* A callback's answer: 0, or -1 with err the whole message (after
 * "atomsim <cmd>: "). */
typedef int (*opt_call_fn)(void *ctx, const opt_spec *s, const char *arg, char err[CFG_ERR_MAX]);

struct opt_spec {
    const char *name;          /* long name without "--" (the short letter alone: no long
                                * name); NULL ends the table */
    char short_name;           /* 'j' for -j; 0: none */
    enum opt_kind kind;
    int *i;                    /* flag, int, choice */
    const char **s;            /* string; list: its array */
    unsigned long long *u;     /* uint */
    double *d;                 /* double */
    double min, max;           /* uint, int, double; max INFINITY: no upper bound */
    int min_open;              /* double: min itself is refused */
    const opt_choice *choices; /* choice: up to a {NULL} entry */
    int *given;                /* set to 1 when the option appears (may be NULL) */
    int max_count;             /* list: most values */
    int *count;                /* list: values so far */
    const char *noun;          /* list: what its values are, for "at most N <noun>" */
    int repeat;                /* call: may be given more than once (its callback
                                * gathers the values: sweep's --vary) */
    opt_call_fn call;
    void *ctx;
    int has_arg;               /* call: takes an argument */
};

#define OPT_END { 0 }
#define OPT_FLAG(n, dst, ...) { .name = (n), .kind = OPT_K_FLAG, .i = (dst), __VA_ARGS__ }
#define OPT_STRING(n, dst, ...) { .name = (n), .kind = OPT_K_STRING, .s = (dst), __VA_ARGS__ }
#define OPT_LIST(n, arr, cnt, maxc, ...) \
    { .name = (n), .kind = OPT_K_LIST, .s = (arr), .count = (cnt), .max_count = (maxc), __VA_ARGS__ }
#define OPT_UINT(n, dst, lo, hi, ...) { .name = (n), .kind = OPT_K_UINT, .u = (dst), .min = (lo), .max = (hi), __VA_ARGS__ }
#define OPT_INT(n, dst, lo, hi, ...) { .name = (n), .kind = OPT_K_INT, .i = (dst), .min = (lo), .max = (hi), __VA_ARGS__ }
#define OPT_DOUBLE(n, dst, lo, hi, ...) \
    { .name = (n), .kind = OPT_K_DOUBLE, .d = (dst), .min = (lo), .max = (hi), __VA_ARGS__ }
#define OPT_CHOICE(n, dst, ch, ...) { .name = (n), .kind = OPT_K_CHOICE, .i = (dst), .choices = (ch), __VA_ARGS__ }
#define OPT_CALL(n, arg, fn, c, ...) \
    { .name = (n), .kind = OPT_K_CALL, .has_arg = (arg), .call = (fn), .ctx = (c), __VA_ARGS__ }
/* -j N / --jobs N: worker processes, the one rule of util/pool.h. */
#define OPT_JOBS(dst, ...) OPT_INT("jobs", dst, 1, POOL_MAX_JOBS, .short_name = 'j', __VA_ARGS__)
/* The event budget a simulated run may spend (sim.max_events). */
#define OPT_MAX_EVENTS(dst, ...) OPT_DOUBLE("max-events", dst, 1, 1e15, __VA_ARGS__)

/* Which common flags (args.h) a command takes. */
enum {
    OPT_COMMON_CONFIG = 1,    /* --config FILE */
    OPT_COMMON_PATTERN = 2,   /* --pattern NAME */
    OPT_COMMON_PARAMS = 4,    /* one flag per pattern parameter */
    OPT_COMMON_ENGINE = 8,    /* --engine sim|model */
    OPT_COMMON_FORMAT = 16,   /* --format text|csv|json */
    OPT_COMMON_OVERRIDES = 32, /* -p section.key=value */
    OPT_COMMON_ALL = 63,
    /* --no-progress: no progress line (util/progress.h); the long commands
     * take it, and their --help says so in one line opt_parse adds.  Needs
     * no `args`: it silences the process's one line. */
    OPT_COMMON_PROGRESS = 64,
};

typedef struct opt_cmd {
    const char *name;          /* "export": the messages' "atomsim export: " */
    const opt_spec *specs;     /* up to OPT_END; a name here hides the common flag's */
    cli_args *args;            /* the common flags' destination; NULL: none */
    unsigned common;           /* OPT_COMMON_* */
    void (*usage)(FILE *f);    /* --help */
    /* A common long flag left out of `common` is answered "FLAG: <refused>"
     * when this is set, as a bad option otherwise; param_ok leaves out
     * parameters one by one. */
    const char *refused;
    int (*param_ok)(const pat_param_desc *d);
    const char *see;           /* "atomsim check --routing --help"; NULL: atomsim <name> --help */
    /* Arguments that are no option: at most max_positional (-1: any), found
     * at argv[*positional .. argc-1] (getopt moves them to the end). */
    int max_positional;
    int *positional;
} opt_cmd;

/* Every option is given at most once ("--config is given twice", exit 2):
 * a second value used to replace the first silently.  The exceptions take
 * several values and say so in --help: OPT_LIST (-p, --residuals), a call
 * with .repeat = 1 (sweep's --vary), and -p, the common overrides.
 *
 * opt_parse's "go on": anything else is the command's exit status (0
 * after --help, 2 after a bad option, its line printed). */
#define OPT_GO (-1)
int opt_parse(const opt_cmd *c, int argc, char **argv);

/* When set, --help calls this instead of printing the usage, with the long
 * options the command takes (its own and the common ones; none it only
 * refuses by name) and its short ones: `atomsim help-man` reads a
 * command's flags from the parser itself for the completion (man_help.c). */
extern void (*opt_help_hook)(const opt_cmd *c, const struct option *taken, const char *shorts);

/* --format's common names, for a command that takes them as its own. */
extern const opt_choice opt_format_choices[];

#endif
