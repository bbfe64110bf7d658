/* cmd_export.c - `atomsim export`: writes the dispatcher's cost tables for
 * one GPU config and one CPU-tier config (model/export.c), by the model or,
 * with --engine sim, the simulator where its scope reaches (export_run.c:
 * the runs, shards, merge and reuse; export_sim.c: the cells;
 * export_part.c: shards' parts).  This file reads the flags and writes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/cpu_config.h"
#include "../model/export.h"
#include "args.h"
#include "commands.h"
#include "export_part.h"
#include "export_run.h"
#include "export_sim.h"
#include "sweep.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim export --config FILE [--cpu FILE] [-p section.key=value ...]\n"
               "                      [--format json|csv|c-header] [--output FILE] [--only PATTERN[,...]]\n"
               "                      [--residuals validate/data/GPU.csv ...]\n"
               "                      [--engine model|sim] [-j N] [--shard K/N] [--max-events N]\n"
               "                      [--sim-max-n N] [--sim-wg LIST] [--sim-smem LIST] [--count] [--list]\n"
               "                      [--no-progress] [--reuse-config FILE --reuse PART ...]\n"
               "       atomsim export --merge PART... (the same arguments as the parts, without --shard)\n"
               "writes, for every pattern, the GPU's kernel time over a grid of n (2^10..2^26), workgroup size\n"
               "(32..1024), shared memory per workgroup (0..the GPU's limit) and the pattern's own axes; the CPU\n"
               "tier's time and seed 000's contention density; and the decision of dispatch.rule beside the seed\n"
               "rule's verdict (schema: model/schema/cost-table.schema.json, docs/dispatch.md).  Without --cpu the built-in CPU tier is\n"
               "used (the GPU host's 16 workers, see configs/cpu-gpuhost-16core.ini).  --residuals names a\n"
               "measured dataset the GPU config was validated on (repeatable): each pattern then carries error bands, the\n"
               "10th to 90th percentile of measured/predicted per region of n, that dispatch prints.\n"
               "--engine sim: the simulator fills the GPU time of the cells with n <= --sim-max-n (default 2^22),\n"
               "a workgroup size in --sim-wg (default 64,256,1024) and shared memory in --sim-smem (default\n"
               "0,32768), on -j N worker processes (default: online CPUs); the model fills the rest and every\n"
               "cell the simulator cannot finish within sim.max_events (--max-events N); cells.source says which.\n"
               "--shard K/N runs the K-th of N blocks of those cells and writes a part (CSV); --merge PART...\n"
               "makes the table from every part, the same bytes as one unsharded run.  --count prints the\n"
               "number of simulator cells (of the shard), --list writes them as a sweep --points file.\n"
               "--reuse-config FILE --reuse PART (repeatable) carries cells over from parts made from FILE (with\n"
               "the same --max-events) where FILE differs only in keys the simulator reads through occupancy\n"
               "(gpu.smem_per_sm_bytes, gpu.smem_reserved_per_wg_bytes) and the cell holds as many workgroups\n"
               "an SM under both, in [smem] keys (the patterns without shared-memory ops carry over), or in\n"
               "keys only an atomic that returns its old value reads (coalesce.lsu_return_cycles_per_request,\n"
               "reply_cycles_per_request: the patterns that use no old value carry over); every other cell runs.\n");
}

enum {
    OPT_CPU = 2000, OPT_OUTPUT, OPT_ONLY, OPT_RESIDUALS, OPT_ENGINE, OPT_SHARD, OPT_MERGE, OPT_MAX_EVENTS,
    OPT_SIM_MAX_N, OPT_SIM_WG, OPT_SIM_SMEM, OPT_COUNT, OPT_LIST, OPT_NO_PROGRESS, OPT_REUSE_CONFIG, OPT_REUSE
};

/* --only histogram,counter -> a pattern mask */
static int parse_only(const char *list, unsigned *mask)
{
    char buf[512], *save = NULL;
    snprintf(buf, sizeof buf, "%s", list);
    *mask = 0;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        enum pat_id id;
        if (pat_from_name(t, &id)) {
            cli_error("export", "--only: unknown pattern '%s'", t);
            return -1;
        }
        *mask |= 1u << id;
    }
    return *mask ? 0 : -1;
}

#define MAX_RESIDUALS 16

