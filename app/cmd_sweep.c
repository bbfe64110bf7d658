/* cmd_sweep.c - `atomsim sweep`: parses the command line (sweep_cli.c),
 * builds the spec and its plan (sweep_spec.c, sweep_plan.c) and runs it to
 * stdout (sweep_run.c), or prints its row count. */
#include <stdio.h>

#include "../util/out.h"
#include "commands.h"
#include "opts.h"
#include "sweep.h"

int cmd_sweep(int argc, char **argv)
{
    swp_cli c;
    swp_spec *s = NULL;
    swp_plan *p = NULL;
    char err[CFG_ERR_MAX];
    int rc;
    if ((rc = swp_cli_parse(&c, argc, argv, 0)) != OPT_GO)
        return rc;
    rc = 2; /* bad input, until the plan runs */
    if (swp_spec_new(&s)) {
        cli_error("sweep", "out of memory");
        return 1;
    }
    if (swp_cli_apply(&c, s, err) || swp_plan_open(s, &p, err)) {
        cli_error("sweep", "%s", err);
        goto out;
    }
    if (c.count_only) {
        printf("%llu\n", (unsigned long long)swp_plan_count(p));
        rc = out_stdout_failed("sweep");
        goto out;
    }
    swp_output out = { c.format, stdout };
    rc = swp_run(p, &c.run, &out, 1);
out:
    swp_plan_close(p);
    swp_spec_free(s);
    return rc;
}
