/* test_dispatch_table.c - cost tables (schema version 3) end to end in
 * memory: export is deterministic and writes no NaN or infinity; a table
 * written as JSON and loaded back answers every grid cell with exactly the
 * costs and verdicts export wrote; the cost and seed rules, the data
 * location and the host launch are applied at lookup time; a workgroup size
 * between grid points interpolates between its neighbours; and loading
 * refuses, with -1 and a message, what breaks the layout (a pattern or axis
 * given twice, negative or out-of-range numbers, codes of the wrong length,
 * another schema version, a file that is not a regular file). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../model/export.h"
#include "../../model/table.h"

/* The table every test shares: the default GPU and CPU configs, every
 * pattern, built in memory and loaded back from its JSON. */
typedef struct fixture {
    exp_table *built;
    tbl_table *loaded;
    char path[64];
} fixture;

static exp_table *build(unsigned only, const char *const *overrides)
{
    cfg_config c;
    cpu_config cpu;
    exp_table *t;
    exp_options o = { 0 };
    char err[CFG_ERR_MAX];
    cfg_defaults(&c);
    cpu_defaults(&cpu);
    for (; overrides && *overrides; overrides++)
        if (cfg_override(&c, *overrides, err))
            fail_msg("override %s: %s", *overrides, err);
    o.only = only;
    if (exp_build(&c, &cpu, &o, &t, err))
        fail_msg("export: %s", err);
    return t;
}

static char *text_of(const exp_table *t, enum exp_format f, size_t *len)
{
    char err[CFG_ERR_MAX], *buf = NULL;
    size_t ignored;
    FILE *m = open_memstream(&buf, len ? len : &ignored);
    assert_non_null(m);
    assert_int_equal(exp_write(t, f, m, err), 0);
    fclose(m);
    return buf;
}

static char *export_text(unsigned only, enum exp_format f, size_t *len)
{
    exp_table *t = build(only, NULL);
    char *s = text_of(t, f, len);
    exp_free(t);
    return s;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* exp_write's file path, then tbl_load: the JSON round trip. */
static tbl_table *round_trip(const exp_table *t, const char *path)
{
    char err[CFG_ERR_MAX];
    tbl_table *u = NULL;
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(exp_write(t, EXP_JSON, f, err), 0);
    assert_int_equal(fclose(f), 0);
    if (tbl_load(path, &u, err))
        fail_msg("load %s: %s", path, err);
    return u;
}

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    assert_non_null(fx);
    fx->built = build(0, NULL);
    snprintf(fx->path, sizeof fx->path, "/tmp/atomsim_table_%d.json", (int)getpid());
    fx->loaded = round_trip(fx->built, fx->path);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    tbl_free(fx->loaded);
    exp_free(fx->built);
    unlink(fx->path);
    free(fx);
    return 0;
}

/* Identical input gives identical bytes in every format (two builds of a
 * few patterns that cover every kind of axis), and the whole table's JSON
 * holds no NaN or infinity: inhibition is a code, never -inf. */
static void test_export_is_deterministic_and_finite(void **state)
{
    fixture *fx = *state;
    const unsigned some = (1u << PAT_COMPACTION) | (1u << PAT_HISTOGRAM) | (1u << PAT_DISTINCT_LINES) | (1u << PAT_REDUCE);
    for (int f = EXP_JSON; f <= EXP_CSV_META; f++) {
        size_t la, lb;
        char *a = export_text(some, (enum exp_format)f, &la), *b = export_text(some, (enum exp_format)f, &lb);
        assert_int_equal(la, lb);
        assert_memory_equal(a, b, la);
        if (f == EXP_CSV) {
            /* the header first: no provenance lines, which the sidecar holds */
            assert_memory_equal(a, "pattern,n,wg,smem_per_wg,selectivity,bins,hot,addresses,gpu_us,cpu_us,density,"
                                   "density_fraction,source,decision,seed_decision,seed_reason\n", 137);
            assert_null(strstr(a, "\n#"));
            assert_null(strstr(a, "nan"));
            assert_null(strstr(a, "inf"));
        } else if (f == EXP_CSV_META) {
            assert_non_null(strstr(a, "\n  \"density_inhibit\": 0.1,\n"));
            assert_non_null(strstr(a, "\n  \"table_schema_version\": 3,\n"));
            assert_non_null(strstr(a, "\n  \"version\": \""));
        } else if (f == EXP_C_HEADER)
            assert_non_null(strstr(a, "ATOMSIM_COST_TABLE_SCHEMA_VERSION 3"));
        free(a);
        free(b);
    }
    size_t len;
    char *a = text_of(fx->built, EXP_JSON, &len);
    assert_int_equal(strlen(a), len);
    assert_null(strstr(a, "nan"));
    assert_null(strstr(a, "NaN"));
    assert_null(strstr(a, "inf"));
    assert_null(strstr(a, "Infinity"));
    assert_non_null(strstr(a, "\"schema_version\": 3,"));
    assert_non_null(strstr(a, "\"config_hash\""));
    assert_non_null(strstr(a, "\"dispatch\": {\"rule\": \"cost\", \"data_on\": \"gpu\""));
    assert_non_null(strstr(a, "\"seed_reason\": \""));
    assert_non_null(strstr(a, "\"host_cells\": {"));
    free(a);
}

