/* args.h - the flags every run-like subcommand shares (docs/cli.md's CLI
 * contract): config, pattern parameters, -p overrides, engine and format. */
#ifndef ATOM_APP_ARGS_H
#define ATOM_APP_ARGS_H

#include <getopt.h>
#include <stdio.h>

#include "../model/config.h"
#include "../model/cpu_config.h"
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
    int params_given;                  /* a pattern parameter's flag appeared */
    enum cli_engine engine;
    enum cli_format format;
} cli_args;

/* Option codes >= 1000 are the common ones; subcommands add their own. */
enum {
    CLI_OPT_CONFIG = 1000, CLI_OPT_PATTERN, CLI_OPT_ENGINE, CLI_OPT_FORMAT, CLI_OPT_HELP,
    CLI_OPT_PARAM /* + enum pat_param_id: one flag per row of the parameter table */
};

/* The code of a parameter's flag, and the parameter of a code (NULL when
 * the code is no parameter's). */
#define CLI_OPT_OF(id) (CLI_OPT_PARAM + (id))
int cli_param_opt(const pat_param_desc *d);
const pat_param_desc *cli_opt_param(int code);

#define CLI_MAX_LONGOPTS 64

/* The common long options (--config, --pattern, one per parameter of the
 * table, --engine, --format, --help), then `extra` up to its zero entry
 * (NULL: none), then a zero entry, written into opts; returns opts. */
const struct option *cli_longopts(struct option opts[CLI_MAX_LONGOPTS], const struct option *extra);

void cli_args_init(cli_args *a);

/* Handles one common option (c from getopt_long, 'p' included).  Returns 0,
 * 1 if c is not a common option, or -1 with err set. */
int cli_common_opt(cli_args *a, int c, const char *arg, char err[CFG_ERR_MAX]);

/* Loads the config (defaults when none was named) and applies the -p
 * overrides in order.  Returns 0 or -1 with err set. */
int cli_load_config(const cli_args *a, cfg_config *cfg, char err[CFG_ERR_MAX]);
/* The same, leaving out an include of the file `skip` (calibrate's --out). */
int cli_load_config_except(const cli_args *a, const char *skip, cfg_config *cfg, char err[CFG_ERR_MAX]);
/* The CPU tier: the built-in typical host, or the --cpu file over it (a
 * shipped one found by name, as --config is).  Returns 0 or -1 with err. */
int cli_load_cpu(const char *path, cpu_config *cpu, char err[CFG_ERR_MAX]);

/* Strict number parsing for flags: the whole text must be a number
 * (num_parse_u64 and num_parse_double of util/num.h). */
int cli_parse_u64(const char *s, unsigned long long *out);
int cli_parse_double(const char *s, double *out);

/* Usage text: writes `word` after column *col of the current line, or on
 * a new line indented `indent` columns when it would pass column `width`;
 * `sep` goes before a word that stays on the line ("" at a line's start). */
void cli_wrap(FILE *f, int *col, int width, int indent, const char *sep, const char *word);
/* The parameters' flags as usage items, "[--bins K]" (or "[--bins META]"
 * with meta non-NULL), through cli_wrap at 90 columns. */
void cli_usage_params(FILE *f, int *col, int indent, const char *meta);

/* One line on stderr, "atomsim <cmd>: <msg>". */
void cli_error(const char *cmd, const char *fmt, ...);

/* Runs the chosen engine: 0, 1 (run failed) or 2 (bad input). */
/* The two engines with one signature, for tools that take either. */
int cli_sim_engine(const cfg_config *cfg, const pat_params *p, atom_stats *st, char err[CFG_ERR_MAX]);
int cli_model_engine(const cfg_config *cfg, const pat_params *p, atom_stats *st, char err[CFG_ERR_MAX]);

int cli_run_engine(const cfg_config *cfg, const pat_params *p, enum cli_engine e, atom_stats *st, char err[CFG_ERR_MAX]);

#endif
