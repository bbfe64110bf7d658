/* test_calibrate.c - the calibration (validate/calibrate.c, split.c):
 * a stage recovers a known parameter from synthetic "measurements" that the
 * simulator itself produced with that parameter set (a real-valued key by
 * the golden-section search, an integer key from its candidates, two keys
 * by the simplex), never keeps a value that raises its objective, refuses
 * unknown and non-calibratable keys, and the split file holds out exactly
 * the rows its lines name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../model/model.h"
#include "../../sim/engine.h"
#include "../../validate/calibrate.h"
#include "../../validate/calibrate_run.h"
#include "../../validate/split.h"

static char err[CFG_ERR_MAX];

static int all_rows(const pat_params *p) { (void)p; return 1; }

static void base_config(cfg_config *c)
{
    cfg_defaults(c);
    c->sim.max_events = 2e6;
}

/* A dataset whose times are the simulator's own under `truth`. */
static void synth(val_dataset *d, const pat_params *ps, size_t n, const cfg_config *truth)
{
    memset(d, 0, sizeof *d);
    d->rows = calloc(n, sizeof *d->rows);
    assert_non_null(d->rows);
    d->count = n;
    for (size_t i = 0; i < n; i++) {
        atom_stats st;
        d->rows[i].params = ps[i];
        int rc = sim_run(truth, &ps[i], &st, err);
        if (rc)
            fail_msg("sim_run: %s", err);
        d->rows[i].time_us_median = d->rows[i].time_us_min = d->rows[i].time_us_max = st.time_us;
        d->rows[i].line = (int)i + 1;
    }
}

static pat_params row(enum pat_id id, uint64_t n, uint32_t bins, uint32_t addresses)
{
    pat_params p;
    pat_defaults(&p);
    p.pattern = id;
    p.n = n;
    p.bins = bins;
    p.addresses = addresses;
    return p;
}

static const cfg_option *key(const char *name)
{
    const cfg_option *o;
    if (cal_key_lookup(name, &o, err))
        fail_msg("%s", err);
    return o;
}

static void options(cal_options *o)
{
    cal_options_default(o);
    o->engine = sim_run;
    o->jobs = 2;
    o->max_evals = 14;
}

/* One stage fitting the single key `name` on every row of d (integer keys
 * from `cand` when given; max_evals 0 keeps the options' budget). */
static void fit_one(cfg_config *cfg, const char *name, const int *cand, int max_evals, const val_dataset *d,
                    cal_stage_result *r)
{
    cal_stage st = { "test", { name }, "all", all_rows, cand, 0, 0, { 0, 0 }, NULL };
    const cfg_option *k[] = { key(name) };
    cal_options o;
    options(&o);
    if (max_evals)
        o.max_evals = max_evals;
    assert_int_equal(cal_fit_stage(cfg, &st, k, 1, d, NULL, &o, r, err), 0);
}

/* same_address_cycles = 3 behind the counters; the fit starts at 1.5. */
static void recovers_real_key(void **state)
{
    (void)state;
    cfg_config truth, cfg;
    base_config(&truth);
    truth.l2.same_address_cycles = 3.0;
    pat_params ps[] = { row(PAT_COUNTER, 1 << 16, 1, 1), row(PAT_COUNTER, 1 << 17, 1, 1), row(PAT_COUNTER_AGGREGATED, 1 << 17, 1, 1) };
    val_dataset d;
    synth(&d, ps, 3, &truth);
    base_config(&cfg);
    cfg.l2.same_address_cycles = 1.5;
    cal_stage_result r;
    fit_one(&cfg, "l2.same_address_cycles", NULL, 0, &d, &r);
    assert_int_equal(r.rows, 3);
    assert_true(r.obj_after < r.obj_before);
    assert_true(fabs(cfg.l2.same_address_cycles - 3.0) < 0.1);
    assert_true(fabs(r.keys[0].after - cfg.l2.same_address_cycles) < 1e-12);
    assert_true(r.ape_after < 0.02);
    free(d.rows);
}

