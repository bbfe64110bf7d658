/* test_model_dispatch_scoring.c - contention density, the continuous
 * penalty, the categorical inhibition, the cost and seed rules, data
 * movement by data location (dispatch.data_on) and the host's launch cost,
 * and the CPU tier (its config reader and cost formulas). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../model/cpu_config.h"
#include "../../model/cpu_copies.h"
#include "../../model/cpu_tier.h"
#include "../../model/density.h"
#include "../../model/score.h"

static pat_params params(enum pat_id id, uint64_t n, double s, uint32_t k, double hot)
{
    pat_params p;
    pat_defaults(&p);
    p.pattern = id;
    p.n = n;
    p.selectivity = s;
    p.bins = k;
    p.hot = hot;
    return p;
}

static void test_density_is_seed_000s(void **state)
{
    (void)state;
    cfg_config c;
    dsp_density d;
    char err[CFG_ERR_MAX];
    cfg_defaults(&c);
    pat_params p = params(PAT_COUNTER, 1 << 20, 0.1, 256, 0);
    assert_int_equal(dsp_density_of(&c, &p, &d), 0);
    assert_float_equal(d.density, 0.1 * c.gpu.sm_count * c.gpu.fp32_lanes_per_sm, 1e-9);
    assert_float_equal(d.fraction, 0.1, 1e-15);
    p = params(PAT_HISTOGRAM, 1 << 20, 1, 4, 0);
    assert_int_equal(dsp_density_of(&c, &p, &d), 0);
    assert_float_equal(d.fraction, 0.25, 1e-15);
    p = params(PAT_HISTOGRAM, 1 << 20, 1, 4096, 0.5);
    assert_int_equal(dsp_density_of(&c, &p, &d), 0);
    assert_float_equal(d.fraction, 0.5 + 0.5 / 4096, 1e-12);
    /* the fraction never depends on the GPU's size */
    double f = d.fraction;
    assert_int_equal(cfg_override(&c, "gpu.sm_count=7", err), 0);
    assert_int_equal(dsp_density_of(&c, &p, &d), 0);
    assert_float_equal(d.fraction, f, 0);
    p = params(PAT_STORE, 1 << 20, 1, 256, 0);
    assert_int_equal(dsp_density_of(&c, &p, &d), 0);
    assert_int_equal(d.atomics, 0);
    p = params(PAT_HISTOGRAM_U8_CAS, 1 << 20, 1, 256, 0);
    assert_int_equal(dsp_density_of(&c, &p, &d), 0);
    assert_int_equal(d.cas, 1);
    assert_float_equal(d.targets, 64, 0);
}

static void test_penalty_and_inhibition(void **state)
{
    (void)state;
    dsp_thresholds t = { 0.05, 0.10, 1 };
    enum dsp_reason why;
    assert_float_equal(dsp_penalty(0.01, &t), 0, 0);
    assert_float_equal(dsp_penalty(0.05, &t), 0, 0);
    assert_float_equal(dsp_penalty(0.075, &t), 0.5, 1e-12);
    assert_float_equal(dsp_penalty(0.10, &t), 1, 0);
    dsp_density d = { 0 };
    d.atomics = 1;
    d.fraction = 0.10;
    assert_int_equal(dsp_inhibited(&d, &t, &why), 0); /* "exceeds": strictly above */
    d.fraction = 0.1000001;
    assert_int_equal(dsp_inhibited(&d, &t, &why), 1);
    assert_int_equal(why, DSP_REASON_DENSITY);
    d.fraction = 0;
    d.cas = 1;
    assert_int_equal(dsp_inhibited(&d, &t, &why), 1);
    assert_int_equal(why, DSP_REASON_CAS);
    t.inhibit_cas = 0;
    assert_int_equal(dsp_inhibited(&d, &t, &why), 0);
    assert_string_equal(dsp_reason_name(DSP_REASON_CAS), "cas");
    assert_string_equal(dsp_reason_name(DSP_REASON_DENSITY), "density");
}

