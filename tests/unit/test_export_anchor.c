/* test_export_anchor.c - a simulator-made table's model cells scaled to
 * their anchor (model/export_anchor.c): which simulator cell is the
 * anchor (nearest workgroup size in log2, nearest shared memory, the
 * largest n at or below), the value (model x simulator / model there),
 * that only the patterns asked for move, and that a lookup reports the
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

/* A stand-in simulator over a small scope: the model's time times a ratio
 * that says which cell it came from, so an anchored cell's value names its
 * anchor.  n <= 8192, wg 64 or 256, smem 0 (both) or 32 KiB (wg 256). */
static double fake_ratio(const pat_params *p)
{
    return 1.0 + (p->wg == 64 ? 0.5 : 0.0) + (p->smem_per_wg == 32768 ? 0.25 : 0.0) + log2((double)p->n) / 100.0;
}

static int in_scope(const pat_params *p)
{
    return p->n <= 8192 && (p->wg == 64 || p->wg == 256) &&
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

/* A model cell's value when anchor (n_a, wg_a, smem_a) is its anchor. */
static double anchored(const cfg_config *c, const pat_params *cell, double n_a, double wg_a, double smem_a)
{
    pat_params a = *cell;
    a.n = (uint64_t)n_a;
    a.wg = (int)wg_a;
    a.smem_per_wg = (uint32_t)smem_a;
    double sim = round6(model_at(c, a) * fake_ratio(&a)); /* the cell as the fake simulator filled it */
    pat_params mine = *cell;
    return round6(model_at(c, mine) * (sim / model_at(c, a)));
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
    struct {
        double n, wg, smem;       /* the cell */
        double n_a, wg_a, smem_a; /* its anchor */
    } cases[] = {
        { 1 << 20, 256, 0, 8192, 256, 0 },           /* beyond the scope's n: the largest n below */
        { 2048, 96, 0, 2048, 64, 0 },                /* 96 is nearer 64 than 256 in log2 */
        { 2048, 192, 0, 2048, 256, 0 },              /* 192 nearer 256 */
        { 2048, 128, 0, 2048, 64, 0 },               /* a tie: the smaller size */
        { 1 << 22, 1024, 24576, 8192, 256, 32768 },  /* 24 KiB nearer 32 KiB among wg 256's */
        { 2048, 1024, 16384, 2048, 256, 0 },         /* 16 KiB: a tie between 0 and 32 KiB, the smaller */
        { 2048, 32, 32768, 2048, 64, 0 },            /* wg 64 has only smem 0 */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        x = cell_at(ep, cases[k].n, cases[k].wg, cases[k].smem, &p);
        assert_int_equal(x->source, EXP_SOURCE_ANCHORED);
        double want = anchored(&c, &p, cases[k].n_a, cases[k].wg_a, cases[k].smem_a);
        if (x->gpu_us != want)
            fail_msg("case %zu: %.9g, want %.9g", k, x->gpu_us, want);
    }
    /* every model cell of the pattern has an anchor here */
    for (size_t i = 0; i < ep->cell_count; i++)
        assert_int_not_equal(ep->cells[i].source, EXP_SOURCE_MODEL);
    /* the pattern not asked for keeps the model's times */
    const exp_pattern *counter = &t->patterns[0];
    x = cell_at(counter, 1 << 20, 1024, 0, &p);
    assert_int_equal(x->source, EXP_SOURCE_MODEL);
    assert_true(x->gpu_us == model_at(&c, p));
    exp_free(t);
}

/* Decisions follow the scaled times: the table written and read back
 * answers a lookup at an anchored cell with its time and source. */
static void test_lookup_reports_anchored(void **state)
{
    (void)state;
    cfg_config c;
    char err[CFG_ERR_MAX], path[] = "/tmp/atomsim-anchor-XXXXXX";
    exp_table *t = build(&c, 1u << PAT_CAS_APPEND);
    tbl_table *tt;
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_int_equal(exp_write(t, EXP_JSON, f, err), 0);
    fclose(f);
    assert_int_equal(tbl_load(path, &tt, err), 0);
    unlink(path);
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
    /* between an anchored and a simulator cell: mixed */
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
        cmocka_unit_test(test_lookup_reports_anchored),
        cmocka_unit_test(test_no_anchor_without_mask_or_sim),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
