/* args.h - the flags every run-like subcommand shares (docs/cli.md's CLI
 * contract): config, pattern parameters, -p overrides, engine and format. */
#ifndef ATOM_CLI_ARGS_H
#define ATOM_CLI_ARGS_H

#include <getopt.h>

#include "../model/config.h"
#include "../model/params.h"
#include "../model/stats.h"

enum cli_engine { CLI_ENGINE_SIM, CLI_ENGINE_MODEL };
enum cli_format { CLI_FORMAT_TEXT, CLI_FORMAT_CSV, CLI_FORMAT_JSON };

#define CLI_MAX_OVERRIDES 64

typedef struct cli_args {
    const char *config_path;
    const char *overrides[CLI_MAX_OVERRIDES];
    int override_count;
    pat_params params;
    int pattern_given;
    enum cli_engine engine;
    enum cli_format format;
} cli_args;

/* Option codes >= 1000 are the common ones; subcommands add their own. */
enum {
    CLI_OPT_CONFIG = 1000, CLI_OPT_PATTERN, CLI_OPT_N, CLI_OPT_WG, CLI_OPT_SELECTIVITY,
    CLI_OPT_BINS, CLI_OPT_HOT, CLI_OPT_ADDRESSES, CLI_OPT_SMEM, CLI_OPT_SEED,
    CLI_OPT_ENGINE, CLI_OPT_FORMAT, CLI_OPT_HELP
};

#define CLI_COMMON_LONGOPTS \
    { "config", required_argument, NULL, CLI_OPT_CONFIG }, \
    { "pattern", required_argument, NULL, CLI_OPT_PATTERN }, \
    { "n", required_argument, NULL, CLI_OPT_N }, \
    { "wg", required_argument, NULL, CLI_OPT_WG }, \
    { "selectivity", required_argument, NULL, CLI_OPT_SELECTIVITY }, \
    { "bins", required_argument, NULL, CLI_OPT_BINS }, \
    { "hot", required_argument, NULL, CLI_OPT_HOT }, \
    { "addresses", required_argument, NULL, CLI_OPT_ADDRESSES }, \
    { "smem-per-wg", required_argument, NULL, CLI_OPT_SMEM }, \
    { "seed", required_argument, NULL, CLI_OPT_SEED }, \
    { "engine", required_argument, NULL, CLI_OPT_ENGINE }, \
    { "format", required_argument, NULL, CLI_OPT_FORMAT }, \
    { "help", no_argument, NULL, CLI_OPT_HELP }

void cli_args_init(cli_args *a);

/* Handles one common option (c from getopt_long, 'p' included).  Returns 0,
 * 1 if c is not a common option, or -1 with err set. */
int cli_common_opt(cli_args *a, int c, const char *arg, char err[CFG_ERR_MAX]);

/* Loads the config (defaults when none was named) and applies the -p
 * overrides in order.  Returns 0 or -1 with err set. */
int cli_load_config(const cli_args *a, cfg_config *cfg, char err[CFG_ERR_MAX]);
/* The same, leaving out an include of the file `skip` (calibrate's --out). */
int cli_load_config_except(const cli_args *a, const char *skip, cfg_config *cfg, char err[CFG_ERR_MAX]);

/* Strict number parsing for flags: the whole text must be a number. */
int cli_parse_u64(const char *s, unsigned long long *out);
int cli_parse_double(const char *s, double *out);

/* One line on stderr, "atomsim <cmd>: <msg>". */
void cli_error(const char *cmd, const char *fmt, ...);

/* Runs the chosen engine: 0, 1 (run failed) or 2 (bad input). */
/* The two engines with one signature, for tools that take either. */
int cli_sim_engine(const cfg_config *cfg, const pat_params *p, atom_stats *st, char err[CFG_ERR_MAX]);
int cli_model_engine(const cfg_config *cfg, const pat_params *p, atom_stats *st, char err[CFG_ERR_MAX]);

int cli_run_engine(const cfg_config *cfg, const pat_params *p, enum cli_engine e, atom_stats *st, char err[CFG_ERR_MAX]);

#endif
