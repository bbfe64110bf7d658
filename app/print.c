/* print.c - text, CSV and JSON serialization of atom_stats, driven by the
 * column table in model/stats.c, the parameter table in model/params.c
 * and the option table for the config. */
#include "print.h"

#include "../util/version.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void prn_double(char *buf, size_t len, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "nan");
        return;
    }
    cfg_format_exact(buf, len, v);
}

void prn_csv_params_header(FILE *f)
{
    size_t n;
    const pat_param_desc *d = pat_param_table(&n);
    fputs("pattern", f);
    for (size_t i = 0; i < n; i++)
        if (d[i].csv)
            fprintf(f, ",%s", d[i].csv);
}

void prn_csv_params(FILE *f, const pat_params *p)
{
    size_t n;
    char v[40];
    const pat_param_desc *d = pat_param_table(&n);
    fputs(pat_name(p->pattern), f);
    for (size_t i = 0; i < n; i++)
        if (d[i].csv) {
            pat_param_format(&d[i], p, v, sizeof v);
            fprintf(f, ",%s", v);
        }
}

void prn_csv_header(FILE *f)
{
    size_t n;
    const atom_stat_column *c = atom_stat_columns(&n);
    prn_csv_params_header(f);
    fputs(",engine", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, ",%s", c[i].name);
    fputc('\n', f);
}

void prn_csv_row(FILE *f, const pat_params *p, const char *engine, const atom_stats *s)
{
    size_t n;
    char v[40];
    const atom_stat_column *c = atom_stat_columns(&n);
    prn_csv_params(f, p);
    fprintf(f, ",%s", engine);
    for (size_t i = 0; i < n; i++) {
        double x = atom_stat_get(s, &c[i]);
        if (c[i].integer)
            snprintf(v, sizeof v, "%.0f", x);
        else
            prn_double(v, sizeof v, round(x * 1e6) / 1e6); /* stable across platforms */
        fprintf(f, ",%s", v);
    }
    fputc('\n', f);
}

void prn_text(FILE *f, const cfg_config *cfg, const pat_params *p, const char *engine, const atom_stats *s)
{
    size_t n;
    char shown[512];
    const atom_stat_column *c = atom_stat_columns(&n);
    pat_describe(p, shown, sizeof shown);
    fprintf(f, "%s on %s (%s engine):%s\n", pat_name(p->pattern), cfg->gpu.name, engine, shown);
    fprintf(f, "  %-34s %s\n", "trust", cfg->gpu.trust);
    fprintf(f, "  %-34s %.3f\n", "time_us", s->time_us);
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(c[i].name, "time_us"))
            continue;
        double x = atom_stat_get(s, &c[i]);
        if (c[i].integer)
            fprintf(f, "  %-34s %.0f\n", c[i].name, x);
        else
            fprintf(f, "  %-34s %.4g\n", c[i].name, x);
    }
}

cJSON *prn_config_json(const cfg_config *cfg)
{
    size_t n;
    const cfg_option *o = cfg_options(&n);
    cJSON *root = cJSON_CreateObject();
    cJSON *sec = NULL;
    const char *cur = "";
    char buf[128];
    for (size_t i = 0; i < n; i++) {
        if (strcmp(cur, o[i].section)) {
            cur = o[i].section;
            sec = cJSON_AddObjectToObject(root, cur);
        }
        cfg_format(cfg, &o[i], buf, sizeof buf);
        if (o[i].type == CFG_STRING || o[i].type == CFG_ENUM)
            cJSON_AddStringToObject(sec, o[i].key, buf);
        else
            cJSON_AddNumberToObject(sec, o[i].key, strtod(buf, NULL));
    }
    return root;
}

struct prn_json {
    cJSON *root;
    cJSON *runs, *configs;
    int nconfigs;
};

prn_json *prn_json_begin(void)
{
    prn_json *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->root = cJSON_CreateObject();
    cJSON_AddStringToObject(j->root, "schema", PRN_RUNS_SCHEMA);
    cJSON_AddNumberToObject(j->root, "schema_version", PRN_RUNS_SCHEMA_VERSION);
    cJSON_AddStringToObject(j->root, "version", atom_version());
    j->runs = cJSON_AddArrayToObject(j->root, "runs");
    j->configs = cJSON_AddArrayToObject(j->root, "configs");
    return j;
}

int prn_json_config(prn_json *j, const cfg_config *cfg, const char *name, struct cJSON *labels)
{
    char hash[32];
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "name", name);
    cJSON_AddItemToObject(c, "labels", labels ? labels : cJSON_CreateObject());
    cJSON_AddStringToObject(c, "config_path", cfg->path);
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)cfg_hash(cfg));
    cJSON_AddStringToObject(c, "config_hash", hash);
    cJSON_AddItemToObject(c, "config", prn_config_json(cfg));
    cJSON_AddItemToArray(j->configs, c);
    return j->nconfigs++;
}

void prn_json_add(prn_json *j, int config, const pat_params *p, const char *engine, const atom_stats *s)
{
    size_t n;
    const atom_stat_column *c = atom_stat_columns(&n);
    cJSON *r = cJSON_CreateObject();
    cJSON_AddNumberToObject(r, "config", config);
    cJSON_AddStringToObject(r, "pattern", pat_name(p->pattern));
    size_t np;
    const pat_param_desc *d = pat_param_table(&np);
    for (size_t i = 0; i < np; i++)
        cJSON_AddNumberToObject(r, d[i].name, pat_param_value(&d[i], p));
    cJSON_AddStringToObject(r, "engine", engine);
    for (size_t i = 0; i < n; i++) {
        double x = atom_stat_get(s, &c[i]);
        cJSON_AddNumberToObject(r, c[i].name, isfinite(x) ? round(x * 1e6) / 1e6 : 0.0);
    }
    cJSON_AddItemToArray(j->runs, r);
}

int prn_json_end(prn_json *j, FILE *f)
{
    char *text = f ? cJSON_Print(j->root) : NULL;
    int rc = text || !f ? 0 : -1;
    if (text) {
        fputs(text, f);
        fputc('\n', f);
        free(text);
    }
    cJSON_Delete(j->root);
    free(j);
    return rc;
}
