/* export_header.c - `atomsim export --format c-header`: a header for a
 * dispatcher that links no library, with the table's arrays and
 * atomsim_ct_lookup(), which answers as libatomsim does on the JSON of the
 * same export. */
#include "export.h"
#include "export_fields.h"
#include "../util/esc.h"

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
        exp_format_value(buf, sizeof buf, get(base, i, field));
        fprintf(f, "%s%s", i ? "," : "", buf);
    }
    fputs("};\n", f);
}

/* One side's error bands as designated initializers of an
 * atomsim_ct_pattern, with the JSON's numbers. */
static void c_bands(FILE *f, const char *count_field, const char *field, const exp_band *bands, int count)
{
    fprintf(f, "        .%s = %d, .%s = {", count_field, count, field);
    for (int b = 0; b < count; b++) {
        const exp_band *eb = &bands[b];
        char v[EXP_BAND_VALUES][48];
        exp_band_values(eb, v);
        fprintf(f, "%s{%s, %s, %d, %s, %s, %s}", b ? ", " : "", v[0], v[1], eb->rows, v[2], v[3], v[4]);
    }
    fprintf(f, "%s},\n", count ? "" : "{0}");
}

/* The header's text mirrors model/table.c and dsp_decide so that it
 * answers bit for bit as libatomsim does on the JSON of the same export
 * (the arrays print with the JSON's number formats, so they hold the same
 * doubles).  tests/unit/test_c_api_header.c holds it to that. */
