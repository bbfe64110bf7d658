/* cmd_check_baseline.c - `atomsim check --baseline FILE` and
 * `--write-baseline FILE`: the model's cost table (what `atomsim export
 * --config C` computes) held cell by cell to a committed baseline, or
 * written as one.  The baseline is validate/baseline.c's, the report
 * baseline_report.c's; this parses, builds today's table and calls them.
 * Exit status: 0 nothing moved past its tolerance, 1 drift (a cell, a
 * decision, the grid or a config key) or a failed write, 2 bad usage or
 * input (a missing baseline, another format or schema, another GPU's). */
#include <stdio.h>
#include <string.h>

#include "../util/out.h"
#include "../model/cpu_config.h"
#include "../validate/baseline.h"
#include "args.h"
#include "baseline_report.h"
#include "commands.h"
#include "opts.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim check --config FILE --baseline BASELINE [-p section.key=value ...] [--cpu FILE]\n"
               "                     [--tolerance gpu_us=P%%,cpu_us=P%%] [--show N]\n"
               "       atomsim check --config FILE --write-baseline BASELINE [--cpu FILE] [--tolerance ...]\n"
               "compares every cell of the model's cost table (gpu_us and the decision at every grid point,\n"
               "cpu_us at every point of the CPU tier's grid) with a baseline made by --write-baseline for the\n"
               "same GPU (gpu.name), within the tolerances the baseline records or --tolerance gives (percent).\n"
               "Prints the cells that moved (the --show N largest, default 20), a summary per pattern, the\n"
               "decisions that flipped and the config keys that differ from the recorded config; exit 1 on\n"
               "any of them.  Baselines of the shipped tables: tests/baselines/ (make baseline-check).\n");
}

static int write_baseline(const bl_table *cur, const char *path)
{
    char err[CFG_ERR_MAX];
    out_file of;
    if (out_open(&of, path, err, sizeof err)) {
        cli_error("check", "%s", err);
        return 2;
    }
    bl_write(cur, of.f);
    if (out_commit(&of, err, sizeof err)) {
        cli_error("check", "%s", err);
        return 1;
    }
    return 0;
}

/* base: loaded and of this GPU; freed here. */
static int compare(bl_table *base, const bl_table *cur, const char *path, const double *tol, const int *given,
                   int show)
{
    bl_result res;
    double t[BL_COLUMNS];
    for (int c = 0; c < BL_COLUMNS; c++)
        t[c] = given[c] ? tol[c] : base->tol[c];
    if (bl_compare(base, cur, t, &res)) {
        cli_error("check", "out of memory comparing with %s", path);
        bl_free(base);
        return 1;
    }
    brep_print(stdout, path, base, cur, &res, show);
    int rc = res.drift ? 1 : 0;
    bl_result_free(&res);
    bl_free(base);
    return rc;
}

int cmd_check_baseline(int argc, char **argv)
{
    cli_args a;
    cfg_config cfg;
    cpu_config cpu;
    char err[CFG_ERR_MAX];
    const char *base_path = NULL, *write_path = NULL, *cpu_path = NULL, *tol_arg = NULL;
    int show = 20, rc, given[BL_COLUMNS] = { 0 };
    double tol[BL_COLUMNS] = { BL_DEFAULT_TOLERANCE, BL_DEFAULT_TOLERANCE };
    const opt_spec specs[] = {
        OPT_STRING("baseline", &base_path), OPT_STRING("write-baseline", &write_path),
        OPT_STRING("cpu", &cpu_path),       OPT_STRING("tolerance", &tol_arg),
        OPT_INT("show", &show, 0, 1000000), OPT_END,
    };
    cli_args_init(&a);
    opt_cmd cmd = { .name = "check", .specs = specs, .args = &a, .common = OPT_COMMON_CONFIG | OPT_COMMON_OVERRIDES,
                    .usage = usage, .see = "atomsim check --baseline FILE --help" };
    if ((rc = opt_parse(&cmd, argc, argv)) != OPT_GO)
        return rc;
    if (!base_path == !write_path) {
        cli_error("check", "give one of --baseline FILE and --write-baseline FILE");
        return 2;
    }
    if (tol_arg && bl_parse_tolerance(tol_arg, tol, given, err)) {
        cli_error("check", "--%s", err);
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
    /* the baseline before the table: a wrong file is refused in a moment */
    bl_table base, cur;
    if (base_path && bl_load(base_path, &base, err)) {
        cli_error("check", "%s", err);
        return 2;
    }
    if (base_path && strcmp(base.gpu_name, cfg.gpu.name)) {
        cli_error("check", "%s is a baseline for GPU '%s', not '%s' (the config's gpu.name)", base_path,
                  base.gpu_name, cfg.gpu.name);
        bl_free(&base);
        return 2;
    }
    exp_table *t;
    rc = exp_build(&cfg, &cpu, NULL, &t, err) ? 1 : bl_from_export(t, tol, &cur, err) ? 2 : 0;
    if (rc != 1)
        exp_free(t);
    /* the -p overrides belong to the command that remakes this table */
    for (int i = 0; !rc && i < a.override_count; i++) {
        size_t used = strlen(cur.overrides);
        if ((size_t)snprintf(cur.overrides + used, sizeof cur.overrides - used, " -p %s", a.overrides[i]) >=
            sizeof cur.overrides - used) {
            snprintf(err, CFG_ERR_MAX, "-p overrides longer than %zu characters", sizeof cur.overrides - 1);
            bl_free(&cur);
            rc = 2;
        }
    }
    if (rc) {
        cli_error("check", "%s", err);
        if (base_path)
            bl_free(&base);
        return rc;
    }
    rc = write_path ? write_baseline(&cur, write_path) : compare(&base, &cur, base_path, tol, given, show);
    bl_free(&cur);
    return rc ? rc : out_stdout_failed("check") ? 1 : 0;
}