/* interleave_lines = 2 behind distinct-lines P = 8, 16, 32; starts at 8. */
static void recovers_integer_key(void **state)
{
    (void)state;
    cfg_config truth, cfg;
    base_config(&truth);
    truth.l2.interleave_lines = 2;
    pat_params ps[] = { row(PAT_DISTINCT_LINES, 1 << 16, 1, 8), row(PAT_DISTINCT_LINES, 1 << 16, 1, 16),
                        row(PAT_DISTINCT_LINES, 1 << 16, 1, 32) };
    val_dataset d;
    synth(&d, ps, 3, &truth);
    base_config(&cfg);
    cfg.l2.interleave_lines = 8;
    static const int cand[] = { 1, 2, 4, 8, -1 };
    cal_stage_result r;
    fit_one(&cfg, "l2.interleave_lines", cand, 0, &d, &r);
    assert_int_equal(cfg.l2.interleave_lines, 2);
    assert_true(r.obj_after < 1e-9);
    free(d.rows);
}

/* The search never keeps a worse point: the truth is the start. */
static void keeps_start_when_best(void **state)
{
    (void)state;
    cfg_config cfg;
    base_config(&cfg);
    cfg.launch.kernel_overhead_cycles = 6000;
    pat_params ps[] = { row(PAT_STORE, 1 << 14, 1, 1), row(PAT_STORE, 1 << 16, 1, 1) };
    val_dataset d;
    synth(&d, ps, 2, &cfg);
    cal_stage_result r;
    fit_one(&cfg, "launch.kernel_overhead_cycles", NULL, 6, &d, &r);
    assert_true(cfg.launch.kernel_overhead_cycles == 6000);
    assert_true(r.obj_after <= r.obj_before);
    free(d.rows);
}

/* A gain smaller than measurement noise is not evidence: the start is
 * 0.05% off the truth, a misfit far below 1% per row over sqrt(2) rows, so
 * the search finds better points but must not take them. */
static void ignores_gains_below_noise(void **state)
{
    (void)state;
    cfg_config truth, cfg;
    base_config(&truth);
    truth.launch.kernel_overhead_cycles = 6000;
    pat_params ps[] = { row(PAT_STORE, 1 << 14, 1, 1), row(PAT_STORE, 1 << 16, 1, 1) };
    val_dataset d;
    synth(&d, ps, 2, &truth);
    base_config(&cfg);
    cfg.launch.kernel_overhead_cycles = 6003;
    cal_stage_result r;
    fit_one(&cfg, "launch.kernel_overhead_cycles", NULL, 0, &d, &r);
    assert_true(r.obj_before > 0); /* there is a misfit to chase */
    assert_true(cfg.launch.kernel_overhead_cycles == 6003);
    assert_true(r.obj_after == r.obj_before);
    free(d.rows);
}

/* Two keys by the simplex: overhead and same-address rate together. */
static void simplex_two_keys(void **state)
{
    (void)state;
    cfg_config truth, cfg;
    base_config(&truth);
    truth.launch.kernel_overhead_cycles = 5000;
    truth.l2.same_address_cycles = 2.5;
    pat_params ps[] = { row(PAT_STORE, 1 << 12, 1, 1), row(PAT_COUNTER, 1 << 16, 1, 1), row(PAT_COUNTER, 1 << 17, 1, 1) };
    val_dataset d;
    synth(&d, ps, 3, &truth);
    base_config(&cfg);
    cfg.launch.kernel_overhead_cycles = 4000;
    cfg.l2.same_address_cycles = 2.0;
    cal_stage st = { "test", { "launch.kernel_overhead_cycles", "l2.same_address_cycles" }, "all", all_rows, NULL, 0, 0, { 0, 0 }, NULL };
    const cfg_option *k[] = { key("launch.kernel_overhead_cycles"), key("l2.same_address_cycles") };
    cal_options o;
    options(&o);
    o.max_evals = 40;
    cal_stage_result r;
    assert_int_equal(cal_fit_stage(&cfg, &st, k, 2, &d, NULL, &o, &r, err), 0);
    assert_true(r.obj_after < r.obj_before / 3);
    assert_true(r.ape_after < 0.03);
    free(d.rows);
}

