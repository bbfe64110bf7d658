/* cmd_check_sim.c - `atomsim check --against sim`: the analytical model held
 * to the simulator on random configurations.  The grid of `atomsim check`
 * sweeps one axis at a time around defaults; this draws its points the way
 * `atomsim plan --random` does (the same generator, called as a command, so
 * that the two never drift apart) and hands them to validate/model_vs_sim.c,
 * which runs both engines on each on the worker pool that sweep and export
 * share (pool.h) and scores |model/sim - 1| per pattern against the
 * project's goals; check_report.c prints the scores.  Exit status: 0 every
 * pattern meets both goals, 1 one misses (or a run failed), 2 bad usage. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../validate/model_vs_sim.h"
#include "args.h"
#include "check_report.h"
#include "commands.h"
#include "sweep.h"

#define CMD "check"

#define DEFAULT_POINTS 600
#define MAX_POINTS 100000
/* The plan's default n range ends at 2^24; points here stop at 2^22 so that
 * the simulator finishes a row in seconds rather than minutes. */
#define N_RANGE "2^10..2^22"
/* A compare-and-swap race costs the simulator about the square of its
 * contenders in events; rows past this budget are counted, not scored.  See
 * tests/long/model_vs_sim.mk for what the default costs in time. */
#define DEFAULT_MAX_EVENTS 1e8
#define DEFAULT_SEED 1

static void usage(FILE *f)
{
    fprintf(f,
            "usage: atomsim check --against sim --config FILE [-p section.key=value ...] [--seed S]\n"
            "                     [--points N] [-j J] [--max-events E] [--only PATTERNS]\n"
            "                     [--format text|csv] [--rows-out FILE]\n"
            "holds the analytical model to the simulator on N random configurations (default %d)\n"
            "drawn as `atomsim plan --random --seed S --rows N --n-range %s --patterns PATTERNS`\n"
            "draws them: every pattern (or the comma list PATTERNS) in turn, wg 32..1024 in steps of\n"
            "32, shared memory 0..48 KiB, each pattern's own axes, CAS rows past the plan's contention\n"
            "guard drawn again.  Both engines run every point, the simulator on J processes (default:\n"
            "online CPUs; the output is the same for any J) under an event budget of E (default %g,\n"
            "replacing sim.max_events); a row that needs more is counted as unfinished, not scored.\n"
            "Per pattern and over all: rows, unfinished rows, the median and 90th percentile of\n"
            "|model/sim - 1|, and the goals: median <= %g%%, p90 <= %g%%.  --rows-out writes every\n"
            "point with both times.  Seed S in [1, 4294967295], default %d.\n"
            "Exit status: 0 every pattern meets the goals, 1 one misses them (a pattern with no\n"
            "scored row does too) or a run failed, 2 bad usage.\n",
            DEFAULT_POINTS, N_RANGE, DEFAULT_MAX_EVENTS, 100 * MVS_GOAL_MEDIAN, 100 * MVS_GOAL_P90, DEFAULT_SEED);
}

/* ---- the command line ------------------------------------------------------ */

typedef struct chs_opts {
    cli_args a;                        /* --config, -p, --format */
    unsigned long long seed, points;
    int jobs;
    double max_events;
    int chosen[PAT_COUNT];             /* patterns to draw, in the order given */
    int nchosen;
    const char *only;                  /* as typed, for the plan; NULL: all */
    const char *rows_out;
} chs_opts;

enum { OPT_AGAINST = 2000, OPT_SEED, OPT_POINTS, OPT_MAX_EVENTS, OPT_ONLY, OPT_ROWS_OUT };

static int parse_only(chs_opts *o, const char *arg)
{
    char buf[1024], *save = NULL;
    unsigned seen = 0;
    o->nchosen = 0;
    if (!strcmp(arg, "all")) {
        for (int i = 0; i < PAT_COUNT; i++)
            o->chosen[o->nchosen++] = i;
        o->only = NULL;
        return 0;
    }
    size_t len = strlen(arg);
    if (!len || len >= sizeof buf || arg[0] == ',' || arg[len - 1] == ',' || strstr(arg, ",,")) {
        cli_error(CMD, "--only '%s' is not a comma list of pattern names", arg);
        return -1;
    }
    memcpy(buf, arg, len + 1);
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        enum pat_id id;
        if (pat_from_name(t, &id)) {
            cli_error(CMD, "--only: unknown pattern '%s' (see atomsim --help)", t);
            return -1;
        }
        if (seen & (1u << id)) {
            cli_error(CMD, "--only: '%s' is listed twice", t);
            return -1;
        }
        seen |= 1u << id;
        o->chosen[o->nchosen++] = id;
    }
    o->only = arg;
    return 0;
}

