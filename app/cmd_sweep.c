/* cmd_sweep.c - `atomsim sweep`: the command line shared with `study`, and
 * the runner: a plan's rows as jobs of the worker pool (pool.c: forked
 * workers, results back in row order), written as CSV (the run's columns,
 * then the label columns), JSON or text, with a progress line when stderr
 * is a terminal. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "../sim/print.h"
#include "commands.h"
#include "../util/pool.h"
#include "sweep.h"

/* ---- the command line ---------------------------------------------------- */

enum {
    OPT_VARY = 2000, OPT_POINTS, OPT_SHARD, OPT_CANONICAL, OPT_KEEP_GOING, OPT_CONFIG_COLUMN,
    OPT_NO_PROGRESS, OPT_COUNT, OPT_OUT_DIR, OPT_STDOUT
};

void swp_cli_usage(FILE *f, int study)
{
    if (study)
        fprintf(f, "usage: atomsim study FILE [--out-dir DIR | --stdout] [sweep options]\n"
                   "  runs a study file (configs/studies/*.ini) and writes its [outputs] under DIR\n"
                   "  (default build/studies); sweep options given here replace the file's axes of\n"
                   "  the same key in every grid, and --config replaces its configs.\n\n");
    static const char lead[] = "usage: atomsim sweep --pattern LIST [--config FILE ...]";
    int col = (int)strlen(lead);
    fputs(lead, f);
    cli_usage_params(f, &col, 21, "LIST");
    cli_wrap(f, &col, 90, 21, " ", "[--engine sim,model]");
    fprintf(f,
            "\n"
            "                     [--vary KEY=LIST ...] [--points CSV] [-p section.key=value ...]\n"
            "                     [-j N] [--shard K/N] [--canonical] [--keep-going] [--config-column]\n"
            "                     [--no-progress] [--count] [--format csv|json|text]\n"
            "  LIST: values and ranges, comma separated: 1,4,16  1..65536:x2 (geometric)\n"
            "        0..1:+0.1 (arithmetic)  1..8 (step 1); integers may be written 2^E;\n"
            "        --pattern all is every pattern\n");
    /* the pattern flags' keys, wrapped as words; the points' columns on a line */
    fputs("  --vary KEY=LIST  KEY: a pattern flag (", f);
    col = (int)strlen("  --vary KEY=LIST  KEY: a pattern flag (");
    for (int i = 0; i < PP_COUNT; i++)
        cli_wrap(f, &col, 86, 8, i ? " " : "", pat_param_get(i)->flag + 2);
    static const char *const vary_tail[] = { "pattern", "engine)", "or", "any", "config", "key",
                                             "(l2.slice_count=40,80,160)" };
    for (size_t i = 0; i < sizeof vary_tail / sizeof vary_tail[0]; i++)
        cli_wrap(f, &col, 86, 8, " ", vary_tail[i]);
    fputs("\n  --points CSV     explicit points: a CSV whose header names pattern and any of\n       ", f);
    for (int i = 0; i < PP_COUNT; i++)
        fprintf(f, " %s", pat_param_get(i)->name);
    fprintf(f,
            " engine (a dataset)\n"
            "  --config FILE    repeat for several configs (a `config` column names each)\n"
            "  rows: configs outermost, then config-key axes, then pattern axes, in the order\n"
            "        given, the last fastest; CSV = the run's columns, then `config` (several\n"
            "        configs or --config-column) and one column per varied config key\n"
            "  -j N             worker processes (default: online CPUs); output is the same for any N\n"
            "  --shard K/N      rows floor((K-1)R/N) .. floor(KR/N)-1 of the R rows, K from 1:\n"
            "        the shards' rows concatenated in K order are the whole sweep's\n"
            "  --canonical      flags a pattern ignores take the defaults; repeated points run once\n"
            "  --keep-going     report a failed row on stderr and go on (exit 1 at the end)\n"
            "  --count          print the number of rows (of this shard) and exit\n");
}

