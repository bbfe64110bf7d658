/* cmd_export.c - `atomsim export`: writes the dispatcher's cost tables for
 * one GPU config and one CPU-tier config (model/export.c), by the model or,
 * with --engine sim, the simulator where its scope reaches (export_run.c:
 * the runs, shards, merge and reuse; export_sim.c: the cells;
 * export_part.c: shards' parts; export_out.c: what the flags ask, written).
 * This file reads the flags. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../model/cpu_config.h"
#include "args.h"
#include "commands.h"
#include "export_out.h"
#include "opts.h"
#include "sweep.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim export --config FILE [--cpu FILE] [-p section.key=value ...]\n"
               "                      [--format json|csv|c-header] [--output FILE] [--only PATTERN[,...]]\n"
               "                      [--residuals validate/data/GPU.csv ...] [--cpu-residuals CPU.csv ...]\n"
               "                      [--engine model|sim] [-j N] [--shard K/N] [--max-events N]\n"
               "                      [--sim-max-n N] [--sim-wg LIST] [--sim-smem LIST] [--anchor LIST|none]\n"
               "                      [--count] [--list]\n"
               "                      [--no-progress] [--reuse-config FILE --reuse PART ...]\n"
               "       atomsim export --merge PART... (the same arguments as the parts, without --shard)\n"
               "writes, for every pattern, the GPU's kernel time over a grid of n (2^10..2^26), workgroup size\n"
               "(32..1024), shared memory per workgroup (0..the GPU's limit) and the pattern's own axes; the CPU\n"
               "tier's time and seed 000's contention density; and the decision of dispatch.rule beside the seed\n"
               "rule's verdict (schema: model/schema/cost-table.schema.json, docs/dispatch.md).  Without --cpu the built-in CPU tier is\n"
               "used (the GPU host's 16 workers, see configs/cpu-gpuhost-16core.ini).  --residuals names a\n"
               "measured dataset of this GPU (repeatable): each pattern then carries error bands, the 10th to 90th\n"
               "percentile of measured / the table's own answer over its rows, per region of n, that dispatch prints.\n"
               "--cpu-residuals does the same for the CPU tier's column from cpubench datasets (repeatable) measured\n"
               "with the tier's worker count, ideally on several hosts of its kind.\n"
               "--format csv is the cells alone, header first; with --output FILE the table's provenance\n"
               "(configs, hashes, rule, thresholds, version) goes to FILE.meta.json beside it.\n"
               "--engine sim: the simulator fills the GPU time of the cells with n <= --sim-max-n (default 2^22),\n"
               "a workgroup size in --sim-wg (default 64,256,1024) and shared memory in --sim-smem (default\n"
               "0,32768), on -j N worker processes (default: online CPUs); the model fills the rest and every\n"
               "cell the simulator cannot finish within sim.max_events (--max-events N); cells.source says which.\n"
               "--anchor LIST (default: the compare-and-swap patterns, whose model departs from the simulator;\n"
               "none: no pattern): their model cells take the model's time x simulator / model at the nearest\n"
               "simulator cell (source a; docs/dispatch.md, section 6).\n"
               "--shard K/N runs the K-th of N blocks of those cells and writes a part (CSV); --merge PART...\n"
               "makes the table from every part, the same bytes as one unsharded run.  --count prints the\n"
               "number of simulator cells (of the shard), --list writes them as a sweep --points file.\n"
               "--reuse-config FILE --reuse PART (repeatable) carries cells over from parts made from FILE (with\n"
               "the same --max-events) where FILE differs only in [model] keys (the simulator reads none), in\n"
               "keys the simulator reads through occupancy\n"
               "(gpu.smem_per_sm_bytes, gpu.smem_reserved_per_wg_bytes) and the cell holds as many workgroups\n"
               "an SM under both, in [smem] keys (the patterns without shared-memory ops carry over), or in\n"
               "keys only an atomic that returns its old value reads (coalesce.lsu_return_cycles_per_request,\n"
               "reply_cycles_per_request: the patterns that use no old value carry over); every other cell runs.\n");
}

/* --only histogram,counter -> a pattern mask (the one list parser) */
static int parse_only(void *ctx, const opt_spec *s, const char *list, char err[CFG_ERR_MAX])
{
    (void)s;
    return pat_parse_list(list, "--only", NULL, NULL, ctx, err, CFG_ERR_MAX) ? -1 : 0;
}