static void test_decision_weighs_data_movement(void **state)
{
    (void)state;
    cfg_config c;
    dsp_density d;
    dsp_decision dec;
    dsp_policy pol;
    cfg_defaults(&c);
    dsp_policy_of(&c, &pol);
    assert_int_equal(pol.rule, DSP_RULE_COST); /* the shipped default */
    assert_int_equal(pol.data_on, DSP_DATA_ON_GPU);
    assert_float_equal(pol.host_launch_us, 0, 0);
    pat_params p = params(PAT_COUNTER, 1 << 24, 0.01, 256, 0);
    assert_int_equal(dsp_density_of(&c, &p, &d), 0);
    /* data on the GPU: the CPU pays for 64 MiB over PCIe */
    dsp_decide(&pol, &p, &d, 100, 100, &dec);
    assert_float_equal(dec.cpu_us, 100 + dsp_transfer_us(&pol, 4.0 * (1 << 24)), 1e-9);
    assert_float_equal(dec.gpu_us, 100, 0);
    assert_int_equal(dec.target, DSP_GPU);
    assert_int_equal(dec.cost_target, DSP_GPU);
    /* data on the host: the GPU fetches the input and returns the output */
    pol.data_on = DSP_DATA_ON_HOST;
    dsp_decide(&pol, &p, &d, 100, 100, &dec);
    assert_float_equal(dec.gpu_us, 100 + dsp_transfer_us(&pol, dsp_input_bytes(&p) + dsp_output_bytes(&p)), 1e-9);
    assert_float_equal(dec.cpu_us, 100, 0);
    assert_int_equal(dec.target, DSP_CPU);
    assert_int_equal(dec.reason, DSP_REASON_CPU_FASTER);
    /* data on both sides: nothing moves, and a tie goes to the GPU */
    pol.data_on = DSP_DATA_ON_BOTH;
    dsp_decide(&pol, &p, &d, 100, 100, &dec);
    assert_float_equal(dec.gpu_us, 100, 0);
    assert_float_equal(dec.cpu_us, 100, 0);
    assert_int_equal(dec.target, DSP_GPU);
    /* the host's launch cost falls on the GPU side wherever the data is */
    pol.host_launch_us = 7;
    for (int on = DSP_DATA_ON_GPU; on <= DSP_DATA_ON_BOTH; on++) {
        pol.data_on = (enum dsp_data_on)on;
        dsp_decide(&pol, &p, &d, 100, 104, &dec);
        double moved = on == DSP_DATA_ON_HOST ? dsp_transfer_us(&pol, dsp_input_bytes(&p) + dsp_output_bytes(&p)) : 0;
        assert_float_equal(dec.gpu_us, 107 + moved, 1e-9);
    }
    assert_int_equal(dec.target, DSP_CPU); /* 107 > 104 with nothing moved */
    pol.host_launch_us = 0;
    pol.data_on = DSP_DATA_ON_GPU;

    /* the seed rule's penalty: at 7.5% density the GPU needs 1.5x the
     * CPU's speed; the cost rule takes the faster side regardless */
    p.selectivity = 0.075;
    assert_int_equal(dsp_density_of(&c, &p, &d), 0);
    double move = dsp_transfer_us(&pol, dsp_input_bytes(&p));
    pol.rule = DSP_RULE_SEED;
    dsp_decide(&pol, &p, &d, 100, 140 - move, &dec);
    assert_float_equal(dec.penalty, 0.5, 1e-12);
    assert_int_equal(dec.target, DSP_CPU);
    assert_int_equal(dec.reason, DSP_REASON_CPU_FASTER);
    assert_int_equal(dec.cost_target, DSP_GPU);
    dsp_decide(&pol, &p, &d, 100, 160 - move, &dec);
    assert_int_equal(dec.target, DSP_GPU);
    pol.rule = DSP_RULE_COST;
    dsp_decide(&pol, &p, &d, 100, 140 - move, &dec);
    assert_int_equal(dec.target, DSP_GPU);
    assert_int_equal(dec.reason, DSP_REASON_GPU_FASTER);
    assert_int_equal(dec.seed_target, DSP_CPU); /* the seed's verdict rides along */
    assert_int_equal(dec.seed_reason, DSP_REASON_CPU_FASTER);

    /* inhibited: under the seed rule no cost can win it back; under the
     * cost rule the GPU wins when it is faster, and the seed's verdict is
     * still reported */
    p.selectivity = 0.5;
    assert_int_equal(dsp_density_of(&c, &p, &d), 0);
    pol.rule = DSP_RULE_SEED;
    dsp_decide(&pol, &p, &d, 1e-3, 1e9, &dec);
    assert_int_equal(dec.inhibited, 1);
    assert_int_equal(dec.target, DSP_CPU);
    assert_int_equal(dec.reason, DSP_REASON_DENSITY);
    pol.rule = DSP_RULE_COST;
    dsp_decide(&pol, &p, &d, 1e-3, 1e9, &dec);
    assert_int_equal(dec.inhibited, 1);
    assert_int_equal(dec.target, DSP_GPU);
    assert_int_equal(dec.reason, DSP_REASON_GPU_FASTER);
    assert_int_equal(dec.seed_target, DSP_CPU);
    assert_int_equal(dec.seed_reason, DSP_REASON_DENSITY);
    dsp_decide(&pol, &p, &d, 1e9, 1e-3, &dec);
    assert_int_equal(dec.target, DSP_CPU);
    assert_int_equal(dec.reason, DSP_REASON_CPU_FASTER);

    /* CAS: the seed rule inhibits it at any density, the cost rule does not */
    p = params(PAT_HISTOGRAM_U8_CAS, 1 << 20, 1, 1 << 20, 0);
    assert_int_equal(dsp_density_of(&c, &p, &d), 0);
    assert_int_equal(d.cas, 1);
    pol.rule = DSP_RULE_SEED;
    dsp_decide(&pol, &p, &d, 1, 1e6, &dec);
    assert_int_equal(dec.target, DSP_CPU);
    assert_int_equal(dec.reason, DSP_REASON_CAS);
    pol.seed.inhibit_cas = 0;
    dsp_decide(&pol, &p, &d, 1, 1e6, &dec);
    assert_int_equal(dec.target, DSP_GPU);
    pol.seed.inhibit_cas = 1;
    pol.rule = DSP_RULE_COST;
    dsp_decide(&pol, &p, &d, 1, 1e6, &dec);
    assert_int_equal(dec.target, DSP_GPU);
    assert_int_equal(dec.seed_reason, DSP_REASON_CAS);
}

