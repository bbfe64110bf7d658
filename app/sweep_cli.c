/* sweep_cli.c - the command line that `atomsim sweep` and `atomsim study`
 * share: their usage text, the getopt loop into a swp_cli, and applying a
 * swp_cli to a spec (its axes to every grid, its configs instead of a
 * study's). */
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

/* ---- the command line ---------------------------------------------------- */

enum {
    OPT_VARY = 2000, OPT_POINTS, OPT_SHARD, OPT_CANONICAL, OPT_KEEP_GOING, OPT_CONFIG_COLUMN,
    OPT_NO_PROGRESS, OPT_COUNT, OPT_OUT_DIR, OPT_STDOUT
};

void swp_cli_usage(FILE *f, int study)
{
    if (study)
        fprintf(f, "usage: atomsim study FILE [--out-dir DIR | --stdout] [sweep options]\n"
                   "  runs a study file (configs/studies/*.ini) and writes its [outputs] under DIR\n"
                   "  (default build/studies); sweep options given here replace the file's axes of\n"
                   "  the same key in every grid, and --config replaces its configs.\n\n");
    static const char lead[] = "usage: atomsim sweep --pattern LIST [--config FILE ...]";
    int col = (int)strlen(lead);
    fputs(lead, f);
    cli_usage_params(f, &col, 21, "LIST");
    cli_wrap(f, &col, 90, 21, " ", "[--engine sim,model]");
    fprintf(f,
            "\n"
            "                     [--vary KEY=LIST ...] [--points CSV] [-p section.key=value ...]\n"
            "                     [-j N] [--shard K/N] [--canonical] [--keep-going] [--config-column]\n"
            "                     [--no-progress] [--count] [--format csv|json|text]\n"
            "  LIST: values and ranges, comma separated: 1,4,16  1..65536:x2 (geometric)\n"
            "        0..1:+0.1 (arithmetic)  1..8 (step 1); integers may be written 2^E;\n"
            "        --pattern all is every pattern\n");
    /* the pattern flags' keys, wrapped as words; the points' columns on a line */
    fputs("  --vary KEY=LIST  KEY: a pattern flag (", f);
    col = (int)strlen("  --vary KEY=LIST  KEY: a pattern flag (");
    for (int i = 0; i < PP_COUNT; i++)
        cli_wrap(f, &col, 86, 8, i ? " " : "", pat_param_get(i)->flag + 2);
    static const char *const vary_tail[] = { "pattern", "engine)", "or", "any", "config", "key",
                                             "(l2.slice_count=40,80,160)" };
    for (size_t i = 0; i < sizeof vary_tail / sizeof vary_tail[0]; i++)
        cli_wrap(f, &col, 86, 8, " ", vary_tail[i]);
    fputs("\n  --points CSV     explicit points: a CSV whose header names pattern and any of\n       ", f);
    for (int i = 0; i < PP_COUNT; i++)
        fprintf(f, " %s", pat_param_get(i)->name);
    fprintf(f,
            " engine (a dataset)\n"
            "  --config FILE    repeat for several configs (a `config` column names each)\n"
            "  rows: configs outermost, then config-key axes, then pattern axes, in the order\n"
            "        given, the last fastest; CSV = the run's columns, then `config` (several\n"
            "        configs or --config-column) and one column per varied config key\n"
            "  -j N             worker processes (default: online CPUs); output is the same for any N\n"
            "  --shard K/N      rows floor((K-1)R/N) .. floor(KR/N)-1 of the R rows, K from 1:\n"
            "        the shards' rows concatenated in K order are the whole sweep's\n"
            "  --canonical      flags a pattern ignores take the defaults; repeated points run once\n"
            "  --keep-going     report a failed row on stderr and go on (exit 1 at the end)\n"
            "  --count          print the number of rows (of this shard) and exit\n");
}

/* The axis key of a flag: pattern, engine or a parameter's flag name. */
static const char *code_key(int c)
{
    const pat_param_desc *d = cli_opt_param(c);
    if (d)
        return d->flag + 2;
    return c == CLI_OPT_PATTERN ? "pattern" : c == CLI_OPT_ENGINE ? "engine" : NULL;
}

static int add_axis(swp_cli *c, const char *key, const char *values, char err[CFG_ERR_MAX])
{
    const pat_param_desc *d = pat_param_find(key);
    const char *k = d ? d->flag + 2 : key; /* smem_per_wg is smem-per-wg */
    for (int i = 0; i < c->axis_count; i++)
        if (!strcmp(c->axis_key[i], k)) {
            snprintf(err, CFG_ERR_MAX, "'%s' is given twice", k);
            return -1;
        }
    if (c->axis_count == SWP_MAX_AXES) {
        snprintf(err, CFG_ERR_MAX, "more than %d axes", SWP_MAX_AXES);
        return -1;
    }
    c->axis_key[c->axis_count] = k;
    c->axis_values[c->axis_count++] = values;
    return 0;
}

