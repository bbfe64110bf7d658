/* cmd_check_sim.c - `atomsim check --against sim`: the model held to the simulator
 * on random points.  The method is validate/model_vs_sim_check.c's, the printing
 * check_report.c's, the help long_help.c's; this parses and calls them. */
#include <stdio.h>

#include "../validate/model_vs_sim.h"
#include "args.h"
#include "check_report.h"
#include "commands.h"
#include "long_help.h"
#include "opts.h"

#define CMD "check"

typedef struct chs_opts {
    cli_args a;                        /* --config, -p, --format */
    unsigned long long seed, points;
    int jobs, nchosen, against;
    double max_events;
    enum pat_id chosen[PAT_COUNT];     /* patterns to draw, in the order given */
    const char *rows_out;
} chs_opts;

static int parse_only(void *ctx, const opt_spec *s, const char *arg, char err[CFG_ERR_MAX])
{
    chs_opts *o = ctx;
    (void)s;
    return pat_parse_list(arg, "--only", o->chosen, &o->nchosen, NULL, err, CFG_ERR_MAX) ? -1 : 0;
}

/* Returns OPT_GO to run, else the exit status. */
static int parse(chs_opts *o, int argc, char **argv)
{
    static const opt_choice against[] = { { "sim", 1 }, { NULL, 0 } };
    *o = (chs_opts){ .seed = MVS_DEFAULT_SEED, .points = MVS_DEFAULT_POINTS, .jobs = pool_default_jobs(),
                     .max_events = MVS_DEFAULT_MAX_EVENTS };
    cli_args_init(&o->a);
    pat_parse_list("all", "--only", o->chosen, &o->nchosen, NULL, NULL, 0);
    const opt_spec specs[] = {
        OPT_CHOICE("against", &o->against, against),
        OPT_UINT("seed", &o->seed, 1, 4294967295.0),
        OPT_UINT("points", &o->points, 1, MVS_MAX_POINTS),
        OPT_JOBS(&o->jobs),
        OPT_MAX_EVENTS(&o->max_events),
        OPT_CALL("only", 1, parse_only, o),
        OPT_STRING("rows-out", &o->rows_out),
        OPT_END,
    };
    opt_cmd cmd = { .name = CMD, .specs = specs, .args = &o->a,
                    .common = OPT_COMMON_CONFIG | OPT_COMMON_FORMAT | OPT_COMMON_OVERRIDES | OPT_COMMON_PROGRESS,
                    .usage = help_check_sim, .see = "atomsim check --against sim --help" };
    int rc = opt_parse(&cmd, argc, argv);
    if (rc != OPT_GO)
        return rc;
    if (!o->against || !o->a.config_path) {
        cli_error(CMD, "--against sim needs --config FILE (see atomsim check --against sim --help)");
        return 2;
    }
    if (o->a.format == CLI_FORMAT_JSON) {
        cli_error(CMD, "--format: expected text or csv");
        return 2;
    }
    return OPT_GO;
}

int cmd_check_sim(int argc, char **argv)
{
    chs_opts o;
    cfg_config cfg;
    mvs_check_result run;
    char err[CFG_ERR_MAX];
    int rc = parse(&o, argc, argv);
    if (rc != OPT_GO)
        return rc;
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
