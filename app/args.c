/* args.c - the shared flags (the pattern parameters' from the table in
 * model/params.c, which parses and range-checks them), and the one place
 * that picks an engine (simulator or model) for a run. */
#include "args.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/model.h"
#include "../sim/engine.h"
#include "../util/num.h"
#include "datadir.h"
#include "../util/progress.h"

void cli_args_init(cli_args *a)
{
    memset(a, 0, sizeof *a);
    pat_defaults(&a->params);
    a->engine = CLI_ENGINE_SIM;
    a->format = CLI_FORMAT_TEXT;
}

int cli_parse_u64(const char *s, unsigned long long *out)
{
    return num_parse_u64(s, out);
}

int cli_parse_double(const char *s, double *out)
{
    return num_parse_double(s, out);
}

int cli_param_opt(const pat_param_desc *d)
{
    return CLI_OPT_OF((int)pat_param_id(d));
}

const pat_param_desc *cli_opt_param(int code)
{
    return code >= CLI_OPT_PARAM && code < CLI_OPT_PARAM + PP_COUNT ? pat_param_get(code - CLI_OPT_PARAM) : NULL;
}

const struct option *cli_longopts(struct option opts[CLI_MAX_LONGOPTS], const struct option *extra)
{
    int n = 0;
    opts[n++] = (struct option){ "config", required_argument, NULL, CLI_OPT_CONFIG };
    opts[n++] = (struct option){ "pattern", required_argument, NULL, CLI_OPT_PATTERN };
    for (int i = 0; i < PP_COUNT; i++)
        opts[n++] = (struct option){ pat_param_get(i)->flag + 2, required_argument, NULL, CLI_OPT_OF(i) };
    opts[n++] = (struct option){ "engine", required_argument, NULL, CLI_OPT_ENGINE };
    opts[n++] = (struct option){ "format", required_argument, NULL, CLI_OPT_FORMAT };
    opts[n++] = (struct option){ "help", no_argument, NULL, CLI_OPT_HELP };
    for (; extra && extra->name && n < CLI_MAX_LONGOPTS - 1; extra++)
        opts[n++] = *extra;
    opts[n] = (struct option){ 0, 0, 0, 0 };
    return opts;
}

void cli_wrap(FILE *f, int *col, int width, int indent, const char *sep, const char *word)
{
    int len = (int)strlen(word);
    if (*col > indent && *col + (int)strlen(sep) + len > width) {
        fprintf(f, "\n%*s%s", indent, "", word);
        *col = indent + len;
    } else {
        fprintf(f, "%s%s", sep, word);
        *col += (int)strlen(sep) + len;
    }
}

void cli_usage_params(FILE *f, int *col, int indent, const char *meta)
{
    for (int i = 0; i < PP_COUNT; i++) {
        const pat_param_desc *d = pat_param_get(i);
        char item[64];
        snprintf(item, sizeof item, "[%s %s]", d->flag, meta ? meta : d->meta);
        cli_wrap(f, col, 90, indent, " ", item);
    }
}

void cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    prog_hide(); /* the message starts its own line, not after the progress line */
    fprintf(stderr, "atomsim %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int cli_common_opt(cli_args *a, int c, const char *arg, char err[CFG_ERR_MAX])
{
    const pat_param_desc *d = cli_opt_param(c);
    if (d) {
        a->params_given = 1;
        return pat_param_parse(d, &a->params, arg, err, CFG_ERR_MAX);
    }
    switch (c) {
    case 'p':
        if (a->override_count == CLI_MAX_OVERRIDES) {
            snprintf(err, CFG_ERR_MAX, "more than %d -p overrides", CLI_MAX_OVERRIDES);
            return -1;
        }
        a->overrides[a->override_count++] = arg;
        return 0;
    case CLI_OPT_CONFIG:
        a->config_path = dd_find(arg, DD_CONFIG);
        return 0;
    case CLI_OPT_PATTERN:
        if (pat_from_name(arg, &a->params.pattern)) {
            snprintf(err, CFG_ERR_MAX, "unknown pattern '%s' (see atomsim --help)", arg);
            return -1;
        }
        a->pattern_given = 1;
        return 0;
    case CLI_OPT_ENGINE:
        if (!strcmp(arg, "sim"))
            a->engine = CLI_ENGINE_SIM;
        else if (!strcmp(arg, "model"))
            a->engine = CLI_ENGINE_MODEL;
        else {
            snprintf(err, CFG_ERR_MAX, "--engine '%s': expected sim or model", arg);
            return -1;
        }
        return 0;
    case CLI_OPT_FORMAT:
        if (!strcmp(arg, "text"))
            a->format = CLI_FORMAT_TEXT;
        else if (!strcmp(arg, "csv"))
            a->format = CLI_FORMAT_CSV;
        else if (!strcmp(arg, "json"))
            a->format = CLI_FORMAT_JSON;
        else {
            snprintf(err, CFG_ERR_MAX, "--format '%s': expected text, csv or json", arg);
            return -1;
        }
        return 0;
    }
    return 1;
}

int cli_load_config(const cli_args *a, cfg_config *cfg, char err[CFG_ERR_MAX])
{
    return cli_load_config_except(a, NULL, cfg, err);
}

int cli_load_cpu(const char *path, cpu_config *cpu, char err[CFG_ERR_MAX])
{
    cpu_defaults(cpu);
    return path && cpu_load(cpu, dd_find(path, DD_CONFIG), err) ? -1 : 0;
}

int cli_load_config_except(const cli_args *a, const char *skip, cfg_config *cfg, char err[CFG_ERR_MAX])
{
    cfg_defaults(cfg);
    if (a->config_path && cfg_load_except(cfg, a->config_path, skip, err))
        return -1;
    for (int i = 0; i < a->override_count; i++)
        if (cfg_override(cfg, a->overrides[i], err))
            return -1;
    return 0;
}

int cli_sim_engine(const cfg_config *cfg, const pat_params *p, atom_stats *st, char err[CFG_ERR_MAX])
{
    return sim_run(cfg, p, st, err);
}

int cli_model_engine(const cfg_config *cfg, const pat_params *p, atom_stats *st, char err[CFG_ERR_MAX])
{
    return mdl_predict(cfg, p, st, err) ? 2 : 0;
}

int cli_run_engine(const cfg_config *cfg, const pat_params *p, enum cli_engine e, atom_stats *st, char err[CFG_ERR_MAX])
{
    if (e == CLI_ENGINE_MODEL)
        return mdl_predict(cfg, p, st, err) ? 2 : 0;
    return sim_run(cfg, p, st, err);
}
