/* cmd_study.c - `atomsim study FILE`: a sweep described in a small
 * versioned INI file (configs/studies/NAME.ini), written to the files its
 * [outputs] name.  The format, version 1:
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
 * the same key in every grid; --config replaces its configs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ini.h>

#include "commands.h"
#include "sweep.h"

#define STUDY_VERSION 1
#define STUDY_MAX_KEYS 128

typedef struct study_ctx {
    swp_spec *s;
    char err[CFG_ERR_MAX];
    char section[128];
    char grid_names[SWP_MAX_GRIDS][128];
    int grids;                         /* grid sections seen */
    int grid;                          /* the spec's grid of the current section */
    char keys[STUDY_MAX_KEYS][160];    /* section/key pairs seen, for repeats */
    int key_count;
    int version;
    int keep_going;
    char outputs[3][512];              /* csv, json, text */
} study_ctx;

static int yes_no(const char *v, int *out)
{
    if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "on"))
        *out = 1;
    else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0") || !strcmp(v, "off"))
        *out = 0;
    else
        return -1;
    return 0;
}

static int is_grid(const char *section)
{
    return !strcmp(section, "grid") || !strncmp(section, "grid ", 5);
}

/* A new section: grids get their own spec grid; a section seen before,
 * after another one, is refused (one place per section). */
static int enter_section(study_ctx *c, const char *section)
{
    snprintf(c->section, sizeof c->section, "%s", section);
    if (!is_grid(section))
        return 0;
    for (int i = 0; i < c->grids; i++)
        if (!strcmp(c->grid_names[i], section)) {
            snprintf(c->err, CFG_ERR_MAX, "section [%s] appears twice", section);
            return -1;
        }
    if (c->grids == SWP_MAX_GRIDS) {
        snprintf(c->err, CFG_ERR_MAX, "more than %d grids", SWP_MAX_GRIDS);
        return -1;
    }
    snprintf(c->grid_names[c->grids], sizeof c->grid_names[0], "%s", section);
    if (c->grids++ == 0)
        c->grid = 0;
    else if (swp_add_grid(c->s, &c->grid, c->err))
        return -1;
    return 0;
}

static int study_key(study_ctx *c, const char *key, const char *value)
{
    int b;
    if (!strcmp(key, "version")) {
        unsigned long long v;
        if (cli_parse_u64(value, &v) || v < 1) {
            snprintf(c->err, CFG_ERR_MAX, "version '%s' is not a positive integer", value);
            return -1;
        }
        if (v > STUDY_VERSION) {
            snprintf(c->err, CFG_ERR_MAX, "study version %llu is newer than this atomsim (it reads version %d)", v,
                     STUDY_VERSION);
            return -1;
        }
        c->version = (int)v;
        return 0;
    }
    if (!strcmp(key, "name") || !strcmp(key, "question"))
        return 0;
    if (!strcmp(key, "configs")) {
        char *copy = strdup(value), *save = NULL;
        int rc = 0;
        for (char *t = strtok_r(copy, ", \t", &save); t && !rc; t = strtok_r(NULL, ", \t", &save))
            rc = swp_add_config(c->s, t, c->err);
        free(copy);
        return rc;
    }
    if (!strcmp(key, "canonical") || !strcmp(key, "keep_going") || !strcmp(key, "config_column")) {
        if (yes_no(value, &b)) {
            snprintf(c->err, CFG_ERR_MAX, "%s '%s' is not yes or no", key, value);
            return -1;
        }
        if (key[0] == 'c' && key[1] == 'a')
            swp_set_canonical(c->s, b);
        else if (key[0] == 'k')
            c->keep_going = b;
        else
            swp_set_config_column(c->s, b);
        return 0;
    }
    snprintf(c->err, CFG_ERR_MAX, "unknown key '%s' in [study]", key);
    return -1;
}

static int on_entry(void *user, const char *section, const char *key, const char *value)
{
    study_ctx *c = user;
    char id[160];
    if (strcmp(section, c->section) && enter_section(c, section))
        return 0;
    snprintf(id, sizeof id, "%s/%s", section, key);
    for (int i = 0; i < c->key_count; i++)
        if (!strcmp(c->keys[i], id)) {
            snprintf(c->err, CFG_ERR_MAX, "key '%s' appears twice in [%s]", key, section);
            return 0;
        }
    if (c->key_count < STUDY_MAX_KEYS)
        snprintf(c->keys[c->key_count++], sizeof c->keys[0], "%s", id);
    if (!strcmp(section, "study"))
        return !study_key(c, key, value);
    if (is_grid(section)) {
        if (!strcmp(key, "points"))
            return !swp_set_points(c->s, c->grid, value, c->err);
        return !swp_set_axis(c->s, c->grid, key, value, c->err);
    }
    if (!strcmp(section, "overrides")) {
        char a[512];
        snprintf(a, sizeof a, "%s=%s", key, value);
        return !swp_add_override(c->s, a, c->err);
    }
    if (!strcmp(section, "outputs")) {
        int i = !strcmp(key, "csv") ? 0 : !strcmp(key, "json") ? 1 : !strcmp(key, "text") ? 2 : -1;
        if (i < 0 || !*value || strstr(value, "..")) {
            snprintf(c->err, CFG_ERR_MAX, i < 0 ? "unknown output '%s' (csv, json or text)" : "output %s: a plain relative name, please",
                     key);
            return 0;
        }
        snprintf(c->outputs[i], sizeof c->outputs[i], "%s", value);
        return 1;
    }
    snprintf(c->err, CFG_ERR_MAX, "unknown section [%s] (study, grid, grid NAME, overrides, outputs)", section);
    return 0;
}

