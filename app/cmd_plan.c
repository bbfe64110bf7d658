/* cmd_plan.c - `atomsim plan --random`: random configurations as a vkbench plan or
 * CSV.  The values' checks and the drawing are validate/plan_draw.c's, the writing
 * validate/plan_write.c's, the help long_help.c's; this reads flags and says errors. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../validate/plan_draw.h"
#include "../validate/plan_write.h"
#include "args.h"
#include "commands.h"
#include "long_help.h"
#include "opts.h"

#define CMD "plan"

typedef struct plan_ctx {
    pln_spec *spec;
    int ax; /* the axis of an --X-range option */
} plan_ctx;

static int parse_patterns(void *ctx, const opt_spec *s, const char *arg, char err[CFG_ERR_MAX])
{
    pln_spec *spec = ((plan_ctx *)ctx)->spec;
    (void)s;
    return pat_parse_list(arg, "--patterns", spec->pats, &spec->npat, NULL, err, CFG_ERR_MAX) ? -1 : 0;
}

static int parse_axis(void *ctx, const opt_spec *s, const char *arg, char err[CFG_ERR_MAX])
{
    plan_ctx *c = ctx;
    (void)s;
    return pln_parse_int_range(c->ax, arg, &c->spec->ax[c->ax], err) ? -1 : 0;
}

static int parse_fraction(void *ctx, const opt_spec *s, const char *arg, char err[CFG_ERR_MAX])
{
    pln_spec *spec = ((plan_ctx *)ctx)->spec;
    int sel = !strcmp(s->name, "selectivity-range");
    return pln_parse_fraction_range(s->name, arg, sel ? PLN_SEL_SCALE : PLN_HOT_SCALE, sel ? &spec->sel : &spec->hot,
                                    err) ? -1 : 0;
}

int cmd_plan(int argc, char **argv)
{
    static const opt_choice formats[] = { { "plan", PLW_PLAN }, { "csv", PLW_CSV }, { NULL, 0 } };
    pln_spec spec;
    pln_spec_defaults(&spec);
    int fmt = PLW_PLAN, random_mode = 0;
    unsigned long long seed = 0, rows = 0, max_cas = 0;
    const char *out_path = NULL;
    plan_ctx ctx[PLN_AX_COUNT + 1] = { { &spec, 0 } };
    /* the fixed options, then one --X-range per integer axis of the draw */
    opt_spec specs[12 + PLN_AX_COUNT] = {
        OPT_FLAG("random", &random_mode),
        OPT_UINT("seed", &seed, 1, 4294967295.0),
        OPT_UINT("rows", &rows, 1, (double)PLN_MAX_ROWS),
        OPT_CALL("patterns", 1, parse_patterns, &ctx[0]),
        OPT_CHOICE("format", &fmt, formats),
        OPT_STRING("output", &out_path),
        OPT_CALL("selectivity-range", 1, parse_fraction, &ctx[0]),
        OPT_CALL("hot-range", 1, parse_fraction, &ctx[0]),
        OPT_UINT("max-cas-contenders", &max_cas, 1, INFINITY),
    };
    int nspec = 0;
    while (specs[nspec].name)
        nspec++;
    for (int ax = 0; ax < PLN_AX_COUNT; ax++) {
        ctx[ax + 1] = (plan_ctx){ &spec, ax };
        specs[nspec++] = (opt_spec)OPT_CALL(pln_axis_flag(ax) , 1, parse_axis, &ctx[ax + 1]);
    }
    specs[nspec] = (opt_spec)OPT_END;

    /* getopt_long permutes argv; the header needs it as typed */
    char **typed = malloc(sizeof *typed * (size_t)(argc + 1));
    if (!typed) {
        cli_error(CMD, "out of memory");
        return 1;
    }
    memcpy(typed, argv, sizeof *typed * (size_t)(argc + 1));
    char err[CFG_ERR_MAX] = "";
    opt_cmd cmd = { .name = CMD, .specs = specs, .usage = help_plan };
    int status = opt_parse(&cmd, argc, argv);
    if (status != OPT_GO)
        goto done;
    status = 2;
    if (!random_mode || !seed || !rows) {
        cli_error(CMD, "--random, --seed and --rows are required (see atomsim plan --help)");
        goto done;
    }
    spec.seed = seed;
    spec.rows = rows;
    if (max_cas)
        spec.max_cas = (double)max_cas;
    status = plw_write(&spec, fmt, out_path, argc, typed, err);
    if (*err) /* what went wrong, or plw_write's note on repeated rows */
        cli_error(CMD, "%s", err);
done:
    free(typed);
    return status;
}
