/* test_check_modules.c - the modules behind `atomsim check` without the
 * command: the scores of validate/model_vs_sim.c (which rows count, the
 * goals, a pattern with nothing scored) and the seeds-only run of
 * validate/check_formulas.c, which reports and never drifts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "../../validate/check_formulas.h"
#include "../../validate/model_vs_sim.h"

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
        cmocka_unit_test(seeds_alone_never_drift),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