static int load_study(study_ctx *c, const char *path, char err[CFG_ERR_MAX])
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, CFG_ERR_MAX, "%s: cannot open study: %s", path, strerror(errno));
        return -1;
    }
    int line = ini_parse_file(f, on_entry, c);
    fclose(f);
    if (line) {
        snprintf(err, CFG_ERR_MAX, "%s:%d: %s", path, line, c->err[0] ? c->err : "malformed line");
        return -1;
    }
    if (!c->version) {
        snprintf(err, CFG_ERR_MAX, "%s: [study] version is missing (this atomsim reads version %d)", path, STUDY_VERSION);
        return -1;
    }
    if (!c->grids) {
        snprintf(err, CFG_ERR_MAX, "%s: no [grid] section", path);
        return -1;
    }
    return 0;
}

static int mkdirs(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0777) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

int cmd_study(int argc, char **argv)
{
    static const enum cli_format formats[] = { CLI_FORMAT_CSV, CLI_FORMAT_JSON, CLI_FORMAT_TEXT };
    swp_cli cli;
    study_ctx *c = NULL;
    swp_plan *p = NULL;
    swp_output outs[3];
    char err[CFG_ERR_MAX], final[3][1200], tmp[3][1200];
    int nouts = 0, rc = 2, ran = 0;
    if (swp_cli_parse(&cli, argc, argv, 1, err)) {
        cli_error("study", "%s", err);
        return 2;
    }
    if (cli.help) {
        swp_cli_usage(stdout, 1);
        return 0;
    }
    if (!cli.positional) {
        cli_error("study", "which study? (atomsim study configs/studies/NAME.ini)");
        return 2;
    }
    if (cli.format_given && !cli.to_stdout) {
        cli_error("study", "--format goes with --stdout (otherwise the study writes its [outputs])");
        return 2;
    }
    if (!(c = calloc(1, sizeof *c)) || swp_spec_new(&c->s)) {
        cli_error("study", "out of memory");
        free(c);
        return 1;
    }
    swp_set_canonical(c->s, 1);
    swp_set_config_column(c->s, 1);
    if (load_study(c, cli.positional, err) || swp_cli_apply(&cli, c->s, err) || swp_plan_open(c->s, &p, err)) {
        cli_error("study", "%s", err);
        goto out;
    }
    cli.run.keep_going |= c->keep_going;
    if (cli.count_only) {
        printf("%llu\n", (unsigned long long)swp_plan_count(p));
        rc = fflush(stdout) ? 1 : 0;
        goto out;
    }
    if (cli.to_stdout) {
        outs[nouts++] = (swp_output){ cli.format, stdout };
        rc = swp_run(p, &cli.run, outs, nouts);
        goto out;
    }
    const char *dir = cli.out_dir ? cli.out_dir : "build/studies";
    for (int i = 0; i < 3; i++) {
        if (!c->outputs[i][0])
            continue;
        snprintf(final[nouts], sizeof final[0], "%s/%s", dir, c->outputs[i]);
        snprintf(tmp[nouts], sizeof tmp[0], "%s.tmp%ld", final[nouts], (long)getpid());
        char *slash = strrchr(final[nouts], '/');
        *slash = 0;
        int bad = mkdirs(final[nouts]);
        *slash = '/';
        FILE *f = bad ? NULL : fopen(tmp[nouts], "w");
        if (!f) {
            cli_error("study", "%s: cannot write: %s", final[nouts], strerror(errno));
            rc = 1;
            goto close;
        }
        outs[nouts++] = (swp_output){ formats[i], f };
    }
    if (!nouts) { /* a study without [outputs]: CSV on stdout */
        outs[nouts++] = (swp_output){ CLI_FORMAT_CSV, stdout };
        rc = swp_run(p, &cli.run, outs, nouts);
        goto out;
    }
    rc = swp_run(p, &cli.run, outs, nouts);
    ran = 1;
close:
    for (int i = 0; i < nouts; i++) {
        if (fclose(outs[i].f) && !rc) {
            cli_error("study", "%s: %s", final[i], strerror(errno));
            rc = 1;
        }
        /* a failed study leaves no output behind, unless it was told to keep going */
        if (ran && (rc == 0 || (rc == 1 && cli.run.keep_going)) && rename(tmp[i], final[i]) == 0)
            continue;
        unlink(tmp[i]);
    }
out:
    swp_plan_close(p);
    swp_spec_free(c->s);
    free(c);
    return rc;
}
