/* sweep_write.c - the writers of a sweep's rows, in row order: CSV (the
 * run's columns, then the plan's label columns), JSON (the run's document,
 * atomsim-runs: every row a run, every group an effective config) and
 * text (the run's report, with the point's labels). */
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

/* The varied config keys of a group, from its effective config. */
static cJSON *group_labels(const swp_plan *p, const cfg_config *cfg)
{
    const char *const *keys;
    int n = swp_plan_label_keys(p, &keys);
    cJSON *o = cJSON_CreateObject();
    for (int i = 0; i < n; i++) {
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

static int has_json(const swp_writer *w)
{
    for (int i = 0; i < w->nouts; i++)
        if (w->outs[i].format == CLI_FORMAT_JSON)
            return 1;
    return 0;
}

int swp_writer_begin(swp_writer *w, const swp_plan *p, const swp_output *outs, int nouts)
{
    char labels[2048];
    memset(w, 0, sizeof *w);
    w->p = p;
    w->outs = outs;
    w->nouts = nouts;
    swp_plan_label_header(p, labels, sizeof labels);
    for (int i = 0; i < nouts; i++)
        if (outs[i].format == CLI_FORMAT_CSV)
            with_suffix(outs[i].f, labels, header_print, NULL);
    if (has_json(w)) {
        int n = swp_plan_group_count(p);
        w->json_index = malloc((n ? n : 1) * sizeof *w->json_index);
        if (!w->json_index || !(w->json = prn_json_begin())) {
            free(w->json_index);
            w->json_index = NULL;
            return -1;
        }
        for (int g = 0; g < n; g++)
            w->json_index[g] = -1;
    }
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
    if (w->json) {
        /* a group's effective config enters "configs" with its first row */
        if (w->json_index[r->group] < 0)
            w->json_index[r->group] = prn_json_config(w->json, r->cfg, swp_plan_config_name(w->p, r->group),
                                                      group_labels(w->p, r->cfg));
        prn_json_add(w->json, w->json_index[r->group], &r->params, engine_name(r->engine), st);
    }
    w->rows++;
    return 0;
}

int swp_writer_end(swp_writer *w, int complete)
{
    int rc = 0;
    if (w->json) {
        char *buf = NULL;
        size_t len = 0;
        FILE *m = complete ? open_memstream(&buf, &len) : NULL;
        if (prn_json_end(w->json, m) || (complete && !m))
            rc = -1;
        w->json = NULL;
        if (m)
            fclose(m);
        for (int i = 0; i < w->nouts && buf; i++)
            if (w->outs[i].format == CLI_FORMAT_JSON)
                fwrite(buf, 1, len, w->outs[i].f);
        free(buf);
        free(w->json_index);
        w->json_index = NULL;
    }
    for (int i = 0; i < w->nouts; i++)
        if (fflush(w->outs[i].f) || ferror(w->outs[i].f))
            rc = -1;
    return rc;
}
