/* export.c - builds the cost tables (grid, cells, derived thresholds); the
 * writers for JSON, CSV and C header are in export_write.c. */
#include "export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_tier.h"
#include "density.h"
#include "model.h"

static const char *const axis_names[] = {
    [EXP_AXIS_N] = "n",
    [EXP_AXIS_SELECTIVITY] = "selectivity",
    [EXP_AXIS_BINS] = "bins",
    [EXP_AXIS_HOT] = "hot",
    [EXP_AXIS_ADDRESSES] = "addresses",
};

const char *exp_axis_name(enum exp_axis_kind k)
{
    return axis_names[k];
}

int exp_axis_log2(enum exp_axis_kind k)
{
    return k == EXP_AXIS_N || k == EXP_AXIS_BINS || k == EXP_AXIS_ADDRESSES;
}

static void pow2_axis(exp_axis *a, enum exp_axis_kind kind, int lo, int hi)
{
    a->kind = kind;
    a->count = 0;
    for (int e = lo; e <= hi; e++)
        a->values[a->count++] = ldexp(1.0, e);
}

/* 0, then 1-2-5 steps from 0.001 to 1. */
static void selectivity_axis(exp_axis *a)
{
    static const double v[] = { 0, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1 };
    a->kind = EXP_AXIS_SELECTIVITY;
    a->count = (int)(sizeof v / sizeof v[0]);
    memcpy(a->values, v, sizeof v);
}

static void hot_axis(exp_axis *a)
{
    a->kind = EXP_AXIS_HOT;
    a->count = 21;
    for (int i = 0; i <= 20; i++)
        a->values[i] = i / 20.0; /* exact: 0.05 steps written as i/20 */
}

int exp_axes_of(const cfg_config *c, enum pat_id id, exp_axis *axes, int *count)
{
    int k = 0;
    pow2_axis(&axes[k++], EXP_AXIS_N, 10, 26);
    switch (id) {
    case PAT_STORE:
    case PAT_COUNTER:
    case PAT_COUNTER_AGGREGATED:
    case PAT_COMPACTION:
    case PAT_CAS_APPEND:
    case PAT_BITMASK:
        selectivity_axis(&axes[k++]);
        break;
    case PAT_HISTOGRAM:
        pow2_axis(&axes[k++], EXP_AXIS_BINS, 0, 22);
        hot_axis(&axes[k++]);
        break;
    case PAT_HISTOGRAM_SHARED: {
        /* bins in shared memory: as many powers of two as one workgroup may
         * allocate (4 bytes per bin) */
        int hi = 0;
        while (hi < 22 && 4.0 * ldexp(1.0, hi + 1) <= c->gpu.max_smem_per_wg_bytes)
            hi++;
        pow2_axis(&axes[k++], EXP_AXIS_BINS, 0, hi);
        break;
    }
    case PAT_HISTOGRAM_U8_CAS:
    case PAT_HISTOGRAM_U16_CAS:
        pow2_axis(&axes[k++], EXP_AXIS_BINS, 0, 22);
        break;
    case PAT_DISTINCT_LINES:
        pow2_axis(&axes[k++], EXP_AXIS_ADDRESSES, 0, 22);
        break;
    case PAT_REDUCE:
        break;
    default:
        return -1;
    }
    *count = k;
    return 0;
}

static void set_axis_value(pat_params *p, enum exp_axis_kind k, double v)
{
    switch (k) {
    case EXP_AXIS_N: p->n = (uint64_t)v; break;
    case EXP_AXIS_SELECTIVITY: p->selectivity = v; break;
    case EXP_AXIS_BINS: p->bins = (uint32_t)v; break;
    case EXP_AXIS_HOT: p->hot = v; break;
    case EXP_AXIS_ADDRESSES: p->addresses = (uint32_t)v; break;
    }
}

int exp_cell_of(const cfg_config *gpu, const cpu_config *cpu, const pat_params *p, exp_cell *out,
                char err[CFG_ERR_MAX])
{
    atom_stats st;
    cpu_cost cc;
    dsp_density d;
    dsp_decision dec;
    if (mdl_predict(gpu, p, &st, err) || cpu_predict(cpu, p, &cc, err))
        return -1;
    if (dsp_density_of(gpu, p, &d)) {
        snprintf(err, CFG_ERR_MAX, "no density for pattern %s", pat_name(p->pattern));
        return -1;
    }
    dsp_decide(gpu, p, &d, st.time_us, cc.us, &dec);
    out->gpu_us = dec.gpu_us;
    out->cpu_us = dec.cpu_us;
    out->density = d.density;
    out->density_fraction = d.fraction;
    out->penalty = dec.penalty;
    out->inhibited = dec.inhibited;
    out->reason = dec.reason;
    out->decision = dec.target;
    if (!isfinite(out->gpu_us) || !isfinite(out->cpu_us) || !isfinite(out->density)) {
        snprintf(err, CFG_ERR_MAX, "%s n=%llu: a prediction is not finite", pat_name(p->pattern),
                 (unsigned long long)p->n);
        return -1;
    }
    return 0;
}

