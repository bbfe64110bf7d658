/* cmd_check_sim.c - `atomsim check --against sim`: the analytical model held
 * to the simulator on random configurations.  The grid of `atomsim check`
 * sweeps one axis at a time around defaults; this draws its points the way
 * `atomsim plan --random` does (the same generator, called as a command, so
 * that the two never drift apart), runs both engines on each on the worker
 * pool that sweep and export share (pool.h), and scores |model/sim - 1| per
 * pattern against the project's goals.  Exit status: 0 every pattern meets
 * both goals, 1 one misses (or a run failed), 2 bad usage. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "args.h"
#include "commands.h"
#include "../util/pool.h"
#include "sweep.h"

#define CMD "check"

/* The project's accuracy goals for the model against the simulator: the
 * median and 90th percentile of |model/sim - 1| over random configurations.
 * They are fixed here as goals, not fitted to what the model reaches today:
 * a pattern that misses them is reported as missing them. */
#define GOAL_MEDIAN 0.05
#define GOAL_P90 0.15

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
            DEFAULT_POINTS, N_RANGE, DEFAULT_MAX_EVENTS, 100 * GOAL_MEDIAN, 100 * GOAL_P90, DEFAULT_SEED);
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

/* One point: its parameters, both engines' times, or why it is not scored. */
enum chs_status { CHS_SCORED, CHS_UNFINISHED, CHS_FAILED };

typedef struct chs_point {
    pat_params p;
    double sim_us, model_us;
    enum chs_status status;
} chs_point;

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
static int read_points(const char *path, chs_point *pts, uint64_t count)
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

/* ---- running both engines on the pool ------------------------------------------------ */

typedef struct chs_result {
    int sim_rc, model_rc, budget;
    double sim_us, model_us;
    char sim_err[CFG_ERR_MAX], model_err[CFG_ERR_MAX];
} chs_result;

typedef struct chs_jobs {
    const cfg_config *cfg;             /* the event budget on top */
    chs_point *pts;
} chs_jobs;

static void describe_params(char *buf, size_t len, const pat_params *q)
{
    unsigned fl = pat_flags(q->pattern);
    size_t u;
    snprintf(buf, len, "n=%llu wg=%d", (unsigned long long)q->n, q->wg);
#define ADD(...) (u = strlen(buf), snprintf(buf + u, len - u, __VA_ARGS__))
    if (fl & PF_SELECTIVITY)
        ADD(" S=%g", q->selectivity);
    if (fl & PF_BINS)
        ADD(" K=%u", q->bins);
    if (fl & PF_HOT && q->hot > 0)
        ADD(" F=%g", q->hot);
    if (fl & PF_ADDRESSES)
        ADD(" P=%u", q->addresses);
    if (q->smem_per_wg)
        ADD(" smem=%u", q->smem_per_wg);
#undef ADD
}

/* In a worker: the simulator, then the model, on one point. */
static void job_run(void *ctx, uint64_t pos, void *result)
{
    chs_jobs *j = ctx;
    chs_result *r = result;
    const pat_params *p = &j->pts[pos].p;
    atom_stats st;
    r->sim_rc = cli_sim_engine(j->cfg, p, &st, r->sim_err);
    r->sim_us = r->sim_rc ? NAN : st.time_us;
    /* The engine fails with 1 both when it runs out of events and when its
     * functional check fails; only the first is a row to count rather than
     * a fault, so the budget is told apart by the engine's message (as
     * export --engine sim does). */
    r->budget = r->sim_rc == 1 && strstr(r->sim_err, "event budget") != NULL;
    r->model_rc = cli_model_engine(j->cfg, p, &st, r->model_err);
    r->model_us = r->model_rc ? NAN : st.time_us;
}

/* In the parent, in point order: a fault is reported here, so stderr is
 * the same for any -j. */