/* --anchor LIST|none -> a pattern mask */
static int parse_anchor(void *ctx, const opt_spec *s, const char *list, char err[CFG_ERR_MAX])
{
    unsigned *mask = ctx;
    (void)s;
    *mask = 0;
    if (!strcmp(list, "none"))
        return 0;
    return pat_parse_list(list, "--anchor", NULL, NULL, mask, err, CFG_ERR_MAX) ? -1 : 0;
}

/* --shard K/N, --sim-wg LIST, --sim-smem LIST */
static int parse_sim(void *ctx, const opt_spec *s, const char *arg, char err[CFG_ERR_MAX])
{
    xo_args *x = ctx;
    if (!strcmp(s->name, "shard")) {
        x->shard_given = 1;
        return swp_parse_shard(arg, &x->shard_k, &x->shard_n, err);
    }
    if (!strcmp(s->name, "sim-wg"))
        return xs_scope_list("--sim-wg", arg, x->scope.wg, &x->scope.wg_count, err);
    return xs_scope_list("--sim-smem", arg, x->scope.smem, &x->scope.smem_count, err);
}

int cmd_export(int argc, char **argv)
{
    static const opt_choice formats[] = {
        { "json", EXP_JSON }, { "csv", EXP_CSV }, { "c-header", EXP_C_HEADER }, { NULL, 0 },
    };
    static const opt_choice engines[] = { { "sim", 1 }, { "model", 0 }, { NULL, 0 } };
    cli_args a;
    cfg_config cfg;
    cpu_config cpu;
    char err[CFG_ERR_MAX];
    const char *cpu_path = NULL;
    int format = EXP_JSON, positional, rc;
    xo_args x;
    xo_args_init(&x);
    int *sim = &x.sim_flags; /* the flags that need --engine sim */
    const opt_spec specs[] = {
        OPT_STRING("cpu", &cpu_path),
        OPT_CHOICE("format", &format, formats, .given = &x.format_given),
        OPT_STRING("output", &x.out_path),
        OPT_CALL("only", 1, parse_only, &x.scope.only),
        OPT_LIST("residuals", x.bands.paths[EXP_SIDE_GPU], &x.bands.count[EXP_SIDE_GPU], XR_MAX_RESIDUALS,
                 .noun = "datasets"),
        OPT_LIST("cpu-residuals", x.bands.paths[EXP_SIDE_CPU], &x.bands.count[EXP_SIDE_CPU], XR_MAX_RESIDUALS,
                 .noun = "datasets"),
        OPT_CHOICE("engine", &x.sim, engines),
        OPT_JOBS(&x.jobs, .given = sim),
        OPT_CALL("shard", 1, parse_sim, &x, .given = sim),
        OPT_FLAG("merge", &x.merge),
        OPT_MAX_EVENTS(&x.max_events, .given = sim),
        OPT_UINT("sim-max-n", &x.scope.max_n, 0, INFINITY, .given = sim),
        OPT_CALL("sim-wg", 1, parse_sim, &x, .given = sim),
        OPT_CALL("sim-smem", 1, parse_sim, &x, .given = sim),
        OPT_CALL("anchor", 1, parse_anchor, &x.anchor, .given = sim),
        OPT_FLAG("count", &x.count_only, .given = sim),
        OPT_FLAG("list", &x.list, .given = sim),
        OPT_STRING("reuse-config", &x.reuse_config, .given = sim),
        OPT_LIST("reuse", x.reuse, &x.nreuse, XR_MAX_REUSE, .noun = "parts", .given = sim),
        OPT_END,
    };
    cli_args_init(&a);
    opt_cmd cmd = { .name = "export", .specs = specs, .args = &a,
                    .common = OPT_COMMON_CONFIG | OPT_COMMON_OVERRIDES | OPT_COMMON_PROGRESS,
                    .usage = usage, .max_positional = -1, .positional = &positional };
    if ((rc = opt_parse(&cmd, argc, argv)) != OPT_GO)
        return rc;
    x.format = (enum exp_format)format;
    if (xo_check(&x, argc, argv, positional))
        return 2;
    if (cli_load_config(&a, &cfg, err)) {
        cli_error("export", "%s", err);
        return 2;
    }
    if (!isnan(x.max_events))
        cfg.sim.max_events = x.max_events; /* before anything hashes the config */
    if (cli_load_cpu(cpu_path, &cpu, err)) {
        cli_error("export", "%s", err);
        return 2;
    }
    return xo_run(&cfg, &cpu, &x);
}