/* Walks the pattern's density axis (selectivity up, or bins/addresses down)
 * at each n and records where the CPU first wins on cost alone. */
static void derive_thresholds(exp_pattern *ep)
{
    const exp_axis *ax = &ep->axes[1];
    size_t stride = 1;
    for (int a = 2; a < ep->axis_count; a++)
        stride *= (size_t)ep->axes[a].count; /* histogram: take hot = 0 (index 0) */
    ep->threshold_count = ep->axes[0].count;
    for (int i = 0; i < ep->axes[0].count; i++) {
        exp_threshold *t = &ep->thresholds[i];
        t->n = ep->axes[0].values[i];
        t->fraction = 0;
        if (ep->axis_count < 2 || ax->kind == EXP_AXIS_N) {
            t->status = ep->pattern == PAT_STORE ? EXP_NO_ATOMICS : EXP_NO_DENSITY_AXIS;
            continue;
        }
        int ascending = ax->kind == EXP_AXIS_SELECTIVITY; /* density grows along the axis */
        int gpu_wins = 0, cpu_wins = 0;
        double first = -1;
        for (int s = 0; s < ax->count; s++) {
            int j = ascending ? s : ax->count - 1 - s;
            const exp_cell *c = &ep->cells[((size_t)i * ax->count + (size_t)j) * stride];
            if (c->density_fraction <= 0)
                continue;
            if (c->cpu_us < c->gpu_us) {
                cpu_wins++;
                if (first < 0)
                    first = c->density_fraction;
            } else
                gpu_wins++;
        }
        if (ep->pattern == PAT_STORE)
            t->status = EXP_NO_ATOMICS;
        else if (!cpu_wins)
            t->status = EXP_GPU_ALWAYS;
        else if (!gpu_wins)
            t->status = EXP_CPU_ALWAYS;
        else {
            t->status = EXP_CROSSOVER;
            t->fraction = first;
        }
    }
}

static int build_pattern(const cfg_config *gpu, const cpu_config *cpu, enum pat_id id, exp_pattern *ep,
                         char err[CFG_ERR_MAX])
{
    memset(ep, 0, sizeof *ep);
    ep->pattern = id;
    if (exp_axes_of(gpu, id, ep->axes, &ep->axis_count)) {
        snprintf(err, CFG_ERR_MAX, "no grid for pattern %s", pat_name(id));
        return -1;
    }
    pat_defaults(&ep->fixed);
    ep->fixed.pattern = id;
    ep->cell_count = 1;
    for (int a = 0; a < ep->axis_count; a++)
        ep->cell_count *= (size_t)ep->axes[a].count;
    ep->cells = calloc(ep->cell_count, sizeof *ep->cells);
    if (!ep->cells) {
        snprintf(err, CFG_ERR_MAX, "out of memory for %zu cells", ep->cell_count);
        return -1;
    }
    for (size_t i = 0; i < ep->cell_count; i++) {
        pat_params p = ep->fixed;
        size_t rest = i;
        for (int a = ep->axis_count - 1; a >= 0; a--) {
            set_axis_value(&p, ep->axes[a].kind, ep->axes[a].values[rest % (size_t)ep->axes[a].count]);
            rest /= (size_t)ep->axes[a].count;
        }
        char why[CFG_ERR_MAX];
        if (exp_cell_of(gpu, cpu, &p, &ep->cells[i], why)) {
            snprintf(err, CFG_ERR_MAX, "%s: %s", pat_name(id), why);
            return -1;
        }
    }
    derive_thresholds(ep);
    return 0;
}

int exp_build(const cfg_config *gpu, const cpu_config *cpu, unsigned only, exp_table **out, char err[CFG_ERR_MAX])
{
    exp_table *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    t->gpu = *gpu;
    t->cpu = *cpu;
    for (int id = 0; id < PAT_COUNT; id++) {
        if (only && !(only & (1u << id)))
            continue;
        if (build_pattern(gpu, cpu, (enum pat_id)id, &t->patterns[t->pattern_count++], err)) {
            exp_free(t);
            return -1;
        }
    }
    *out = t;
    return 0;
}