/* Returns 0 to run, 2 after a usage error, -1 after --help. */
static int parse(chs_opts *o, int argc, char **argv)
{
    static const struct option longopts[] = {
        { "against", required_argument, NULL, OPT_AGAINST },
        { "config", required_argument, NULL, CLI_OPT_CONFIG },
        { "format", required_argument, NULL, CLI_OPT_FORMAT },
        { "seed", required_argument, NULL, OPT_SEED },
        { "points", required_argument, NULL, OPT_POINTS },
        { "jobs", required_argument, NULL, 'j' },
        { "max-events", required_argument, NULL, OPT_MAX_EVENTS },
        { "only", required_argument, NULL, OPT_ONLY },
        { "rows-out", required_argument, NULL, OPT_ROWS_OUT },
        { "help", no_argument, NULL, CLI_OPT_HELP },
        { 0, 0, 0, 0 },
    };
    char err[CFG_ERR_MAX];
    unsigned long long v;
    int c, against = 0;
    memset(o, 0, sizeof *o);
    cli_args_init(&o->a);
    o->seed = DEFAULT_SEED;
    o->points = DEFAULT_POINTS;
    o->jobs = swp_default_jobs();
    o->max_events = DEFAULT_MAX_EVENTS;
    parse_only(o, "all");
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "p:j:", longopts, NULL)) != -1) {
        switch (c) {
        case CLI_OPT_HELP:
            usage(stdout);
            return -1;
        case OPT_AGAINST:
            if (strcmp(optarg, "sim")) {
                cli_error(CMD, "--against '%s': only sim is known", optarg);
                return 2;
            }
            against = 1;
            continue;
        case OPT_SEED:
            if (cli_parse_u64(optarg, &o->seed) || o->seed < 1 || o->seed > 0xffffffffull) {
                cli_error(CMD, "--seed '%s' is not an integer in [1, 4294967295]", optarg);
                return 2;
            }
            continue;
        case OPT_POINTS:
            if (cli_parse_u64(optarg, &o->points) || o->points < 1 || o->points > MAX_POINTS) {
                cli_error(CMD, "--points '%s' is not an integer in [1, %d]", optarg, MAX_POINTS);
                return 2;
            }
            continue;
        case 'j':
            if (cli_parse_u64(optarg, &v) || v < 1 || v > 1024) {
                cli_error(CMD, "-j '%s' is not a job count in [1, 1024]", optarg);
                return 2;
            }
            o->jobs = (int)v;
            continue;
        case OPT_MAX_EVENTS:
            if (cli_parse_double(optarg, &o->max_events) || !(o->max_events >= 1 && o->max_events <= 1e15)) {
                cli_error(CMD, "--max-events '%s' is not a number in [1, 1e15]", optarg);
                return 2;
            }
            continue;
        case OPT_ONLY:
            if (parse_only(o, optarg))
                return 2;
            continue;
        case OPT_ROWS_OUT:
            o->rows_out = optarg;
            continue;
        case 'p':
        case CLI_OPT_CONFIG:
        case CLI_OPT_FORMAT:
            if (cli_common_opt(&o->a, c, optarg, err)) {
                cli_error(CMD, "%s", err);
                return 2;
            }
            continue;
        default:
            cli_error(CMD, "bad option '%s' with --against (see atomsim check --against sim --help)",
                      argv[optind - 1]);
            return 2;
        }
    }
    if (optind < argc) {
        cli_error(CMD, "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (!against || !o->a.config_path) {
        cli_error(CMD, "--against sim needs --config FILE (see atomsim check --against sim --help)");
        return 2;
    }
    if (o->a.format == CLI_FORMAT_JSON) {
        cli_error(CMD, "--format: expected text or csv");
        return 2;
    }
    return 0;
}

/* ---- drawing the points ------------------------------------------------------ */

#define PATH_LEN 1024

/* Writes the plan's CSV into a new temporary file named in `path` (the
 * caller unlinks it).  Returns 0, or -1 after an error line. */
static int draw_points(const chs_opts *o, char path[PATH_LEN])
{
    char seed[24], rows[24];
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir || strlen(dir) > PATH_LEN - 32)
        dir = "/tmp";
    snprintf(path, PATH_LEN, "%s/atomsim-check-sim-XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd < 0) {
        cli_error(CMD, "cannot make a temporary file for the points: %s", strerror(errno));
        return -1;
    }
    close(fd);
    snprintf(seed, sizeof seed, "%llu", o->seed);
    snprintf(rows, sizeof rows, "%llu", o->points);
    char *argv[] = { "plan", "--random", "--seed", seed, "--rows", rows, "--n-range", N_RANGE,
                     "--patterns", (char *)(o->only ? o->only : "all"), "--format", "csv", "--output", path, NULL };
    /* `atomsim plan` itself, rather than a copy of its drawing: the points
     * are the rows that command writes for these flags, and stay so */
    int rc = cmd_plan((int)(sizeof argv / sizeof argv[0]) - 1, argv);
    if (rc) {
        unlink(path);
        cli_error(CMD, "drawing the points failed (atomsim plan exited %d)", rc);
        return -1;
    }
    return 0;
}

