/* cmd_check.c - `atomsim check`: regression checks of the cost formulas.
 *
 * Every named formula is held against the simulator over a small grid, and
 * the composed model against the measured dataset when one exists; each
 * check prints where it holds and where and by how much it fails.  The
 * seeds' formulas are checked the same way but only reported: a seed that
 * is simply wrong is a finding, not a regression.  The checks and their
 * recorded tolerances are validate/check_formulas.c's, the printing
 * check_report.c's; this parses, loads and calls them.  Exit status: 0 when
 * every non-seed check is within its tolerance, 1 when one drifted past it
 * (or the worker pool failed), 2 for bad usage or input. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../util/out.h"
#include "../model/cpu_config.h"
#include "../validate/check_formulas.h"
#include "../validate/dataset.h"
#include "args.h"
#include "check_report.h"
#include "commands.h"
#include "opts.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim check --config FILE [-p section.key=value ...] [--data FILE | --no-data]\n"
               "                     [--cpu FILE] [--no-sim] [--quick] [-j JOBS] [--format text|csv]\n"
               "holds every cost formula against the simulator over a grid and the composed model against the\n"
               "measured dataset (default: validate/data/<config name>.csv when it exists); seed formulas are\n"
               "reported, never failed.  Exit 1 when a formula drifts past the tolerance recorded for it.\n"
               "atomsim check --routing --help: both dispatch rules on a measured GPU-vs-CPU truth set.\n"
               "atomsim check --against sim --help: the model held to the simulator on random configurations.\n"
               "atomsim check --baseline FILE --help: the cost table held cell by cell to a committed baseline.\n");
}

int cmd_check(int argc, char **argv)
{
    /* --routing scores a table against a measured truth set: another mode,
     * with its own flags (cmd_check_routing.c) */
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--routing"))
            return cmd_check_routing(argc, argv);
    for (int i = 1; i < argc; i++) /* --against sim: the model on random draws (cmd_check_sim.c) */
        if (!strncmp(argv[i], "--against", 9))
            return cmd_check_sim(argc, argv);
    for (int i = 1; i < argc; i++) /* the cost table against a baseline (cmd_check_baseline.c) */
        if (!strncmp(argv[i], "--baseline", 10) || !strncmp(argv[i], "--write-baseline", 16))
            return cmd_check_baseline(argc, argv);
    cli_args a;
    cfg_config cfg;
    cpu_config cpu;
    char err[CFG_ERR_MAX], data_default[600];
    const char *data = NULL, *cpu_path = NULL;
    int no_data = 0, no_sim = 0, quick = 0, jobs = pool_default_jobs(), rc;
    const opt_spec specs[] = {
        OPT_STRING("data", &data),   OPT_FLAG("no-data", &no_data), OPT_FLAG("no-sim", &no_sim),
        OPT_FLAG("quick", &quick),   OPT_STRING("cpu", &cpu_path),  OPT_JOBS(&jobs),
        OPT_END,
    };
    cli_args_init(&a);
    opt_cmd cmd = { .name = "check", .specs = specs, .args = &a,
                    .common = OPT_COMMON_CONFIG | OPT_COMMON_FORMAT | OPT_COMMON_OVERRIDES | OPT_COMMON_PROGRESS,
                    .usage = usage };
    if ((rc = opt_parse(&cmd, argc, argv)) != OPT_GO)
        return rc;
    if (a.format == CLI_FORMAT_JSON) {
        cli_error("check", "--format: expected text or csv");
        return 2;
    }
    if (cli_load_config(&a, &cfg, err)) {
        cli_error("check", "%s", err);
        return 2;
    }
    if (cli_load_cpu(cpu_path, &cpu, err)) {
        cli_error("check", "%s", err);
        return 2;
    }
    if (!data && !no_data && a.config_path) {
        /* configs/h100.ini -> validate/data/h100.csv, if it exists */
        const char *base = strrchr(a.config_path, '/');
        base = base ? base + 1 : a.config_path;
        snprintf(data_default, sizeof data_default, "validate/data/%.*s.csv", (int)strcspn(base, "."), base);
        if (access(data_default, R_OK) == 0)
            data = data_default;
    }
    val_dataset ds, *d = NULL;
    if (data && !no_data) {
        if (val_dataset_load(data, &ds, err)) {
            cli_error("check", "%s", err);
            return 2;
        }
        d = &ds;
    }
    chk_inputs in = { &cfg, &cpu, d, !no_sim, quick, jobs };
    chk_report rep;
    rc = chk_run(&in, &rep, err);
    if (rc)
        cli_error("check", "%s", err);
    else
        crep_check(&rep, &cfg, d ? data : NULL, a.format == CLI_FORMAT_CSV);
    if (d)
        val_dataset_free(d);
    return rc || out_stdout_failed("check") ? 1 : rep.drifted ? 1 : 0;
}