/* What the JSON holds of a value: six significant digits (predictions),
 * or the value itself where the writer keeps every digit. */
static double stored(double v)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.6g", v);
    return strtod(buf, NULL);
}

static int held(double got, double v)
{
    return got == v || got == stored(v);
}

static void query_at(const exp_pattern *ep, size_t i, tbl_query *q)
{
    pat_params p;
    exp_cell_point(ep, i, &p);
    tbl_query_init(q, ep->pattern);
    q->n = (double)p.n;
    q->wg = p.wg;
    q->smem_per_wg = p.smem_per_wg;
    q->selectivity = p.selectivity;
    q->bins = p.bins;
    q->hot = p.hot;
    q->addresses = p.addresses;
}

/* Every cell of every pattern, looked up at its own grid point after the
 * JSON round trip, gives back exactly the GPU time of its cell and the CPU
 * time and density of its host cell, and export's cost decision (away from
 * ties, where six digits may tip the comparison). */
static void test_every_cell_round_trips(void **state)
{
    fixture *fx = *state;
    const exp_table *e = fx->built;
    char err[CFG_ERR_MAX];
    size_t checked = 0, decided = 0, total = 0;
    assert_int_equal(e->pattern_count, PAT_COUNT);
    for (int pi = 0; pi < e->pattern_count; pi++) {
        const exp_pattern *ep = &e->patterns[pi];
        total += ep->cell_count;
        assert_true(ep->host_cell_count < ep->cell_count); /* wg and smem_per_wg are the GPU's alone */
        for (size_t i = 0; i < ep->cell_count; i++) {
            tbl_query q;
            tbl_answer a;
            query_at(ep, i, &q);
            if (tbl_lookup(fx->loaded, &q, &a, err))
                fail_msg("%s cell %zu: %s", pat_name(ep->pattern), i, err);
            const exp_cell *c = &ep->cells[i];
            const exp_host_cell *h = &ep->host_cells[exp_host_index(ep, i)];
            if (!held(a.gpu_kernel_us, c->gpu_us) || !held(a.cpu_compute_us, h->cpu_us) ||
                !held(a.density_fraction, h->density_fraction))
                fail_msg("%s cell %zu: gpu %.17g cpu %.17g fraction %.17g, the table holds %.17g %.17g %.17g",
                         pat_name(ep->pattern), i, a.gpu_kernel_us, a.cpu_compute_us, a.density_fraction,
                         stored(c->gpu_us), stored(h->cpu_us), stored(h->density_fraction));
            assert_int_equal(a.extrapolated, 0);
            assert_int_equal(a.source, 'm');
            assert_int_equal(a.rule, e->policy.rule);
            assert_int_equal(a.data_on, e->policy.data_on);
            checked++;
            if (fabs(a.d.gpu_us - a.d.cpu_us) > 1e-4 * fmax(a.d.gpu_us, a.d.cpu_us)) {
                if (a.d.target != c->decision)
                    fail_msg("%s cell %zu: decision %s, export %s", pat_name(ep->pattern), i,
                             dsp_target_name(a.d.target), dsp_target_name(c->decision));
                decided++;
            }
        }
    }
    /* the walk covered the whole table, and ties were the exception */
    assert_int_equal(checked, total);
    assert_true(decided > total * 99 / 100);
}

