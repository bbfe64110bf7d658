/* test_check_modules.c - the modules behind `atomsim check` without the
 * command: the scores of validate/model_vs_sim.c (which rows count, the
 * goals, a pattern with nothing scored), its draw (the plan's rows, read
 * as the plan's CSV would be) and the seeds-only run of
 * validate/check_formulas.c, which reports and never drifts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../validate/check_formulas.h"
#include "../../validate/model_vs_sim.h"
#include "../../validate/plan_write.h"

static mvs_point point(enum pat_id id, double sim_us, double model_us, enum mvs_status st)
{
    mvs_point p;
    memset(&p, 0, sizeof p);
    pat_defaults(&p.p);
    p.p.pattern = id;
    p.sim_us = sim_us;
    p.model_us = model_us;
    p.status = st;
    return p;
}

/* Three scored counter rows 1%, 2% and 3% off, one past the event budget
 * and one failed; store listed with no row at all. */
static void scores_count_only_scored_rows(void **state)
{
    (void)state;
    mvs_point pts[] = {
        point(PAT_COUNTER, 100, 101, MVS_SCORED),    point(PAT_COUNTER, 100, 98, MVS_SCORED),
        point(PAT_COUNTER, 100, 103, MVS_SCORED),    point(PAT_COUNTER, 100, NAN, MVS_UNFINISHED),
        point(PAT_COUNTER, NAN, NAN, MVS_FAILED),
    };
    const int chosen[] = { PAT_STORE, PAT_COUNTER };
    double work[5];
    mvs_report rep;
    mvs_score_all(pts, 5, chosen, 2, work, &rep);
    const mvs_score *c = &rep.per[PAT_COUNTER];
    assert_int_equal(c->rows, 5);
    assert_int_equal(c->scored, 3);
    assert_int_equal(c->unfinished, 1);
    assert_int_equal(c->failed, 1);
    assert_true(fabs(c->median - 0.02) < 1e-12);
    assert_true(fabs(c->p90 - 0.028) < 1e-12); /* GSL's interpolated quantile of 3 values */
    assert_ptr_equal(c->worst_pt, &pts[2]);
    assert_true(c->meets);
    /* nothing shows that store meets the goals, so it does not */
    assert_true(rep.listed[PAT_STORE] && rep.listed[PAT_COUNTER] && !rep.listed[PAT_HISTOGRAM]);
    assert_int_equal(rep.per[PAT_STORE].scored, 0);
    assert_false(rep.per[PAT_STORE].meets);
    assert_int_equal(rep.missed, 1);
    assert_int_equal(rep.failed, 1);
    assert_int_equal(rep.npatterns, 2);
    assert_int_equal(rep.all.rows, 5);
}

/* A row past the p90 goal misses it even with the median met. */
static void p90_goal_is_its_own(void **state)
{
    (void)state;
    mvs_point pts[10];
    for (int i = 0; i < 10; i++)
        pts[i] = point(PAT_REDUCE, 100, i < 8 ? 100 : 150, MVS_SCORED);
    const int chosen[] = { PAT_REDUCE };
    double work[10];
    mvs_report rep;
    mvs_score_all(pts, 10, chosen, 1, work, &rep);
    assert_true(rep.per[PAT_REDUCE].median <= MVS_GOAL_MEDIAN);
    assert_true(rep.per[PAT_REDUCE].p90 > MVS_GOAL_P90);
    assert_false(rep.per[PAT_REDUCE].meets);
    assert_int_equal(rep.missed, 1);
}

/* No simulator and no dataset: the seeds' claims alone, reported and never
 * a drift, whatever they find. */
/* mvs_draw's points are the rows `atomsim plan --random --format csv` writes
 * for the same seed, n range and patterns, each column read back through
 * the parameter table as the check once read them from a temp file: the
 * fractions must come out as the same doubles. */
static void draw_is_the_plans_csv(void **state)
{
    (void)state;
    enum { N = 200 };
    static const enum pat_id pats[] = { PAT_HISTOGRAM, PAT_COUNTER, PAT_CAS_APPEND, PAT_DISTINCT_LINES };
    mvs_point *pts = calloc(N, sizeof *pts);
    char err[CFG_ERR_MAX], line[512];
    pln_spec s;
    pln_drawer *d;
    assert_non_null(pts);
    assert_int_equal(mvs_draw(7, pats, 4, pts, N, err), 0);
    pln_spec_defaults(&s);
    s.seed = 7;
    s.rows = N;
    memcpy(s.pats, pats, sizeof pats);
    s.npat = 4;
    assert_int_equal(pln_parse_int_range(PLN_AX_N, MVS_N_RANGE, &s.ax[PLN_AX_N], err), 0);
    assert_int_equal(pln_drawer_new(&s, &d), 0);
    for (int i = 0; i < N; i++) {
        pln_row w;
        pat_params q;
        char *f[9];
        int nf = 0;
        pln_draw(d, &w);
        FILE *m = fmemopen(line, sizeof line, "w");
        assert_non_null(m);
        plw_row(m, PLW_CSV, &w);
        fclose(m);
        line[strcspn(line, "\n")] = 0;
        for (char *t = strtok(line, ","); t && nf < 9; t = strtok(NULL, ","))
            f[nf++] = t;
        assert_int_equal(nf, 8);
        pat_defaults(&q);
        assert_int_equal(pat_from_name(f[0], &q.pattern), 0);
        static const char *const cols[] = { "n", "wg", "selectivity", "bins", "hot", "addresses", "smem_per_wg" };
        for (int c = 0; c < 7; c++)
            assert_int_equal(pat_param_parse(pat_param_find_csv(cols[c]), &q, f[c + 1], err, sizeof err), 0);
        const pat_params *p = &pts[i].p;
        assert_int_equal(p->pattern, q.pattern);
        assert_true(p->n == q.n && p->wg == q.wg && p->bins == q.bins && p->addresses == q.addresses);
        assert_true(p->smem_per_wg == q.smem_per_wg && p->seed == q.seed);
        assert_true(p->selectivity == q.selectivity && p->hot == q.hot);
    }
    pln_drawer_free(d);
    free(pts);
}

static void seeds_alone_never_drift(void **state)
{
    (void)state;
    cfg_config cfg;
    cpu_config cpu;
    cfg_defaults(&cfg);
    cpu_defaults(&cpu);
    const chk_inputs in = { &cfg, &cpu, NULL, 0, 1, 1 };
    static chk_report rep;
    char err[CFG_ERR_MAX];
    assert_int_equal(chk_run(&in, &rep, err), 0);
    assert_int_equal(rep.grid_points, 0);
    assert_int_equal(rep.drifted, 0);
    assert_int_equal(rep.count, 5); /* CAS attempts and the 10% threshold for four patterns */
    for (int i = 0; i < rep.count; i++) {
        assert_true(!strncmp(rep.results[i].name, "seed ", 5));
        assert_true(rep.results[i].status == CHK_SEED_HOLDS || rep.results[i].status == CHK_SEED_FAILS);
    }
    assert_string_equal(chk_status_name(CHK_DRIFT), "DRIFT");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scores_count_only_scored_rows),
        cmocka_unit_test(p90_goal_is_its_own),
        cmocka_unit_test(draw_is_the_plans_csv),
        cmocka_unit_test(seeds_alone_never_drift),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
