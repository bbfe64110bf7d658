/* cmd_export.c - `atomsim export`: writes the dispatcher's cost tables for
 * one GPU config and one CPU-tier config (model/export.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/cpu_config.h"
#include "../../model/export.h"
#include "../../validate/bands.h"
#include "args.h"
#include "commands.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim export --config FILE [--cpu FILE] [-p section.key=value ...]\n"
               "                      [--format json|csv|c-header] [--output FILE] [--only PATTERN[,...]]\n"
               "                      [--residuals validate/data/GPU.csv ...]\n"
               "writes, for every pattern, the GPU's kernel time over a grid of n (2^10..2^26), workgroup size\n"
               "(32..1024), shared memory per workgroup (0..the GPU's limit) and the pattern's own axes; the CPU\n"
               "tier's time and seed 000's contention density; and the decision of dispatch.rule beside the seed\n"
               "rule's verdict (schema: model/schema/cost-table.schema.json, docs/dispatch.md).  Without --cpu the built-in CPU tier is\n"
               "used (the GPU host's 16 workers, see configs/cpu-gpuhost-16core.ini).  --residuals names a\n"
               "measured dataset the GPU config was validated on (repeatable): each pattern then carries error bands, the\n"
               "10th to 90th percentile of measured/predicted per region of n, that dispatch prints.\n");
}

enum { OPT_CPU = 2000, OPT_OUTPUT, OPT_ONLY, OPT_RESIDUALS };

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

/* Error bands for every pattern of the table from the rows of every
 * measured dataset named. */
static int add_bands(exp_table *t, const char *const *paths, int npaths, char err[CFG_ERR_MAX])
{
    val_dataset d = { 0 };
    for (int k = 0; k < npaths; k++) {
        val_dataset one;
        if (val_dataset_load(paths[k], &one, err)) {
            val_dataset_free(&d);
            return -1;
        }
        val_row *rows = realloc(d.rows, (d.count + one.count + 1) * sizeof *rows);
        if (!rows) {
            val_dataset_free(&one);
            val_dataset_free(&d);
            snprintf(err, CFG_ERR_MAX, "out of memory");
            return -1;
        }
        memcpy(rows + d.count, one.rows, one.count * sizeof *rows);
        d.rows = rows;
        d.count += one.count;
        val_dataset_free(&one);
    }
    int rc = 0;
    for (int i = 0; rc == 0 && i < t->pattern_count; i++) {
        exp_band b[EXP_MAX_BANDS];
        int count;
        rc = val_bands(&t->gpu, &d, t->patterns[i].pattern, b, &count, err);
        if (rc == 0)
            exp_set_bands(t, t->patterns[i].pattern, b, count);
    }
    val_dataset_free(&d);
    return rc;
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
        { "help", no_argument, NULL, CLI_OPT_HELP },
        { 0, 0, 0, 0 },
    };
    cli_args a;
    cfg_config cfg;
    cpu_config cpu;
    char err[CFG_ERR_MAX];
    const char *cpu_path = NULL, *out_path = NULL, *residuals[MAX_RESIDUALS];
    int nresiduals = 0;
    enum exp_format fmt = EXP_JSON;
    unsigned only = 0;
    int c;
    cli_args_init(&a);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "p:", longopts, NULL)) != -1) {
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
    if (optind < argc) {
        cli_error("export", "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (cli_load_config(&a, &cfg, err)) {
        cli_error("export", "%s", err);
        return 2;
    }
    cpu_defaults(&cpu);
    if (cpu_path && cpu_load(&cpu, cpu_path, err)) {
        cli_error("export", "%s", err);
        return 2;
    }
    exp_table *t;
    exp_options opts = { only, NULL, NULL, 0 };
    if (exp_build(&cfg, &cpu, &opts, &t, err)) {
        cli_error("export", "%s", err);
        return 1;
    }
    if (nresiduals && add_bands(t, residuals, nresiduals, err)) {
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