static int job_done(void *ctx, uint64_t pos, void *result)
{
    chs_jobs *j = ctx;
    const chs_result *r = result;
    chs_point *pt = &j->pts[pos];
    pt->sim_us = r->sim_us;
    pt->model_us = r->model_us;
    pt->status = CHS_SCORED;
    const char *why = NULL;
    if (r->model_rc)
        why = r->model_err;
    else if (r->budget)
        pt->status = CHS_UNFINISHED;
    else if (r->sim_rc)
        why = r->sim_err;
    else if (!(r->sim_us > 0 && isfinite(r->sim_us) && isfinite(r->model_us)))
        why = "a time that is not a finite positive number";
    if (why) {
        char d[256];
        describe_params(d, sizeof d, &pt->p);
        cli_error(CMD, "%s %s (%s): %s", pat_name(pt->p.pattern), d, r->model_rc ? "model" : "simulator", why);
        pt->status = CHS_FAILED;
    }
    return 0;
}

static void job_describe(void *ctx, uint64_t pos, char *buf, size_t len)
{
    chs_jobs *j = ctx;
    char d[256];
    describe_params(d, sizeof d, &j->pts[pos].p);
    snprintf(buf, len, "%s %s", pat_name(j->pts[pos].p.pattern), d);
}

/* Returns 0, or 1 when the pool itself failed (said on stderr); a point
 * that failed is marked CHS_FAILED. */
static int run_points(const cfg_config *cfg, int jobs, chs_point *pts, uint64_t count)
{
    chs_jobs j = { cfg, pts };
    pool_ops ops = { sizeof(chs_result), job_run, job_done, job_describe, CMD, "points" };
    return pool_run(&ops, &j, count, jobs, 1);
}

/* ---- scoring ------------------------------------------------------------------------ */

typedef struct chs_score {
    int rows, unfinished, failed, scored;
    double median, p90, worst;         /* |model/sim - 1| */
    const chs_point *worst_pt;
    int meets;
} chs_score;

static double point_error(const chs_point *p)
{
    return p->model_us / p->sim_us - 1;
}

/* Scores the points of `pattern` (-1: all).  A pattern with no scored row
 * does not meet the goals: nothing shows that it does. */
static void score(const chs_point *pts, uint64_t n, int pattern, double *buf, chs_score *s)
{
    memset(s, 0, sizeof *s);
    s->worst = -1;
    for (uint64_t i = 0; i < n; i++) {
        const chs_point *p = &pts[i];
        if (pattern >= 0 && (int)p->p.pattern != pattern)
            continue;
        s->rows++;
        if (p->status != CHS_SCORED) {
            *(p->status == CHS_FAILED ? &s->failed : &s->unfinished) += 1;
            continue;
        }
        double e = fabs(point_error(p));
        buf[s->scored++] = e;
        if (e > s->worst) {
            s->worst = e;
            s->worst_pt = p;
        }
    }
    if (!s->scored) {
        s->median = s->p90 = NAN;
        return;
    }
    gsl_sort(buf, 1, (size_t)s->scored);
    s->median = gsl_stats_quantile_from_sorted_data(buf, 1, (size_t)s->scored, 0.5);
    s->p90 = gsl_stats_quantile_from_sorted_data(buf, 1, (size_t)s->scored, 0.9);
    s->meets = s->median <= GOAL_MEDIAN && s->p90 <= GOAL_P90;
}

/* ---- output --------------------------------------------------------------------------- */

static void describe_point(char *buf, size_t len, const chs_point *p)
{
    describe_params(buf, len, &p->p);
    size_t u = strlen(buf);
    snprintf(buf + u, len - u, ": %+.1f%% (%.4g vs %.4g us)", 100 * point_error(p), p->model_us, p->sim_us);
}

static const char *verdict(const chs_score *s)
{
    return !s->scored ? "not scored" : s->meets ? "met" : "MISSED";
}

static void print_line(const char *name, const chs_score *s, int csv)
{
    char worst[256] = "";
    if (s->worst_pt)
        describe_point(worst, sizeof worst, s->worst_pt);
    if (csv) {
        printf("%s,%d,%d,%d,%d,%.6g,%.6g,%s,\"%s\"\n", name, s->rows, s->unfinished, s->failed, s->scored,
               s->median, s->p90, verdict(s), worst);
        return;
    }
    printf("%-19s %5d %10d %6d %6d %8.2f %8.2f  %-10s %s\n", name, s->rows, s->unfinished, s->failed, s->scored,
           100 * s->median, 100 * s->p90, verdict(s), worst);
}