static void key_lookup_refusals(void **state)
{
    (void)state;
    const cfg_option *o;
    assert_int_equal(cal_key_lookup("l2.nope", &o, err), -1);
    assert_non_null(strstr(err, "unknown key"));
    assert_int_equal(cal_key_lookup("gpu.sm_count", &o, err), -1);
    assert_non_null(strstr(err, "not calibratable"));
    assert_int_equal(cal_key_lookup("nodot", &o, err), -1);
    assert_int_equal(cal_key_lookup("l2.same_address_cycles", &o, err), 0);
}

static void split_file(void **state)
{
    (void)state;
    char path[] = "/tmp/test_calibrate_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "# comment\n\ntest histogram bins=3,128 # inline\ntest bitmask\ntest * wg=64\n");
    fclose(f);
    val_split s;
    assert_int_equal(val_split_load(path, &s, err), 0);
    assert_int_equal(s.count, 3);
    pat_params p = row(PAT_HISTOGRAM, 1 << 20, 128, 1);
    assert_true(val_split_is_test(&s, &p));
    p.bins = 256;
    assert_false(val_split_is_test(&s, &p));
    p.wg = 64;
    assert_true(val_split_is_test(&s, &p));
    p = row(PAT_BITMASK, 1 << 20, 1, 1);
    assert_true(val_split_is_test(&s, &p));
    p = row(PAT_DISTINCT_LINES, 1 << 20, 3, 1); /* bins=3 names histogram only */
    assert_false(val_split_is_test(&s, &p));
    f = fopen(path, "w");
    fprintf(f, "test histogram colour=3\n");
    fclose(f);
    assert_int_equal(val_split_load(path, &s, err), -1);
    assert_non_null(strstr(err, ":1:"));
    f = fopen(path, "w");
    fprintf(f, "test nosuchpattern\n");
    fclose(f);
    assert_int_equal(val_split_load(path, &s, err), -1);
    assert_non_null(strstr(err, "unknown pattern"));
    /* a spent line takes test rows out of the test side, never into the fit */
    f = fopen(path, "w");
    fprintf(f, "test histogram bins=3,128\nspent histogram bins=128 n=1048576\nspent counter\n");
    fclose(f);
    assert_int_equal(val_split_load(path, &s, err), 0);
    p = row(PAT_HISTOGRAM, 1 << 20, 128, 1);
    assert_int_equal(val_split_side(&s, &p), VAL_ROWS_SPENT);
    assert_false(val_split_is_test(&s, &p));
    p.n = 1 << 21; /* the spent line names n = 2^20 only */
    assert_int_equal(val_split_side(&s, &p), VAL_ROWS_TEST);
    p = row(PAT_COUNTER, 1 << 20, 1, 1); /* spent, but no test line: still fit */
    assert_int_equal(val_split_side(&s, &p), VAL_ROWS_FIT);
    val_dataset d = { 0 };
    pat_params ps[] = { row(PAT_HISTOGRAM, 1 << 20, 128, 1), row(PAT_HISTOGRAM, 1 << 21, 128, 1),
                        row(PAT_HISTOGRAM, 1 << 20, 3, 1), row(PAT_HISTOGRAM, 1 << 20, 256, 1) };
    val_row rows[4];
    memset(rows, 0, sizeof rows);
    for (int i = 0; i < 4; i++)
        rows[i].params = ps[i];
    d.rows = rows;
    d.count = 4;
    unsigned char keep[4];
    assert_int_equal(val_split_mask(&s, &d, VAL_ROWS_FIT, keep), 1);
    assert_true(keep[3]);
    assert_int_equal(val_split_mask(&s, &d, VAL_ROWS_TEST, keep), 2);
    assert_true(keep[1] && keep[2]);
    assert_int_equal(val_split_mask(&s, &d, VAL_ROWS_SPENT, keep), 1);
    assert_true(keep[0]);
    assert_int_equal(val_split_mask(&s, &d, VAL_ROWS_ALL, keep), 4);
    assert_int_equal(val_rows_from_name("spent"), VAL_ROWS_SPENT);
    f = fopen(path, "w");
    fprintf(f, "held histogram\n");
    fclose(f);
    assert_int_equal(val_split_load(path, &s, err), -1);
    assert_non_null(strstr(err, "'spent PATTERN"));
    unlink(path);
    assert_int_equal(val_split_load(path, &s, err), -1);
}