void exp_free(exp_table *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->pattern_count; i++)
        free(t->patterns[i].cells);
    free(t);
}

/* ---- writers -------------------------------------------------------------
 * Written by hand rather than through cJSON: the tables hold ~10^4 cells,
 * and a fixed number format per field is what keeps identical input
 * byte-identical across builds. */

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

enum cell_field { F_GPU, F_CPU, F_DENSITY, F_FRACTION, F_PENALTY, F_COUNT };
static const char *const field_names[F_COUNT] = { "gpu_us", "cpu_us", "density", "density_fraction", "penalty" };

static double cell_value(const exp_cell *c, enum cell_field f)
{
    switch (f) {
    case F_GPU: return c->gpu_us;
    case F_CPU: return c->cpu_us;
    case F_DENSITY: return c->density;
    case F_FRACTION: return c->density_fraction;
    default: return c->penalty;
    }
}

static const char *threshold_status_name(enum exp_threshold_status s)
{
    static const char *const names[] = { "crossover", "gpu_always", "cpu_always", "no_atomics", "no_density_axis" };
    return names[s];
}

static void json_pattern(FILE *f, const exp_pattern *ep)
{
    char buf[48];
    fprintf(f, "    {\n      \"pattern\": \"%s\",\n      \"uses_cas\": %s,\n", pat_name(ep->pattern),
            pat_uses_cas(ep->pattern) ? "true" : "false");
    cfg_format_exact(buf, sizeof buf, ep->fixed.selectivity);
    fprintf(f, "      \"fixed\": {\"wg\": %d, \"selectivity\": %s, ", ep->fixed.wg, buf);
    cfg_format_exact(buf, sizeof buf, ep->fixed.hot);
    fprintf(f, "\"bins\": %u, \"hot\": %s, \"addresses\": %u, \"smem_per_wg\": %u},\n", ep->fixed.bins, buf,
            ep->fixed.addresses, ep->fixed.smem_per_wg);
    fputs("      \"axes\": [", f);
    for (int a = 0; a < ep->axis_count; a++) {
        const exp_axis *ax = &ep->axes[a];
        fprintf(f, "%s\n        {\"name\": \"%s\", \"scale\": \"%s\", \"values\": [", a ? "," : "", exp_axis_name(ax->kind),
                exp_axis_log2(ax->kind) ? "log2" : "linear");
        for (int i = 0; i < ax->count; i++) {
            cfg_format_exact(buf, sizeof buf, ax->values[i]);
            fprintf(f, "%s%s", i ? ", " : "", buf);
        }
        fputs("]}", f);
    }
    fprintf(f, "\n      ],\n      \"cell_count\": %zu,\n      \"cells\": {\n", ep->cell_count);
    for (int fld = 0; fld < F_COUNT; fld++) {
        fprintf(f, "        \"%s\": [", field_names[fld]);
        for (size_t i = 0; i < ep->cell_count; i++) {
            fmt_pred(buf, sizeof buf, cell_value(&ep->cells[i], (enum cell_field)fld));
            fprintf(f, "%s%s", i ? "," : "", buf);
        }
        fputs("],\n", f);
    }
    fputs("        \"inhibited\": [", f);
    for (size_t i = 0; i < ep->cell_count; i++)
        fprintf(f, "%s%s", i ? "," : "", ep->cells[i].inhibited ? "true" : "false");
    fputs("],\n        \"reason\": [", f);
    for (size_t i = 0; i < ep->cell_count; i++)
        fprintf(f, "%s\"%s\"", i ? "," : "", dsp_reason_name(ep->cells[i].reason));
    fputs("],\n        \"decision\": [", f);
    for (size_t i = 0; i < ep->cell_count; i++)
        fprintf(f, "%s\"%s\"", i ? "," : "", dsp_target_name(ep->cells[i].decision));
    fputs("]\n      },\n      \"thresholds\": [", f);
    for (int i = 0; i < ep->threshold_count; i++) {
        const exp_threshold *t = &ep->thresholds[i];
        cfg_format_exact(buf, sizeof buf, t->n);
        fprintf(f, "%s\n        {\"n\": %s, \"status\": \"%s\"", i ? "," : "", buf, threshold_status_name(t->status));
        if (t->status == EXP_CROSSOVER) {
            fmt_pred(buf, sizeof buf, t->fraction);
            fprintf(f, ", \"density_fraction\": %s", buf);
        }
        fputs("}", f);
    }
    fputs("\n      ]\n    }", f);
}