/* What crosses PCIe: one 32-bit element a thread in, the pattern's result
 * out; at 25 GB/s a megabyte takes 40 us. */
static void test_bytes_moved(void **state)
{
    (void)state;
    cfg_config c;
    dsp_policy pol;
    cfg_defaults(&c);
    dsp_policy_of(&c, &pol);
    assert_float_equal(pol.pcie_bandwidth_gbps, 25, 0);
    assert_float_equal(dsp_transfer_us(&pol, 1e6), 40, 1e-12);
    pat_params p = params(PAT_COMPACTION, 1000, 0.25, 4096, 0);
    p.addresses = 64;
    assert_float_equal(dsp_input_bytes(&p), 4000, 0);
    assert_float_equal(dsp_output_bytes(&p), 4 * 1000 * 0.25 + 4, 0);
    p.pattern = PAT_STORE;
    assert_float_equal(dsp_output_bytes(&p), 1000, 0);
    p.pattern = PAT_COUNTER;
    assert_float_equal(dsp_output_bytes(&p), 4, 0);
    p.pattern = PAT_HISTOGRAM;
    assert_float_equal(dsp_output_bytes(&p), 4 * 4096, 0);
    p.pattern = PAT_HISTOGRAM_U8_CAS;
    assert_float_equal(dsp_output_bytes(&p), 4096, 0);
    p.pattern = PAT_HISTOGRAM_U16_CAS;
    assert_float_equal(dsp_output_bytes(&p), 2 * 4096, 0);
    p.pattern = PAT_BITMASK;
    assert_float_equal(dsp_output_bytes(&p), 125, 0);
    p.pattern = PAT_DISTINCT_LINES;
    assert_float_equal(dsp_output_bytes(&p), 4 * 64, 0);
}