/* cal_stage.min_events: a stage whose rows need more events than the run
 * allows gets its own budget for the stage alone.  The counter rows need
 * some 10^4 events; at a 100-event budget none finishes, so the stage is
 * skipped, unless the stage asks for 10^6.  The run's budget is restored. */
static void stage_budget_raises_the_runs(void **state)
{
    (void)state;
    cfg_config truth, cfg;
    base_config(&truth);
    truth.l2.same_address_cycles = 3.0;
    pat_params ps[] = { row(PAT_COUNTER, 1 << 16, 1, 1), row(PAT_COUNTER, 1 << 17, 1, 1) };
    val_dataset d;
    synth(&d, ps, 2, &truth);
    const cfg_option *k[] = { key("l2.same_address_cycles") };
    cal_options o;
    options(&o);
    cal_stage_result r;
    for (int raise = 0; raise < 2; raise++) {
        base_config(&cfg);
        cfg.sim.max_events = 100;
        cfg.l2.same_address_cycles = 1.5;
        cal_stage st = { "test", { "l2.same_address_cycles" }, "all", all_rows, NULL, raise ? 1e6 : 0, 0, { 0, 0 }, NULL };
        int rc = cal_fit_stage(&cfg, &st, k, 1, &d, NULL, &o, &r, err);
        assert_true(cfg.sim.max_events == 100);
        if (!raise) {
            assert_int_equal(rc, 1);
            assert_true(cfg.l2.same_address_cycles == 1.5);
        } else {
            assert_int_equal(rc, 0);
            assert_int_equal(r.rows, 2);
            assert_true(r.max_events == 1e6);
            assert_true(fabs(cfg.l2.same_address_cycles - 3.0) < 0.1);
        }
    }
    free(d.rows);
}

/* A stage of the model's own keys predicts with the model, never the
 * simulator: model.cas_line_lane_cycles = 0.6 behind sub-word races the
 * model priced, recovered from 0.3 while the simulator's engine would
 * fail every row. */
static int no_sim(const cfg_config *cfg, const pat_params *p, atom_stats *st, char e[CFG_ERR_MAX])
{
    (void)cfg;
    (void)p;
    (void)st;
    snprintf(e, CFG_ERR_MAX, "the simulator was called for a model stage");
    return -1;
}

static void model_stage_uses_the_model(void **state)
{
    (void)state;
    cfg_config truth, cfg;
    base_config(&truth);
    /* the sub-word race's line price, read under the count law (findings
     * 49): 32 words of one line are lane-bound, so the rows pin it */
    truth.model.cas_saving_exponent = 0.28;
    truth.model.cas_line_lane_cycles = 0.6;
    pat_params ps[] = { row(PAT_HISTOGRAM_U8_CAS, 1 << 12, 128, 1), row(PAT_HISTOGRAM_U8_CAS, 1 << 14, 128, 1),
                        row(PAT_HISTOGRAM_U8_CAS, 1 << 16, 128, 1) };
    val_dataset d;
    memset(&d, 0, sizeof d);
    d.rows = calloc(3, sizeof *d.rows);
    assert_non_null(d.rows);
    d.count = 3;
    for (size_t i = 0; i < 3; i++) {
        atom_stats st;
        d.rows[i].params = ps[i];
        assert_int_equal(mdl_predict(&truth, &ps[i], &st, err), 0);
        d.rows[i].time_us_median = d.rows[i].time_us_min = d.rows[i].time_us_max = st.time_us;
        d.rows[i].line = (int)i + 1;
    }
    base_config(&cfg);
    cfg.model.cas_saving_exponent = 0.28;
    cfg.model.cas_line_lane_cycles = 0.3;
    cal_stage st = { "model_test", { "model.cas_line_lane_cycles" }, "all", all_rows, NULL, 0, 1, { 0, 0 }, NULL };
    const cfg_option *k[] = { key("model.cas_line_lane_cycles") };
    cal_options o;
    options(&o);
    o.engine = no_sim;
    o.model_engine = mdl_predict;
    cal_stage_result r;
    if (cal_fit_stage(&cfg, &st, k, 1, &d, NULL, &o, &r, err))
        fail_msg("%s", err);
    assert_int_equal(r.rows, 3);
    assert_true(fabs(cfg.model.cas_line_lane_cycles - 0.6) < 0.03);
    free(d.rows);
}

