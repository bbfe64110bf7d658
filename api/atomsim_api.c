/* atomsim_api.c - the public C API (include/atomsim/dispatch.h) as a thin
 * layer over model/table.c: it translates the public codes and structs,
 * classifies failures into return codes, and copies error text into the
 * caller's buffer.  The fast path is one tbl_lookup; only failures do
 * extra work, to say precisely what went wrong. */
#include "../include/atomsim/dispatch.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../model/export.h"
#include "../model/table.h"

/* The public codes are fixed numbers (callers compile them in); the model's
 * enums are free to move, and these say when a mapping is needed. */
_Static_assert(ATOMSIM_TABLE_SCHEMA_VERSION == EXP_SCHEMA_VERSION, "the header names another schema version");
_Static_assert(ATOMSIM_PATTERN_COUNT == PAT_COUNT, "a pattern was added or removed");
_Static_assert(ATOMSIM_PATTERN_STORE == PAT_STORE && ATOMSIM_PATTERN_COUNTER == PAT_COUNTER &&
                   ATOMSIM_PATTERN_COUNTER_AGGREGATED == PAT_COUNTER_AGGREGATED &&
                   ATOMSIM_PATTERN_COMPACTION == PAT_COMPACTION && ATOMSIM_PATTERN_HISTOGRAM == PAT_HISTOGRAM &&
                   ATOMSIM_PATTERN_HISTOGRAM_SHARED == PAT_HISTOGRAM_SHARED &&
                   ATOMSIM_PATTERN_HISTOGRAM_U8_CAS == PAT_HISTOGRAM_U8_CAS &&
                   ATOMSIM_PATTERN_HISTOGRAM_U16_CAS == PAT_HISTOGRAM_U16_CAS &&
                   ATOMSIM_PATTERN_CAS_APPEND == PAT_CAS_APPEND && ATOMSIM_PATTERN_BITMASK == PAT_BITMASK &&
                   ATOMSIM_PATTERN_REDUCE == PAT_REDUCE && ATOMSIM_PATTERN_DISTINCT_LINES == PAT_DISTINCT_LINES,
               "pattern codes moved");
_Static_assert(ATOMSIM_GPU == DSP_GPU && ATOMSIM_CPU == DSP_CPU, "target codes moved");
_Static_assert(ATOMSIM_REASON_GPU_FASTER == DSP_REASON_GPU_FASTER && ATOMSIM_REASON_CPU_FASTER == DSP_REASON_CPU_FASTER &&
                   ATOMSIM_REASON_DENSITY == DSP_REASON_DENSITY && ATOMSIM_REASON_CAS == DSP_REASON_CAS,
               "reason codes moved");
_Static_assert(ATOMSIM_RULE_COST == DSP_RULE_COST && ATOMSIM_RULE_SEED == DSP_RULE_SEED, "rule codes moved");
_Static_assert(ATOMSIM_DATA_ON_GPU == DSP_DATA_ON_GPU && ATOMSIM_DATA_ON_HOST == DSP_DATA_ON_HOST &&
                   ATOMSIM_DATA_ON_BOTH == DSP_DATA_ON_BOTH,
               "data location codes moved");

#define STR_(x) #x
#define STR(x) STR_(x)

struct atomsim_table {
    tbl_table *tbl;
};

static int fail(int rc, char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return rc;
}

const char *atomsim_version(void)
{
    return STR(ATOMSIM_VERSION_MAJOR) "." STR(ATOMSIM_VERSION_MINOR);
}

int atomsim_version_number(void)
{
    return ATOMSIM_VERSION_NUMBER;
}

/* After tbl_load failed: which kind of failure, read again from the file
 * (tbl_load's text says what, but text is no interface).  A schema version
 * mismatch gets a message naming the library, which the CLI's does not. */