/* The seed rule's verdict a cell carries (seed_decision, seed_reason) is
 * what a lookup at that cell answers: a reader that interpolates and one
 * that reads the codes agree.  Only cost ties (the penalized GPU cost
 * within 1e-4 of the CPU's) are left out; the inhibition threshold is a
 * strict comparison of the density, so no tie is allowed there. */
static void test_every_cell_keeps_its_seed_verdict(void **state)
{
    fixture *fx = *state;
    const exp_table *e = fx->built;
    char err[CFG_ERR_MAX], first[CFG_ERR_MAX + 200] = "";
    size_t wrong = 0;
    for (int pi = 0; pi < e->pattern_count; pi++) {
        const exp_pattern *ep = &e->patterns[pi];
        for (size_t i = 0; i < ep->cell_count; i++) {
            tbl_query q;
            tbl_answer a;
            query_at(ep, i, &q);
            assert_int_equal(tbl_lookup(fx->loaded, &q, &a, err), 0);
            const exp_cell *c = &ep->cells[i];
            const exp_host_cell *h = &ep->host_cells[exp_host_index(ep, i)];
            int inhibited = c->seed_reason == DSP_REASON_DENSITY || c->seed_reason == DSP_REASON_CAS;
            if (!inhibited && !a.d.inhibited &&
                fabs(a.d.gpu_us * (1 + a.d.penalty) - a.d.cpu_us) <= 1e-4 * fmax(a.d.gpu_us, a.d.cpu_us))
                continue;
            if (a.d.seed_target != c->seed_decision || a.d.seed_reason != c->seed_reason) {
                if (!wrong++)
                    snprintf(first, sizeof first,
                             "%s cell %zu (n %g wg %g smem %g S %g K %g F %g): lookup %s/%s, the cell %s/%s "
                             "(density_fraction %.17g in memory, %.17g in the table)",
                             pat_name(ep->pattern), i, q.n, q.wg, q.smem_per_wg, q.selectivity, q.bins, q.hot,
                             dsp_target_name(a.d.seed_target), dsp_reason_name(a.d.seed_reason),
                             dsp_target_name(c->seed_decision), dsp_reason_name(c->seed_reason), h->density_fraction,
                             a.density_fraction);
            }
        }
    }
    if (wrong)
        fail_msg("%zu cells answer another seed verdict than they carry; the first: %s", wrong, first);
}

/* The policy travels in the table: a table exported with rule = seed,
 * data_on = host and a host launch cost answers by them, and its cells'
 * decision is the seed rule's. */
static void test_policy_round_trips(void **state)
{
    (void)state;
    static const char *const ov[] = { "dispatch.rule=seed", "dispatch.data_on=host", "dispatch.host_launch_us=5",
                                      "dispatch.pcie_bandwidth_gbps=10", NULL };
    char err[CFG_ERR_MAX], path[64];
    exp_table *e = build(1u << PAT_COMPACTION, ov);
    snprintf(path, sizeof path, "/tmp/atomsim_table_policy_%d.json", (int)getpid());
    tbl_table *t = round_trip(e, path);
    const dsp_policy *pol = tbl_policy(t);
    assert_int_equal(pol->rule, DSP_RULE_SEED);
    assert_int_equal(pol->data_on, DSP_DATA_ON_HOST);
    assert_float_equal(pol->host_launch_us, 5, 0);
    assert_float_equal(pol->pcie_bandwidth_gbps, 10, 0);
    assert_float_equal(pol->seed.inhibit, 0.1, 0);
    assert_int_equal(pol->seed.inhibit_cas, 1);
    const exp_pattern *ep = &e->patterns[0];
    for (size_t i = 0; i < ep->cell_count; i++)
        assert_int_equal(ep->cells[i].decision, ep->cells[i].seed_decision);

    tbl_query q;
    tbl_answer a;
    tbl_query_init(&q, PAT_COMPACTION);
    q.n = 1 << 20;
    q.selectivity = 0.5;
    assert_int_equal(tbl_lookup(t, &q, &a, err), 0);
    assert_int_equal(a.rule, DSP_RULE_SEED);
    assert_int_equal(a.data_on, DSP_DATA_ON_HOST);
    pat_params p;
    pat_defaults(&p);
    p.pattern = PAT_COMPACTION;
    p.n = 1 << 20;
    p.selectivity = 0.5;
    double move = (dsp_input_bytes(&p) + dsp_output_bytes(&p)) / 10e3;
    assert_float_equal(a.gpu_us, a.gpu_kernel_us + 5 + move, 1e-9 * a.gpu_us);
    assert_float_equal(a.cpu_us, a.cpu_compute_us, 0);
    /* density 0.5 > 10%: the seed rule in force sends it to the CPU */
    assert_int_equal(a.d.inhibited, 1);
    assert_int_equal(a.d.target, DSP_CPU);
    assert_int_equal(a.d.reason, DSP_REASON_DENSITY);
    tbl_free(t);
    exp_free(e);
    unlink(path);
}