int swp_cli_parse(swp_cli *c, int argc, char **argv, int study, char err[CFG_ERR_MAX])
{
    static const struct option extra[] = {
        { "vary", required_argument, NULL, OPT_VARY },
        { "points", required_argument, NULL, OPT_POINTS },
        { "jobs", required_argument, NULL, 'j' },
        { "shard", required_argument, NULL, OPT_SHARD },
        { "canonical", no_argument, NULL, OPT_CANONICAL },
        { "keep-going", no_argument, NULL, OPT_KEEP_GOING },
        { "config-column", no_argument, NULL, OPT_CONFIG_COLUMN },
        { "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
        { "count", no_argument, NULL, OPT_COUNT },
        { "out-dir", required_argument, NULL, OPT_OUT_DIR },
        { "stdout", no_argument, NULL, OPT_STDOUT },
        { 0, 0, 0, 0 },
    };
    struct option longopts[CLI_MAX_LONGOPTS];
    cli_args scratch;
    unsigned long long v;
    int ch;
    memset(c, 0, sizeof *c);
    c->format = CLI_FORMAT_CSV;
    c->run.jobs = swp_default_jobs();
    c->run.progress = 1;
    c->run.cmd = study ? "study" : "sweep";
    c->shard_k = c->shard_n = 1;
    cli_args_init(&scratch);
    cli_longopts(longopts, extra);
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, "p:j:", longopts, NULL)) != -1) {
        const char *key = code_key(ch);
        if (key) {
            if (add_axis(c, key, optarg, err))
                return 2;
            continue;
        }
        switch (ch) {
        case CLI_OPT_HELP:
            c->help = 1;
            return 0;
        case CLI_OPT_CONFIG:
            if (c->config_count == SWP_MAX_CONFIGS) {
                snprintf(err, CFG_ERR_MAX, "more than %d configs", SWP_MAX_CONFIGS);
                return 2;
            }
            c->configs[c->config_count++] = optarg;
            break;
        case 'p':
            if (c->override_count == CLI_MAX_OVERRIDES) {
                snprintf(err, CFG_ERR_MAX, "more than %d -p overrides", CLI_MAX_OVERRIDES);
                return 2;
            }
            c->overrides[c->override_count++] = optarg;
            break;
        case CLI_OPT_FORMAT:
            if (cli_common_opt(&scratch, ch, optarg, err))
                return 2;
            c->format = scratch.format;
            c->format_given = 1;
            break;
        case OPT_VARY: {
            char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg) {
                snprintf(err, CFG_ERR_MAX, "--vary '%s': expected KEY=VALUES", optarg);
                return 2;
            }
            *eq = 0; /* argv is ours to cut */
            if (add_axis(c, optarg, eq + 1, err))
                return 2;
            break;
        }
        case OPT_POINTS:
            if (c->points || add_axis(c, "points", optarg, err)) {
                snprintf(err, CFG_ERR_MAX, "--points is given twice");
                return 2;
            }
            c->axis_count--; /* only reserved the name */
            c->points = optarg;
            break;
        case 'j':
            if (cli_parse_u64(optarg, &v) || v < 1 || v > 1024) {
                snprintf(err, CFG_ERR_MAX, "-j '%s' is not an integer in [1, 1024]", optarg);
                return 2;
            }
            c->run.jobs = (int)v;
            break;
        case OPT_SHARD:
            if (swp_parse_shard(optarg, &c->shard_k, &c->shard_n, err))
                return 2;
            break;
        case OPT_CANONICAL: c->canonical = 1; break;
        case OPT_KEEP_GOING: c->run.keep_going = 1; break;
        case OPT_CONFIG_COLUMN: c->config_column = 1; break;
        case OPT_NO_PROGRESS: c->run.progress = 0; break;
        case OPT_COUNT: c->count_only = 1; break;
        case OPT_OUT_DIR:
        case OPT_STDOUT:
            if (!study) {
                snprintf(err, CFG_ERR_MAX, "%s is a study option", argv[optind - 1]);
                return 2;
            }
            if (ch == OPT_OUT_DIR)
                c->out_dir = optarg;
            else
                c->to_stdout = 1;
            break;
        default:
            snprintf(err, CFG_ERR_MAX, "bad option '%s' (see atomsim %s --help)", argv[optind - 1], c->run.cmd);
            return 2;
        }
    }
    for (; optind < argc; optind++) {
        if (!study || c->positional) {
            snprintf(err, CFG_ERR_MAX, "unexpected argument '%s'", argv[optind]);
            return 2;
        }
        c->positional = argv[optind];
    }
    return 0;
}

int swp_cli_apply(const swp_cli *c, swp_spec *s, char err[CFG_ERR_MAX])
{
    if (c->config_count)
        swp_clear_configs(s);
    for (int i = 0; i < c->config_count; i++)
        if (swp_add_config(s, c->configs[i], err))
            return -1;
    for (int i = 0; i < c->override_count; i++)
        if (swp_add_override(s, c->overrides[i], err))
            return -1;
    for (int i = 0; i < c->axis_count; i++)
        if (swp_set_axis(s, -1, c->axis_key[i], c->axis_values[i], err))
            return -1;
    if (c->points && swp_set_points(s, -1, c->points, err))
        return -1;
    if (c->canonical)
        swp_set_canonical(s, 1);
    if (c->config_column)
        swp_set_config_column(s, 1);
    return swp_set_shard(s, c->shard_k, c->shard_n, err);
}