static int classify_open(const char *path, char *err, size_t errlen)
{
    struct stat sb;
    FILE *f = fopen(path, "rb");
    if (!f || fstat(fileno(f), &sb) || !S_ISREG(sb.st_mode)) {
        if (f)
            fclose(f);
        return ATOMSIM_EOPEN;
    }
    size_t len = (size_t)sb.st_size;
    char *text = malloc(len + 1);
    if (!text || fread(text, 1, len, f) != len) {
        int rc = text ? ATOMSIM_EOPEN : ATOMSIM_ENOMEM;
        fclose(f);
        free(text);
        return rc;
    }
    fclose(f);
    text[len] = 0;
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root)
        return ATOMSIM_ETABLE;
    int rc = ATOMSIM_ETABLE;
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, EXP_SCHEMA_NAME))
        rc = ATOMSIM_ESCHEMA;
    else if (!cJSON_IsNumber(ver) || ver->valuedouble != ATOMSIM_TABLE_SCHEMA_VERSION) {
        if (cJSON_IsNumber(ver))
            fail(0, err, errlen,
                 "%s: a cost table of schema version %g; libatomsim %s reads version %d only (export the table "
                 "again with a matching atomsim)",
                 path, ver->valuedouble, atomsim_version(), ATOMSIM_TABLE_SCHEMA_VERSION);
        rc = ATOMSIM_ESCHEMA;
    }
    cJSON_Delete(root);
    return rc;
}

int atomsim_table_open(const char *path, atomsim_table **out, char *err, size_t errlen)
{
    char why[CFG_ERR_MAX];
    if (!out)
        return fail(ATOMSIM_EINVAL, err, errlen, "atomsim_table_open: out is NULL");
    *out = NULL;
    if (!path)
        return fail(ATOMSIM_EINVAL, err, errlen, "atomsim_table_open: path is NULL");
    atomsim_table *t = malloc(sizeof *t);
    if (!t)
        return fail(ATOMSIM_ENOMEM, err, errlen, "%s: out of memory", path);
    if (tbl_load(path, &t->tbl, why)) {
        free(t);
        fail(0, err, errlen, "%s", why);
        return classify_open(path, err, errlen);
    }
    *out = t;
    return ATOMSIM_OK;
}

void atomsim_table_close(atomsim_table *t)
{
    if (!t)
        return;
    tbl_free(t->tbl);
    free(t);
}

int atomsim_table_get_info(const atomsim_table *t, atomsim_table_info *out)
{
    if (!t || !out)
        return ATOMSIM_EINVAL;
    const dsp_policy *pol = tbl_policy(t->tbl);
    out->schema_version = ATOMSIM_TABLE_SCHEMA_VERSION;
    out->gpu_name = tbl_gpu_name(t->tbl);
    out->gpu_config_path = tbl_gpu_config_path(t->tbl);
    out->gpu_config_hash = tbl_config_hash(t->tbl);
    out->cpu_name = tbl_cpu_name(t->tbl);
    out->rule = (int)pol->rule;
    out->data_on = (int)pol->data_on;
    out->host_launch_us = pol->host_launch_us;
    out->pcie_bandwidth_gbps = pol->pcie_bandwidth_gbps;
    out->density_penalty_start = pol->seed.penalty_start;
    out->density_inhibit = pol->seed.inhibit;
    out->inhibit_cas = pol->seed.inhibit_cas;
    return ATOMSIM_OK;
}

static int has_pattern(const atomsim_table *t, int pattern)
{
    double lo, hi;
    return tbl_axis_range(t->tbl, (enum pat_id)pattern, "n", &lo, &hi) == 0; /* every pattern has an n axis */
}

int atomsim_table_axis_range(const atomsim_table *t, int pattern, const char *axis, double *lo, double *hi)
{
    enum exp_axis_kind k;
    if (!t || !axis || !lo || !hi || (unsigned)pattern >= PAT_COUNT || exp_axis_from_name(axis, &k))
        return ATOMSIM_EINVAL;
    if (!has_pattern(t, pattern))
        return ATOMSIM_ENOPATTERN;
    return tbl_axis_range(t->tbl, (enum pat_id)pattern, axis, lo, hi) ? ATOMSIM_EINVAL : ATOMSIM_OK;
}

int atomsim_query_init(atomsim_query *q, const char *pattern)
{
    tbl_query tq;
    enum pat_id id;
    if (!q)
        return ATOMSIM_EINVAL;
    int rc = pattern && pat_from_name(pattern, &id) == 0 ? ATOMSIM_OK : ATOMSIM_EINVAL;
    tbl_query_init(&tq, rc == ATOMSIM_OK ? id : PAT_STORE);
    q->pattern = rc == ATOMSIM_OK ? (int)id : -1;
    q->n = tq.n;
    q->wg = tq.wg;
    q->smem_per_wg = tq.smem_per_wg;
    q->selectivity = tq.selectivity;
    q->bins = tq.bins;
    q->hot = tq.hot;
    q->addresses = tq.addresses;
    q->rule = ATOMSIM_RULE_TABLE;
    q->data_on = ATOMSIM_DATA_ON_TABLE;
    q->extrapolate = 0;
    return rc;
}