/* The cost rule takes the faster side whatever the density; the seed rule
 * inhibits above 10% (strictly) and every CAS pattern; both verdicts come
 * with every answer whichever rule is in force. */
static void test_cost_and_seed_rules(void **state)
{
    fixture *fx = *state;
    tbl_table *t = fx->loaded;
    tbl_answer cost, seed;
    char err[CFG_ERR_MAX];
    tbl_query q;

    /* a 4-bin histogram: density 25%, the GPU predicted faster */
    tbl_query_init(&q, PAT_HISTOGRAM);
    q.n = 1 << 20;
    q.bins = 4;
    assert_int_equal(tbl_lookup(t, &q, &cost, err), 0); /* the table's rule: cost */
    q.rule = DSP_RULE_SEED;
    assert_int_equal(tbl_lookup(t, &q, &seed, err), 0);
    assert_int_equal(cost.rule, DSP_RULE_COST);
    assert_int_equal(seed.rule, DSP_RULE_SEED);
    assert_float_equal(cost.density_fraction, 0.25, 1e-12);
    assert_true(cost.gpu_us < cost.cpu_us);
    assert_int_equal(cost.d.target, DSP_GPU);
    assert_int_equal(cost.d.reason, DSP_REASON_GPU_FASTER);
    assert_int_equal(cost.d.seed_target, DSP_CPU); /* carried beside the cost decision */
    assert_int_equal(cost.d.seed_reason, DSP_REASON_DENSITY);
    assert_int_equal(seed.d.target, DSP_CPU);
    assert_int_equal(seed.d.reason, DSP_REASON_DENSITY);
    assert_int_equal(seed.d.inhibited, 1);
    assert_int_equal(seed.d.cost_target, DSP_GPU);
    assert_float_equal(seed.gpu_us, cost.gpu_us, 0); /* the rule changes the verdict, not the costs */
    assert_float_equal(seed.cpu_us, cost.cpu_us, 0);

    /* CAS: inhibited by the seed rule at any density; the cost rule takes
     * whichever side is faster */
    tbl_query_init(&q, PAT_CAS_APPEND);
    q.n = 1 << 20;
    q.selectivity = 0.001;
    q.rule = DSP_RULE_SEED;
    assert_int_equal(tbl_lookup(t, &q, &seed, err), 0);
    assert_int_equal(seed.d.target, DSP_CPU);
    assert_int_equal(seed.d.reason, DSP_REASON_CAS);
    q.rule = DSP_RULE_COST;
    assert_int_equal(tbl_lookup(t, &q, &cost, err), 0);
    assert_int_equal(cost.d.target, cost.gpu_us <= cost.cpu_us ? DSP_GPU : DSP_CPU);
    assert_int_equal(cost.d.seed_reason, DSP_REASON_CAS);

    /* density: 10% is not above 10%; 20% is */
    tbl_query_init(&q, PAT_COUNTER);
    q.n = 1 << 20;
    q.rule = DSP_RULE_SEED;
    q.selectivity = 0.1;
    assert_int_equal(tbl_lookup(t, &q, &seed, err), 0);
    assert_int_equal(seed.d.inhibited, 0);
    assert_float_equal(seed.d.penalty, 1, 0);
    assert_int_equal(seed.d.target, seed.gpu_us * 2 <= seed.cpu_us ? DSP_GPU : DSP_CPU);
    q.selectivity = 0.2;
    assert_int_equal(tbl_lookup(t, &q, &seed, err), 0);
    assert_int_equal(seed.d.inhibited, 1);
    assert_int_equal(seed.d.reason, DSP_REASON_DENSITY);
    q.rule = DSP_RULE_COST;
    assert_int_equal(tbl_lookup(t, &q, &cost, err), 0);
    assert_int_equal(cost.d.target, DSP_GPU); /* the GPU is faster here: the cost rule follows it */
    assert_true(cost.gpu_us < cost.cpu_us);

    /* across a sweep of n, the cost rule is exactly "the faster side" */
    tbl_query_init(&q, PAT_COMPACTION);
    q.selectivity = 0.25;
    int sides[2] = { 0, 0 };
    for (double n = 1024; n <= 67108864; n *= 1.7) {
        q.n = n;
        assert_int_equal(tbl_lookup(t, &q, &cost, err), 0);
        assert_int_equal(cost.d.target, cost.gpu_us <= cost.cpu_us ? DSP_GPU : DSP_CPU);
        assert_int_equal(cost.d.seed_target, DSP_CPU); /* 25% is above 10% */
        sides[cost.d.target]++;
    }
    assert_true(sides[DSP_GPU] > 0);
    /* an unknown rule or data location is refused, not read out of range */
    q.n = 1 << 20;
    q.rule = 7;
    assert_int_equal(tbl_lookup(t, &q, &cost, err), -1);
    q.rule = -1;
    q.data_on = 3;
    assert_int_equal(tbl_lookup(t, &q, &cost, err), -1);
}

