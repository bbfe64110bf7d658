/* config_report.h - the printers of `atomsim config`: the option table
 * (model/options.c) and an effective config.  They only format; the
 * config comes loaded (cli_load_config). */
#ifndef ATOM_APP_CONFIG_REPORT_H
#define ATOM_APP_CONFIG_REPORT_H

#include <stdio.h>

#include "../model/config.h"

/* The option table, one key a line: key, type, default, unit, source,
 * help and a number's bounds. */
void cfgrep_options_text(FILE *f);
/* The key reference docs/config-keys.md, the whole page: the committed
 * file is exactly this output (tests/config_keys_fresh.sh). */
void cfgrep_options_markdown(FILE *f);
/* An effective config as INI text that cfg_load reads back to the same
 * struct, headed by its path and hash. */
void cfgrep_dump_ini(FILE *f, const cfg_config *cfg);
/* The same as JSON (the effective config of run's JSON documents). */
void cfgrep_dump_json(FILE *f, const cfg_config *cfg);

#endif
