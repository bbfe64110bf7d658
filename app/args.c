/* args.c - parsing and range checks of the shared flags, and the one place
 * that picks an engine (simulator or model) for a run. */
#include "args.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/model.h"
#include "../sim/engine.h"

void cli_args_init(cli_args *a)
{
    memset(a, 0, sizeof *a);
    pat_defaults(&a->params);
    a->engine = CLI_ENGINE_SIM;
    a->format = CLI_FORMAT_TEXT;
}

int cli_parse_u64(const char *s, unsigned long long *out)
{
    char *end;
    if (!s || !*s || *s == '-')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end == 0 && errno == 0) {
        *out = v;
        return 0;
    }
    /* 2^20 style and 1e6 style values, exact integers only */
    double d;
    if (!strncmp(s, "2^", 2)) {
        if (cli_parse_u64(s + 2, &v) || v > 63)
            return -1;
        *out = 1ull << v;
        return 0;
    }
    if (cli_parse_double(s, &d) || d < 0 || d != floor(d) || d > 1.8e19)
        return -1;
    *out = (unsigned long long)d;
    return 0;
}

int cli_parse_double(const char *s, double *out)
{
    char *end;
    if (!s || !*s)
        return -1;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

void cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "atomsim %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static int u32_flag(const char *name, const char *arg, uint32_t *out, char err[CFG_ERR_MAX])
{
    unsigned long long v;
    if (cli_parse_u64(arg, &v) || v > 0xffffffffull) {
        snprintf(err, CFG_ERR_MAX, "--%s '%s' is not a non-negative integer", name, arg);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

static int fraction_flag(const char *name, const char *arg, double *out, char err[CFG_ERR_MAX])
{
    if (cli_parse_double(arg, out) || *out < 0 || *out > 1) {
        snprintf(err, CFG_ERR_MAX, "--%s '%s' is not a number in [0, 1]", name, arg);
        return -1;
    }
    return 0;
}

int cli_common_opt(cli_args *a, int c, const char *arg, char err[CFG_ERR_MAX])
{
    unsigned long long v;
    uint32_t u;
    switch (c) {
    case 'p':
        if (a->override_count == CLI_MAX_OVERRIDES) {
            snprintf(err, CFG_ERR_MAX, "more than %d -p overrides", CLI_MAX_OVERRIDES);
            return -1;
        }
        a->overrides[a->override_count++] = arg;
        return 0;
    case CLI_OPT_CONFIG:
        a->config_path = arg;
        return 0;
    case CLI_OPT_PATTERN:
        if (pat_from_name(arg, &a->params.pattern)) {
            snprintf(err, CFG_ERR_MAX, "unknown pattern '%s' (see atomsim --help)", arg);
            return -1;
        }
        a->pattern_given = 1;
        return 0;
    case CLI_OPT_N:
        if (cli_parse_u64(arg, &v) || v == 0 || v > PAT_MAX_N) {
            snprintf(err, CFG_ERR_MAX, "--n '%s' is not an integer in [1, %llu]", arg, (unsigned long long)PAT_MAX_N);
            return -1;
        }
        a->params.n = v;
        return 0;
    case CLI_OPT_WG:
        if (u32_flag("wg", arg, &u, err))
            return -1;
        if (u == 0 || u > 65536) {
            snprintf(err, CFG_ERR_MAX, "--wg %u is out of range [1, 65536]", u);
            return -1;
        }
        a->params.wg = (int)u;
        return 0;
    case CLI_OPT_SELECTIVITY:
        return fraction_flag("selectivity", arg, &a->params.selectivity, err);
    case CLI_OPT_HOT:
        return fraction_flag("hot", arg, &a->params.hot, err);
    case CLI_OPT_BINS:
        if (u32_flag("bins", arg, &a->params.bins, err))
            return -1;
        if (a->params.bins == 0 || a->params.bins > PAT_MAX_BINS) {
            snprintf(err, CFG_ERR_MAX, "--bins %s is out of range [1, %u]", arg, PAT_MAX_BINS);
            return -1;
        }
        return 0;
    case CLI_OPT_ADDRESSES:
        if (u32_flag("addresses", arg, &a->params.addresses, err))
            return -1;
        if (a->params.addresses == 0 || a->params.addresses > PAT_MAX_ADDRESSES) {
            snprintf(err, CFG_ERR_MAX, "--addresses %s is out of range [1, %u]", arg, PAT_MAX_ADDRESSES);
            return -1;
        }
        return 0;
    case CLI_OPT_SMEM:
        return u32_flag("smem-per-wg", arg, &a->params.smem_per_wg, err);
    case CLI_OPT_SEED:
        if (cli_parse_u64(arg, &v)) {
            snprintf(err, CFG_ERR_MAX, "--seed '%s' is not a non-negative integer", arg);
            return -1;
        }
        a->params.seed = v;
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