/* data_on decides which side pays PCIe: gpu (the CPU fetches the input),
 * host (the GPU fetches it and returns the output), both (nothing moves). */
static void test_data_location(void **state)
{
    fixture *fx = *state;
    tbl_table *t = fx->loaded;
    const dsp_policy *pol = tbl_policy(t);
    tbl_answer on[3], dflt;
    char err[CFG_ERR_MAX];
    static const enum pat_id ids[] = { PAT_COMPACTION, PAT_HISTOGRAM, PAT_BITMASK, PAT_DISTINCT_LINES };
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        tbl_query q;
        tbl_query_init(&q, ids[k]);
        q.n = 1 << 22;
        q.selectivity = 0.5;
        q.bins = 4096;
        q.addresses = 1024;
        pat_params p;
        pat_defaults(&p);
        p.pattern = ids[k];
        p.n = 1 << 22;
        p.selectivity = 0.5;
        p.bins = 4096;
        p.addresses = 1024;
        double in = dsp_transfer_us(pol, dsp_input_bytes(&p));
        double both = dsp_transfer_us(pol, dsp_input_bytes(&p) + dsp_output_bytes(&p));
        assert_true(in > 0 && both > in);
        for (int d = DSP_DATA_ON_GPU; d <= DSP_DATA_ON_BOTH; d++) {
            q.data_on = d;
            assert_int_equal(tbl_lookup(t, &q, &on[d], err), 0);
            assert_int_equal(on[d].data_on, d);
            assert_float_equal(on[d].gpu_kernel_us, on[0].gpu_kernel_us, 0);
            assert_float_equal(on[d].cpu_compute_us, on[0].cpu_compute_us, 0);
        }
        double g = on[0].gpu_kernel_us + pol->host_launch_us, c = on[0].cpu_compute_us;
        assert_float_equal(on[DSP_DATA_ON_GPU].gpu_us, g, 1e-12 * g);
        assert_float_equal(on[DSP_DATA_ON_GPU].cpu_us, c + in, 1e-12 * (c + in));
        assert_float_equal(on[DSP_DATA_ON_HOST].gpu_us, g + both, 1e-12 * (g + both));
        assert_float_equal(on[DSP_DATA_ON_HOST].cpu_us, c, 1e-12 * c);
        assert_float_equal(on[DSP_DATA_ON_BOTH].gpu_us, g, 1e-12 * g);
        assert_float_equal(on[DSP_DATA_ON_BOTH].cpu_us, c, 1e-12 * c);
        q.data_on = -1; /* the table's: gpu */
        assert_int_equal(tbl_lookup(t, &q, &dflt, err), 0);
        assert_int_equal(dflt.data_on, DSP_DATA_ON_GPU);
        assert_float_equal(dflt.cpu_us, on[DSP_DATA_ON_GPU].cpu_us, 0);
    }
}

/* A workgroup size between grid points (80 between 64 and 96, 160 between
 * 128 and 192) lands between its neighbours' times, at the log-log
 * interpolation; the CPU's side ignores the workgroup size. */
