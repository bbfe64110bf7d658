/* export_write.c - the cost table's writers: JSON (the schema that
 * tbl_load reads) and CSV (one row per cell, for plots and pandas); the C
 * header's is export_header.c, and what they share export_fields.h.
 *
 * Written by hand rather than through cJSON: the tables hold ~10^5 cells,
 * and a fixed number format per field is what keeps identical input
 * byte-identical across builds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "export_fields.h"
#include "params_csv.h"
#include "../util/esc.h"
#include "../util/sig6.h"
#include "../util/version.h"

/* Predictions: six significant digits, written as cfg_format_exact writes
 * the double they read back as.  Six digits always read back as
 * themselves (a double carries 15), so only an integer in exponent form
 * (1.23457e+06) is written again; the rest skips a second print and parse
 * (callgrind: a quarter of a model export's instructions). */
void exp_format_value(char *buf, size_t len, double v)
{
    sig6_format(buf, len, v);
    if (strchr(buf, 'e')) {
        double r = strtod(buf, NULL);
        if (r == floor(r) && fabs(r) < 1e15)
            snprintf(buf, len, "%.0f", r);
    }
}

/* One option of a GPU or CPU option table, as the config objects print it. */
typedef struct json_opt {
    const char *section, *key;
    char value[160];
    int quoted;
} json_opt;

typedef void (*json_opt_fn)(const void *config, size_t i, json_opt *out);

/* A config as {"section": {"key": value, ...}, ...}, sections in table order. */
static void json_sections(FILE *f, size_t n, json_opt_fn get, const void *config)
{
    const char *cur = NULL;
    json_opt o;
    fputs("{", f);
    for (size_t i = 0; i < n; i++) {
        get(config, i, &o);
        if (!cur || strcmp(cur, o.section)) {
            fprintf(f, "%s\n      \"%s\": {", cur ? "}," : "", o.section);
            cur = o.section;
        } else
            fputs(",", f);
        fprintf(f, "\"%s\": ", o.key);
        if (o.quoted)
            esc_json(f, o.value);
        else
            fputs(o.value, f);
    }
    fputs("}\n    }", f);
}

static void gpu_opt(const void *config, size_t i, json_opt *out)
{
    size_t n;
    const cfg_option *o = &cfg_options(&n)[i];
    out->section = o->section;
    out->key = o->key;
    cfg_format(config, o, out->value, sizeof out->value);
    out->quoted = o->type == CFG_STRING || o->type == CFG_ENUM;
}

static void cpu_opt(const void *config, size_t i, json_opt *out)
{
    size_t n;
    const cpu_option *o = &cpu_options(&n)[i];
    out->section = o->section;
    out->key = o->key;
    cpu_format(config, o, out->value, sizeof out->value);
    out->quoted = o->type == CPU_T_STRING;
}

static void json_gpu_config(FILE *f, const cfg_config *c)
{
    size_t n;
    cfg_options(&n);
    json_sections(f, n, gpu_opt, c);
}

static void json_cpu_config(FILE *f, const cpu_config *c)
{
    size_t n;
    cpu_options(&n);
    json_sections(f, n, cpu_opt, c);
}


/* One letter a cell: decisions g/c, seed reasons g/c/d/x (gpu_faster,
 * cpu_faster, density, cas), sources m/s (model, simulator). */
static char target_code(enum dsp_target t)
{
    return t == DSP_GPU ? 'g' : 'c';
}

static char reason_code(enum dsp_reason r)
{
    static const char codes[DSP_REASON_COUNT] = { 'g', 'c', 'd', 'x' };
    return (unsigned)r < DSP_REASON_COUNT ? codes[r] : '?';
}

static char source_code(enum exp_source s)
{
    return s == EXP_SOURCE_SIM ? 's' : s == EXP_SOURCE_ANCHORED ? 'a' : 'm';
}

/* The CSV's source column. */
static const char *source_word(enum exp_source s)
{
    return s == EXP_SOURCE_SIM ? "sim" : s == EXP_SOURCE_ANCHORED ? "anchored" : "model";
}

const char *const exp_code_names[EXP_CODE_COUNT] = { "source", "decision", "seed_decision", "seed_reason" };

char exp_cell_code(const exp_cell *c, enum exp_code_field f)
{
    switch (f) {
    case EXP_CODE_SOURCE: return source_code(c->source);
    case EXP_CODE_DECISION: return target_code(c->decision);
    case EXP_CODE_SEED_DECISION: return target_code(c->seed_decision);
    default: return reason_code(c->seed_reason);
    }
}