/* dispatch.rule and dispatch.data_on are names in the config and the
 * policy; the schema-1 key data_on_gpu is gone. */
static void test_policy_from_config(void **state)
{
    (void)state;
    cfg_config c;
    dsp_policy pol;
    char err[CFG_ERR_MAX];
    enum dsp_rule r;
    enum dsp_data_on on;
    cfg_defaults(&c);
    assert_int_equal(cfg_override(&c, "dispatch.rule=seed", err), 0);
    assert_int_equal(cfg_override(&c, "dispatch.data_on=both", err), 0);
    assert_int_equal(cfg_override(&c, "dispatch.host_launch_us=12.5", err), 0);
    assert_int_equal(cfg_override(&c, "dispatch.pcie_bandwidth_gbps=50", err), 0);
    dsp_policy_of(&c, &pol);
    assert_int_equal(pol.rule, DSP_RULE_SEED);
    assert_int_equal(pol.data_on, DSP_DATA_ON_BOTH);
    assert_float_equal(pol.host_launch_us, 12.5, 0);
    assert_float_equal(pol.pcie_bandwidth_gbps, 50, 0);
    assert_float_equal(pol.seed.penalty_start, 0.05, 0);
    assert_float_equal(pol.seed.inhibit, 0.10, 0);
    assert_int_equal(pol.seed.inhibit_cas, 1);
    assert_int_equal(cfg_override(&c, "dispatch.data_on=host", err), 0);
    dsp_policy_of(&c, &pol);
    assert_int_equal(pol.data_on, DSP_DATA_ON_HOST);
    assert_int_not_equal(cfg_override(&c, "dispatch.data_on=cpu", err), 0);
    assert_int_not_equal(cfg_override(&c, "dispatch.rule=fastest", err), 0);
    assert_int_not_equal(cfg_override(&c, "dispatch.data_on_gpu=1", err), 0);
    assert_int_not_equal(cfg_override(&c, "dispatch.host_launch_us=-1", err), 0);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(dsp_rule_from_name(dsp_rule_name((enum dsp_rule)i), &r), 0);
        assert_int_equal(r, i);
    }
    for (int i = 0; i < 3; i++) {
        assert_int_equal(dsp_data_on_from_name(dsp_data_on_name((enum dsp_data_on)i), &on), 0);
        assert_int_equal(on, i);
    }
    assert_string_equal(dsp_rule_name(DSP_RULE_COST), "cost");
    assert_string_equal(dsp_data_on_name(DSP_DATA_ON_HOST), "host");
    assert_int_equal(dsp_rule_from_name("Cost", &r), -1);
    assert_int_equal(dsp_data_on_from_name("", &on), -1);
}

