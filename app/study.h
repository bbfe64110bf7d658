/* study.h - `atomsim study`'s file: a sweep described in a small versioned
 * INI file (configs/studies/NAME.ini), read into a sweep spec, and the
 * files its [outputs] name.  The format, version 1:
 *
 *   [study]      version = 1 (required), name, question, configs = a.ini, b.ini,
 *                canonical = yes|no (default yes), keep_going = yes|no (no),
 *                config_column = yes|no (yes)
 *   [grid]       KEY = LIST, as `atomsim sweep --vary KEY=LIST` (pattern flags,
 *                engine, config keys section.key), or points = dataset.csv;
 *                more grids: [grid NAME] sections, run one after another
 *   [overrides]  section.key = value, applied to every config (like -p)
 *   [outputs]    csv = NAME.csv, json = NAME.json, text = NAME.txt (under --out-dir)
 *
 * Paths (configs, points) are relative to the current directory (the
 * repository root).  Command-line sweep options replace the file's axes of
 * the same key in every grid; --config replaces its configs (swp_cli_apply). */
#ifndef ATOM_APP_STUDY_H
#define ATOM_APP_STUDY_H

#include "../util/out.h"
#include "sweep.h"

/* What a study file says besides its spec. */
typedef struct study_file {
    int keep_going;
    char outputs[3][512];              /* csv, json, text; "" when not named */
} study_file;

/* Reads the study at `path` into `s` (a new spec): its configs, grids,
 * overrides and options, with the study's defaults (canonical, config
 * column) first.  Returns 0, or -1 with err set ("path:line: why"). */
int study_load(const char *path, swp_spec *s, study_file *f, char err[CFG_ERR_MAX]);
/* Whether the file names any output (without, a study writes CSV to stdout). */
int study_has_outputs(const study_file *f);

/* The files of a study's [outputs] while it runs: each written under a
 * temporary name beside it (util/out.h), and given its own only when the
 * study succeeds. */
typedef struct study_outputs {
    swp_output outs[3];
    out_file files[3];
    int count;
} study_outputs;

/* Refuses two outputs that name one file under `dir` (the same path once
 * "." and links of its directory are resolved, or one existing file):
 * their rows would interleave.  Returns 0, or -1 with err set. */
int study_outputs_check(const study_file *f, const char *dir, char err[CFG_ERR_MAX]);
/* Opens the outputs under `dir` (creating it).  Returns 0, or -1 with err
 * set and nothing left open or behind. */
int study_outputs_open(const study_file *f, const char *dir, study_outputs *o, char err[CFG_ERR_MAX]);
/* Closes the outputs of a run that ended with *rc.  A file takes its final
 * name while *rc is 0, or 1 with keep_going; otherwise (a failed or
 * interrupted study) it is removed and the old file stays.  A file that
 * cannot be written out turns a 0 *rc into 1 and sets err (returns -1). */
int study_outputs_close(study_outputs *o, int keep_going, int *rc, char err[CFG_ERR_MAX]);

#endif