/* Writes the table (with its bands) where --output says.  Takes t. */
static int write_table(exp_table *t, enum exp_format fmt, const char *out_path, const char *const *residuals,
                       int nresiduals)
{
    char err[CFG_ERR_MAX];
    if (nresiduals && xr_add_bands(t, residuals, nresiduals, err)) {
        cli_error("export", "%s", err);
        exp_free(t);
        return 2;
    }
    FILE *f = out_path ? fopen(out_path, "w") : stdout;
    if (!f) {
        cli_error("export", "cannot write %s", out_path);
        exp_free(t);
        return 2;
    }
    int rc = exp_write(t, fmt, f, err);
    exp_free(t);
    if (out_path && fclose(f))
        rc = -1;
    if (rc || fflush(stdout)) {
        cli_error("export", "%s", rc ? err : "write error");
        return 1;
    }
    return 0;
}

/* What --engine sim adds to the command line. */
typedef struct sim_args {
    int on, merge, count_only, list, progress, jobs, shard_given, format_given;
    unsigned long long shard_k, shard_n;
    double max_events;                 /* NAN: the config's */
    xs_scope scope;
    const char *const *parts;
    int nparts;
    const char *reuse_config;          /* --reuse-config: the parts' config */
    const char *reuse[XR_MAX_REUSE];   /* --reuse: its parts */
    int nreuse;
} sim_args;

/* The cost of the simulator's cells on stderr, and, with a table, how many
 * of its cells each engine filled. */
static void report(const xr_cost *c, const sim_args *sa, double wall, int table)
{
    char what[160];
    if (sa->shard_given)
        snprintf(what, sizeof what, "shard %llu/%llu: ", sa->shard_k, sa->shard_n);
    else if (sa->merge)
        snprintf(what, sizeof what, "merged %d parts: ", sa->nparts);
    else
        what[0] = 0;
    fprintf(stderr, "atomsim export: %s%zu simulator runs (%zu over the event budget, filled by the model), %.1f CPU-seconds, %.4f core-hours",
            what, c->runs, c->over_budget, c->cpu_s, c->cpu_s / 3600);
    if (!sa->merge)
        fprintf(stderr, ", %.1f s wall on -j %d", wall, sa->jobs);
    if (sa->nreuse)
        fprintf(stderr, "; %zu of the runs carried over from --reuse (their CPU-seconds are the first run's)", c->reused);
    if (table)
        fprintf(stderr, "; table cells: %zu from the simulator, %zu from the model", c->cells_sim, c->cells_model);
    fputc('\n', stderr);
}

/* `export --engine sim`: the count, the cells to run, a part or the table. */
static int export_sim(const cfg_config *cfg, const cpu_config *cpu, const sim_args *sa, enum exp_format fmt,
                      const char *out_path, const char *const *residuals, int nresiduals)
{
    char err[CFG_ERR_MAX];
    xr_request r = {
        .mode = sa->count_only ? XR_COUNT : sa->list ? XR_LIST : sa->shard_given ? XR_PART : XR_TABLE,
        .scope = sa->scope,
        .sharded = sa->shard_given,
        .shard_k = sa->shard_k,
        .shard_n = sa->shard_n,
        .merge = sa->merge,
        .parts = sa->parts,
        .nparts = sa->nparts,
        .reuse_config = sa->reuse_config,
        .reuse = sa->reuse,
        .nreuse = sa->nreuse,
        .jobs = sa->jobs,
        .progress = sa->progress,
    };
    xr_outcome o;
    xr_cost c;
    int rc = xr_sim(cfg, cpu, &r, &o, err);
    FILE *f;
    if (rc) {
        if (!o.quiet)
            cli_error("export", "%s", err);
    } else if (r.mode == XR_COUNT) {
        printf("%llu\n", (unsigned long long)(o.end - o.begin));
        rc = fflush(stdout) ? 1 : 0;
    } else if (r.mode != XR_TABLE) { /* a part, or the cells to run */
        if (!(f = out_path ? fopen(out_path, "w") : stdout)) {
            cli_error("export", "cannot write %s", out_path);
            rc = 2;
        } else {
            int wrc = xs_part_write(&o.plan, o.begin, o.end, sa->shard_k, sa->shard_n, r.mode == XR_PART, f);
            if ((out_path && fclose(f)) || wrc) {
                cli_error("export", "cannot write the part");
                rc = 1;
            } else if (r.mode == XR_PART) {
                xr_cost_of(&o, NULL, &c);
                report(&c, sa, xr_now() - o.started, 0);
            }
        }
    } else {
        xr_cost_of(&o, o.table, &c);
        report(&c, sa, xr_now() - o.started, 1);
        rc = write_table(o.table, fmt, out_path, residuals, nresiduals);
    }
    xr_outcome_free(&o);
    return rc;
}