static double axis_value(const atomsim_query *q, enum exp_axis_kind k)
{
    switch (k) {
    case EXP_AXIS_N: return q->n;
    case EXP_AXIS_WG: return q->wg;
    case EXP_AXIS_SMEM: return q->smem_per_wg;
    case EXP_AXIS_SELECTIVITY: return q->selectivity;
    case EXP_AXIS_BINS: return q->bins;
    case EXP_AXIS_HOT: return q->hot;
    default: return q->addresses;
    }
}

/* After tbl_lookup failed (or before it, for a shape it cannot compute): a
 * missing pattern, a value no axis accepts (any of them, before any
 * range), a value outside the grid, else a workgroup that does not fit.
 * The ranges are table.c's: shared memory maps onto its grid by occupancy,
 * so only beyond its last value is it outside (and extrapolates). */
static int classify_lookup(const atomsim_table *t, const atomsim_query *q, char *err, size_t errlen)
{
    const char *pat = pat_name((enum pat_id)q->pattern);
    if (!has_pattern(t, q->pattern))
        return fail(ATOMSIM_ENOPATTERN, err, errlen, "the table has no pattern '%s'", pat);
    for (int k = 0; k < EXP_AXIS_KIND_COUNT; k++) {
        double lo, hi, x = axis_value(q, (enum exp_axis_kind)k);
        const char *name = exp_axis_name((enum exp_axis_kind)k);
        int log2_axis = exp_axis_log2((enum exp_axis_kind)k);
        if (tbl_axis_range(t->tbl, (enum pat_id)q->pattern, name, &lo, &hi) == 0 &&
            (!isfinite(x) || x < 0 || (log2_axis && !(x > 0))))
            return fail(ATOMSIM_EINVAL, err, errlen, "%s=%g: must be %s", name, x,
                        log2_axis ? "positive" : "non-negative");
    }
    for (int k = 0; k < EXP_AXIS_KIND_COUNT; k++) {
        double lo, hi, x = axis_value(q, (enum exp_axis_kind)k);
        const char *name = exp_axis_name((enum exp_axis_kind)k);
        if (tbl_axis_range(t->tbl, (enum pat_id)q->pattern, name, &lo, &hi))
            continue;
        int outside = k == EXP_AXIS_SMEM ? x > hi && !q->extrapolate
                                         : (x < lo || x > hi) && (!q->extrapolate || lo == hi);
        if (outside)
            return fail(ATOMSIM_ERANGE, err, errlen, "%s=%.10g is outside the table's grid [%.10g, %.10g] for %s%s", name,
                        x, lo, hi, pat,
                        lo == hi ? " (one grid value: no extrapolation)" : " (set extrapolate to go beyond it)");
    }
    return fail(ATOMSIM_ENOFIT, err, errlen,
                "a workgroup of %.10g threads with %.10g bytes of shared memory does not fit on an SM of %s (%s)", q->wg,
                q->smem_per_wg, tbl_gpu_name(t->tbl), pat);
}

/* Shapes that table.c's occupancy arithmetic (int threads, uint32_t bytes)
 * cannot hold: it would divide by zero or wrap around, so the lookup
 * refuses them before it runs.  No GPU holds such a workgroup anyway. */
static int shape_unrepresentable(const atomsim_table *t, const atomsim_query *q)
{
    double lo, hi;
    int odd = !(q->wg >= 0.5 && q->wg < 2147483647.5) || !(q->smem_per_wg < 2147483648.0) ||
              (q->pattern == ATOMSIM_PATTERN_HISTOGRAM_SHARED && !(q->bins < 536870912.0));
    return odd && tbl_axis_range(t->tbl, (enum pat_id)q->pattern, "smem_per_wg", &lo, &hi) == 0;
}