static void write_json(const exp_table *t, FILE *f)
{
    char buf[48];
    const cfg_dispatch *d = &t->gpu.dispatch;
    fprintf(f, "{\n  \"schema\": \"%s\",\n  \"schema_version\": %d,\n  \"generator\": \"atomsim export\",\n", EXP_SCHEMA_NAME,
            EXP_SCHEMA_VERSION);
    fputs("  \"units\": {\"gpu_us\": \"microseconds\", \"cpu_us\": \"microseconds\", "
          "\"density\": \"threads per GPU cycle on the hottest atomic target\", "
          "\"density_fraction\": \"density / (gpu.sm_count x gpu.fp32_lanes_per_sm)\", "
          "\"penalty\": \"0 to 1; the GPU cost counts (1 + penalty) times\"},\n",
          f);
    fputs("  \"layout\": \"cells are row-major over axes, the last axis fastest\",\n", f);
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
    fputs("\n  },\n  \"dispatch\": {", f);
    cfg_format_exact(buf, sizeof buf, d->density_penalty_start);
    fprintf(f, "\"density_penalty_start\": %s, ", buf);
    cfg_format_exact(buf, sizeof buf, d->density_inhibit);
    fprintf(f, "\"density_inhibit\": %s, \"inhibit_cas\": %s, \"data_on_gpu\": %s, ", buf,
            d->inhibit_cas ? "true" : "false", d->data_on_gpu ? "true" : "false");
    cfg_format_exact(buf, sizeof buf, d->pcie_bandwidth_gbps);
    fprintf(f, "\"pcie_bandwidth_gbps\": %s},\n", buf);
    fputs("  \"reasons\": [\"gpu_faster\", \"cpu_faster\", \"density\", \"cas\"],\n  \"patterns\": [\n", f);
    for (int i = 0; i < t->pattern_count; i++) {
        json_pattern(f, &t->patterns[i]);
        fputs(i + 1 < t->pattern_count ? ",\n" : "\n", f);
    }
    fputs("  ]\n}\n", f);
}

