/* sweep_cli.c - the command line that `atomsim sweep` and `atomsim study`
 * share: their usage text, their options (opts.h) into a swp_cli, and applying a
 * swp_cli to a spec (its axes to every grid, its configs instead of a
 * study's). */
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "sweep.h"

/* ---- the command line ---------------------------------------------------- */

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

/* --pattern, --engine and a parameter's flag: an axis named by the flag */
static int axis_arg(void *ctx, const opt_spec *s, const char *arg, char err[CFG_ERR_MAX])
{
    return add_axis(ctx, s->name, arg, err);
}

static int vary_arg(void *ctx, const opt_spec *s, const char *arg, char err[CFG_ERR_MAX])
{
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        snprintf(err, CFG_ERR_MAX, "--vary '%s': expected KEY=VALUES", arg);
        return -1;
    }
    *eq = 0; /* argv is ours to cut */
    return add_axis(ctx, arg, eq + 1, err);
}

static int points_arg(void *ctx, const opt_spec *s, const char *arg, char err[CFG_ERR_MAX])
{
    swp_cli *c = ctx;
    if (c->points || add_axis(c, "points", arg, err)) {
        snprintf(err, CFG_ERR_MAX, "--points is given twice");
        return -1;
    }
    c->axis_count--; /* only reserved the name */
    c->points = arg;
    return 0;
}

static int shard_arg(void *ctx, const opt_spec *s, const char *arg, char err[CFG_ERR_MAX])
{
    swp_cli *c = ctx;
    return swp_parse_shard(arg, &c->shard_k, &c->shard_n, err);
}

static int study_only(void *ctx, const opt_spec *s, const char *arg, char err[CFG_ERR_MAX])
{
    snprintf(err, CFG_ERR_MAX, "--%s is a study option", s->name);
    return -1;
}

static void sweep_usage(FILE *f)
{
    swp_cli_usage(f, 0);
}

static void study_usage(FILE *f)
{
    swp_cli_usage(f, 1);
}

int swp_cli_parse(swp_cli *c, int argc, char **argv, int study)
{
    opt_spec specs[24 + PP_COUNT];
    int n = 0, format = CLI_FORMAT_CSV, positional, rc;
    memset(c, 0, sizeof *c);
    c->run.jobs = pool_default_jobs();
    c->run.cmd = study ? "study" : "sweep";
    c->shard_k = c->shard_n = 1;
    /* every pattern flag takes a LIST: it is an axis, not the common flag */
    specs[n++] = (opt_spec)OPT_CALL("pattern", 1, axis_arg, c);
    for (int i = 0; i < PP_COUNT; i++)
        specs[n++] = (opt_spec)OPT_CALL(pat_param_get(i)->flag + 2, 1, axis_arg, c);
    specs[n++] = (opt_spec)OPT_CALL("engine", 1, axis_arg, c);
    specs[n++] = (opt_spec)OPT_LIST("config", c->configs, &c->config_count, SWP_MAX_CONFIGS, .noun = "configs");
    specs[n++] = (opt_spec)OPT_LIST("p", c->overrides, &c->override_count, CLI_MAX_OVERRIDES, .short_name = 'p',
                                    .noun = "overrides");
    specs[n++] = (opt_spec)OPT_CHOICE("format", &format, opt_format_choices, .given = &c->format_given);
    specs[n++] = (opt_spec)OPT_CALL("vary", 1, vary_arg, c, .repeat = 1);
    specs[n++] = (opt_spec)OPT_CALL("points", 1, points_arg, c);
    specs[n++] = (opt_spec)OPT_JOBS(&c->run.jobs);
    specs[n++] = (opt_spec)OPT_CALL("shard", 1, shard_arg, c);
    specs[n++] = (opt_spec)OPT_FLAG("canonical", &c->canonical);
    specs[n++] = (opt_spec)OPT_FLAG("keep-going", &c->run.keep_going);
    specs[n++] = (opt_spec)OPT_FLAG("config-column", &c->config_column);
    specs[n++] = (opt_spec)OPT_FLAG("count", &c->count_only);
    if (study) {
        specs[n++] = (opt_spec)OPT_STRING("out-dir", &c->out_dir);
        specs[n++] = (opt_spec)OPT_FLAG("stdout", &c->to_stdout);
    } else {
        specs[n++] = (opt_spec)OPT_CALL("out-dir", 1, study_only, NULL);
        specs[n++] = (opt_spec)OPT_CALL("stdout", 0, study_only, NULL);
    }
    specs[n] = (opt_spec)OPT_END;
    opt_cmd cmd = { .name = c->run.cmd, .specs = specs, .usage = study ? study_usage : sweep_usage,
                    .common = OPT_COMMON_PROGRESS, .max_positional = study, .positional = &positional };
    if ((rc = opt_parse(&cmd, argc, argv)) != OPT_GO)
        return rc;
    c->run.progress = 1; /* --no-progress, the common flag, silences the line itself */
    c->format = (enum cli_format)format;
    c->positional = positional < argc ? argv[positional] : NULL;
    return OPT_GO;
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