int atomsim_lookup(const atomsim_table *t, const atomsim_query *q, atomsim_answer *out, char *err, size_t errlen)
{
    if (!t || !q || !out)
        return fail(ATOMSIM_EINVAL, err, errlen, "atomsim_lookup: a NULL table, query or answer");
    if ((unsigned)q->pattern >= PAT_COUNT)
        return fail(ATOMSIM_EINVAL, err, errlen, "pattern code %d is not an ATOMSIM_PATTERN_*", q->pattern);
    if (q->rule < ATOMSIM_RULE_TABLE || q->rule > ATOMSIM_RULE_SEED || q->data_on < ATOMSIM_DATA_ON_TABLE ||
        q->data_on > ATOMSIM_DATA_ON_BOTH)
        return fail(ATOMSIM_EINVAL, err, errlen, "rule %d or data_on %d is not an ATOMSIM_RULE_* or ATOMSIM_DATA_ON_*",
                    q->rule, q->data_on);
    tbl_query tq = {
        .pattern = (enum pat_id)q->pattern,
        .n = q->n,
        .selectivity = q->selectivity,
        .bins = q->bins,
        .hot = q->hot,
        .addresses = q->addresses,
        .wg = q->wg,
        .smem_per_wg = q->smem_per_wg,
        .rule = q->rule,
        .data_on = q->data_on,
        .extrapolate = q->extrapolate != 0,
    };
    tbl_answer a;
    char why[CFG_ERR_MAX];
    if (shape_unrepresentable(t, q) || tbl_lookup(t->tbl, &tq, &a, why))
        return classify_lookup(t, q, err, errlen);
    out->decision = (int)a.d.target;
    out->reason = (int)a.d.reason;
    out->rule = (int)a.rule;
    out->data_on = (int)a.data_on;
    out->gpu_us = a.gpu_us;
    out->cpu_us = a.cpu_us;
    out->gpu_lo_us = a.gpu_lo_us;
    out->gpu_hi_us = a.gpu_hi_us;
    out->band_rows = a.band_rows;
    out->cpu_lo_us = a.cpu_lo_us;
    out->cpu_hi_us = a.cpu_hi_us;
    out->cpu_band_rows = a.cpu_band_rows;
    out->close_call = a.close_call;
    out->gpu_kernel_us = a.gpu_kernel_us;
    out->cpu_compute_us = a.cpu_compute_us;
    out->cost_decision = (int)a.d.cost_target;
    out->seed_decision = (int)a.d.seed_target;
    out->seed_reason = (int)a.d.seed_reason;
    out->density_fraction = a.density_fraction;
    out->penalty = a.d.penalty;
    out->inhibited = a.d.inhibited;
    out->source = a.source;
    out->extrapolated = a.extrapolated;
    return ATOMSIM_OK;
}

const char *atomsim_pattern_name(int pattern)
{
    return (unsigned)pattern < PAT_COUNT ? pat_name((enum pat_id)pattern) : "?";
}

int atomsim_pattern_from_name(const char *name, int *pattern)
{
    enum pat_id id;
    if (!name || !pattern || pat_from_name(name, &id))
        return ATOMSIM_EINVAL;
    *pattern = (int)id;
    return ATOMSIM_OK;
}

const char *atomsim_target_name(int target)
{
    return target == ATOMSIM_GPU ? "gpu" : target == ATOMSIM_CPU ? "cpu" : "?";
}

const char *atomsim_reason_name(int reason)
{
    return (unsigned)reason < DSP_REASON_COUNT ? dsp_reason_name((enum dsp_reason)reason) : "?";
}

const char *atomsim_rule_name(int rule)
{
    return dsp_rule_name((enum dsp_rule)rule);
}

const char *atomsim_data_on_name(int data_on)
{
    return dsp_data_on_name((enum dsp_data_on)data_on);
}

const char *atomsim_strerror(int rc)
{
    static const char *const text[] = {
        [ATOMSIM_OK] = "ok",
        [ATOMSIM_EINVAL] = "invalid argument",
        [ATOMSIM_EOPEN] = "cannot open or read the table",
        [ATOMSIM_ESCHEMA] = "not a cost table of this library's schema version",
        [ATOMSIM_ETABLE] = "malformed cost table",
        [ATOMSIM_ENOMEM] = "out of memory",
        [ATOMSIM_ENOPATTERN] = "the table has no such pattern",
        [ATOMSIM_ERANGE] = "outside the table's grid",
        [ATOMSIM_ENOFIT] = "the workgroup does not fit on an SM",
    };
    return rc >= 0 && (size_t)rc < sizeof text / sizeof text[0] ? text[rc] : "unknown error";
}