static void write_csv(const exp_table *t, FILE *f)
{
    char v[F_COUNT][48], sel[48], hot[48];
    fprintf(f, "# schema: %s\n# schema_version: %d\n", EXP_SCHEMA_NAME, EXP_SCHEMA_VERSION);
    fprintf(f, "# gpu: %s\n# gpu_config_path: %s\n# gpu_config_hash: %016llx\n", t->gpu.gpu.name, t->gpu.path,
            (unsigned long long)cfg_hash(&t->gpu));
    fprintf(f, "# cpu: %s\n# cpu_config_path: %s\n# cpu_config_hash: %016llx\n", t->cpu.name, t->cpu.path,
            (unsigned long long)cpu_hash(&t->cpu));
    cfg_format_exact(sel, sizeof sel, t->gpu.dispatch.density_penalty_start);
    cfg_format_exact(hot, sizeof hot, t->gpu.dispatch.density_inhibit);
    fprintf(f, "# density_penalty_start: %s\n# density_inhibit: %s\n# inhibit_cas: %d\n# data_on_gpu: %d\n", sel, hot,
            t->gpu.dispatch.inhibit_cas, t->gpu.dispatch.data_on_gpu);
    fputs("pattern,n,selectivity,bins,hot,addresses,wg,gpu_us,cpu_us,density,density_fraction,penalty,inhibited,reason,"
          "decision\n",
          f);
    for (int pi = 0; pi < t->pattern_count; pi++) {
        const exp_pattern *ep = &t->patterns[pi];
        for (size_t i = 0; i < ep->cell_count; i++) {
            pat_params p = ep->fixed;
            size_t rest = i;
            for (int a = ep->axis_count - 1; a >= 0; a--) {
                set_axis_value(&p, ep->axes[a].kind, ep->axes[a].values[rest % (size_t)ep->axes[a].count]);
                rest /= (size_t)ep->axes[a].count;
            }
            const exp_cell *c = &ep->cells[i];
            for (int fld = 0; fld < F_COUNT; fld++)
                fmt_pred(v[fld], sizeof v[fld], cell_value(c, (enum cell_field)fld));
            cfg_format_exact(sel, sizeof sel, p.selectivity);
            cfg_format_exact(hot, sizeof hot, p.hot);
            fprintf(f, "%s,%llu,%s,%u,%s,%u,%d,%s,%s,%s,%s,%s,%d,%s,%s\n", pat_name(p.pattern), (unsigned long long)p.n,
                    sel, p.bins, hot, p.addresses, p.wg, v[F_GPU], v[F_CPU], v[F_DENSITY], v[F_FRACTION], v[F_PENALTY],
                    c->inhibited, dsp_reason_name(c->reason), dsp_target_name(c->decision));
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

static void write_c_header(const exp_table *t, FILE *f)
{
    char buf[48], id[64];
    fprintf(f, "/* atomsim cost table, schema %s version %d, generated by atomsim export.\n", EXP_SCHEMA_NAME,
            EXP_SCHEMA_VERSION);
    fprintf(f, " * GPU: %s (config %s, hash %016llx)\n", t->gpu.gpu.name, t->gpu.path, (unsigned long long)cfg_hash(&t->gpu));
    fprintf(f, " * CPU: %s (config %s, hash %016llx)\n", t->cpu.name, t->cpu.path, (unsigned long long)cpu_hash(&t->cpu));
    fputs(" * Cells are row-major over each pattern's axes, the last axis fastest.\n"
          " * Inhibition is the ATOMSIM_REASON_DENSITY / ATOMSIM_REASON_CAS reason, never an infinity. */\n",
          f);
    fputs("#ifndef ATOMSIM_COST_TABLE_H\n#define ATOMSIM_COST_TABLE_H\n\n#include <stdint.h>\n\n", f);
    fprintf(f, "#define ATOMSIM_COST_TABLE_SCHEMA_VERSION %d\n", EXP_SCHEMA_VERSION);
    fprintf(f, "#define ATOMSIM_COST_TABLE_GPU_CONFIG_HASH 0x%016llxull\n", (unsigned long long)cfg_hash(&t->gpu));
    fprintf(f, "#define ATOMSIM_COST_TABLE_CPU_CONFIG_HASH 0x%016llxull\n", (unsigned long long)cpu_hash(&t->cpu));
    cfg_format_exact(buf, sizeof buf, t->gpu.dispatch.density_penalty_start);
    fprintf(f, "#define ATOMSIM_DENSITY_PENALTY_START %s\n", buf);
    cfg_format_exact(buf, sizeof buf, t->gpu.dispatch.density_inhibit);
    fprintf(f, "#define ATOMSIM_DENSITY_INHIBIT %s\n#define ATOMSIM_INHIBIT_CAS %d\n#define ATOMSIM_DATA_ON_GPU %d\n\n", buf,
            t->gpu.dispatch.inhibit_cas, t->gpu.dispatch.data_on_gpu);
    fputs("enum atomsim_reason { ATOMSIM_REASON_GPU_FASTER, ATOMSIM_REASON_CPU_FASTER, ATOMSIM_REASON_DENSITY, "
          "ATOMSIM_REASON_CAS };\nenum atomsim_decision { ATOMSIM_GPU, ATOMSIM_CPU };\n",
          f);
    for (int pi = 0; pi < t->pattern_count; pi++) {
        const exp_pattern *ep = &t->patterns[pi];
        c_ident(id, sizeof id, pat_name(ep->pattern));
        fprintf(f, "\n/* %s: axes", pat_name(ep->pattern));
        for (int a = 0; a < ep->axis_count; a++)
            fprintf(f, " %s", exp_axis_name(ep->axes[a].kind));
        fprintf(f, " */\n#define ATOMSIM_%s_CELLS %zu\n", id, ep->cell_count);
        for (int a = 0; a < ep->axis_count; a++) {
            fprintf(f, "static const double atomsim_%s_axis_%s[%d] = {", id, exp_axis_name(ep->axes[a].kind),
                    ep->axes[a].count);
            for (int i = 0; i < ep->axes[a].count; i++) {
                cfg_format_exact(buf, sizeof buf, ep->axes[a].values[i]);
                fprintf(f, "%s%s", i ? ", " : "", buf);
            }
            fputs("};\n", f);
        }
        for (int fld = 0; fld < F_COUNT; fld++) {
            fprintf(f, "static const double atomsim_%s_%s[%zu] = {", id, field_names[fld], ep->cell_count);
            for (size_t i = 0; i < ep->cell_count; i++) {
                fmt_pred(buf, sizeof buf, cell_value(&ep->cells[i], (enum cell_field)fld));
                fprintf(f, "%s%s", i ? "," : "", buf);
            }
            fputs("};\n", f);
        }
        fprintf(f, "static const uint8_t atomsim_%s_reason[%zu] = {", id, ep->cell_count);
        for (size_t i = 0; i < ep->cell_count; i++)
            fprintf(f, "%s%d", i ? "," : "", (int)ep->cells[i].reason);
        fprintf(f, "};\nstatic const uint8_t atomsim_%s_decision[%zu] = {", id, ep->cell_count);
        for (size_t i = 0; i < ep->cell_count; i++)
            fprintf(f, "%s%d", i ? "," : "", (int)ep->cells[i].decision);
        fputs("};\n", f);
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