/* A stage that fits on a probe runs only when its probe is given: the
 * split-exit keys name theirs, and other keys need none. */
static void probe_stages_need_their_probe(void **state)
{
    (void)state;
    assert_true(cal_probe_known("split_exit"));
    assert_true(cal_probe_known("split_share"));
    assert_true(cal_probe_known("retire"));
    assert_false(cal_probe_known("nope"));
    const cfg_option *se = key("launch.split_exit_cycles"), *ko = key("launch.kernel_overhead_cycles");
    cal_run r;
    memset(&r, 0, sizeof r);
    assert_int_equal(cal_run_check_probes(&r, &ko, 1, err), 0);
    assert_int_equal(cal_run_check_probes(&r, &se, 1, err), -1);
    assert_non_null(strstr(err, "--probe split_exit=FILE"));
    cal_probe p = { "split_exit", "x.csv", { 0 } };
    r.probes = &p;
    r.nprobes = 1;
    assert_int_equal(cal_run_check_probes(&r, &se, 1, err), 0);
    assert_ptr_equal(cal_probe_find(&p, 1, "split_exit"), &p);
    assert_null(cal_probe_find(&p, 1, "split_share"));
}

/* The source `calibrate` means a stage fits the key: every such key is in
 * exactly one stage, and every stage key has that source, so no key claims
 * a calibration that no stage performs. */
static void every_calibrate_key_has_one_stage(void **state)
{
    (void)state;
    size_t nopt, nstages;
    const cfg_option *o = cfg_options(&nopt);
    const cal_stage *st = cal_stages(&nstages);
    assert_true(nstages <= CAL_MAX_RESULTS); /* else cal_run_stages refuses to run */
    for (size_t i = 0; i < nopt; i++) {
        char name[128];
        snprintf(name, sizeof name, "%s.%s", o[i].section, o[i].key);
        int stages = 0;
        for (size_t s = 0; s < nstages; s++)
            for (int k = 0; k < CAL_MAX_STAGE_KEYS && st[s].keys[k]; k++)
                stages += !strcmp(st[s].keys[k], name);
        if (stages != (cfg_is_calibratable(&o[i]) ? 1 : 0))
            fail_msg("%s: source %s, in %d stages", name, cfg_source_name(o[i].source), stages);
    }
    /* and no stage names a key the table lacks (cal_keys_all skips those) */
    int named = 0;
    for (size_t s = 0; s < nstages; s++)
        for (int k = 0; k < CAL_MAX_STAGE_KEYS && st[s].keys[k]; k++)
            named++;
    const cfg_option *all[CAL_MAX_KEYS];
    assert_int_equal(cal_keys_all(all, CAL_MAX_KEYS), named);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stage_budget_raises_the_runs),
        cmocka_unit_test(recovers_real_key),   cmocka_unit_test(recovers_integer_key),
        cmocka_unit_test(keeps_start_when_best), cmocka_unit_test(ignores_gains_below_noise),
        cmocka_unit_test(simplex_two_keys), cmocka_unit_test(model_stage_uses_the_model),
        cmocka_unit_test(key_lookup_refusals), cmocka_unit_test(split_file),
        cmocka_unit_test(probe_stages_need_their_probe), cmocka_unit_test(every_calibrate_key_has_one_stage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
