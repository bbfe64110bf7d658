/* test_export_anchor.c - a simulator-made table's model cells scaled to
 * their anchor (model/export_anchor.c): which simulator cells anchor a
 * cell (nearest workgroup size in log2, the largest n at or below, the
 * shared-memory values whose resident threads an SM bracket the cell's),
 * the value (model x the ratio interpolated in threads), that cells of
 * equal occupancy get equal times, that a cell without an anchor and the
 * patterns not asked for keep the model's, and that a lookup reports the
 * source. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../model/export.h"
#include "../../model/table.h"
#include "table_helpers.h"

/* A stand-in simulator over a small scope: the model's time times a ratio
 * that says which cell it came from, so an anchored cell's value names its
 * anchor.  2048 <= n <= 8192, wg 64 or 256, smem 0 (both) or 32 KiB (wg
 * 256); n = 1024 has no anchor. */
static double fake_ratio(const pat_params *p)
{
    return 1.0 + (p->wg == 64 ? 0.5 : 0.0) + (p->smem_per_wg == 32768 ? 0.25 : 0.0) + log2((double)p->n) / 100.0;
}

static int in_scope(const pat_params *p)
{
    return p->n >= 2048 && p->n <= 8192 && (p->wg == 64 || p->wg == 256) &&
           (p->smem_per_wg == 0 || (p->wg == 256 && p->smem_per_wg == 32768));
}

static int fake_sim(void *ctx, const cfg_config *gpu, const pat_params *p, double *gpu_us, enum exp_source *src,
                    char err[CFG_ERR_MAX])
{
    (void)ctx;
    if (exp_model_gpu(NULL, gpu, p, gpu_us, src, err))
        return -1;
    if (in_scope(p)) {
        *gpu_us *= fake_ratio(p);
        *src = EXP_SOURCE_SIM;
    }
    return 0;
}

static double round6(double v)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.6g", v);
    return strtod(buf, NULL);
}

static double model_at(const cfg_config *c, pat_params p)
{
    char err[CFG_ERR_MAX];
    double us;
    enum exp_source src;
    assert_int_equal(exp_model_gpu(NULL, c, &p, &us, &src, err), 0);
    return round6(us);
}

/* The cell of t's pattern k at (n, wg, smem) and the pattern's defaults. */
static const exp_cell *cell_at(const exp_pattern *ep, double n, double wg, double smem, pat_params *p)
{
    for (size_t i = 0; i < ep->cell_count; i++) {
        exp_cell_point(ep, i, p);
        if (p->n == n && p->wg == wg && p->smem_per_wg == smem && p->selectivity == 1)
            return &ep->cells[i];
    }
    fail_msg("no cell at n=%g wg=%g smem=%g", n, wg, smem);
    return NULL;
}

static exp_table *build(cfg_config *c, unsigned anchor)
{
    cpu_config cpu;
    char err[CFG_ERR_MAX];
    exp_table *t;
    cfg_defaults(c);
    cpu_defaults(&cpu);
    /* every_cell: the stand-in decides at every smem value, not only where occupancy changes */
    exp_options o = { (1u << PAT_COUNTER) | (1u << PAT_CAS_APPEND), fake_sim, NULL, 1, anchor };
    assert_int_equal(exp_build(c, &cpu, &o, &t, err), 0);
    return t;
}

/* The stand-in simulator's ratio at (n_a, wg_a, smem_a) for the cell's own
 * axes, as the table holds it (six digits over six digits). */
static double sim_ratio(const cfg_config *c, const pat_params *cell, double n_a, double wg_a, double smem_a)
{
    pat_params a = *cell;
    a.n = (uint64_t)n_a;
    a.wg = (int)wg_a;
    a.smem_per_wg = (uint32_t)smem_a;
    return round6(model_at(c, a) * fake_ratio(&a)) / model_at(c, a);
}

static double threads(const cfg_config *c, pat_params p, double wg, double smem)
{
    p.wg = (int)wg;
    p.smem_per_wg = (uint32_t)smem;
    return exp_wgs_per_sm(c, &p) * wg;
}