const char *const exp_host_names[EXP_HOST_COUNT] = { "cpu_us", "density", "density_fraction" };

static double host_value(const exp_host_cell *c, enum exp_host_field f)
{
    return f == EXP_HOST_CPU ? c->cpu_us : f == EXP_HOST_DENSITY ? c->density : c->density_fraction;
}

static void json_numbers(FILE *f, const char *name, size_t count, double (*get)(const void *, size_t, int),
                         const void *base, int field, int last)
{
    char buf[48];
    fprintf(f, "        \"%s\": [", name);
    for (size_t i = 0; i < count; i++) {
        exp_format_value(buf, sizeof buf, get(base, i, field));
        fprintf(f, "%s%s", i ? "," : "", buf);
    }
    fprintf(f, "]%s\n", last ? "" : ",");
}

double exp_get_gpu(const void *base, size_t i, int field)
{
    (void)field;
    return ((const exp_cell *)base)[i].gpu_us;
}

double exp_get_host(const void *base, size_t i, int field)
{
    return host_value(&((const exp_host_cell *)base)[i], (enum exp_host_field)field);
}

/* A band's numbers as every export writes them: n_lo, n_hi exact, then
 * p10, p50, p90 at six digits. */
void exp_band_values(const exp_band *eb, char v[EXP_BAND_VALUES][48])
{
    cfg_format_exact(v[0], 48, eb->n_lo);
    cfg_format_exact(v[1], 48, eb->n_hi);
    exp_format_value(v[2], 48, eb->p10);
    exp_format_value(v[3], 48, eb->p50);
    exp_format_value(v[4], 48, eb->p90);
}

/* One side's error bands as a JSON list. */
static void json_bands(FILE *f, const char *name, const exp_band *bands, int count, int last)
{
    fprintf(f, "      \"%s\": [", name);
    for (int b = 0; b < count; b++) {
        const exp_band *eb = &bands[b];
        char v[EXP_BAND_VALUES][48];
        exp_band_values(eb, v);
        fprintf(f, "%s\n        {\"n_lo\": %s, \"n_hi\": %s, \"rows\": %d, \"p10\": %s, \"p50\": %s, \"p90\": %s}",
                b ? "," : "", v[0], v[1], eb->rows, v[2], v[3], v[4]);
    }
    fprintf(f, "%s]%s\n", count ? "\n      " : "", last ? "" : ",");
}

static void json_pattern(FILE *f, const exp_pattern *ep)
{
    char buf[48];
    fprintf(f, "    {\n      \"pattern\": \"%s\",\n      \"uses_cas\": %s,\n", pat_name(ep->pattern),
            pat_uses_cas(ep->pattern) ? "true" : "false");
    cfg_format_exact(buf, sizeof buf, ep->fixed.selectivity);
    fprintf(f, "      \"fixed\": {\"selectivity\": %s, ", buf);
    cfg_format_exact(buf, sizeof buf, ep->fixed.hot);
    fprintf(f, "\"bins\": %u, \"hot\": %s, \"addresses\": %u},\n", ep->fixed.bins, buf, ep->fixed.addresses);
    fputs("      \"axes\": [", f);
    for (int a = 0; a < ep->axis_count; a++) {
        const exp_axis *ax = &ep->axes[a];
        fprintf(f, "%s\n        {\"name\": \"%s\", \"scale\": \"%s\", \"gpu_only\": %s, \"values\": [", a ? "," : "",
                exp_axis_name(ax->kind), exp_axis_log2(ax->kind) ? "log2" : "linear",
                exp_axis_gpu_only(ax->kind) ? "true" : "false");
        for (int i = 0; i < ax->count; i++) {
            cfg_format_exact(buf, sizeof buf, ax->values[i]);
            fprintf(f, "%s%s", i ? ", " : "", buf);
        }
        fputs("]}", f);
    }
    fprintf(f, "\n      ],\n      \"cell_count\": %zu,\n      \"host_cell_count\": %zu,\n      \"cells\": {\n",
            ep->cell_count, ep->host_cell_count);
    json_numbers(f, "gpu_us", ep->cell_count, exp_get_gpu, ep->cells, 0, 0);
    for (int c = 0; c < EXP_CODE_COUNT; c++) {
        fprintf(f, "        \"%s\": \"", exp_code_names[c]);
        for (size_t i = 0; i < ep->cell_count; i++)
            fputc(exp_cell_code(&ep->cells[i], (enum exp_code_field)c), f);
        fprintf(f, "\"%s\n", c + 1 < EXP_CODE_COUNT ? "," : "");
    }
    fputs("      },\n      \"host_cells\": {\n", f);
    for (int h = 0; h < EXP_HOST_COUNT; h++)
        json_numbers(f, exp_host_names[h], ep->host_cell_count, exp_get_host, ep->host_cells, h, h + 1 == EXP_HOST_COUNT);
    fputs("      },\n", f);
    json_bands(f, "error_bands", ep->bands[EXP_SIDE_GPU], ep->band_count[EXP_SIDE_GPU], 0);
    json_bands(f, "cpu_error_bands", ep->bands[EXP_SIDE_CPU], ep->band_count[EXP_SIDE_CPU], 1);
    fputs("    }", f);
}