void exp_write_c_header(const exp_table *t, FILE *f)
{
    static const char *const shared_src[] = {
        "/* The codes of <atomsim/dispatch.h>, defined identically (a macro may be\n",
        " * defined twice with the same text), so both headers can be included. */\n",
        "#define ATOMSIM_OK 0\n",
        "#define ATOMSIM_EINVAL 1\n",
        "#define ATOMSIM_ENOPATTERN 6\n",
        "#define ATOMSIM_ERANGE 7\n",
        "#define ATOMSIM_ENOFIT 8\n",
        "#define ATOMSIM_GPU 0\n",
        "#define ATOMSIM_CPU 1\n",
        "#define ATOMSIM_REASON_GPU_FASTER 0\n",
        "#define ATOMSIM_REASON_CPU_FASTER 1\n",
        "#define ATOMSIM_REASON_DENSITY 2\n",
        "#define ATOMSIM_REASON_CAS 3\n",
        "#define ATOMSIM_RULE_TABLE (-1)\n",
        "#define ATOMSIM_RULE_COST 0\n",
        "#define ATOMSIM_RULE_SEED 1\n",
        "#define ATOMSIM_DATA_ON_TABLE (-1)\n",
        "#define ATOMSIM_DATA_ON_GPU 0\n",
        "#define ATOMSIM_DATA_ON_HOST 1\n",
        "#define ATOMSIM_DATA_ON_BOTH 2\n",
        "#define ATOMSIM_SOURCE_MODEL 'm'\n",
        "#define ATOMSIM_SOURCE_SIM 's'\n",
        "#define ATOMSIM_SOURCE_ANCHORED 'a'\n",
        "#define ATOMSIM_SOURCE_MIXED 'x'\n",
    };
    static const char *const types_src[] = {
        "/* One operation (the fields of atomsim_query in <atomsim/dispatch.h>). */\n",
        "typedef struct atomsim_ct_query {\n",
        "    int pattern;                      /* ATOMSIM_PATTERN_* */\n",
        "    double n, wg, smem_per_wg, selectivity, bins, hot, addresses;\n",
        "    int rule;                         /* ATOMSIM_RULE_*, or ATOMSIM_RULE_TABLE */\n",
        "    int data_on;                      /* ATOMSIM_DATA_ON_*, or ATOMSIM_DATA_ON_TABLE */\n",
        "    int extrapolate;                  /* 1: answer outside the grid too, and say so */\n",
        "} atomsim_ct_query;\n",
        "\n",
        "/* The answer (the fields of atomsim_answer in <atomsim/dispatch.h>). */\n",
        "typedef struct atomsim_ct_answer {\n",
        "    int decision, reason, rule, data_on;\n",
        "    double gpu_us, cpu_us;            /* data movement and host launch included */\n",
        "    double gpu_lo_us, gpu_hi_us;\n",
        "    int band_rows;\n",
        "    double gpu_kernel_us, cpu_compute_us;\n",
        "    int cost_decision, seed_decision, seed_reason;\n",
        "    double density_fraction, penalty;\n",
        "    int inhibited, source, extrapolated;\n",
        "    double cpu_lo_us, cpu_hi_us;      /* the CPU tier's band, as gpu_lo_us and gpu_hi_us are the GPU's */\n",
        "    int cpu_band_rows;\n",
        "    int close_call;                   /* the two bands overlap */\n",
        "} atomsim_ct_answer;\n",
        "\n",
        "typedef struct atomsim_ct_band {\n",
        "    double n_lo, n_hi;                /* n in [n_lo, n_hi) */\n",
        "    int rows;\n",
        "    double p10, p50, p90;             /* measured / the table's answer */\n",
        "} atomsim_ct_band;\n",
        "\n",
        "/* One pattern's grid: the arrays below, and how to walk them. */\n",
        "typedef struct atomsim_ct_pattern {\n",
        "    int present, uses_cas, axis_count;\n",
        "    int kind[ATOMSIM_CT_MAX_AXES], log2_scale[ATOMSIM_CT_MAX_AXES], gpu_only[ATOMSIM_CT_MAX_AXES];\n",
        "    int count[ATOMSIM_CT_MAX_AXES];\n",
        "    const double *values[ATOMSIM_CT_MAX_AXES];\n",
        "    size_t cells, host_cells;\n",
        "    const double *gpu_us, *cpu_us, *density, *density_fraction;\n",
        "    const char *source, *decision, *seed_decision, *seed_reason;\n",
        "    int band_count, cpu_band_count;\n",
        "    atomsim_ct_band bands[ATOMSIM_CT_MAX_BANDS], cpu_bands[ATOMSIM_CT_MAX_BANDS];\n",
        "} atomsim_ct_pattern;\n",
        "\n",
        "typedef struct atomsim_ct_policy {\n",
        "    int rule, data_on;\n",
        "    double host_launch_us, pcie_bandwidth_gbps, density_penalty_start, density_inhibit;\n",
        "    int inhibit_cas;\n",
        "} atomsim_ct_policy;\n",
    };
    static const char *const code_src[] = {
        "/* What follows mirrors libatomsim (model/table.c, model/score.c) operation\n",
        " * for operation, so that each double rounds as it does there. */\n",
        "\n",
        "static inline double atomsim_ct_axis_value_(const atomsim_ct_query *q, int kind)\n",
        "{\n",
        "    switch (kind) {\n",
        "    case ATOMSIM_CT_AXIS_N: return q->n;\n",
        "    case ATOMSIM_CT_AXIS_WG: return q->wg;\n",
        "    case ATOMSIM_CT_AXIS_SMEM_PER_WG: return q->smem_per_wg;\n",
        "    case ATOMSIM_CT_AXIS_SELECTIVITY: return q->selectivity;\n",
        "    case ATOMSIM_CT_AXIS_BINS: return q->bins;\n",
        "    case ATOMSIM_CT_AXIS_HOT: return q->hot;\n",
        "    default: return q->addresses;\n",
        "    }\n",
        "}\n",
        "\n",
        "/* The bracketing index (x between v[i] and v[i + 1]) and the weight of\n",
        " * v[i + 1] in the axis's scale; 1 when x lies outside the axis. */\n",
        "static inline int atomsim_ct_bracket_(const double *v, int count, double x, int log2_scale, int *i, double *w)\n",
        "{\n",
        "    int lo = 0;\n",
        "    double a, b;\n",
        "    if (count == 1) {\n",
        "        *i = 0;\n",
        "        *w = 0;\n",
        "        return x != v[0];\n",
        "    }\n",
        "    while (lo < count - 2 && x >= v[lo + 1])\n",
        "        lo++;\n",
        "    a = v[lo];\n",
        "    b = v[lo + 1];\n",
        "    if (x == a)\n",
        "        *w = 0;\n",
        "    else if (x == b)\n",
        "        *w = 1;\n",
        "    else if (log2_scale)\n",
        "        *w = (log2(x) - log2(a)) / (log2(b) - log2(a));\n",
        "    else\n",
        "        *w = (x - a) / (b - a);\n",
        "    *i = lo;\n",
        "    return x < v[0] || x > v[count - 1];\n",
        "}\n",
        "\n",
        "/* Workgroups an SM holds (0: it does not fit), from the shared memory the\n",
        " * workgroup allocates: its request, or the pattern's own need if larger. */\n",
        "static inline int atomsim_ct_wgs_per_sm_(int pattern, double wg, double bins, double smem)\n",
        "{\n",
        "    int threads = (int)llround(wg), warps, by_threads, by_warps, by_smem, wgs = ATOMSIM_COST_TABLE_MAX_WG_PER_SM;\n",
        "    uint32_t own = 0, bytes = (uint32_t)llround(smem);\n",
        "    if (pattern == ATOMSIM_PATTERN_HISTOGRAM_SHARED)\n",
        "        own = 4u * (uint32_t)llround(bins);\n",
        "    else if (pattern == ATOMSIM_PATTERN_REDUCE)\n",
        "        own = 4u;\n",
        "    if (own > bytes)\n",
        "        bytes = own;\n",
        "    warps = (threads + ATOMSIM_COST_TABLE_SUBGROUP_SIZE - 1) / ATOMSIM_COST_TABLE_SUBGROUP_SIZE;\n",
        "    by_threads = ATOMSIM_COST_TABLE_MAX_THREADS_PER_SM / threads;\n",
        "    by_warps = ATOMSIM_COST_TABLE_MAX_WARPS_PER_SM / warps;\n",
        "    /* cfg_wg_per_sm's rule: no shared memory and no reserve, no limit */\n",
        "    if ((uint64_t)bytes + ATOMSIM_COST_TABLE_SMEM_RESERVED_PER_WG_BYTES == 0)\n",
        "        by_smem = wgs;\n",
        "    else\n",
        "        by_smem = (int)((uint64_t)ATOMSIM_COST_TABLE_SMEM_PER_SM_BYTES /\n",
        "                        ((uint64_t)bytes + ATOMSIM_COST_TABLE_SMEM_RESERVED_PER_WG_BYTES));\n",
        "    if (by_threads < wgs)\n",
        "        wgs = by_threads;\n",
        "    if (by_warps < wgs)\n",
        "        wgs = by_warps;\n",
        "    if (by_smem < wgs)\n",
        "        wgs = by_smem;\n",
        "    return wgs < 1 ? 0 : wgs;\n",
        "}\n",
        "\n",
        "/* Shared memory reaches the GPU's time only through the workgroups an SM\n",
        " * holds, so its axis brackets by that count: a grid point that holds as\n",
        " * many stands for the query exactly; between two, the weight is linear in\n",
        " * 1 / workgroups.  1 when the workgroup does not fit. */\n",
        "static inline int atomsim_ct_bracket_smem_(const atomsim_ct_pattern *tp, int ax, const atomsim_ct_query *q, int *i,\n",
        "                                           double *w)\n",
        "{\n",
        "    const double *v = tp->values[ax];\n",
        "    int count = tp->count[ax], k, have, prev = 0;\n",
        "    int want = atomsim_ct_wgs_per_sm_(q->pattern, q->wg, q->bins, q->smem_per_wg);\n",
        "    if (want < 1)\n",
        "        return 1;\n",
        "    *i = 0;\n",
        "    *w = 0;\n",
        "    for (k = 0; k < count; k++) {\n",
        "        have = atomsim_ct_wgs_per_sm_(q->pattern, q->wg, q->bins, v[k]);\n",
        "        if (have == want) {\n",
        "            *i = k == count - 1 && k > 0 ? k - 1 : k;\n",
        "            *w = k == count - 1 && k > 0 ? 1 : 0;\n",
        "            return 0;\n",
        "        }\n",
        "        if (have < want) {\n",
        "            if (k == 0)\n",
        "                return 0;\n",
        "            *i = k - 1;\n",
        "            *w = (1.0 / want - 1.0 / prev) / (1.0 / have - 1.0 / prev);\n",
        "            return 0;\n",
        "        }\n",
        "        prev = have;\n",
        "    }\n",
        "    *i = count > 1 ? count - 2 : 0;\n",
        "    *w = count > 1 ? 1 : 0;\n",
        "    return 0;\n",
        "}\n",
        "\n",
        "/* On a log2 axis values interpolate their logarithm, on a linear axis the\n",
        " * values; a 0 falls back to linear. */\n",
        "static inline double atomsim_ct_mix_(double a, double b, double w, int log_values)\n",
        "{\n",
        "    if (w == 0)\n",
        "        return a;\n",
        "    if (w == 1)\n",
        "        return b;\n",
        "    if (log_values && a > 0 && b > 0)\n",
        "        return exp(log(a) + w * (log(b) - log(a)));\n",
        "    return a + w * (b - a);\n",
        "}\n",
        "\n",
        "/* 1 when corner c enters the answer with a weight above 0. */\n",
        "static inline int atomsim_ct_weighs_(int c, int d, const int *ax, const double *w)\n",
        "{\n",
        "    int k;\n",
        "    for (k = 0; k < d; k++) {\n",
        "        int bit = (c >> (d - 1 - k)) & 1;\n",
        "        if (bit ? w[ax[k]] == 0 : w[ax[k]] == 1)\n",
        "            return 0;\n",
        "    }\n",
        "    return 1;\n",
        "}\n",
        "\n",
        "/* Nested 1-D interpolation over the corners of the axes in `use` (a bit\n",
        " * mask), the last axis first; `field` is row-major over those axes.  Times\n",
        " * (`times`) interpolate their logarithm on every axis, other fields mix\n",
        " * per axis; a query on grid points returns the stored value itself. */\n",
        "static inline double atomsim_ct_interpolate_(const atomsim_ct_pattern *tp, const double *field, unsigned use,\n",
        "                                             const int *idx, const double *w, int *src, const char *codes,\n",
        "                                             int times)\n",
        "{\n",
        "    int ax[ATOMSIM_CT_MAX_AXES], d = 0, c, k, ncorner, positive = 1, on_grid = 1;\n",
        "    char seen = 0, mixed = 0;\n",
        "    double corner[1 << ATOMSIM_CT_MAX_AXES];\n",
        "    for (k = 0; k < tp->axis_count; k++)\n",
        "        if (use & (1u << k))\n",
        "            ax[d++] = k;\n",
        "    ncorner = 1 << d;\n",
        "    for (c = 0; c < ncorner; c++) {\n",
        "        size_t off = 0;\n",
        "        for (k = 0; k < d; k++) {\n",
        "            int bit = (c >> (d - 1 - k)) & 1;\n",
        "            int j = idx[ax[k]] + (bit && tp->count[ax[k]] > 1 ? 1 : 0);\n",
        "            off = off * (size_t)tp->count[ax[k]] + (size_t)j;\n",
        "        }\n",
        "        corner[c] = field[off];\n",
        "        positive &= corner[c] > 0;\n",
        "        if (codes && atomsim_ct_weighs_(c, d, ax, w)) {\n",
        "            mixed |= seen && codes[off] != seen;\n",
        "            seen = codes[off];\n",
        "        }\n",
        "    }\n",
        "    if (src)\n",
        "        *src = mixed ? ATOMSIM_SOURCE_MIXED : seen ? seen : ATOMSIM_SOURCE_MODEL;\n",
        "    for (k = 0; k < d; k++)\n",
        "        on_grid &= w[ax[k]] == 0 || w[ax[k]] == 1;\n",
        "    if (times && positive && !on_grid) {\n",
        "        for (c = 0; c < ncorner; c++)\n",
        "            corner[c] = log(corner[c]);\n",
        "        for (k = d - 1; k >= 0; k--) {\n",
        "            int half = 1 << k;\n",
        "            for (c = 0; c < half; c++)\n",
        "                corner[c] = atomsim_ct_mix_(corner[2 * c], corner[2 * c + 1], w[ax[k]], 0);\n",
        "        }\n",
        "        return exp(corner[0]);\n",
        "    }\n",
        "    for (k = d - 1; k >= 0; k--) {\n",
        "        int half = 1 << k;\n",
        "        for (c = 0; c < half; c++)\n",
        "            corner[c] = atomsim_ct_mix_(corner[2 * c], corner[2 * c + 1], w[ax[k]], tp->log2_scale[ax[k]]);\n",
        "    }\n",
        "    return corner[0];\n",
        "}\n",
        "\n",
        "/* Bytes a pattern's result moves back to the host (one 32-bit element a\n",
        " * thread comes in). */\n",
        "static inline double atomsim_ct_output_bytes_(int pattern, uint64_t n, double selectivity, uint32_t bins,\n",
        "                                              uint32_t addresses)\n",
        "{\n",
        "    switch (pattern) {\n",
        "    case ATOMSIM_PATTERN_STORE:\n",
        "        return 4.0 * (double)n * selectivity;\n",
        "    case ATOMSIM_PATTERN_COMPACTION:\n",
        "    case ATOMSIM_PATTERN_CAS_APPEND:\n",
        "        return 4.0 * (double)n * selectivity + 4;\n",
        "    case ATOMSIM_PATTERN_HISTOGRAM:\n",
        "    case ATOMSIM_PATTERN_HISTOGRAM_SHARED:\n",
        "        return 4.0 * bins;\n",
        "    case ATOMSIM_PATTERN_HISTOGRAM_U8_CAS:\n",
        "        return 1.0 * bins;\n",
        "    case ATOMSIM_PATTERN_HISTOGRAM_U16_CAS:\n",
        "        return 2.0 * bins;\n",
        "    case ATOMSIM_PATTERN_BITMASK:\n",
        "        return (double)n / 8;\n",
        "    case ATOMSIM_PATTERN_DISTINCT_LINES:\n",
        "        return 4.0 * addresses;\n",
        "    default:\n",
        "        return 4;\n",
        "    }\n",
        "}\n",
        "\n",
        "/* GPU or CPU for one operation: ATOMSIM_OK, or ATOMSIM_EINVAL (a bad code\n",
        " * or value), ATOMSIM_ENOPATTERN (not in this table), ATOMSIM_ERANGE\n",
        " * (outside the grid without extrapolate) or ATOMSIM_ENOFIT (the workgroup\n",
        " * does not fit on an SM), in that order of precedence, with *a untouched. */\n",
        "static inline int atomsim_ct_lookup(const atomsim_ct_query *q, atomsim_ct_answer *a)\n",
        "{\n",
        "    const atomsim_ct_policy *pol = &atomsim_ct_table_policy;\n",
        "    const atomsim_ct_pattern *tp;\n",
        "    const atomsim_ct_band *band = 0, *cpu_band = 0;\n",
        "    int idx[ATOMSIM_CT_MAX_AXES], ax, smem_ax = -1, extrapolated = 0, source, rule, data_on, atomics, inhibited;\n",
        "    int cost_target, seed_target, seed_reason = ATOMSIM_REASON_GPU_FASTER;\n",
        "    double w[ATOMSIM_CT_MAX_AXES], kernel, compute, fraction, gpu, cpu, penalty, in_bytes;\n",
        "    unsigned all = 0, host = 0;\n",
        "    uint64_t n_el;\n",
        "    if ((unsigned)q->pattern >= ATOMSIM_PATTERN_COUNT || q->rule < ATOMSIM_RULE_TABLE || q->rule > ATOMSIM_RULE_SEED ||\n",
        "        q->data_on < ATOMSIM_DATA_ON_TABLE || q->data_on > ATOMSIM_DATA_ON_BOTH)\n",
        "        return ATOMSIM_EINVAL;\n",
        "    tp = &atomsim_ct_patterns[q->pattern];\n",
        "    if (!tp->present)\n",
        "        return ATOMSIM_ENOPATTERN;\n",
        "    for (ax = 0; ax < tp->axis_count; ax++) {\n",
        "        double x = atomsim_ct_axis_value_(q, tp->kind[ax]);\n",
        "        if (!isfinite(x) || x < 0 || (tp->log2_scale[ax] && !(x > 0)))\n",
        "            return ATOMSIM_EINVAL;\n",
        "    }\n",
        "    for (ax = 0; ax < tp->axis_count; ax++) {\n",
        "        double x = atomsim_ct_axis_value_(q, tp->kind[ax]);\n",
        "        if (tp->kind[ax] == ATOMSIM_CT_AXIS_SMEM_PER_WG) {\n",
        "            if (x > tp->values[ax][tp->count[ax] - 1] && !q->extrapolate)\n",
        "                return ATOMSIM_ERANGE;\n",
        "            smem_ax = ax; /* bracketed below, once every range has passed */\n",
        "        } else if (atomsim_ct_bracket_(tp->values[ax], tp->count[ax], x, tp->log2_scale[ax], &idx[ax], &w[ax])) {\n",
        "            if (!q->extrapolate || tp->count[ax] == 1)\n",
        "                return ATOMSIM_ERANGE;\n",
        "            extrapolated = 1;\n",
        "        }\n",
        "        all |= 1u << ax;\n",
        "        if (!tp->gpu_only[ax])\n",
        "            host |= 1u << ax;\n",
        "    }\n",
        "    if (smem_ax >= 0) {\n",
        "        /* shapes whose occupancy int and uint32_t arithmetic cannot hold */\n",
        "        if (!(q->wg >= 0.5 && q->wg < 2147483647.5) || !(q->smem_per_wg < 2147483648.0) ||\n",
        "            (q->pattern == ATOMSIM_PATTERN_HISTOGRAM_SHARED && !(q->bins < 536870912.0)))\n",
        "            return ATOMSIM_ENOFIT;\n",
        "        if (atomsim_ct_bracket_smem_(tp, smem_ax, q, &idx[smem_ax], &w[smem_ax]))\n",
        "            return ATOMSIM_ENOFIT;\n",
        "    }\n",
        "    kernel = atomsim_ct_interpolate_(tp, tp->gpu_us, all, idx, w, &source, tp->source, 1);\n",
        "    compute = atomsim_ct_interpolate_(tp, tp->cpu_us, host, idx, w, 0, 0, 1);\n",
        "    fraction = atomsim_ct_interpolate_(tp, tp->density_fraction, host, idx, w, 0, 0, 0);\n",
        "    if (fraction > 1)\n",
        "        fraction = 1;\n",
        "    rule = q->rule >= 0 ? q->rule : pol->rule;\n",
        "    data_on = q->data_on >= 0 ? q->data_on : pol->data_on;\n",
        "\n",
        "    /* the side without the input fetches it; the GPU hands its result back\n",
        "     * to the host when the data lives there */\n",
        "    n_el = (uint64_t)llround(q->n);\n",
        "    in_bytes = 4.0 * (double)n_el;\n",
        "    gpu = kernel + pol->host_launch_us;\n",
        "    cpu = compute;\n",
        "    if (data_on == ATOMSIM_DATA_ON_GPU)\n",
        "        cpu += in_bytes / (pol->pcie_bandwidth_gbps * 1e3);\n",
        "    else if (data_on == ATOMSIM_DATA_ON_HOST)\n",
        "        gpu += (in_bytes + atomsim_ct_output_bytes_(q->pattern, n_el, q->selectivity, (uint32_t)llround(q->bins),\n",
        "                                                    (uint32_t)llround(q->addresses))) /\n",
        "               (pol->pcie_bandwidth_gbps * 1e3);\n",
        "    cost_target = gpu <= cpu ? ATOMSIM_GPU : ATOMSIM_CPU;\n",
        "\n",
        "    /* seed 000's rule: a penalty between the thresholds, inhibition above */\n",
        "    atomics = fraction > 0;\n",
        "    if (!atomics || fraction <= pol->density_penalty_start)\n",
        "        penalty = 0;\n",
        "    else if (fraction >= pol->density_inhibit || pol->density_inhibit <= pol->density_penalty_start)\n",
        "        penalty = 1;\n",
        "    else\n",
        "        penalty = (fraction - pol->density_penalty_start) / (pol->density_inhibit - pol->density_penalty_start);\n",
        "    inhibited = 1;\n",
        "    if (tp->uses_cas && pol->inhibit_cas)\n",
        "        seed_reason = ATOMSIM_REASON_CAS;\n",
        "    else if (atomics && fraction > pol->density_inhibit)\n",
        "        seed_reason = ATOMSIM_REASON_DENSITY;\n",
        "    else\n",
        "        inhibited = 0;\n",
        "    if (inhibited)\n",
        "        seed_target = ATOMSIM_CPU;\n",
        "    else if (gpu * (1 + penalty) <= cpu) {\n",
        "        seed_target = ATOMSIM_GPU;\n",
        "        seed_reason = ATOMSIM_REASON_GPU_FASTER;\n",
        "    } else {\n",
        "        seed_target = ATOMSIM_CPU;\n",
        "        seed_reason = ATOMSIM_REASON_CPU_FASTER;\n",
        "    }\n",
        "\n",
        "    for (ax = 0; ax < tp->band_count && !band; ax++)\n",
        "        if (q->n >= tp->bands[ax].n_lo && q->n < tp->bands[ax].n_hi)\n",
        "            band = &tp->bands[ax];\n",
        "    for (ax = 0; ax < tp->cpu_band_count && !cpu_band; ax++)\n",
        "        if (q->n >= tp->cpu_bands[ax].n_lo && q->n < tp->cpu_bands[ax].n_hi)\n",
        "            cpu_band = &tp->cpu_bands[ax];\n",
        "    a->rule = rule;\n",
        "    a->data_on = data_on;\n",
        "    if (rule == ATOMSIM_RULE_SEED) {\n",
        "        a->decision = seed_target;\n",
        "        a->reason = seed_reason;\n",
        "    } else {\n",
        "        a->decision = cost_target;\n",
        "        a->reason = cost_target == ATOMSIM_GPU ? ATOMSIM_REASON_GPU_FASTER : ATOMSIM_REASON_CPU_FASTER;\n",
        "    }\n",
        "    a->gpu_us = gpu;\n",
        "    a->cpu_us = cpu;\n",
        "    a->gpu_lo_us = gpu - kernel + kernel * (band ? band->p10 : 1);\n",
        "    a->gpu_hi_us = gpu - kernel + kernel * (band ? band->p90 : 1);\n",
        "    a->band_rows = band ? band->rows : 0;\n",
        "    a->gpu_kernel_us = kernel;\n",
        "    a->cpu_compute_us = compute;\n",
        "    a->cost_decision = cost_target;\n",
        "    a->seed_decision = seed_target;\n",
        "    a->seed_reason = seed_reason;\n",
        "    a->density_fraction = fraction;\n",
        "    a->penalty = penalty;\n",
        "    a->inhibited = inhibited;\n",
        "    a->source = source;\n",
        "    a->extrapolated = extrapolated;\n",
        "    a->cpu_lo_us = cpu - compute + compute * (cpu_band ? cpu_band->p10 : 1);\n",
        "    a->cpu_hi_us = cpu - compute + compute * (cpu_band ? cpu_band->p90 : 1);\n",
        "    a->cpu_band_rows = cpu_band ? cpu_band->rows : 0;\n",
        "    a->close_call = a->gpu_lo_us <= a->cpu_hi_us && a->cpu_lo_us <= a->gpu_hi_us;\n",
        "    return ATOMSIM_OK;\n",
        "}\n",
    };
    char buf[48], id[64];
    const dsp_policy *pol = &t->policy;
    const char *const names[2] = { t->gpu.gpu.name, t->cpu.name };
    pat_params def;
    size_t i;
    fputs("/* atomsim cost table for ", f);
    esc_c(f, t->gpu.gpu.name, 1);
    fputs(" and the CPU tier ", f);
    esc_c(f, t->cpu.name, 1);
    fputc('\n', f);
    fprintf(f, " * (schema %s version %d, generated by atomsim export; GPU config hash\n * %016llx, CPU config hash %016llx).\n",
            EXP_SCHEMA_NAME, EXP_SCHEMA_VERSION, (unsigned long long)cfg_hash(&t->gpu),
            (unsigned long long)cpu_hash(&t->cpu));
    fputs(" *\n"
          " * For a dispatcher that links no library: include this file in one .c file\n"
          " * (its arrays are static) and ask\n"
          " *\n"
          " *   atomsim_ct_query q;\n"
          " *   atomsim_ct_answer a;\n"
          " *   atomsim_ct_query_init(&q, ATOMSIM_PATTERN_COMPACTION);\n"
          " *   q.n = 10e6;\n"
          " *   q.selectivity = 0.25;\n"
          " *   if (atomsim_ct_lookup(&q, &a) == ATOMSIM_OK && a.decision == ATOMSIM_GPU) ...\n"
          " *\n"
          " * atomsim_ct_lookup() answers bit for bit as libatomsim's atomsim_lookup()\n"
          " * and `atomsim dispatch` on the JSON table of the same export: the same\n"
          " * bracketing, log2/linear interpolation, data movement and rule, on the\n"
          " * same doubles.  That holds when this code is compiled with\n"
          " * -ffp-contract=off (a fused multiply-add rounds once where the library\n"
          " * rounds twice) and without -ffast-math, for a target that evaluates\n"
          " * doubles in double precision (FLT_EVAL_METHOD 0: x86-64, AArch64), with\n"
          " * the same libm as the library (exp, log, log2).  Link -lm.  A lookup\n"
          " * allocates nothing and shares no state: any thread may call it.  C, not\n"
          " * C++; -Wpedantic needs -Wno-overlength-strings for the cell codes.\n"
          " *\n"
          " * Cells are row-major over each pattern's axes, the last axis fastest; the\n"
          " * host arrays likewise over the axes the CPU sees (not wg, smem_per_wg). */\n",
          f);
    fputs("#ifndef ATOMSIM_COST_TABLE_H\n#define ATOMSIM_COST_TABLE_H\n\n"
          "#include <math.h>\n#include <stddef.h>\n#include <stdint.h>\n\n",
          f);
    fprintf(f, "#define ATOMSIM_COST_TABLE_SCHEMA_VERSION %d\n", EXP_SCHEMA_VERSION);
    fprintf(f, "#define ATOMSIM_COST_TABLE_GPU_CONFIG_HASH 0x%016llxull\n", (unsigned long long)cfg_hash(&t->gpu));
    fprintf(f, "#define ATOMSIM_COST_TABLE_CPU_CONFIG_HASH 0x%016llxull\n", (unsigned long long)cpu_hash(&t->cpu));
    for (int k = 0; k < 2; k++) {
        fprintf(f, "#define ATOMSIM_COST_TABLE_%s_NAME \"", k ? "CPU" : "GPU");
        esc_c(f, names[k], 0);
        fputs("\"\n", f);
    }
    fprintf(f, "#define ATOMSIM_COST_TABLE_RULE %d /* the table's: 0 cost, 1 seed */\n", (int)pol->rule);
    fprintf(f, "#define ATOMSIM_COST_TABLE_DATA_ON %d /* 0 gpu, 1 host, 2 both */\n", (int)pol->data_on);
    cfg_format_exact(buf, sizeof buf, pol->host_launch_us);
    fprintf(f, "#define ATOMSIM_COST_TABLE_HOST_LAUNCH_US %s\n", buf);
    cfg_format_exact(buf, sizeof buf, pol->pcie_bandwidth_gbps);
    fprintf(f, "#define ATOMSIM_COST_TABLE_PCIE_BANDWIDTH_GBPS %s\n", buf);
    cfg_format_exact(buf, sizeof buf, pol->seed.penalty_start);
    fprintf(f, "#define ATOMSIM_COST_TABLE_DENSITY_PENALTY_START %s\n", buf);
    cfg_format_exact(buf, sizeof buf, pol->seed.inhibit);
    fprintf(f, "#define ATOMSIM_COST_TABLE_DENSITY_INHIBIT %s\n", buf);
    fprintf(f, "#define ATOMSIM_COST_TABLE_INHIBIT_CAS %d\n", pol->seed.inhibit_cas);
    /* the limits that say how many workgroups an SM holds (table.c's load_occupancy) */
    fprintf(f, "#define ATOMSIM_COST_TABLE_SUBGROUP_SIZE %d\n#define ATOMSIM_COST_TABLE_MAX_THREADS_PER_SM %d\n",
            t->gpu.gpu.subgroup_size, t->gpu.gpu.max_threads_per_sm);
    fprintf(f, "#define ATOMSIM_COST_TABLE_MAX_WARPS_PER_SM %d\n#define ATOMSIM_COST_TABLE_MAX_WG_PER_SM %d\n",
            t->gpu.gpu.max_warps_per_sm, t->gpu.gpu.max_wg_per_sm);
    fprintf(f, "#define ATOMSIM_COST_TABLE_SMEM_PER_SM_BYTES %d\n#define ATOMSIM_COST_TABLE_SMEM_RESERVED_PER_WG_BYTES %d\n\n",
            t->gpu.gpu.smem_per_sm_bytes, t->gpu.gpu.smem_reserved_per_wg_bytes);

    for (i = 0; i < sizeof shared_src / sizeof shared_src[0]; i++)
        fputs(shared_src[i], f);
    for (int p = 0; p < PAT_COUNT; p++) {
        c_ident(id, sizeof id, pat_name((enum pat_id)p));
        for (char *s = id; *s; s++)
            *s = *s >= 'a' && *s <= 'z' ? (char)(*s - 'a' + 'A') : *s;
        fprintf(f, "#define ATOMSIM_PATTERN_%s %d\n", id, p);
    }
    fprintf(f, "#define ATOMSIM_PATTERN_COUNT %d\n\n", PAT_COUNT);
    fprintf(f, "#define ATOMSIM_CT_MAX_AXES %d\n#define ATOMSIM_CT_MAX_BANDS %d\n", EXP_MAX_AXES, EXP_MAX_BANDS);
    fputs("enum {", f);
    for (int k = 0; k < EXP_AXIS_KIND_COUNT; k++) {
        snprintf(id, sizeof id, "%s", exp_axis_name((enum exp_axis_kind)k));
        for (char *s = id; *s; s++)
            *s = *s >= 'a' && *s <= 'z' ? (char)(*s - 'a' + 'A') : *s;
        fprintf(f, "%s ATOMSIM_CT_AXIS_%s = %d", k ? "," : "", id, k);
    }
    fputs(" };\n\n", f);
    for (i = 0; i < sizeof types_src / sizeof types_src[0]; i++)
        fputs(types_src[i], f);

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
            for (int v = 0; v < ep->axes[a].count; v++) {
                cfg_format_exact(buf, sizeof buf, ep->axes[a].values[v]);
                fprintf(f, "%s%s", v ? ", " : "", buf);
            }
            fputs("};\n", f);
        }
        c_doubles(f, id, "gpu_us", ep->cell_count, exp_get_gpu, ep->cells, 0);
        for (int h = 0; h < EXP_HOST_COUNT; h++)
            c_doubles(f, id, exp_host_names[h], ep->host_cell_count, exp_get_host, ep->host_cells, h);
        for (int c = 0; c < EXP_CODE_COUNT; c++) {
            fprintf(f, "static const char atomsim_%s_%s[%zu] = \"", id, exp_code_names[c], ep->cell_count + 1);
            for (size_t cell = 0; cell < ep->cell_count; cell++)
                fputc(exp_cell_code(&ep->cells[cell], (enum exp_code_field)c), f);
            fputs("\";\n", f);
        }
    }

    /* each pattern's walk through its arrays, by pattern code; a pattern the
     * table lacks stays zero (present 0) */
    fputs("\nstatic const atomsim_ct_pattern atomsim_ct_patterns[ATOMSIM_PATTERN_COUNT] = {\n", f);
    for (int pi = 0; pi < t->pattern_count; pi++) {
        const exp_pattern *ep = &t->patterns[pi];
        char up[64];
        c_ident(id, sizeof id, pat_name(ep->pattern));
        snprintf(up, sizeof up, "%s", id);
        for (char *s = up; *s; s++)
            *s = *s >= 'a' && *s <= 'z' ? (char)(*s - 'a' + 'A') : *s;
        fprintf(f, "    [ATOMSIM_PATTERN_%s] = {\n        .present = 1, .uses_cas = %d, .axis_count = %d,\n", up,
                pat_uses_cas(ep->pattern), ep->axis_count);
        fputs("        .kind = {", f);
        for (int a = 0; a < ep->axis_count; a++) {
            snprintf(buf, sizeof buf, "%s", exp_axis_name(ep->axes[a].kind));
            for (char *s = buf; *s; s++)
                *s = *s >= 'a' && *s <= 'z' ? (char)(*s - 'a' + 'A') : *s;
            fprintf(f, "%sATOMSIM_CT_AXIS_%s", a ? ", " : "", buf);
        }
        fputs("},\n        .log2_scale = {", f);
        for (int a = 0; a < ep->axis_count; a++)
            fprintf(f, "%s%d", a ? ", " : "", exp_axis_log2(ep->axes[a].kind));
        fputs("},\n        .gpu_only = {", f);
        for (int a = 0; a < ep->axis_count; a++)
            fprintf(f, "%s%d", a ? ", " : "", exp_axis_gpu_only(ep->axes[a].kind));
        fputs("},\n        .count = {", f);
        for (int a = 0; a < ep->axis_count; a++)
            fprintf(f, "%s%d", a ? ", " : "", ep->axes[a].count);
        fputs("},\n        .values = {", f);
        for (int a = 0; a < ep->axis_count; a++)
            fprintf(f, "%satomsim_%s_axis_%s", a ? ", " : "", id, exp_axis_name(ep->axes[a].kind));
        fprintf(f, "},\n        .cells = %zu, .host_cells = %zu,\n", ep->cell_count, ep->host_cell_count);
        fprintf(f, "        .gpu_us = atomsim_%s_gpu_us, .cpu_us = atomsim_%s_cpu_us, .density = atomsim_%s_density,\n"
                   "        .density_fraction = atomsim_%s_density_fraction, .source = atomsim_%s_source,\n"
                   "        .decision = atomsim_%s_decision, .seed_decision = atomsim_%s_seed_decision,\n"
                   "        .seed_reason = atomsim_%s_seed_reason,\n",
                id, id, id, id, id, id, id, id);
        c_bands(f, "band_count", "bands", ep->bands[EXP_SIDE_GPU], ep->band_count[EXP_SIDE_GPU]);
        c_bands(f, "cpu_band_count", "cpu_bands", ep->bands[EXP_SIDE_CPU], ep->band_count[EXP_SIDE_CPU]);
        fputs("    },\n", f);
    }
    fputs("};\n\nstatic const atomsim_ct_policy atomsim_ct_table_policy = {\n"
          "    ATOMSIM_COST_TABLE_RULE, ATOMSIM_COST_TABLE_DATA_ON, ATOMSIM_COST_TABLE_HOST_LAUNCH_US,\n"
          "    ATOMSIM_COST_TABLE_PCIE_BANDWIDTH_GBPS, ATOMSIM_COST_TABLE_DENSITY_PENALTY_START,\n"
          "    ATOMSIM_COST_TABLE_DENSITY_INHIBIT, ATOMSIM_COST_TABLE_INHIBIT_CAS,\n};\n\n",
          f);

    /* the contract's defaults, as tbl_query_init sets them */
    pat_defaults(&def);
    fputs("/* The contract's defaults, the table's rule and data location, no\n"
          " * extrapolation. */\n"
          "static inline void atomsim_ct_query_init(atomsim_ct_query *q, int pattern)\n{\n"
          "    q->pattern = pattern;\n",
          f);
    cfg_format_exact(buf, sizeof buf, (double)def.n);
    fprintf(f, "    q->n = %s;\n", buf);
    fprintf(f, "    q->wg = %d;\n    q->smem_per_wg = 0;\n", def.wg);
    cfg_format_exact(buf, sizeof buf, def.selectivity);
    fprintf(f, "    q->selectivity = %s;\n", buf);
    fprintf(f, "    q->bins = %u;\n", def.bins);
    cfg_format_exact(buf, sizeof buf, def.hot);
    fprintf(f, "    q->hot = %s;\n", buf);
    fprintf(f, "    q->addresses = %u;\n", def.addresses);
    fputs("    q->rule = ATOMSIM_RULE_TABLE;\n    q->data_on = ATOMSIM_DATA_ON_TABLE;\n    q->extrapolate = 0;\n}\n\n",
          f);
    for (i = 0; i < sizeof code_src / sizeof code_src[0]; i++)
        fputs(code_src[i], f);
    fputs("\n#endif\n", f);
}