static void test_cpu_config_reader(void **state)
{
    (void)state;
    cpu_config c;
    char err[CFG_ERR_MAX], path[] = "/tmp/atomsim_cpu_XXXXXX";
    cpu_defaults(&c);
    uint64_t h = cpu_hash(&c);
    assert_int_equal(c.workers, 16);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "[cpu]\nworkers = 4\n[cost]\nkey_ns = 2.5 ; a comment\n");
    fclose(f);
    assert_int_equal(cpu_load(&c, path, err), 0);
    assert_int_equal(c.workers, 4);
    assert_float_equal(c.key_ns, 2.5, 0);
    assert_true(cpu_hash(&c) != h);
    f = fopen(path, "w");
    fprintf(f, "[cpu]\nwokers = 4\n");
    fclose(f);
    assert_int_not_equal(cpu_load(&c, path, err), 0);
    assert_non_null(strstr(err, "unknown key 'wokers'"));
    f = fopen(path, "w");
    fprintf(f, "[cpu]\nworkers = 0\n");
    fclose(f);
    assert_int_not_equal(cpu_load(&c, path, err), 0);
    assert_non_null(strstr(err, "out of range"));
    unlink(path);
    assert_int_not_equal(cpu_load(&c, "/nonexistent/cpu.ini", err), 0);
    /* the shipped configs read back */
    cpu_defaults(&c);
    assert_int_equal(cpu_load(&c, "configs/cpu-gpuhost-16core.ini", err), 0);
    assert_int_equal(c.workers, 16);
    /* the built-in defaults are that shipped config, figure for figure:
     * re-measuring the host means updating both */
    {
        cpu_config d;
        size_t count;
        const cpu_option *o = cpu_options(&count);
        cpu_defaults(&d);
        for (size_t i = 0; i < count; i++)
            if (o[i].type == CPU_T_DOUBLE) {
                double got = *(const double *)((const char *)&d + o[i].offset);
                double want = *(const double *)((const char *)&c + o[i].offset);
                if (got != want)
                    fail_msg("default %s.%s = %g, configs/cpu-gpuhost-16core.ini says %g", o[i].section, o[i].key, got,
                             want);
            }
    }
    assert_int_equal(cpu_load(&c, "configs/cpu-local-2core.ini", err), 0);
    assert_int_equal(c.workers, 2);
}

