/* cmd_study.c - `atomsim study FILE`: parses the command line (the sweep's,
 * sweep_cli.c), reads the study file into a spec (study.c), applies the
 * command line over it and runs its plan (sweep_run.c) into the files its
 * [outputs] name under --out-dir, or to stdout. */
#include <stdio.h>

#include "../util/out.h"
#include "commands.h"
#include "opts.h"
#include "study.h"
#include "datadir.h"

int cmd_study(int argc, char **argv)
{
    swp_cli cli;
    swp_spec *s = NULL;
    swp_plan *p = NULL;
    study_file sf;
    study_outputs so;
    char err[CFG_ERR_MAX];
    int rc;
    if ((rc = swp_cli_parse(&cli, argc, argv, 1)) != OPT_GO)
        return rc;
    rc = 2; /* bad input, until the plan runs */
    if (!cli.positional) {
        cli_error("study", "which study? (atomsim study configs/studies/NAME.ini)");
        return 2;
    }
    if (cli.format_given && !cli.to_stdout) {
        cli_error("study", "--format goes with --stdout (otherwise the study writes its [outputs])");
        return 2;
    }
    if (swp_spec_new(&s)) {
        cli_error("study", "out of memory");
        return 1;
    }
    cli.positional = dd_find(cli.positional, DD_STUDY);
    if (study_load(cli.positional, s, &sf, err) || swp_cli_apply(&cli, s, err) || swp_plan_open(s, &p, err)) {
        cli_error("study", "%s", err);
        goto out;
    }
    cli.run.keep_going |= sf.keep_going;
    if (cli.count_only) {
        printf("%llu\n", (unsigned long long)swp_plan_count(p));
        rc = out_stdout_failed("study");
        goto out;
    }
    if (cli.to_stdout || !study_has_outputs(&sf)) { /* without [outputs]: CSV on stdout */
        swp_output o = { cli.to_stdout ? cli.format : CLI_FORMAT_CSV, stdout };
        rc = swp_run(p, &cli.run, &o, 1);
        goto out;
    }
    const char *dir = cli.out_dir ? cli.out_dir : "build/studies";
    if (study_outputs_check(&sf, dir, err)) {
        cli_error("study", "%s: %s", cli.positional, err);
        goto out;
    }
    if (study_outputs_open(&sf, dir, &so, err)) {
        cli_error("study", "%s", err);
        rc = 1;
        goto out;
    }
    rc = swp_run(p, &cli.run, so.outs, so.count);
    if (study_outputs_close(&so, cli.run.keep_going, &rc, err))
        cli_error("study", "%s", err);
out:
    swp_plan_close(p);
    swp_spec_free(s);
    return rc;
}