static void write_json(const exp_table *t, FILE *f)
{
    char buf[48];
    const dsp_policy *pol = &t->policy;
    fprintf(f, "{\n  \"schema\": \"%s\",\n  \"schema_version\": %d,\n  \"generator\": \"atomsim export\",\n", EXP_SCHEMA_NAME,
            EXP_SCHEMA_VERSION);
    fputs("  \"version\": ", f);
    esc_json(f, atom_version());
    fputs(",\n", f);
    fputs("  \"units\": {\"gpu_us\": \"microseconds, the kernel between its GPU timestamps, no data movement\", "
          "\"cpu_us\": \"microseconds, the CPU tier's compute, no data movement\", "
          "\"density\": \"threads per GPU cycle on the hottest atomic target\", "
          "\"density_fraction\": \"density / (gpu.sm_count x gpu.fp32_lanes_per_sm)\", "
          "\"smem_per_wg\": \"bytes\", \"wg\": \"threads\"},\n",
          f);
    fputs("  \"layout\": \"cells are row-major over axes, the last axis fastest; host_cells likewise over the axes that "
          "are not gpu_only; one letter a cell in source (m model, s simulator, a model scaled to its simulator anchors), decision and seed_decision (g gpu, "
          "c cpu) and seed_reason (g gpu_faster, c cpu_faster, d density, x cas)\",\n",
          f);
    fputs("  \"gpu\": {\n    \"name\": ", f);
    esc_json(f, t->gpu.gpu.name);
    fputs(",\n    \"config_path\": ", f);
    esc_json(f, t->gpu.path);
    fprintf(f, ",\n    \"config_hash\": \"%016llx\",\n    \"config\": ", (unsigned long long)cfg_hash(&t->gpu));
    json_gpu_config(f, &t->gpu);
    fputs("\n  },\n  \"cpu\": {\n    \"name\": ", f);
    esc_json(f, t->cpu.name);
    fputs(",\n    \"config_path\": ", f);
    esc_json(f, t->cpu.path);
    fprintf(f, ",\n    \"config_hash\": \"%016llx\",\n    \"config\": ", (unsigned long long)cpu_hash(&t->cpu));
    json_cpu_config(f, &t->cpu);
    fprintf(f, "\n  },\n  \"dispatch\": {\"rule\": \"%s\", \"data_on\": \"%s\", ", dsp_rule_name(pol->rule),
            dsp_data_on_name(pol->data_on));
    cfg_format_exact(buf, sizeof buf, pol->host_launch_us);
    fprintf(f, "\"host_launch_us\": %s, ", buf);
    cfg_format_exact(buf, sizeof buf, pol->pcie_bandwidth_gbps);
    fprintf(f, "\"pcie_bandwidth_gbps\": %s,\n    \"seed\": {", buf);
    cfg_format_exact(buf, sizeof buf, pol->seed.penalty_start);
    fprintf(f, "\"density_penalty_start\": %s, ", buf);
    cfg_format_exact(buf, sizeof buf, pol->seed.inhibit);
    fprintf(f, "\"density_inhibit\": %s, \"inhibit_cas\": %s}},\n", buf, pol->seed.inhibit_cas ? "true" : "false");
    fputs("  \"patterns\": [\n", f);
    for (int i = 0; i < t->pattern_count; i++) {
        json_pattern(f, &t->patterns[i]);
        fputs(i + 1 < t->pattern_count ? ",\n" : "\n", f);
    }
    fputs("  ]\n}\n", f);
}

/* The CSV's provenance, which the CSV itself leaves out so that it loads
 * with any reader's defaults (pandas, R, gnuplot): what the JSON table says
 * besides its cells, as FILE.meta.json beside `export --format csv
 * --output FILE`.  One key a line, so that a script can grep it too. */
