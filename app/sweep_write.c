/* sweep_write.c - the writers of a sweep's rows, in row order: CSV (the
 * run's columns, then the plan's label columns), JSON (the run's document
 * for one effective config, atomsim-sweep/1 with one document per config
 * for several) and text (the run's report, with the point's labels). */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "print.h"
#include "sweep_int.h"

/* ---- writers --------------------------------------------------------------- */

static const char *engine_name(enum cli_engine e)
{
    return e == CLI_ENGINE_MODEL ? "model" : "sim";
}

/* Appends `suffix` to the line `print` writes (before its newline). */
static void with_suffix(FILE *f, const char *suffix, void (*print)(FILE *, const void *), const void *arg)
{
    if (!*suffix) {
        print(f, arg);
        return;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) {
        print(f, arg);
        return;
    }
    print(m, arg);
    fclose(m);
    if (len && buf[len - 1] == '\n')
        len--;
    fwrite(buf, 1, len, f);
    fputs(suffix, f);
    fputc('\n', f);
    free(buf);
}

static void header_print(FILE *f, const void *arg)
{
    (void)arg;
    prn_csv_header(f);
}

struct row_arg {
    const swp_row *r;
    const atom_stats *st;
};

static void row_print(FILE *f, const void *arg)
{
    const struct row_arg *a = arg;
    prn_csv_row(f, &a->r->params, engine_name(a->r->engine), a->st);
}

static cJSON *group_labels(const swp_plan *p, int group)
{
    const char *const *keys;
    int n = swp_plan_label_keys(p, &keys);
    const cfg_config *cfg = NULL;
    swp_row r;
    char err[CFG_ERR_MAX];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "config", swp_plan_config_name(p, group));
    /* the group's effective config, through any row of it */
    for (uint64_t i = 0; i < swp_plan_count(p) && !cfg; i++)
        if (!swp_plan_row(p, i, &r, err) && r.group == group)
            cfg = r.cfg;
    for (int i = 0; i < n && cfg; i++) {
        char sec[64], v[128];
        const char *dot = strchr(keys[i], '.');
        snprintf(sec, sizeof sec, "%.*s", (int)(dot - keys[i]), keys[i]);
        const cfg_option *o2 = cfg_find(sec, dot + 1);
        cfg_format(cfg, o2, v, sizeof v);
        if (o2->type == CFG_STRING || o2->type == CFG_ENUM)
            cJSON_AddStringToObject(o, keys[i], v);
        else
            cJSON_AddNumberToObject(o, keys[i], strtod(v, NULL));
    }
    return o;
}

/* Closes the JSON document of the group collected so far (several groups). */
static int json_flush(swp_writer *w)
{
    if (!w->json)
        return 0;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return -1;
    int rc = prn_json_end(w->json, m);
    fclose(m);
    w->json = NULL;
    cJSON *doc = rc ? NULL : cJSON_Parse(buf);
    free(buf);
    if (!doc)
        return -1;
    cJSON_AddItemToObject(doc, "labels", group_labels(w->p, w->json_group));
    cJSON_AddItemToArray(w->list, doc);
    return 0;
}

int swp_writer_begin(swp_writer *w, const swp_plan *p, const swp_output *outs, int nouts)
{
    char labels[2048];
    memset(w, 0, sizeof *w);
    w->p = p;
    w->outs = outs;
    w->nouts = nouts;
    w->single = swp_plan_group_count(p) == 1;
    w->json_group = -1;
    swp_plan_label_header(p, labels, sizeof labels);
    for (int i = 0; i < nouts; i++) {
        if (outs[i].format == CLI_FORMAT_CSV)
            with_suffix(outs[i].f, labels, header_print, NULL);
        if (outs[i].format == CLI_FORMAT_JSON && !w->single && !w->root) {
            w->root = cJSON_CreateObject();
            cJSON_AddStringToObject(w->root, "schema", "atomsim-sweep/1");
            w->list = cJSON_AddArrayToObject(w->root, "sweeps");
        }
    }
    return 0;
}

static int has_json(const swp_writer *w)
{
    for (int i = 0; i < w->nouts; i++)
        if (w->outs[i].format == CLI_FORMAT_JSON)
            return 1;
    return 0;
}

int swp_writer_row(swp_writer *w, const swp_row *r, const atom_stats *st)
{
    struct row_arg a = { r, st };
    for (int i = 0; i < w->nouts; i++) {
        FILE *f = w->outs[i].f;
        if (w->outs[i].format == CLI_FORMAT_CSV)
            with_suffix(f, swp_plan_labels(w->p, r->group), row_print, &a);
        else if (w->outs[i].format == CLI_FORMAT_TEXT) {
            if (w->rows)
                fputc('\n', f);
            prn_text(f, r->cfg, &r->params, engine_name(r->engine), st);
            if (*swp_plan_labels(w->p, r->group)) {
                char d[1024];
                swp_row_describe(w->p, r, d, sizeof d);
                fprintf(f, "  %-34s %s\n", "point", d);
            }
        }
    }
    if (has_json(w)) {
        if (w->json && w->json_group != r->group && !w->single && json_flush(w))
            return -1;
        if (!w->json) {
            w->json = prn_json_begin(r->cfg);
            w->json_group = r->group;
            if (!w->json)
                return -1;
        }
        prn_json_add(w->json, &r->params, engine_name(r->engine), st);
    }
    w->rows++;
    return 0;
}

/* Frees the JSON collected so far, writing none of it. */
static void json_drop(swp_writer *w)
{
    if (w->json) {
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        if (m) {
            prn_json_end(w->json, m);
            fclose(m);
        }
        free(buf);
        w->json = NULL;
    }
    cJSON_Delete(w->root);
    w->root = NULL;
}

int swp_writer_end(swp_writer *w, int complete)
{
    int rc = 0;
    if (!complete)
        json_drop(w);
    else if (has_json(w)) {
        if (w->single) {
            if (!w->json) { /* an empty shard: the run's document, no runs */
                swp_row r;
                char err[CFG_ERR_MAX];
                cfg_config cfg;
                cfg_defaults(&cfg);
                w->json = prn_json_begin(swp_plan_count(w->p) && !swp_plan_row(w->p, 0, &r, err) ? r.cfg : &cfg);
            }
            for (int i = 0; i < w->nouts && w->json; i++)
                if (w->outs[i].format == CLI_FORMAT_JSON) {
                    char *buf = NULL;
                    size_t len = 0;
                    FILE *m = open_memstream(&buf, &len);
                    if (!m || prn_json_end(w->json, m))
                        rc = -1;
                    w->json = NULL;
                    if (m)
                        fclose(m);
                    for (int j = i; j < w->nouts && buf; j++)
                        if (w->outs[j].format == CLI_FORMAT_JSON)
                            fwrite(buf, 1, len, w->outs[j].f);
                    free(buf);
                    break;
                }
        } else {
            if (json_flush(w))
                rc = -1;
            char *t = cJSON_Print(w->root);
            for (int i = 0; i < w->nouts && t; i++)
                if (w->outs[i].format == CLI_FORMAT_JSON) {
                    fputs(t, w->outs[i].f);
                    fputc('\n', w->outs[i].f);
                }
            rc |= t ? 0 : -1;
            free(t);
            cJSON_Delete(w->root);
        }
    }
    for (int i = 0; i < w->nouts; i++)
        if (fflush(w->outs[i].f) || ferror(w->outs[i].f))
            rc = -1;
    return rc;
}