/* The axis key of a flag: pattern, engine or a parameter's flag name. */
static const char *code_key(int c)
{
    const pat_param_desc *d = cli_opt_param(c);
    if (d)
        return d->flag + 2;
    return c == CLI_OPT_PATTERN ? "pattern" : c == CLI_OPT_ENGINE ? "engine" : NULL;
}

static int add_axis(swp_cli *c, const char *key, const char *values, char err[CFG_ERR_MAX])
{
    const pat_param_desc *d = pat_param_find(key);
    const char *k = d ? d->flag + 2 : key; /* smem_per_wg is smem-per-wg */
    for (int i = 0; i < c->axis_count; i++)
        if (!strcmp(c->axis_key[i], k)) {
            snprintf(err, CFG_ERR_MAX, "'%s' is given twice", k);
            return -1;
        }
    if (c->axis_count == SWP_MAX_AXES) {
        snprintf(err, CFG_ERR_MAX, "more than %d axes", SWP_MAX_AXES);
        return -1;
    }
    c->axis_key[c->axis_count] = k;
    c->axis_values[c->axis_count++] = values;
    return 0;
}

int swp_cli_parse(swp_cli *c, int argc, char **argv, int study, char err[CFG_ERR_MAX])
{
    static const struct option extra[] = {
        { "vary", required_argument, NULL, OPT_VARY },
        { "points", required_argument, NULL, OPT_POINTS },
        { "jobs", required_argument, NULL, 'j' },
        { "shard", required_argument, NULL, OPT_SHARD },
        { "canonical", no_argument, NULL, OPT_CANONICAL },
        { "keep-going", no_argument, NULL, OPT_KEEP_GOING },
        { "config-column", no_argument, NULL, OPT_CONFIG_COLUMN },
        { "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
        { "count", no_argument, NULL, OPT_COUNT },
        { "out-dir", required_argument, NULL, OPT_OUT_DIR },
        { "stdout", no_argument, NULL, OPT_STDOUT },
        { 0, 0, 0, 0 },
    };
    struct option longopts[CLI_MAX_LONGOPTS];
    cli_args scratch;
    unsigned long long v;
    int ch;
    memset(c, 0, sizeof *c);
    c->format = CLI_FORMAT_CSV;
    c->run.jobs = swp_default_jobs();
    c->run.progress = 1;
    c->run.cmd = study ? "study" : "sweep";
    c->shard_k = c->shard_n = 1;
    cli_args_init(&scratch);
    cli_longopts(longopts, extra);
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, "p:j:", longopts, NULL)) != -1) {
        const char *key = code_key(ch);
        if (key) {
            if (add_axis(c, key, optarg, err))
                return 2;
            continue;
        }
        switch (ch) {
        case CLI_OPT_HELP:
            c->help = 1;
            return 0;
        case CLI_OPT_CONFIG:
            if (c->config_count == SWP_MAX_CONFIGS) {
                snprintf(err, CFG_ERR_MAX, "more than %d configs", SWP_MAX_CONFIGS);
                return 2;
            }
            c->configs[c->config_count++] = optarg;
            break;
        case 'p':
            if (c->override_count == CLI_MAX_OVERRIDES) {
                snprintf(err, CFG_ERR_MAX, "more than %d -p overrides", CLI_MAX_OVERRIDES);
                return 2;
            }
            c->overrides[c->override_count++] = optarg;
            break;
        case CLI_OPT_FORMAT:
            if (cli_common_opt(&scratch, ch, optarg, err))
                return 2;
            c->format = scratch.format;
            c->format_given = 1;
            break;
        case OPT_VARY: {
            char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg) {
                snprintf(err, CFG_ERR_MAX, "--vary '%s': expected KEY=VALUES", optarg);
                return 2;
            }
            *eq = 0; /* argv is ours to cut */
            if (add_axis(c, optarg, eq + 1, err))
                return 2;
            break;
        }
        case OPT_POINTS:
            if (c->points || add_axis(c, "points", optarg, err)) {
                snprintf(err, CFG_ERR_MAX, "--points is given twice");
                return 2;
            }
            c->axis_count--; /* only reserved the name */
            c->points = optarg;
            break;
        case 'j':
            if (cli_parse_u64(optarg, &v) || v < 1 || v > 1024) {
                snprintf(err, CFG_ERR_MAX, "-j '%s' is not an integer in [1, 1024]", optarg);
                return 2;
            }
            c->run.jobs = (int)v;
            break;
        case OPT_SHARD:
            if (swp_parse_shard(optarg, &c->shard_k, &c->shard_n, err))
                return 2;
            break;
        case OPT_CANONICAL: c->canonical = 1; break;
        case OPT_KEEP_GOING: c->run.keep_going = 1; break;
        case OPT_CONFIG_COLUMN: c->config_column = 1; break;
        case OPT_NO_PROGRESS: c->run.progress = 0; break;
        case OPT_COUNT: c->count_only = 1; break;
        case OPT_OUT_DIR:
        case OPT_STDOUT:
            if (!study) {
                snprintf(err, CFG_ERR_MAX, "%s is a study option", argv[optind - 1]);
                return 2;
            }
            if (ch == OPT_OUT_DIR)
                c->out_dir = optarg;
            else
                c->to_stdout = 1;
            break;
        default:
            snprintf(err, CFG_ERR_MAX, "bad option '%s' (see atomsim %s --help)", argv[optind - 1], c->run.cmd);
            return 2;
        }
    }
    for (; optind < argc; optind++) {
        if (!study || c->positional) {
            snprintf(err, CFG_ERR_MAX, "unexpected argument '%s'", argv[optind]);
            return 2;
        }
        c->positional = argv[optind];
    }
    return 0;
}