static void write_csv_meta(const exp_table *t, FILE *f)
{
    char start[48], inhibit[48], launch[48], pcie[48];
    const dsp_policy *pol = &t->policy;
    fprintf(f, "{\n  \"schema\": \"%s\",\n  \"schema_version\": %d,\n  \"generator\": \"atomsim export\",\n",
            EXP_CSV_META_SCHEMA_NAME, EXP_CSV_META_SCHEMA_VERSION);
    fputs("  \"version\": ", f);
    esc_json(f, atom_version());
    fprintf(f, ",\n  \"table_schema\": \"%s\",\n  \"table_schema_version\": %d,\n", EXP_SCHEMA_NAME, EXP_SCHEMA_VERSION);
    static const char *const keys[4] = { "gpu", "gpu_config_path", "cpu", "cpu_config_path" };
    const char *const vals[4] = { t->gpu.gpu.name, t->gpu.path, t->cpu.name, t->cpu.path };
    for (int k = 0; k < 4; k++) {
        fprintf(f, "  \"%s\": ", keys[k]);
        esc_json(f, vals[k]);
        if (k == 1 || k == 3)
            fprintf(f, ",\n  \"%s_config_hash\": \"%016llx\"", k == 1 ? "gpu" : "cpu",
                    k == 1 ? (unsigned long long)cfg_hash(&t->gpu) : (unsigned long long)cpu_hash(&t->cpu));
        fputs(",\n", f);
    }
    cfg_format_exact(start, sizeof start, pol->seed.penalty_start);
    cfg_format_exact(inhibit, sizeof inhibit, pol->seed.inhibit);
    cfg_format_exact(launch, sizeof launch, pol->host_launch_us);
    cfg_format_exact(pcie, sizeof pcie, pol->pcie_bandwidth_gbps);
    fprintf(f, "  \"rule\": \"%s\",\n  \"data_on\": \"%s\",\n", dsp_rule_name(pol->rule), dsp_data_on_name(pol->data_on));
    fprintf(f, "  \"host_launch_us\": %s,\n  \"pcie_bandwidth_gbps\": %s,\n", launch, pcie);
    fprintf(f, "  \"density_penalty_start\": %s,\n  \"density_inhibit\": %s,\n  \"inhibit_cas\": %s\n}\n", start, inhibit,
            pol->seed.inhibit_cas ? "true" : "false");
}

/* The cells, one a row, header first and nothing else: provenance is the
 * sidecar's (write_csv_meta). */
static void write_csv(const exp_table *t, FILE *f)
{
    char g[48], v[EXP_HOST_COUNT][48], params[256];
    /* the parameters in the axes' order (params_csv.h), from the table */
    pat_csv_header(PAT_CSV_SHARED_FIRST, params, sizeof params);
    fprintf(f, "pattern,%s,gpu_us,cpu_us,density,density_fraction,source,decision,seed_decision,seed_reason\n", params);
    for (int pi = 0; pi < t->pattern_count; pi++) {
        const exp_pattern *ep = &t->patterns[pi];
        for (size_t i = 0; i < ep->cell_count; i++) {
            pat_params p;
            exp_cell_point(ep, i, &p);
            const exp_cell *c = &ep->cells[i];
            const exp_host_cell *h = &ep->host_cells[exp_host_index(ep, i)];
            exp_format_value(g, sizeof g, c->gpu_us);
            for (int k = 0; k < EXP_HOST_COUNT; k++)
                exp_format_value(v[k], sizeof v[k], host_value(h, (enum exp_host_field)k));
            fprintf(f, "%s,", pat_name(p.pattern));
            pat_csv_write(f, PAT_CSV_SHARED_FIRST, &p, 0);
            fprintf(f, ",%s,%s,%s,%s,%s,%s,%s,%s\n", g, v[EXP_HOST_CPU], v[EXP_HOST_DENSITY], v[EXP_HOST_FRACTION],
                    source_word(c->source), dsp_target_name(c->decision), dsp_target_name(c->seed_decision), dsp_reason_name(c->seed_reason));
        }
    }
}

int exp_write(const exp_table *t, enum exp_format fmt, FILE *f, char err[CFG_ERR_MAX])
{
    switch (fmt) {
    case EXP_JSON: write_json(t, f); break;
    case EXP_CSV: write_csv(t, f); break;
    case EXP_CSV_META: write_csv_meta(t, f); break;
    case EXP_C_HEADER: exp_write_c_header(t, f); break;
    }
    if (ferror(f)) {
        snprintf(err, CFG_ERR_MAX, "write error");
        return -1;
    }
    return 0;
}