static void test_wg_interpolates(void **state)
{
    fixture *fx = *state;
    tbl_table *t = fx->loaded;
    char err[CFG_ERR_MAX];
    static const double mids[][3] = { { 64, 80, 96 }, { 128, 160, 192 }, { 512, 600, 768 } };
    for (size_t k = 0; k < sizeof mids / sizeof mids[0]; k++) {
        tbl_answer a[3];
        tbl_query q;
        tbl_query_init(&q, PAT_COMPACTION);
        q.n = 131072;
        q.selectivity = 0.001;
        for (int j = 0; j < 3; j++) {
            q.wg = mids[k][j];
            assert_int_equal(tbl_lookup(t, &q, &a[j], err), 0);
            assert_int_equal(a[j].extrapolated, 0);
        }
        double lo = a[0].gpu_kernel_us, hi = a[2].gpu_kernel_us, mid = a[1].gpu_kernel_us;
        double w = log2(mids[k][1] / mids[k][0]) / log2(mids[k][2] / mids[k][0]);
        if (k < 2) /* the default GPU's time still moves with the workgroup size there */
            assert_true(lo != hi);
        assert_true(mid >= fmin(lo, hi) && mid <= fmax(lo, hi));
        if (lo != hi)
            assert_true(mid != lo && mid != hi);
        assert_float_equal(mid, exp(log(lo) + w * (log(hi) - log(lo))), 1e-9 * mid);
        assert_float_equal(a[1].cpu_compute_us, a[0].cpu_compute_us, 0);
        assert_float_equal(a[2].cpu_compute_us, a[0].cpu_compute_us, 0);
    }
    /* shared memory between its 8 KiB steps likewise */
    tbl_answer s[3];
    tbl_query q;
    tbl_query_init(&q, PAT_HISTOGRAM_SHARED);
    q.n = 1 << 20;
    q.bins = 1024;
    static const double smem[] = { 32768, 36864, 40960 };
    for (int j = 0; j < 3; j++) {
        q.smem_per_wg = smem[j];
        assert_int_equal(tbl_lookup(t, &q, &s[j], err), 0);
    }
    assert_true(s[1].gpu_kernel_us >= fmin(s[0].gpu_kernel_us, s[2].gpu_kernel_us) &&
                s[1].gpu_kernel_us <= fmax(s[0].gpu_kernel_us, s[2].gpu_kernel_us));
}

/* Densities and costs along a linear axis interpolate the values linearly
 * (table.h: "linear axes (smem_per_wg, selectivity, hot) the values"):
 * the counter's density is S, so it is exact between grid points, and the
 * seed rule's penalty follows it. */
static void test_linear_axes_interpolate_linearly(void **state)
{
    fixture *fx = *state;
    tbl_table *t = fx->loaded;
    tbl_answer a;
    char err[CFG_ERR_MAX];
    tbl_query q;
    tbl_query_init(&q, PAT_COUNTER);
    q.n = 1 << 20;
    q.selectivity = 0.15;
    assert_int_equal(tbl_lookup(t, &q, &a, err), 0);
    assert_float_equal(a.density_fraction, 0.15, 1e-9);
    q.selectivity = 0.075; /* halfway between penalty_start 5% and inhibit 10% */
    q.rule = DSP_RULE_SEED;
    assert_int_equal(tbl_lookup(t, &q, &a, err), 0);
    assert_float_equal(a.density_fraction, 0.075, 1e-9);
    assert_float_equal(a.d.penalty, 0.5, 1e-9);
    /* bins are a log2 axis: the density 1/K is exact between powers of two */
    tbl_query_init(&q, PAT_HISTOGRAM);
    q.n = 1 << 20;
    q.bins = 6;
    assert_int_equal(tbl_lookup(t, &q, &a, err), 0);
    assert_float_equal(a.density_fraction, 1.0 / 6, 1e-9);
}

