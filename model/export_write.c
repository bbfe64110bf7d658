/* export_write.c - the cost table's writers: JSON (the schema that
 * tbl_load reads), CSV (one row per cell, for plots and pandas) and a C
 * header (the arrays, for a dispatcher that links no library).
 *
 * Written by hand rather than through cJSON: the tables hold ~10^5 cells,
 * and a fixed number format per field is what keeps identical input
 * byte-identical across builds. */
#include <stdlib.h>
#include <string.h>

#include "export.h"

/* Predictions: six significant digits. */
static void fmt_pred(char *buf, size_t len, double v)
{
    char tmp[40];
    snprintf(tmp, sizeof tmp, "%.6g", v);
    cfg_format_exact(buf, len, strtod(tmp, NULL));
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
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
            json_string(f, o.value);
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
    return s == EXP_SOURCE_SIM ? 's' : 'm';
}

enum code_field { C_SOURCE, C_DECISION, C_SEED_DECISION, C_SEED_REASON, C_COUNT };
static const char *const code_names[C_COUNT] = { "source", "decision", "seed_decision", "seed_reason" };

static char cell_code(const exp_cell *c, enum code_field f)
{
    switch (f) {
    case C_SOURCE: return source_code(c->source);
    case C_DECISION: return target_code(c->decision);
    case C_SEED_DECISION: return target_code(c->seed_decision);
    default: return reason_code(c->seed_reason);
    }
}

enum host_field { H_CPU, H_DENSITY, H_FRACTION, H_COUNT };
static const char *const host_names[H_COUNT] = { "cpu_us", "density", "density_fraction" };

static double host_value(const exp_host_cell *c, enum host_field f)
{
    return f == H_CPU ? c->cpu_us : f == H_DENSITY ? c->density : c->density_fraction;
}

static void json_numbers(FILE *f, const char *name, size_t count, double (*get)(const void *, size_t, int),
                         const void *base, int field, int last)
{
    char buf[48];
    fprintf(f, "        \"%s\": [", name);
    for (size_t i = 0; i < count; i++) {
        fmt_pred(buf, sizeof buf, get(base, i, field));
        fprintf(f, "%s%s", i ? "," : "", buf);
    }
    fprintf(f, "]%s\n", last ? "" : ",");
}

static double get_gpu(const void *base, size_t i, int field)
{
    (void)field;
    return ((const exp_cell *)base)[i].gpu_us;
}

static double get_host(const void *base, size_t i, int field)
{
    return host_value(&((const exp_host_cell *)base)[i], (enum host_field)field);
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
    json_numbers(f, "gpu_us", ep->cell_count, get_gpu, ep->cells, 0, 0);
    for (int c = 0; c < C_COUNT; c++) {
        fprintf(f, "        \"%s\": \"", code_names[c]);
        for (size_t i = 0; i < ep->cell_count; i++)
            fputc(cell_code(&ep->cells[i], (enum code_field)c), f);
        fprintf(f, "\"%s\n", c + 1 < C_COUNT ? "," : "");
    }
    fputs("      },\n      \"host_cells\": {\n", f);
    for (int h = 0; h < H_COUNT; h++)
        json_numbers(f, host_names[h], ep->host_cell_count, get_host, ep->host_cells, h, h + 1 == H_COUNT);
    fputs("      },\n      \"error_bands\": [", f);
    for (int b = 0; b < ep->band_count; b++) {
        const exp_band *eb = &ep->bands[b];
        char lo[48], hi[48], p10[48], p50[48], p90[48];
        cfg_format_exact(lo, sizeof lo, eb->n_lo);
        cfg_format_exact(hi, sizeof hi, eb->n_hi);
        fmt_pred(p10, sizeof p10, eb->p10);
        fmt_pred(p50, sizeof p50, eb->p50);
        fmt_pred(p90, sizeof p90, eb->p90);
        fprintf(f, "%s\n        {\"n_lo\": %s, \"n_hi\": %s, \"rows\": %d, \"p10\": %s, \"p50\": %s, \"p90\": %s}",
                b ? "," : "", lo, hi, eb->rows, p10, p50, p90);
    }
    fputs(ep->band_count ? "\n      ]\n    }" : "]\n    }", f);
}