static int write_rows(const char *path, const chs_point *pts, uint64_t n)
{
    static const char *const status[] = { "scored", "unfinished", "failed" };
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs("pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg,sim_us,model_us,error,status\n", f);
    for (uint64_t i = 0; i < n; i++) {
        const chs_point *p = &pts[i];
        const pat_params *q = &p->p;
        fprintf(f, "%s,%llu,%d,%.9g,%u,%.9g,%u,%u,", pat_name(q->pattern), (unsigned long long)q->n, q->wg,
                q->selectivity, q->bins, q->hot, q->addresses, q->smem_per_wg);
        /* a time is written only when its engine finished */
        if (p->status == CHS_SCORED)
            fprintf(f, "%.9g,%.9g,%.6g", p->sim_us, p->model_us, point_error(p));
        else if (p->status == CHS_UNFINISHED)
            fprintf(f, ",%.9g,", p->model_us);
        else
            fputs(",,", f);
        fprintf(f, ",%s\n", status[p->status]);
    }
    int bad = fflush(f) || ferror(f);
    return fclose(f) || bad ? -1 : 0;
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
    chs_point *pts = calloc(o.points, sizeof *pts);
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
    if (drawn || run_points(&cfg, o.jobs, pts, o.points))
        goto out;
    if (o.rows_out && write_rows(o.rows_out, pts, o.points)) {
        cli_error(CMD, "cannot write %s: %s", o.rows_out, strerror(errno));
        goto out;
    }

    chs_score per[PAT_COUNT], all;
    int missed = 0, failed = 0;
    for (int i = 0; i < o.nchosen; i++) {
        score(pts, o.points, o.chosen[i], buf, &per[i]);
        missed += !per[i].meets;
        failed += per[i].failed;
    }
    score(pts, o.points, -1, buf, &all);
    if (csv)
        printf("pattern,rows,unfinished,failed,scored,median,p90,goals,worst\n");
    else {
        printf("atomsim check --against sim: %s (hash %016llx), seed %llu, %llu points over %d pattern%s, n %s, "
               "sim.max_events %g\n",
               o.a.config_path, hash, o.seed, o.points, o.nchosen, o.nchosen == 1 ? "" : "s", N_RANGE,
               o.max_events);
        printf("error = |model/sim - 1| over the scored rows; goals: median <= %g%%, p90 <= %g%%\n\n",
               100 * GOAL_MEDIAN, 100 * GOAL_P90);
        printf("%-19s %5s %10s %6s %6s %8s %8s  %-10s %s\n", "pattern", "rows", "unfinished", "failed", "scored",
               "median%", "p90%", "goals", "worst");
    }
    /* patterns in the table's order, whatever the order of --only */
    for (int id = 0; id < PAT_COUNT; id++)
        for (int i = 0; i < o.nchosen; i++)
            if (o.chosen[i] == id)
                print_line(pat_name((enum pat_id)id), &per[i], csv);
    print_line("all", &all, csv);
    if (!csv) {
        printf("\n%d of %d pattern%s miss%s a goal", missed, o.nchosen, o.nchosen == 1 ? "" : "s",
               missed == 1 ? "es" : "");
        for (int id = 0, first = 1; id < PAT_COUNT; id++)
            for (int i = 0; i < o.nchosen; i++)
                if (o.chosen[i] == id && !per[i].meets) {
                    printf("%s%s", first ? ": " : ", ", pat_name((enum pat_id)id));
                    first = 0;
                }
        printf("; %d row%s unfinished within sim.max_events (not scored)\n", all.unfinished,
               all.unfinished == 1 ? "" : "s");
    }
    if (fflush(stdout) || ferror(stdout)) {
        cli_error(CMD, "cannot write the output: %s", strerror(errno));
        goto out;
    }
    rc = missed || failed ? 1 : 0;
out:
    free(pts);
    free(buf);
    return rc;
}