static void test_cpu_tier_costs(void **state)
{
    (void)state;
    cpu_config c;
    cpu_cost a, b;
    char err[CFG_ERR_MAX];
    cpu_defaults(&c);
    pat_params p = params(PAT_COUNTER, 1 << 20, 0.5, 256, 0);
    assert_int_equal(cpu_predict(&c, &p, &a, err), 0);
    assert_true(c.scan_fixed_us > 0); /* the defaults carry the GPU host's measured fixed costs */
    assert_float_equal(a.us, c.scan_fixed_us + (1 << 20) / (double)c.workers * c.key_ns / 1e3, 1e-9);
    /* a config without them falls back to one pool hand-over */
    cpu_config old = c;
    old.scan_fixed_us = old.compact_fixed_us = old.bins_fixed_us = old.bins_cached_ns_per_bin = 0;
    assert_int_equal(cpu_predict(&old, &p, &b, err), 0);
    assert_float_equal(b.us, old.pool_dispatch_us + (1 << 20) / (double)old.workers * old.key_ns / 1e3, 1e-9);
    /* each family pays its own fixed cost */
    pat_params tiny = params(PAT_COMPACTION, 16, 1, 1, 0);
    assert_int_equal(cpu_predict(&c, &tiny, &b, err), 0);
    assert_float_equal(b.pool_us, c.compact_fixed_us, 1e-12);
    tiny = params(PAT_HISTOGRAM, 16, 1, 1, 0);
    assert_int_equal(cpu_predict(&c, &tiny, &b, err), 0);
    assert_float_equal(b.pool_us, c.bins_fixed_us, 1e-12);
    /* store and bitmask leave the caller no per-worker result to sum: their
     * own, smaller fixed cost, and the counters' where a config lacks it */
    assert_true(c.write_fixed_us > 0 && c.write_fixed_us < c.scan_fixed_us);
    pat_params wr = params(PAT_BITMASK, 16, 0.5, 1, 0);
    assert_int_equal(cpu_predict(&c, &wr, &b, err), 0);
    assert_float_equal(b.pool_us, c.write_fixed_us, 1e-12);
    /* bitmask's scan folds each word's flags: its own price, key_ns where a
     * config lacks it (docs/findings.md 45) */
    assert_true(c.bitmask_ns > c.key_ns);
    wr = params(PAT_BITMASK, 1 << 20, 0.5, 1, 0);
    assert_int_equal(cpu_predict(&c, &wr, &b, err), 0);
    assert_float_equal(b.scan_us, (1 << 20) / (double)c.workers * c.bitmask_ns / 1e3, 1e-9);
    cpu_config no_bitmask = c;
    no_bitmask.bitmask_ns = 0;
    assert_int_equal(cpu_predict(&no_bitmask, &wr, &b, err), 0);
    assert_float_equal(b.scan_us, (1 << 20) / (double)c.workers * c.key_ns / 1e3, 1e-9);
    cpu_config no_write = c;
    no_write.write_fixed_us = 0;
    wr = params(PAT_STORE, 16, 1, 1, 0);
    assert_int_equal(cpu_predict(&no_write, &wr, &b, err), 0);
    assert_float_equal(b.pool_us, no_write.scan_fixed_us, 1e-12);
    /* bins that fit in the LLC on every worker merge at the cached rate */
    tiny.bins = 16384;
    assert_int_equal(cpu_predict(&c, &tiny, &b, err), 0);
    assert_float_equal(b.merge_us + b.zero_us, 16384 * c.bins_cached_ns_per_bin / 1e3, 1e-9);
    assert_int_equal(cpu_predict(&old, &tiny, &b, err), 0);
    assert_float_equal(b.merge_us + b.zero_us, 16384 * (old.zero_ns_per_bin + old.merge_ns_per_bin) / 1e3, 1e-9);
    /* the sub-word histograms' copies are of their width: a quarter (u8)
     * and a half (u16) of a 4-byte bin's zeroing and merge */
    tiny.pattern = PAT_HISTOGRAM_U8_CAS;
    assert_int_equal(cpu_predict(&c, &tiny, &b, err), 0);
    assert_float_equal(b.merge_us + b.zero_us, 16384 * c.bins_cached_ns_per_bin / 4 / 1e3, 1e-9);
    tiny.pattern = PAT_HISTOGRAM_U16_CAS;
    assert_int_equal(cpu_predict(&old, &tiny, &b, err), 0);
    assert_float_equal(b.merge_us + b.zero_us, 16384 * (old.zero_ns_per_bin + old.merge_ns_per_bin) / 2 / 1e3, 1e-9);
    /* each worker folds its copies into the first: (copies - 1) x K adds at
     * update_l1_ns, so 1-byte bins at K = 2048 (8 copies) pay 7 x 2048 and
     * 4-byte bins (1 copy at K = 2048) none */
    assert_float_equal(cpu_hist_copies(2048, 1), 8, 0);
    assert_float_equal(cpu_hist_copies(2048, 2), 4, 0);
    assert_float_equal(cpu_hist_copies(2048, 4), 1, 0);
    assert_float_equal(cpu_hist_copies(512, 4), 8, 0);
    {
        pat_params h = params(PAT_HISTOGRAM_U8_CAS, 1 << 14, 1, 2048, 0);
        double e = (1 << 14) / (double)c.workers;
        assert_int_equal(cpu_predict(&c, &h, &b, err), 0);
        assert_float_equal(b.scan_us, (e * (c.key_ns + cpu_update_ns(&c, 2048, 1.0 / 2048)) + 7 * 2048 * c.update_l1_ns) / 1e3,
                           1e-9);
        h.pattern = PAT_HISTOGRAM;
        assert_int_equal(cpu_predict(&c, &h, &b, err), 0);
        assert_float_equal(b.scan_us, e * (c.key_ns + cpu_update_ns(&c, 4 * 2048, 1.0 / 2048)) / 1e3, 1e-9);
        /* distinct-lines steps through its counters in order: an update costs
         * what one in L1 does however many addresses there are; the histogram
         * of as many bins pays their cache level */
        h = params(PAT_DISTINCT_LINES, 1 << 24, 1, 1, 0);
        h.addresses = 1 << 20;
        assert_int_equal(cpu_predict(&c, &h, &b, err), 0);
        assert_float_equal(b.scan_us, (1 << 24) / (double)c.workers * (c.key_ns + c.update_l1_ns + c.update_same_bin_ns / (1 << 20)) / 1e3,
                           1e-6);
        h = params(PAT_HISTOGRAM, 1 << 24, 1, 1 << 20, 0);
        assert_int_equal(cpu_predict(&c, &h, &a, err), 0);
        assert_true(a.scan_us > 1.5 * b.scan_us);
        /* with lines_ns measured, one private copy (P > 1,024) steps at its
         * price alone; several copies keep the hashed update's (findings 51) */
        cpu_config lines = c;
        lines.lines_ns = 0.55;
        h = params(PAT_DISTINCT_LINES, 1 << 24, 1, 1, 0);
        h.addresses = 32943;
        assert_int_equal(cpu_predict(&lines, &h, &b, err), 0);
        assert_float_equal(b.scan_us, (1 << 24) / (double)c.workers * 0.55 / 1e3, 1e-9);
        assert_int_equal(cpu_predict(&c, &h, &a, err), 0);
        assert_true(a.scan_us > b.scan_us);
        h.addresses = 1024; /* 4 copies */
        assert_int_equal(cpu_predict(&lines, &h, &b, err), 0);
        assert_int_equal(cpu_predict(&c, &h, &a, err), 0);
        assert_float_equal(b.scan_us, a.scan_us, 1e-12);
    }
    p = params(PAT_COUNTER, 1 << 20, 0.5, 256, 0);
    assert_int_equal(cpu_predict(&c, &p, &a, err), 0);
    p.n = 1 << 24;
    assert_int_equal(cpu_predict(&c, &p, &b, err), 0);
    assert_true(b.us > a.us);
    /* private bins that spill past the caches cost more per update */
    p = params(PAT_HISTOGRAM, 1 << 24, 1, 256, 0);
    assert_int_equal(cpu_predict(&c, &p, &a, err), 0);
    p.bins = 1 << 22;
    assert_int_equal(cpu_predict(&c, &p, &b, err), 0);
    assert_true(b.scan_us > 2 * a.scan_us);
    assert_true(b.merge_us > a.merge_us);
    assert_true(cpu_update_ns(&c, 1e9, 0) >= cpu_update_ns(&c, 1e3, 0));
    /* store pays its skip branch where it goes either way: nothing at S = 0
     * or 1, the most where a vector holds a selected key half the time */
    p = params(PAT_STORE, 1 << 22, 0, 256, 0);
    assert_int_equal(cpu_predict(&c, &p, &a, err), 0);
    double s_half = 1 - pow(0.5, 1.0 / c.store_skip_lanes);
    p.selectivity = s_half;
    assert_int_equal(cpu_predict(&c, &p, &b, err), 0);
    assert_float_equal(b.scan_us - a.scan_us, (1 << 22) / (double)c.workers * c.store_skip_ns * 0.5 / c.store_skip_lanes / 1e3, 1e-6);
    p.selectivity = 1;
    assert_int_equal(cpu_predict(&c, &p, &b, err), 0);
    assert_float_equal(b.scan_us, a.scan_us, 1e-9);
    /* compaction pays the concatenation */
    p = params(PAT_COMPACTION, 1 << 24, 1, 256, 0);
    assert_int_equal(cpu_predict(&c, &p, &a, err), 0);
    assert_true(a.copy_us > 0);
    for (int id = 0; id < PAT_COUNT; id++) {
        p = params((enum pat_id)id, 1 << 20, 0.5, 1024, 0);
        assert_int_equal(cpu_predict(&c, &p, &a, err), 0);
        assert_true(isfinite(a.us) && a.us > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_density_is_seed_000s),
        cmocka_unit_test(test_penalty_and_inhibition),
        cmocka_unit_test(test_decision_weighs_data_movement),
        cmocka_unit_test(test_bytes_moved),
        cmocka_unit_test(test_policy_from_config),
        cmocka_unit_test(test_cpu_config_reader),
        cmocka_unit_test(test_cpu_tier_costs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