/* The --engine sim flags need the simulator; a part is CSV, a merge takes
 * no shard.  0, or 2 with the line printed. */
static int check_sim_args(sim_args *sa, int sim_flags, int argc, char **argv)
{
    if (sa->merge)
        sa->on = 1;
    if (!sa->on && sim_flags) {
        cli_error("export", "-j, --shard, --max-events, --sim-*, --count, --list and --reuse* need --engine sim");
        return 2;
    }
    if (sa->merge && (sa->shard_given || sa->count_only || sa->list)) {
        cli_error("export", "--merge makes the table: it takes no --shard, --count or --list");
        return 2;
    }
    if (sa->merge && optind == argc) {
        cli_error("export", "--merge needs the parts (atomsim export --merge PART...)");
        return 2;
    }
    if (!sa->merge && optind < argc) {
        cli_error("export", "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (!sa->reuse_config != !sa->nreuse) {
        cli_error("export", "--reuse-config and --reuse go together: the parts and the config they were made from");
        return 2;
    }
    if (sa->nreuse && sa->merge) {
        cli_error("export", "--merge takes this config's parts: --reuse belongs to the runs that make them");
        return 2;
    }
    if ((sa->shard_given || sa->list) && sa->format_given) {
        cli_error("export", "--format is the table's: a part (--shard) and --list are CSV");
        return 2;
    }
    sa->parts = (const char *const *)argv + optind;
    sa->nparts = argc - optind;
    return 0;
}

int cmd_export(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "config", required_argument, NULL, CLI_OPT_CONFIG },
        { "cpu", required_argument, NULL, OPT_CPU },
        { "format", required_argument, NULL, CLI_OPT_FORMAT },
        { "output", required_argument, NULL, OPT_OUTPUT },
        { "only", required_argument, NULL, OPT_ONLY },
        { "residuals", required_argument, NULL, OPT_RESIDUALS },
        { "engine", required_argument, NULL, OPT_ENGINE },
        { "jobs", required_argument, NULL, 'j' },
        { "shard", required_argument, NULL, OPT_SHARD },
        { "merge", no_argument, NULL, OPT_MERGE },
        { "max-events", required_argument, NULL, OPT_MAX_EVENTS },
        { "sim-max-n", required_argument, NULL, OPT_SIM_MAX_N },
        { "sim-wg", required_argument, NULL, OPT_SIM_WG },
        { "sim-smem", required_argument, NULL, OPT_SIM_SMEM },
        { "count", no_argument, NULL, OPT_COUNT },
        { "list", no_argument, NULL, OPT_LIST },
        { "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
        { "reuse-config", required_argument, NULL, OPT_REUSE_CONFIG },
        { "reuse", required_argument, NULL, OPT_REUSE },
        { "help", no_argument, NULL, CLI_OPT_HELP },
        { 0, 0, 0, 0 },
    };
    cli_args a;
    cfg_config cfg;
    cpu_config cpu;
    char err[CFG_ERR_MAX];
    const char *cpu_path = NULL, *out_path = NULL, *residuals[MAX_RESIDUALS];
    int nresiduals = 0, sim_flags = 0;
    enum exp_format fmt = EXP_JSON;
    unsigned only = 0;
    unsigned long long v;
    sim_args sa;
    int c;
    memset(&sa, 0, sizeof sa);
    sa.jobs = swp_default_jobs();
    sa.progress = 1;
    sa.shard_k = sa.shard_n = 1;
    sa.max_events = NAN;
    xs_scope_defaults(&sa.scope);
    cli_args_init(&a);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "p:j:", longopts, NULL)) != -1) {
        switch (c) {
        case CLI_OPT_HELP:
            usage(stdout);
            return 0;
        case OPT_CPU:
            cpu_path = optarg;
            continue;
        case OPT_OUTPUT:
            out_path = optarg;
            continue;
        case OPT_RESIDUALS:
            if (nresiduals == MAX_RESIDUALS) {
                cli_error("export", "--residuals: at most %d datasets", MAX_RESIDUALS);
                return 2;
            }
            residuals[nresiduals++] = optarg;
            continue;
        case OPT_ONLY:
            if (parse_only(optarg, &only))
                return 2;
            continue;
        case CLI_OPT_FORMAT:
            sa.format_given = 1;
            if (!strcmp(optarg, "json"))
                fmt = EXP_JSON;
            else if (!strcmp(optarg, "csv"))
                fmt = EXP_CSV;
            else if (!strcmp(optarg, "c-header"))
                fmt = EXP_C_HEADER;
            else {
                cli_error("export", "--format '%s': expected json, csv or c-header", optarg);
                return 2;
            }
            continue;
        case OPT_ENGINE:
            if (strcmp(optarg, "sim") && strcmp(optarg, "model")) {
                cli_error("export", "--engine '%s': expected sim or model", optarg);
                return 2;
            }
            sa.on = !strcmp(optarg, "sim");
            continue;
        case 'j':
            if (cli_parse_u64(optarg, &v) || v < 1 || v > 1024) {
                cli_error("export", "-j '%s' is not an integer in [1, 1024]", optarg);
                return 2;
            }
            sa.jobs = (int)v;
            sim_flags = 1;
            continue;
        case OPT_SHARD:
            if (swp_parse_shard(optarg, &sa.shard_k, &sa.shard_n, err)) {
                cli_error("export", "%s", err);
                return 2;
            }
            sa.shard_given = sim_flags = 1;
            continue;
        case OPT_MERGE:
            sa.merge = 1;
            continue;
        case OPT_MAX_EVENTS:
            if (cli_parse_double(optarg, &sa.max_events) || !(sa.max_events >= 1 && sa.max_events <= 1e15)) {
                cli_error("export", "--max-events '%s' is not a number in [1, 1e15]", optarg);
                return 2;
            }
            sim_flags = 1;
            continue;
        case OPT_SIM_MAX_N:
            if (cli_parse_u64(optarg, &sa.scope.max_n)) {
                cli_error("export", "--sim-max-n '%s' is not a non-negative integer", optarg);
                return 2;
            }
            sim_flags = 1;
            continue;
        case OPT_SIM_WG:
        case OPT_SIM_SMEM:
            if (c == OPT_SIM_WG ? xs_scope_list("--sim-wg", optarg, sa.scope.wg, &sa.scope.wg_count, err)
                                : xs_scope_list("--sim-smem", optarg, sa.scope.smem, &sa.scope.smem_count, err)) {
                cli_error("export", "%s", err);
                return 2;
            }
            sim_flags = 1;
            continue;
        case OPT_COUNT:
            sa.count_only = sim_flags = 1;
            continue;
        case OPT_LIST:
            sa.list = sim_flags = 1;
            continue;
        case OPT_NO_PROGRESS:
            sa.progress = 0;
            continue;
        case OPT_REUSE_CONFIG:
            if (sa.reuse_config) {
                cli_error("export", "--reuse-config is given twice");
                return 2;
            }
            sa.reuse_config = optarg;
            sim_flags = 1;
            continue;
        case OPT_REUSE:
            if (sa.nreuse == XR_MAX_REUSE) {
                cli_error("export", "--reuse: at most %d parts", XR_MAX_REUSE);
                return 2;
            }
            sa.reuse[sa.nreuse++] = optarg;
            sim_flags = 1;
            continue;
        case '?':
        case ':':
            cli_error("export", "bad option '%s' (see atomsim export --help)", argv[optind - 1]);
            return 2;
        }
        int rc = cli_common_opt(&a, c, optarg, err);
        if (rc) {
            cli_error("export", "%s", rc < 0 ? err : "unexpected option");
            return 2;
        }
    }
    if (check_sim_args(&sa, sim_flags, argc, argv))
        return 2;
    if (cli_load_config(&a, &cfg, err)) {
        cli_error("export", "%s", err);
        return 2;
    }
    if (!isnan(sa.max_events))
        cfg.sim.max_events = sa.max_events; /* before anything hashes the config */
    cpu_defaults(&cpu);
    if (cpu_path && cpu_load(&cpu, cpu_path, err)) {
        cli_error("export", "%s", err);
        return 2;
    }
    if (sa.on) {
        sa.scope.only = only;
        return export_sim(&cfg, &cpu, &sa, fmt, out_path, residuals, nresiduals);
    }
    exp_table *t;
    exp_options opts = { only, NULL, NULL, 0 };
    if (exp_build(&cfg, &cpu, &opts, &t, err)) {
        cli_error("export", "%s", err);
        return 1;
    }
    return write_table(t, fmt, out_path, residuals, nresiduals);
}