static void test_anchor_choice_and_value(void **state)
{
    (void)state;
    cfg_config c;
    exp_table *t = build(&c, 1u << PAT_CAS_APPEND);
    const exp_pattern *ep = &t->patterns[1];
    assert_int_equal(ep->pattern, PAT_CAS_APPEND);
    pat_params p;
    /* a simulator cell stays as it was */
    const exp_cell *x = cell_at(ep, 4096, 256, 0, &p);
    assert_int_equal(x->source, EXP_SOURCE_SIM);
    /* at wg 64 the simulator ran smem 0 alone: its ratio, whatever the
     * cell's shared memory */
    struct {
        double n, wg, smem, n_a; /* the cell, and its anchor's n at wg 64, smem 0 */
    } one[] = {
        { 2048, 96, 0, 2048 },    /* 96 is nearer 64 than 256 in log2 */
        { 2048, 128, 0, 2048 },   /* a tie: the smaller size */
        { 4096, 32, 32768, 4096 },
        { 1 << 20, 64, 16384, 8192 }, /* beyond the scope's n: the largest n below */
    };
    for (size_t k = 0; k < sizeof one / sizeof one[0]; k++) {
        x = cell_at(ep, one[k].n, one[k].wg, one[k].smem, &p);
        assert_int_equal(x->source, EXP_SOURCE_ANCHORED);
        double want = round6(model_at(&c, p) * sim_ratio(&c, &p, one[k].n_a, 64, 0));
        if (x->gpu_us != want)
            fail_msg("case %zu: %.9g, want %.9g", k, x->gpu_us, want);
    }
    /* at wg 256 it ran smem 0 and 32 KiB: the two ratios, interpolated in
     * resident threads an SM, clamped outside their range */
    double cells[][3] = { { 2048, 192, 0 }, { 2048, 1024, 24576 }, { 1 << 22, 512, 16384 }, { 2048, 256, 12288 },
                          { 2048, 256, 49152 } };
    int interpolated = 0;
    for (size_t k = 0; k < sizeof cells / sizeof cells[0]; k++) {
        x = cell_at(ep, cells[k][0], cells[k][1], cells[k][2], &p);
        assert_int_equal(x->source, EXP_SOURCE_ANCHORED);
        double n_a = cells[k][0] < 8192 ? cells[k][0] : 8192;
        double tc = threads(&c, p, p.wg, p.smem_per_wg), t0 = threads(&c, p, 256, 0), t1 = threads(&c, p, 256, 32768);
        double r0 = sim_ratio(&c, &p, n_a, 256, 0), r1 = sim_ratio(&c, &p, n_a, 256, 32768), r;
        assert_true(t1 < t0);
        if (tc >= t0)
            r = r0;
        else if (tc <= t1)
            r = r1;
        else {
            r = r1 + (r0 - r1) * (tc - t1) / (t0 - t1);
            interpolated++;
        }
        double want = round6(model_at(&c, p) * r);
        if (fabs(x->gpu_us / want - 1) > 1e-9)
            fail_msg("cell %zu: %.9g, want %.9g", k, x->gpu_us, want);
    }
    assert_true(interpolated > 0);
    /* n = 1024 has no simulator cell at or below it: the model's */
    x = cell_at(ep, 1024, 512, 0, &p);
    assert_int_equal(x->source, EXP_SOURCE_MODEL);
    assert_true(x->gpu_us == model_at(&c, p));
    /* the pattern not asked for keeps the model's times */
    const exp_pattern *counter = &t->patterns[0];
    x = cell_at(counter, 1 << 20, 1024, 0, &p);
    assert_int_equal(x->source, EXP_SOURCE_MODEL);
    assert_true(x->gpu_us == model_at(&c, p));
    exp_free(t);
}

/* Cells of one workgroup size that hold as many threads an SM get one
 * ratio, so equal model times stay equal along the smem axis (the lookup
 * brackets that axis by occupancy and reads the first such cell). */