/* ---- the points ------------------------------------------------------------------ */

static int split(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line; p && n < max;) {
        char *c = strchr(p, ',');
        if (c)
            *c = 0;
        f[n++] = p;
        p = c ? c + 1 : NULL;
    }
    return n;
}

/* Reads the plan's CSV back into parameters, each column through the flag
 * of the same name (the parameter table's), as `run` and `sweep --points`
 * read them.  Returns 0, or -1 after an error line. */
static int read_points(const char *path, mvs_point *pts, uint64_t count)
{
    /* the columns cmd_plan.c writes */
    static const char *const cols[] = { "pattern", "n", "wg", "selectivity", "bins", "hot", "addresses", "smem_per_wg" };
    enum { NCOL = sizeof cols / sizeof cols[0] };
    int code[NCOL];
    for (int i = 0; i < NCOL; i++) {
        const pat_param_desc *d = pat_param_find_csv(cols[i]);
        code[i] = d ? cli_param_opt(d) : CLI_OPT_PATTERN;
    }
    char line[1024], *f[NCOL + 1], err[CFG_ERR_MAX];
    uint64_t got = 0;
    int bad = 0;
    FILE *in = fopen(path, "r");
    if (!in) {
        cli_error(CMD, "cannot read the points: %s", strerror(errno));
        return -1;
    }
    /* the header is the plan's, column for column */
    bad = !fgets(line, sizeof line, in);
    line[strcspn(line, "\n")] = 0;
    bad = bad || split(line, f, NCOL + 1) != NCOL;
    for (int i = 0; !bad && i < NCOL; i++)
        bad = strcmp(f[i], cols[i]) != 0;
    while (!bad && got < count && fgets(line, sizeof line, in)) {
        cli_args a;
        cli_args_init(&a);
        line[strcspn(line, "\n")] = 0;
        bad = split(line, f, NCOL + 1) != NCOL;
        for (int i = 0; !bad && i < NCOL; i++)
            bad = cli_common_opt(&a, code[i], f[i], err) != 0;
        pts[got++].p = a.params;
    }
    fclose(in);
    if (bad || got != count) {
        cli_error(CMD, "the drawn points are not the plan's CSV (row %llu)", (unsigned long long)got);
        return -1;
    }
    return 0;
}

/* A point an engine failed on, said as it comes (in point order). */
static void report_fault(void *ctx, const mvs_point *pt, const char *engine, const char *why)
{
    char d[256];
    (void)ctx;
    mvs_describe(d, sizeof d, &pt->p);
    cli_error(CMD, "%s %s (%s): %s", pat_name(pt->p.pattern), d, engine, why);
}

int cmd_check_sim(int argc, char **argv)
{
    chs_opts o;
    cfg_config cfg;
    char err[CFG_ERR_MAX], points[PATH_LEN];
    int rc = parse(&o, argc, argv);
    if (rc)
        return rc < 0 ? (fflush(stdout) ? 1 : 0) : rc;
    int csv = o.a.format == CLI_FORMAT_CSV;
    if (cli_load_config(&o.a, &cfg, err)) {
        cli_error(CMD, "%s", err);
        return 2;
    }
    /* the header names the config as given; the runs get the budget on top */
    unsigned long long hash = (unsigned long long)cfg_hash(&cfg);
    cfg.sim.max_events = o.max_events;
    mvs_point *pts = calloc(o.points, sizeof *pts);
    double *buf = calloc(o.points, sizeof *buf);
    if (!pts || !buf) {
        free(pts);
        free(buf);
        cli_error(CMD, "out of memory");
        return 1;
    }
    rc = 1;
    if (draw_points(&o, points))
        goto out;
    int drawn = read_points(points, pts, o.points);
    unlink(points);
    if (drawn || mvs_run(&cfg, o.jobs, pts, o.points, report_fault, NULL))
        goto out;
    if (o.rows_out && crep_mvs_rows(o.rows_out, pts, o.points)) {
        cli_error(CMD, "cannot write %s: %s", o.rows_out, strerror(errno));
        goto out;
    }

    mvs_report rep;
    mvs_score_all(pts, o.points, o.chosen, o.nchosen, buf, &rep);
    const crep_mvs_run run = { o.a.config_path, hash, o.seed, o.points, N_RANGE, o.max_events };
    crep_mvs(&rep, &run, csv);
    if (fflush(stdout) || ferror(stdout)) {
        cli_error(CMD, "cannot write the output: %s", strerror(errno));
        goto out;
    }
    rc = rep.missed || rep.failed ? 1 : 0;
out:
    free(pts);
    free(buf);
    return rc;
}