int swp_cli_apply(const swp_cli *c, swp_spec *s, char err[CFG_ERR_MAX])
{
    if (c->config_count)
        swp_clear_configs(s);
    for (int i = 0; i < c->config_count; i++)
        if (swp_add_config(s, c->configs[i], err))
            return -1;
    for (int i = 0; i < c->override_count; i++)
        if (swp_add_override(s, c->overrides[i], err))
            return -1;
    for (int i = 0; i < c->axis_count; i++)
        if (swp_set_axis(s, -1, c->axis_key[i], c->axis_values[i], err))
            return -1;
    if (c->points && swp_set_points(s, -1, c->points, err))
        return -1;
    if (c->canonical)
        swp_set_canonical(s, 1);
    if (c->config_column)
        swp_set_config_column(s, 1);
    return swp_set_shard(s, c->shard_k, c->shard_n, err);
}

int swp_default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

/* ---- writers --------------------------------------------------------------- */

typedef struct swp_writer {
    const swp_plan *p;
    const swp_output *outs;
    int nouts;
    int single;                        /* one effective config: the run's JSON */
    prn_json *json;                    /* the group being collected */
    int json_group;
    cJSON *root, *list;                /* several groups: atomsim-sweep/1 */
    int rows;
} swp_writer;

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

static int writer_begin(swp_writer *w, const swp_plan *p, const swp_output *outs, int nouts)
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

static int writer_row(swp_writer *w, const swp_row *r, const atom_stats *st)
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