static void test_equal_occupancy_equal_time(void **state)
{
    (void)state;
    cfg_config c;
    exp_table *t = build(&c, 1u << PAT_CAS_APPEND);
    const exp_pattern *ep = &t->patterns[1];
    size_t stride = (size_t)ep->axes[3].count, pairs = 0;
    for (size_t i = 0; i < ep->cell_count; i++) {
        size_t s = (i / stride) % (size_t)ep->axes[2].count;
        if (s == 0)
            continue;
        pat_params p, q;
        exp_cell_point(ep, i, &p);
        exp_cell_point(ep, i - stride, &q);
        if (ep->cells[i].source != EXP_SOURCE_ANCHORED || ep->cells[i - stride].source != EXP_SOURCE_ANCHORED ||
            exp_wgs_per_sm(&c, &p) != exp_wgs_per_sm(&c, &q))
            continue;
        pairs++;
        if (ep->cells[i].gpu_us != ep->cells[i - stride].gpu_us)
            fail_msg("n=%llu wg=%d: %.9g at smem %u, %.9g at %u", (unsigned long long)p.n, p.wg, ep->cells[i].gpu_us,
                     p.smem_per_wg, ep->cells[i - stride].gpu_us, q.smem_per_wg);
    }
    assert_true(pairs > 100);
    exp_free(t);
}

/* Decisions follow the scaled times: the table written and read back
 * answers a lookup at an anchored cell with its time and source. */
static void test_lookup_reports_anchored(void **state)
{
    (void)state;
    cfg_config c;
    char err[CFG_ERR_MAX];
    exp_table *t = build(&c, 1u << PAT_CAS_APPEND);
    tbl_table *tt = th_table_round_trip(t);
    pat_params p;
    const exp_cell *x = cell_at(&t->patterns[1], 1 << 20, 512, 0, &p);
    tbl_query q;
    tbl_answer a;
    tbl_query_init(&q, PAT_CAS_APPEND);
    q.n = (double)p.n;
    q.wg = p.wg;
    q.smem_per_wg = 0;
    q.selectivity = 1;
    assert_int_equal(tbl_lookup(tt, &q, &a, err), 0);
    assert_true(a.gpu_kernel_us == x->gpu_us);
    assert_int_equal(a.source, 'a');
    /* between two simulator cells: simulator; between a simulator and an
     * anchored cell: mixed */
    q.n = 6000;
    q.wg = 256;
    assert_int_equal(tbl_lookup(tt, &q, &a, err), 0);
    assert_int_equal(a.source, 's');
    q.n = 12000;
    assert_int_equal(tbl_lookup(tt, &q, &a, err), 0);
    assert_int_equal(a.source, 'x');
    tbl_free(tt);
    exp_free(t);
}

/* Without the mask, or without simulator cells, nothing moves. */
static void test_no_anchor_without_mask_or_sim(void **state)
{
    (void)state;
    cfg_config c;
    cpu_config cpu;
    char err[CFG_ERR_MAX];
    exp_table *t = build(&c, 0), *m;
    cpu_defaults(&cpu);
    exp_options o = { 1u << PAT_CAS_APPEND, NULL, NULL, 0, 1u << PAT_CAS_APPEND };
    assert_int_equal(exp_build(&c, &cpu, &o, &m, err), 0);
    pat_params p;
    const exp_cell *x = cell_at(&t->patterns[1], 1 << 20, 1024, 0, &p);
    assert_int_equal(x->source, EXP_SOURCE_MODEL);
    assert_true(x->gpu_us == model_at(&c, p));
    for (size_t i = 0; i < m->patterns[0].cell_count; i++)
        assert_int_equal(m->patterns[0].cells[i].source, EXP_SOURCE_MODEL);
    exp_free(t);
    exp_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_anchor_choice_and_value),
        cmocka_unit_test(test_equal_occupancy_equal_time),
        cmocka_unit_test(test_lookup_reports_anchored),
        cmocka_unit_test(test_no_anchor_without_mask_or_sim),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
