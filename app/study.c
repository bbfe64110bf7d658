/* study.c - `atomsim study`'s file (the format: study.h): its INI read
 * into a sweep spec, with repeated sections and keys refused, and the
 * files its [outputs] name, written under temporary names and kept only
 * when the study succeeds. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ini.h>

#include "../util/out.h"
#include "study.h"

#include "../util/lines_ini.h"

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
    study_file *f;
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
            c->f->keep_going = b;
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
        snprintf(c->f->outputs[i], sizeof c->f->outputs[i], "%s", value);
        return 1;
    }
    snprintf(c->err, CFG_ERR_MAX, "unknown section [%s] (study, grid, grid NAME, overrides, outputs)", section);
    return 0;
}

int study_load(const char *path, swp_spec *s, study_file *sf, char err[CFG_ERR_MAX])
{
    study_ctx ctx, *c = &ctx;
    memset(c, 0, sizeof *c);
    memset(sf, 0, sizeof *sf);
    c->s = s;
    c->f = sf;
    /* a study's defaults, before the file (and the command line) */
    swp_set_canonical(s, 1);
    swp_set_config_column(s, 1);
    /* bounded (lines_ini.h): /dev/zero or a directory is refused, and a
     * line longer than inih's buffer is an error, not two lines */
    lin_ini in;
    if (lin_ini_open(&in, path, "study", err, CFG_ERR_MAX))
        return -1;
    int line = ini_parse_stream(lin_ini_read, &in, on_entry, c);
    lin_ini_close(&in);
    if (in.failed) {
        snprintf(err, CFG_ERR_MAX, "%s", in.err);
        return -1;
    }
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

int study_has_outputs(const study_file *f)
{
    for (int i = 0; i < 3; i++)
        if (f->outputs[i][0])
            return 1;
    return 0;
}

/* Where an output will be: its path with "." parts and doubled slashes
 * dropped, and its directory resolved (links, "..") when it exists. */
static void out_where(const char *path, char *buf, size_t len)
{
    char lex[1200], *save = NULL, *copy = strdup(path);
    size_t n = 0;
    lex[0] = 0;
    if (path[0] == '/')
        n = (size_t)snprintf(lex, sizeof lex, "/");
    for (char *t = copy ? strtok_r(copy, "/", &save) : NULL; t; t = strtok_r(NULL, "/", &save))
        if (strcmp(t, ".") && n < sizeof lex)
            n += (size_t)snprintf(lex + n, sizeof lex - n, "%s%s", n && lex[n - 1] != '/' ? "/" : "", t);
    free(copy);
    char *slash = strrchr(lex, '/'), real[PATH_MAX];
    if (slash && slash != lex) {
        *slash = 0;
        if (realpath(lex, real)) {
            snprintf(buf, len, "%s/%s", real, slash + 1);
            return;
        }
        *slash = '/';
    }
    snprintf(buf, len, "%s", lex);
}

int study_outputs_check(const study_file *sf, const char *dir, char err[CFG_ERR_MAX])
{
    static const char *const keys[] = { "csv", "json", "text" };
    char where[3][1300], full[1200];
    struct stat st[3];
    int exists[3];
    for (int i = 0; i < 3; i++) {
        if (!sf->outputs[i][0])
            continue;
        snprintf(full, sizeof full, "%s/%s", dir, sf->outputs[i]);
        out_where(full, where[i], sizeof where[i]);
        exists[i] = stat(full, &st[i]) == 0;
        for (int j = 0; j < i; j++)
            if (sf->outputs[j][0] &&
                (!strcmp(where[i], where[j]) ||
                 (exists[i] && exists[j] && st[i].st_dev == st[j].st_dev && st[i].st_ino == st[j].st_ino))) {
                snprintf(err, CFG_ERR_MAX, "outputs %s and %s name the same file (%s): give each its own", keys[j],
                         keys[i], full);
                return -1;
            }
    }
    return 0;
}

int study_outputs_open(const study_file *sf, const char *dir, study_outputs *o, char err[CFG_ERR_MAX])
{
    static const enum cli_format formats[] = { CLI_FORMAT_CSV, CLI_FORMAT_JSON, CLI_FORMAT_TEXT };
    o->count = 0;
    for (int i = 0; i < 3; i++) {
        int n = o->count;
        if (!sf->outputs[i][0])
            continue;
        char final[1200];
        snprintf(final, sizeof final, "%s/%s", dir, sf->outputs[i]);
        char *slash = strrchr(final, '/');
        *slash = 0;
        int bad = mkdirs(final);
        *slash = '/';
        if (bad)
            snprintf(err, CFG_ERR_MAX, "%s: cannot write: %s", final, strerror(errno));
        if (bad || out_open(&o->files[n], final, err, CFG_ERR_MAX)) {
            for (int j = 0; j < o->count; j++)
                out_abort(&o->files[j]);
            o->count = 0;
            return -1;
        }
        o->outs[o->count++] = (swp_output){ formats[i], o->files[n].f };
    }
    return 0;
}

int study_outputs_close(study_outputs *o, int keep_going, int *rc, char err[CFG_ERR_MAX])
{
    int failed = 0;
    for (int i = 0; i < o->count; i++) {
        if (out_failed(&o->files[i], err, CFG_ERR_MAX)) { /* whatever *rc, say why */
            out_abort(&o->files[i]);
            failed = 1;
            *rc = *rc ? *rc : 1;
        } else if (*rc == 0 || (*rc == 1 && keep_going)) {
            if (out_commit(&o->files[i], err, CFG_ERR_MAX)) {
                failed = 1;
                *rc = *rc ? *rc : 1;
            }
        } else
            out_abort(&o->files[i]);
    }
    o->count = 0;
    return failed ? -1 : 0;
}