static int writer_end(swp_writer *w)
{
    int rc = 0;
    if (has_json(w)) {
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

/* ---- running ----------------------------------------------------------------- */

typedef struct swp_result {
    uint64_t pos;
    int rc;
    atom_stats st;
    char err[CFG_ERR_MAX];
} swp_result;

static void run_one(const swp_plan *p, uint64_t pos, swp_result *r)
{
    swp_row row;
    memset(r, 0, sizeof *r);
    r->pos = pos;
    r->rc = swp_plan_row(p, pos, &row, r->err);
    if (!r->rc)
        r->rc = cli_run_engine(row.cfg, &row.params, row.engine, &r->st, r->err);
}

/* Writes a finished row, or reports its failure.  Returns its rc. */
static int emit(const swp_plan *p, const swp_run_opts *o, swp_writer *w, const swp_result *r, int *write_failed)
{
    swp_row row;
    char err[CFG_ERR_MAX], d[1024];
    if (swp_plan_row(p, r->pos, &row, err)) {
        cli_error(o->cmd, "%s", err);
        return 2;
    }
    if (r->rc) {
        swp_row_describe(p, &row, d, sizeof d);
        cli_error(o->cmd, "%s: %s", d, r->err);
        return r->rc;
    }
    if (writer_row(w, &row, &r->st))
        *write_failed = 1;
    return 0;
}

/* The rows as pool jobs (pool.c runs them on the workers). */
typedef struct swp_jobs {
    const swp_plan *p;
    const swp_run_opts *o;
    swp_writer *w;
    int write_failed, worst;
} swp_jobs;

static void job_run(void *ctx, uint64_t pos, void *result)
{
    run_one(((swp_jobs *)ctx)->p, pos, result);
}

static int job_done(void *ctx, uint64_t pos, void *result)
{
    swp_jobs *j = ctx;
    (void)pos;
    int r = emit(j->p, j->o, j->w, result, &j->write_failed);
    if (!r)
        return 0;
    j->worst = j->worst > r ? j->worst : r;
    return !j->o->keep_going;
}

static void job_describe(void *ctx, uint64_t pos, char *buf, size_t len)
{
    swp_jobs *j = ctx;
    swp_row row;
    char err[CFG_ERR_MAX];
    if (!swp_plan_row(j->p, pos, &row, err))
        swp_row_describe(j->p, &row, buf, len);
}

int swp_run(const swp_plan *p, const swp_run_opts *o, const swp_output *outs, int nouts)
{
    swp_writer w;
    swp_jobs j = { p, o, &w, 0, 0 };
    pool_ops ops = { sizeof(swp_result), job_run, job_done, job_describe, o->cmd, "rows" };
    writer_begin(&w, p, outs, nouts);
    int rc = pool_run(&ops, &j, swp_plan_count(p), o->jobs, o->progress);
    if (writer_end(&w) || j.write_failed) {
        cli_error(o->cmd, "cannot write the output: %s", strerror(errno));
        rc = rc > 1 ? rc : 1;
    }
    if (j.worst && o->keep_going)
        j.worst = 1; /* some rows are missing: the sweep as a whole failed */
    return rc > j.worst ? rc : j.worst;
}


/* ---- atomsim sweep ------------------------------------------------------------ */

int cmd_sweep(int argc, char **argv)
{
    swp_cli c;
    swp_spec *s = NULL;
    swp_plan *p = NULL;
    char err[CFG_ERR_MAX];
    int rc = 2;
    if (swp_cli_parse(&c, argc, argv, 0, err)) {
        cli_error("sweep", "%s", err);
        return 2;
    }
    if (c.help) {
        swp_cli_usage(stdout, 0);
        return 0;
    }
    if (swp_spec_new(&s)) {
        cli_error("sweep", "out of memory");
        return 1;
    }
    if (swp_cli_apply(&c, s, err) || swp_plan_open(s, &p, err)) {
        cli_error("sweep", "%s", err);
        goto out;
    }
    if (c.count_only) {
        printf("%llu\n", (unsigned long long)swp_plan_count(p));
        rc = fflush(stdout) ? 1 : 0;
        goto out;
    }
    swp_output out = { c.format, stdout };
    rc = swp_run(p, &c.run, &out, 1);
out:
    swp_plan_close(p);
    swp_spec_free(s);
    return rc;
}