static void write_json(const exp_table *t, FILE *f)
{
    char buf[48];
    const dsp_policy *pol = &t->policy;
    fprintf(f, "{\n  \"schema\": \"%s\",\n  \"schema_version\": %d,\n  \"generator\": \"atomsim export\",\n", EXP_SCHEMA_NAME,
            EXP_SCHEMA_VERSION);
    fputs("  \"units\": {\"gpu_us\": \"microseconds, the kernel between its GPU timestamps, no data movement\", "
          "\"cpu_us\": \"microseconds, the CPU tier's compute, no data movement\", "
          "\"density\": \"threads per GPU cycle on the hottest atomic target\", "
          "\"density_fraction\": \"density / (gpu.sm_count x gpu.fp32_lanes_per_sm)\", "
          "\"smem_per_wg\": \"bytes\", \"wg\": \"threads\"},\n",
          f);
    fputs("  \"layout\": \"cells are row-major over axes, the last axis fastest; host_cells likewise over the axes that "
          "are not gpu_only; one letter a cell in source (m model, s simulator), decision and seed_decision (g gpu, "
          "c cpu) and seed_reason (g gpu_faster, c cpu_faster, d density, x cas)\",\n",
          f);
    fputs("  \"gpu\": {\n    \"name\": ", f);
    json_string(f, t->gpu.gpu.name);
    fputs(",\n    \"config_path\": ", f);
    json_string(f, t->gpu.path);
    fprintf(f, ",\n    \"config_hash\": \"%016llx\",\n    \"config\": ", (unsigned long long)cfg_hash(&t->gpu));
    json_gpu_config(f, &t->gpu);
    fputs("\n  },\n  \"cpu\": {\n    \"name\": ", f);
    json_string(f, t->cpu.name);
    fputs(",\n    \"config_path\": ", f);
    json_string(f, t->cpu.path);
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

static void write_csv(const exp_table *t, FILE *f)
{
    char g[48], v[H_COUNT][48], sel[48], hot[48];
    const dsp_policy *pol = &t->policy;
    fprintf(f, "# schema: %s\n# schema_version: %d\n", EXP_SCHEMA_NAME, EXP_SCHEMA_VERSION);
    fprintf(f, "# gpu: %s\n# gpu_config_path: %s\n# gpu_config_hash: %016llx\n", t->gpu.gpu.name, t->gpu.path,
            (unsigned long long)cfg_hash(&t->gpu));
    fprintf(f, "# cpu: %s\n# cpu_config_path: %s\n# cpu_config_hash: %016llx\n", t->cpu.name, t->cpu.path,
            (unsigned long long)cpu_hash(&t->cpu));
    fprintf(f, "# rule: %s\n# data_on: %s\n", dsp_rule_name(pol->rule), dsp_data_on_name(pol->data_on));
    cfg_format_exact(sel, sizeof sel, pol->seed.penalty_start);
    cfg_format_exact(hot, sizeof hot, pol->seed.inhibit);
    fprintf(f, "# density_penalty_start: %s\n# density_inhibit: %s\n# inhibit_cas: %d\n", sel, hot, pol->seed.inhibit_cas);
    fputs("pattern,n,wg,smem_per_wg,selectivity,bins,hot,addresses,gpu_us,cpu_us,density,density_fraction,source,"
          "decision,seed_decision,seed_reason\n",
          f);
    for (int pi = 0; pi < t->pattern_count; pi++) {
        const exp_pattern *ep = &t->patterns[pi];
        for (size_t i = 0; i < ep->cell_count; i++) {
            pat_params p;
            exp_cell_point(ep, i, &p);
            const exp_cell *c = &ep->cells[i];
            const exp_host_cell *h = &ep->host_cells[exp_host_index(ep, i)];
            fmt_pred(g, sizeof g, c->gpu_us);
            for (int k = 0; k < H_COUNT; k++)
                fmt_pred(v[k], sizeof v[k], host_value(h, (enum host_field)k));
            cfg_format_exact(sel, sizeof sel, p.selectivity);
            cfg_format_exact(hot, sizeof hot, p.hot);
            fprintf(f, "%s,%llu,%d,%u,%s,%u,%s,%u,%s,%s,%s,%s,%s,%s,%s,%s\n", pat_name(p.pattern),
                    (unsigned long long)p.n, p.wg, p.smem_per_wg, sel, p.bins, hot, p.addresses, g, v[H_CPU],
                    v[H_DENSITY], v[H_FRACTION], c->source == EXP_SOURCE_SIM ? "sim" : "model",
                    dsp_target_name(c->decision), dsp_target_name(c->seed_decision), dsp_reason_name(c->seed_reason));
        }
    }
}

/* C identifiers from pattern names: histogram-u8-cas -> histogram_u8_cas. */
static void c_ident(char *out, size_t len, const char *name)
{
    size_t i = 0;
    for (; name[i] && i + 1 < len; i++)
        out[i] = name[i] == '-' ? '_' : name[i];
    out[i] = 0;
}

static void c_doubles(FILE *f, const char *id, const char *what, size_t count,
                      double (*get)(const void *, size_t, int), const void *base, int field)
{
    char buf[48];
    fprintf(f, "static const double atomsim_%s_%s[%zu] = {", id, what, count);
    for (size_t i = 0; i < count; i++) {
        fmt_pred(buf, sizeof buf, get(base, i, field));
        fprintf(f, "%s%s", i ? "," : "", buf);
    }
    fputs("};\n", f);
}

static void write_c_header(const exp_table *t, FILE *f)
{
    char buf[48], id[64];
    const dsp_policy *pol = &t->policy;
    fprintf(f, "/* atomsim cost table, schema %s version %d, generated by atomsim export.\n", EXP_SCHEMA_NAME,
            EXP_SCHEMA_VERSION);
    fprintf(f, " * GPU config hash %016llx, CPU config hash %016llx.\n", (unsigned long long)cfg_hash(&t->gpu),
            (unsigned long long)cpu_hash(&t->cpu));
    fputs(" * Cells are row-major over each pattern's axes, the last axis fastest; the\n"
          " * host arrays likewise over the axes the CPU sees (not wg, smem_per_wg). */\n",
          f);
    fputs("#ifndef ATOMSIM_COST_TABLE_H\n#define ATOMSIM_COST_TABLE_H\n\n#include <stdint.h>\n\n", f);
    fprintf(f, "#define ATOMSIM_COST_TABLE_SCHEMA_VERSION %d\n", EXP_SCHEMA_VERSION);
    fprintf(f, "#define ATOMSIM_COST_TABLE_GPU_CONFIG_HASH 0x%016llxull\n", (unsigned long long)cfg_hash(&t->gpu));
    fprintf(f, "#define ATOMSIM_COST_TABLE_CPU_CONFIG_HASH 0x%016llxull\n", (unsigned long long)cpu_hash(&t->cpu));
    fprintf(f, "#define ATOMSIM_RULE_SEED %d\n#define ATOMSIM_DATA_ON %d /* 0 gpu, 1 host, 2 both */\n",
            pol->rule == DSP_RULE_SEED, (int)pol->data_on);
    cfg_format_exact(buf, sizeof buf, pol->host_launch_us);
    fprintf(f, "#define ATOMSIM_HOST_LAUNCH_US %s\n", buf);
    cfg_format_exact(buf, sizeof buf, pol->pcie_bandwidth_gbps);
    fprintf(f, "#define ATOMSIM_PCIE_BANDWIDTH_GBPS %s\n", buf);
    cfg_format_exact(buf, sizeof buf, pol->seed.penalty_start);
    fprintf(f, "#define ATOMSIM_DENSITY_PENALTY_START %s\n", buf);
    cfg_format_exact(buf, sizeof buf, pol->seed.inhibit);
    fprintf(f, "#define ATOMSIM_DENSITY_INHIBIT %s\n#define ATOMSIM_INHIBIT_CAS %d\n", buf, pol->seed.inhibit_cas);
    for (int pi = 0; pi < t->pattern_count; pi++) {
        const exp_pattern *ep = &t->patterns[pi];
        c_ident(id, sizeof id, pat_name(ep->pattern));
        fprintf(f, "\n/* %s: axes", pat_name(ep->pattern));
        for (int a = 0; a < ep->axis_count; a++)
            fprintf(f, " %s", exp_axis_name(ep->axes[a].kind));
        fprintf(f, " */\n#define ATOMSIM_%s_CELLS %zu\n#define ATOMSIM_%s_HOST_CELLS %zu\n", id, ep->cell_count, id,
                ep->host_cell_count);
        for (int a = 0; a < ep->axis_count; a++) {
            fprintf(f, "static const double atomsim_%s_axis_%s[%d] = {", id, exp_axis_name(ep->axes[a].kind),
                    ep->axes[a].count);
            for (int i = 0; i < ep->axes[a].count; i++) {
                cfg_format_exact(buf, sizeof buf, ep->axes[a].values[i]);
                fprintf(f, "%s%s", i ? ", " : "", buf);
            }
            fputs("};\n", f);
        }
        c_doubles(f, id, "gpu_us", ep->cell_count, get_gpu, ep->cells, 0);
        for (int h = 0; h < H_COUNT; h++)
            c_doubles(f, id, host_names[h], ep->host_cell_count, get_host, ep->host_cells, h);
        for (int c = 0; c < C_COUNT; c++) {
            fprintf(f, "static const char atomsim_%s_%s[%zu] = \"", id, code_names[c], ep->cell_count + 1);
            for (size_t i = 0; i < ep->cell_count; i++)
                fputc(cell_code(&ep->cells[i], (enum code_field)c), f);
            fputs("\";\n", f);
        }
    }
    fputs("\n#endif\n", f);
}

int exp_write(const exp_table *t, enum exp_format fmt, FILE *f, char err[CFG_ERR_MAX])
{
    switch (fmt) {
    case EXP_JSON: write_json(t, f); break;
    case EXP_CSV: write_csv(t, f); break;
    case EXP_C_HEADER: write_c_header(t, f); break;
    }
    if (ferror(f)) {
        snprintf(err, CFG_ERR_MAX, "write error");
        return -1;
    }
    return 0;
}