static void test_interpolation_between_points(void **state)
{
    fixture *fx = *state;
    tbl_table *t = fx->loaded;
    tbl_answer lo, mid, hi;
    char err[CFG_ERR_MAX];
    tbl_query q;
    tbl_query_init(&q, PAT_HISTOGRAM);
    q.bins = 4;
    assert_int_equal(tbl_lookup(t, &q, &lo, err), 0);
    q.bins = 8;
    assert_int_equal(tbl_lookup(t, &q, &hi, err), 0);
    q.bins = 6;
    assert_int_equal(tbl_lookup(t, &q, &mid, err), 0);
    assert_true(mid.gpu_us <= fmax(lo.gpu_us, hi.gpu_us) && mid.gpu_us >= fmin(lo.gpu_us, hi.gpu_us));
    assert_true(mid.cpu_us <= fmax(lo.cpu_us, hi.cpu_us) && mid.cpu_us >= fmin(lo.cpu_us, hi.cpu_us));
    q.bins = 4;
    q.n = 1000000; /* between 2^19 and 2^20 */
    assert_int_equal(tbl_lookup(t, &q, &mid, err), 0);
    assert_int_equal(mid.extrapolated, 0);
    /* the brief's example: a histogram of 4 bins is inhibited by density
     * under the seed rule */
    assert_int_equal(mid.d.inhibited, 1);
    assert_int_equal(mid.d.seed_target, DSP_CPU);
    assert_int_equal(mid.d.seed_reason, DSP_REASON_DENSITY);
}

static void test_refusals(void **state)
{
    fixture *fx = *state;
    tbl_table *t = fx->loaded, *u;
    tbl_answer a;
    char err[CFG_ERR_MAX];
    tbl_query q;
    tbl_query_init(&q, PAT_COUNTER);
    q.n = 100;
    q.selectivity = 0.5;
    assert_int_equal(tbl_lookup(t, &q, &a, err), -1);
    assert_non_null(strstr(err, "outside the table's grid"));
    q.extrapolate = 1;
    assert_int_equal(tbl_lookup(t, &q, &a, err), 0);
    assert_int_equal(a.extrapolated, 1);
    assert_true(isfinite(a.gpu_us) && a.gpu_us > 0);
    /* every workgroup size of the grid answers; one beyond it does not */
    q.n = 1 << 20;
    q.extrapolate = 0;
    q.wg = 128;
    assert_int_equal(tbl_lookup(t, &q, &a, err), 0);
    q.wg = 2048;
    assert_int_equal(tbl_lookup(t, &q, &a, err), -1);
    assert_non_null(strstr(err, "wg=2048 is outside the table's grid"));
    q.wg = 0; /* a log2 axis: must be positive */
    assert_int_equal(tbl_lookup(t, &q, &a, err), -1);
    assert_non_null(strstr(err, "positive"));
    q.wg = 256;
    q.smem_per_wg = 1e9;
    assert_int_equal(tbl_lookup(t, &q, &a, err), -1);
    assert_non_null(strstr(err, "smem_per_wg"));
    tbl_query_init(&q, PAT_HISTOGRAM);
    q.bins = 1u << 23;
    assert_int_equal(tbl_lookup(t, &q, &a, err), -1);
    assert_non_null(strstr(err, "bins"));

    /* a table with one pattern lacks the others */
    size_t len;
    char *json = export_text(1u << PAT_COUNTER, EXP_JSON, &len), path[64];
    snprintf(path, sizeof path, "/tmp/atomsim_table_one_%d.json", (int)getpid());
    write_file(path, json);
    assert_int_equal(tbl_load(path, &u, err), 0);
    tbl_query_init(&q, PAT_HISTOGRAM);
    assert_int_equal(tbl_lookup(u, &q, &a, err), -1);
    assert_non_null(strstr(err, "no pattern 'histogram'"));
    tbl_free(u);
    /* not JSON, and no file at all */
    write_file(path, "{\"schema\": ");
    assert_int_equal(tbl_load(path, &u, err), -1);
    assert_non_null(strstr(err, "not valid JSON"));
    unlink(path);
    assert_int_equal(tbl_load(path, &u, err), -1);
    assert_non_null(strstr(err, "cannot open table"));
    free(json);
}

/* text with the first occurrence of `from` (which must be there) replaced */
static char *replace_first(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at)
        fail_msg("'%s' is not in the table", from);
    size_t head = (size_t)(at - text), lf = strlen(from), lt = strlen(to), rest = strlen(at + lf);
    char *out = malloc(head + lt + rest + 1);
    assert_non_null(out);
    memcpy(out, text, head);
    memcpy(out + head, to, lt);
    memcpy(out + head + lt, at + lf, rest + 1);
    return out;
}

/* text with the first number after `key` replaced by `value` */
static char *replace_first_number(const char *text, const char *key, const char *value)
{
    const char *at = strstr(text, key);
    if (!at)
        fail_msg("'%s' is not in the table", key);
    at += strlen(key);
    size_t head = (size_t)(at - text), num = strcspn(at, ",]"), lv = strlen(value), rest = strlen(at + num);
    char *out = malloc(head + lv + rest + 1);
    assert_non_null(out);
    memcpy(out, text, head);
    memcpy(out + head, value, lv);
    memcpy(out + head + lv, at + num, rest + 1);
    return out;
}

