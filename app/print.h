/* print.h - printers for one run's parameters and statistics: text for
 * people, CSV for scripts and plots, JSON with the effective config.  The
 * engines never print; a new format never touches them. */
#ifndef ATOM_APP_PRINT_H
#define ATOM_APP_PRINT_H

#include <stdio.h>

#include "../model/config.h"
#include "../model/params.h"
#include "../model/stats.h"

/* The CSV's parameter columns (the pattern, then each parameter table
 * row's column): the header's, without a newline, and a row's. */
void prn_csv_params_header(FILE *f);
void prn_csv_params(FILE *f, const pat_params *p);
void prn_csv_header(FILE *f);
void prn_csv_row(FILE *f, const pat_params *p, const char *engine, const atom_stats *s);
void prn_text(FILE *f, const cfg_config *cfg, const pat_params *p, const char *engine, const atom_stats *s);

/* The one JSON document of run, sweep and study (docs/cli.md):
 * {"schema": "atomsim-runs", "schema_version", "version", "runs": [...],
 * "configs": [...]}, each run naming its effective config by its index in
 * "configs".  A new field is additive; a renamed or moved one bumps
 * PRN_RUNS_SCHEMA_VERSION (version 1 was atomsim-run/1 and atomsim-sweep/1). */
#define PRN_RUNS_SCHEMA "atomsim-runs"
#define PRN_RUNS_SCHEMA_VERSION 2
typedef struct prn_json prn_json;
struct cJSON;
prn_json *prn_json_begin(void);
/* Adds an effective config, named (a sweep's config column) and labelled
 * (its varied keys; NULL for none, ownership taken).  Returns its index. */
int prn_json_config(prn_json *j, const cfg_config *cfg, const char *name, struct cJSON *labels);
void prn_json_add(prn_json *j, int config, const pat_params *p, const char *engine, const atom_stats *s);
/* Writes (f NULL: drops) and frees; returns 0 or -1 on allocation failure. */
int prn_json_end(prn_json *j, FILE *f);

/* The effective config as a JSON object (used by other JSON writers too). */
struct cJSON *prn_config_json(const cfg_config *cfg);

/* Shortest round-trip text for a double. */
void prn_double(char *buf, size_t len, double v);

#endif
