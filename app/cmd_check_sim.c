/* cmd_check_sim.c - `atomsim check --against sim`: the model held to the simulator
 * on random points.  The method is validate/model_vs_sim_check.c's, the printing
 * check_report.c's, the help long_help.c's; this parses and calls them. */
#include <stdio.h>
#include <string.h>

#include "../validate/model_vs_sim.h"
#include "args.h"
#include "check_report.h"
#include "commands.h"
#include "long_help.h"
#include "sweep.h"

#define CMD "check"

typedef struct chs_opts {
    cli_args a;                        /* --config, -p, --format */
    unsigned long long seed, points;
    int jobs, nchosen;
    double max_events;
    enum pat_id chosen[PAT_COUNT];     /* patterns to draw, in the order given */
    const char *rows_out;
} chs_opts;

enum { OPT_AGAINST = 2000, OPT_SEED, OPT_POINTS, OPT_MAX_EVENTS, OPT_ONLY, OPT_ROWS_OUT };

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
    *o = (chs_opts){ .seed = MVS_DEFAULT_SEED, .points = MVS_DEFAULT_POINTS, .jobs = swp_default_jobs(),
                     .max_events = MVS_DEFAULT_MAX_EVENTS };
    cli_args_init(&o->a);
    pat_parse_list("all", "--only", o->chosen, &o->nchosen, NULL, NULL, 0);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "p:j:", longopts, NULL)) != -1) {
        switch (c) {
        case CLI_OPT_HELP:
            help_check_sim(stdout);
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
            if (cli_parse_u64(optarg, &o->points) || o->points < 1 || o->points > MVS_MAX_POINTS) {
                cli_error(CMD, "--points '%s' is not an integer in [1, %d]", optarg, MVS_MAX_POINTS);
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
            if (pat_parse_list(optarg, "--only", o->chosen, &o->nchosen, NULL, err, sizeof err)) {
                cli_error(CMD, "%s", err);
                return 2;
            }
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

int cmd_check_sim(int argc, char **argv)
{
    chs_opts o;
    cfg_config cfg;
    mvs_check_result run;
    char err[CFG_ERR_MAX];
    int rc = parse(&o, argc, argv);
    if (rc)
        return rc < 0 ? (fflush(stdout) ? 1 : 0) : rc;
    if (cli_load_config(&o.a, &cfg, err)) {
        cli_error(CMD, "%s", err);
        return 2;
    }
    /* the header names the config as given; the runs get the budget on top */
    const crep_mvs_run r = { o.a.config_path, cfg_hash(&cfg), o.seed, o.points, MVS_N_RANGE, o.max_events };
    cfg.sim.max_events = o.max_events;
    rc = mvs_check(&cfg, o.jobs, o.seed, o.points, o.chosen, o.nchosen, crep_mvs_fault, NULL, &run, err);
    if (rc < 0)
        cli_error(CMD, "%s", err);
    rc = rc ? 1 : crep_mvs_write(&run, &r, o.rows_out, o.a.format == CLI_FORMAT_CSV);
    mvs_check_free(&run);
    return rc;
}