/* loads `text` and expects -1, a message containing `want`, and no table */
static void refused(const char *path, const char *text, const char *want)
{
    char err[CFG_ERR_MAX];
    tbl_table *u = (tbl_table *)&err; /* a sentinel tbl_load must not replace */
    if (text)
        write_file(path, text);
    err[0] = 0;
    int rc = tbl_load(path, &u, err);
    if (rc != -1 || !strstr(err, want))
        fail_msg("%s: tbl_load returned %d, '%s' (want -1 and '%s')", text ? "a mutated table" : path, rc, err, want);
    assert_ptr_equal(u, (tbl_table *)&err);
}

static void test_load_rejects_malformed_tables(void **state)
{
    (void)state;
    char path[64], err[CFG_ERR_MAX];
    snprintf(path, sizeof path, "/tmp/atomsim_table_bad_%d.json", (int)getpid());
    size_t len;
    char *good = export_text((1u << PAT_COUNTER) | (1u << PAT_STORE), EXP_JSON, &len), *bad;
    /* the control: the unmutated table loads */
    tbl_table *u;
    write_file(path, good);
    if (tbl_load(path, &u, err))
        fail_msg("the unmutated table: %s", err);
    tbl_free(u);

    /* store and counter share a grid: renaming store lists counter twice */
    bad = replace_first(good, "\"pattern\": \"store\"", "\"pattern\": \"counter\"");
    refused(path, bad, "listed twice");
    free(bad);
    bad = replace_first(good, "{\"name\": \"smem_per_wg\"", "{\"name\": \"wg\"");
    refused(path, bad, "an axis is listed twice");
    free(bad);
    bad = replace_first_number(good, "\"gpu_us\": [", "-1");
    refused(path, bad, "gpu_us");
    free(bad);
    bad = replace_first_number(good, "\"cpu_us\": [", "-0.5");
    refused(path, bad, "cpu_us");
    free(bad);
    bad = replace_first_number(good, "\"density_fraction\": [", "1.5");
    refused(path, bad, "density_fraction exceeds 1");
    free(bad);
    bad = replace_first(good, "\"source\": \"m", "\"source\": \"");
    refused(path, bad, "source");
    free(bad);
    bad = replace_first(good, "\"source\": \"m", "\"source\": \"mm");
    refused(path, bad, "source");
    free(bad);
    bad = replace_first(good, "\"source\": \"m", "\"source\": \"q");
    refused(path, bad, "source");
    free(bad);
    bad = replace_first(good, "\"schema_version\": 3", "\"schema_version\": 2");
    refused(path, bad, "schema version 2");
    free(bad);
    bad = replace_first(good, "\"schema_version\": 3", "\"schema_version\": 4");
    refused(path, bad, "schema version 4");
    free(bad);
    /* the policy object (the config dump above it spells "rule": "cost","data_on") */
    bad = replace_first(good, "{\"rule\": \"cost\", \"data_on\": \"gpu\"", "{\"rule\": \"fastest\", \"data_on\": \"gpu\"");
    refused(path, bad, "dispatch policy");
    free(bad);
    bad = replace_first(good, "{\"rule\": \"cost\", \"data_on\": \"gpu\"", "{\"rule\": \"cost\", \"data_on_gpu\": true");
    refused(path, bad, "dispatch policy");
    free(bad);
    /* not regular files: a directory, a device that never ends */
    refused("/tmp", NULL, "not a regular file");
    refused("/dev/zero", NULL, "not a regular file");
    unlink(path);
    free(good);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_export_is_deterministic_and_finite),
        cmocka_unit_test(test_every_cell_round_trips),
        cmocka_unit_test(test_every_cell_keeps_its_seed_verdict),
        cmocka_unit_test(test_policy_round_trips),
        cmocka_unit_test(test_cost_and_seed_rules),
        cmocka_unit_test(test_data_location),
        cmocka_unit_test(test_wg_interpolates),
        cmocka_unit_test(test_linear_axes_interpolate_linearly),
        cmocka_unit_test(test_interpolation_between_points),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_load_rejects_malformed_tables),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
