/* test_model_formulas.c - the analytical model's named formulas: the
 * seeds' numbers verbatim, the closed forms' limits and shapes, and the
 * composed prediction (finite everywhere on the export grid, monotone where
 * the mechanism says so, the simulator's input checks). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../../model/export.h"
#include "../../model/formulas.h"
#include "../../model/model.h"
#include "../../model/seed_formulas.h"

static void config(cfg_config *c)
{
    char err[CFG_ERR_MAX];
    cfg_defaults(c);
    assert_int_equal(cfg_override(c, "gpu.name=test", err), 0);
}

static atom_stats predict_stats(const cfg_config *c, enum pat_id id, uint64_t n, int wg, double s, uint32_t k,
                                double hot)
{
    pat_params p;
    atom_stats st;
    char err[CFG_ERR_MAX];
    pat_defaults(&p);
    p.pattern = id;
    p.n = n;
    if (wg > 0)
        p.wg = wg;
    p.selectivity = s;
    p.bins = k;
    p.hot = hot;
    if (mdl_predict(c, &p, &st, err))
        fail_msg("%s: %s", pat_name(id), err);
    return st;
}

static double predict(const cfg_config *c, enum pat_id id, uint64_t n, double s, uint32_t k, double hot)
{
    return predict_stats(c, id, n, 0, s, k, hot).time_us;
}

/* The seeds' own worked numbers (seed 000 and 001). */
static void test_seed_numbers(void **state)
{
    (void)state;
    assert_float_equal(seed_contended_latency_cycles(200, 512), 712, 0);
    assert_float_equal(seed_shared_contended_cycles(20, 256), 276, 0);
    assert_float_equal(seed_cas_attempts(64), 2080, 0);
    assert_float_equal(seed_cas_amplification(64), 32.5, 1e-12);
    assert_float_equal(seed_cas_amplification(512), 256.5, 1e-12);
    assert_float_equal(seed_cas_batch_cycles(512), 131328, 0);
    assert_float_equal(seed_dram_atomics_per_cycle(200), 1.0 / 400, 1e-15);
    /* 2.5M atomics/s at 1 GHz, x256 bins = 640M/s */
    assert_float_equal(seed_histogram_atomics_per_cycle(200, 256) * 1e9, 640e6, 1);
    assert_float_equal(seed_contention_density(0.1, 3072, 1), 307.2, 1e-9);
    assert_float_equal(seed_contention_density(1, 3072, 256), 12, 1e-12);
    assert_float_equal(seed_contention_density(1, 3072, 4), 768, 1e-12);
    cfg_config c;
    config(&c);
    assert_float_equal(seed_threads_per_cycle(&c), (double)c.gpu.sm_count * c.gpu.fp32_lanes_per_sm, 0);
    /* what the rule reduces to: density / capacity = selectivity / bins */
    for (double tpc = 1024; tpc <= 65536; tpc *= 4)
        assert_float_equal(seed_contention_density(0.3, tpc, 7) / tpc, seed_density_fraction(0.3, 7), 1e-15);
    assert_true(seed_throughput_fraction(1024) > 0.4 && seed_throughput_fraction(1024) < 0.5);
}

static void test_distinct_and_max_load(void **state)
{
    (void)state;
    assert_float_equal(mdl_distinct(1, 32), 1, 0);
    assert_float_equal(mdl_distinct(1e9, 1), 1, 1e-6);
    assert_true(fabs(mdl_distinct(1e9, 32) - 32) < 1e-3);
    assert_true(mdl_distinct(32, 32) > 19 && mdl_distinct(32, 32) < 21); /* 32 (1 - 1/e) */
    assert_float_equal(mdl_max_load(0.5, 100), 0.5, 0);
    assert_float_equal(mdl_max_load(7, 1), 7, 0);
    double prev = 0;
    for (double balls = 1; balls < 1e6; balls *= 3) {
        double m = mdl_max_load(balls, 100);
        assert_true(m >= balls / 100 - 1e-9);
        assert_true(m <= balls);
        assert_true(m >= prev);
        prev = m;
    }
}

static void test_cas_attempts(void **state)
{
    (void)state;
    assert_float_equal(mdl_cas_attempts(64, 64), seed_cas_attempts(64), 0);
    assert_float_equal(mdl_cas_attempts(64, 0), seed_cas_attempts(64), 0);
    /* 10 contenders, 4 in their loops at once: 6 successes at 4 each, then 4+3+2+1 */
    assert_float_equal(mdl_cas_attempts(10, 4), 6 * 4 + 10, 0);
    /* under one contender at a time (few resident threads per word): every
     * thread still makes its one attempt */
    assert_float_equal(mdl_cas_attempts(2, 0.5), 2, 0);
    cfg_config c;
    config(&c);
    mdl_cas_race r1, r2;
    mdl_cas_race_of(&c, 1000, 1000, 1, 2.0, 1, 1, &r1);
    mdl_cas_race_of(&c, 2000, 2000, 1, 2.0, 1, 1, &r2);
    assert_true(r2.cycles / r1.cycles > 3 && r2.cycles / r1.cycles < 4.5); /* quadratic once the queue dominates */
    mdl_cas_race_of(&c, 3, 3, 1, 2.0, 1, 1, &r1);
    assert_float_equal(r1.cycles, 3 * r1.rtt_cycles, 1e-9); /* a short queue: one round trip per success */
    /* a workgroup slot frees only when its last contender wins: one
     * contender keeps its share of the cap busy, many keep half of it */
    assert_float_equal(mdl_cas_active_share(1), 1, 0);
    assert_float_equal(mdl_cas_active_share(3), 4.0 / 6, 1e-12);
    assert_true(fabs(mdl_cas_active_share(1024) - 0.5) < 0.001);
    /* the whole race resident: the slots never refill, the share is moot */
    assert_float_equal(mdl_cas_attempts_at(64, 64, 0.5), seed_cas_attempts(64), 0);
    /* 10 contenders, cap 4 of which 2 busy: 6 successes at 2 each, then 4+3+2+1 */
    assert_float_equal(mdl_cas_attempts_at(10, 4, 0.5), 6 * 2 + 10, 0);
}

static double cas_append_attempts(const cfg_config *c, uint64_t n, int wg)
{
    return predict_stats(c, PAT_CAS_APPEND, n, wg, 1, 256, 0).cas_attempts;
}

/* The GPU's count law (docs/findings.md 48): off, first-come; on, one SM's
 * race stays first-come, and a race spread over SMs makes (racers /
 * knee)^-exponent of first-come's attempts past the knee. */
static void test_cas_count_law(void **state)
{
    (void)state;
    char err[CFG_ERR_MAX];
    cfg_config c;
    config(&c);
    assert_false(mdl_cas_law(&c));
    assert_float_equal(mdl_cas_saving(&c, 1e5, 132), 1, 0);
    double fc_one_sm = cas_append_attempts(&c, 1024, 1024), fc_spread = cas_append_attempts(&c, 4096, 256);
    assert_float_equal(fc_one_sm, seed_cas_attempts(1024), 0);
    assert_float_equal(fc_spread, seed_cas_attempts(4096), 0);
    assert_int_equal(cfg_override(&c, "model.cas_saving_knee_lanes=300", err), 0);
    assert_int_equal(cfg_override(&c, "model.cas_saving_exponent=0.28", err), 0);
    assert_true(mdl_cas_law(&c));
    assert_float_equal(mdl_cas_saving(&c, 1e5, 1), 1, 0);   /* one SM: first-come */
    assert_float_equal(mdl_cas_saving(&c, 200, 132), 1, 0); /* below the knee */
    assert_float_equal(mdl_cas_saving(&c, 4096, 16), pow(4096 / 300.0, -0.28), 1e-12);
    /* 1,024 lanes in one workgroup: one SM, exactly first-come (findings 16) */
    assert_float_equal(cas_append_attempts(&c, 1024, 1024), fc_one_sm, 0);
    /* 4,096 lanes in 16 workgroups of 256 on 16 SMs, all resident */
    assert_float_equal(cas_append_attempts(&c, 4096, 256), round(fc_spread * pow(4096 / 300.0, -0.28)), 1);
    /* over several waves the saving is the last wave's alone: while
     * workgroups keep joining, each success costs the busy racers */
    mdl_cas_race r;
    mdl_cas_race_of(&c, 1e5, 1e4, 1, 1.45, 1, 0.5, &r);
    assert_float_equal(r.attempts, 1e4 * (1e5 - 1e4) + 0.5 * 1e4 * (1e4 + 1) / 2, 1e-3);
    /* the last wave's queue is priced at its saving: a success waits
     * behind the saved share of the racers, so the race takes about that
     * share of first-come's time once the queue outlasts the round trip */
    mdl_cas_race full, saved;
    mdl_cas_race_of(&c, 8192, 8192, 1, 1.45, 1, 1, &full);
    mdl_cas_race_of(&c, 8192, 8192, 1, 1.45, 1, 0.5, &saved);
    assert_true(saved.cycles / full.cycles > 0.5 && saved.cycles / full.cycles < 0.52);
    /* under one contender a word every contender still tries once */
    assert_float_equal(mdl_cas_attempts_at(0.5, 0, 1), 0.5, 0);
    /* never fewer attempts than successes */
    mdl_cas_race_of(&c, 1e6, 1e6, 1, 1.45, 1, 1e-9, &r);
    assert_float_equal(r.attempts, 1e6, 0);
}

/* The sub-word races under the law (findings 49): a request holds its
 * line's slice for its lanes at the line's lane price, or for its busiest
 * 8-byte chunk's lanes one after another at the word's price.  One word
 * is a chain (the lane price does not move it); 32 words of one line are
 * lane-bound (twice the price, about twice the race).  With the price at 0
 * the law leaves the sub-word histograms as they were. */
static double subword_race_us(cfg_config *c, uint32_t bins, const char *lane)
{
    char err[CFG_ERR_MAX], set[64];
    snprintf(set, sizeof set, "model.cas_line_lane_cycles=%s", lane);
    assert_int_equal(cfg_override(c, set, err), 0);
    return predict_stats(c, PAT_HISTOGRAM_U8_CAS, 65536, 256, 1, bins, 0).time_us;
}

static void test_subword_line_price(void **state)
{
    (void)state;
    char err[CFG_ERR_MAX];
    cfg_config c;
    config(&c);
    double off_1 = subword_race_us(&c, 4, "0"), off_32 = subword_race_us(&c, 128, "0");
    assert_int_equal(cfg_override(&c, "model.cas_saving_exponent=0.28", err), 0);
    assert_float_equal(subword_race_us(&c, 4, "0"), off_1, 0);
    assert_float_equal(subword_race_us(&c, 128, "0"), off_32, 0);
    double one_lo = subword_race_us(&c, 4, "0.5"), one_hi = subword_race_us(&c, 4, "1");
    double line_lo = subword_race_us(&c, 128, "0.5"), line_hi = subword_race_us(&c, 128, "1");
    assert_float_equal(one_hi, one_lo, 0);
    assert_true(line_hi / line_lo > 1.8 && line_hi / line_lo < 2.05);
    /* and a word's own chain is the dearer per attempt */
    atom_stats one = predict_stats(&c, PAT_HISTOGRAM_U8_CAS, 65536, 256, 1, 4, 0);
    assert_int_equal(cfg_override(&c, "model.cas_line_lane_cycles=0.5", err), 0);
    atom_stats line = predict_stats(&c, PAT_HISTOGRAM_U8_CAS, 65536, 256, 1, 128, 0);
    assert_true(one.cycles / one.cas_attempts > 2 * line.cycles / line.cas_attempts);
}

/* The busiest slice's full lines, counted a block of the hash at a time,
 * are the line-by-line count over hashes, interleaves, slice counts and
 * line counts, the partial line's slice too. */
static void test_subword_busiest_slice(void **state)
{
    (void)state;
    static const char *const masks[] = { "0", "1", "3", "4", "5", "6" };
    static const char *const interleaves[] = { "1", "2", "4" };
    static const char *const slice_counts[] = { "7", "48", "100", "120" };
    static const double bins[] = { 64, 129, 1000, 4095, 8192, 40000, 131071, 262144 };
    char err[CFG_ERR_MAX], set[64];
    for (size_t a = 0; a < sizeof masks / sizeof *masks; a++)
        for (size_t b = 0; b < sizeof interleaves / sizeof *interleaves; b++)
            for (size_t d = 0; d < sizeof slice_counts / sizeof *slice_counts; d++) {
                cfg_config c;
                config(&c);
                snprintf(set, sizeof set, "l2.hash_ignore_mask=%s", masks[a]);
                assert_int_equal(cfg_override(&c, set, err), 0);
                snprintf(set, sizeof set, "l2.interleave_lines=%s", interleaves[b]);
                assert_int_equal(cfg_override(&c, set, err), 0);
                snprintf(set, sizeof set, "l2.slice_count=%s", slice_counts[d]);
                assert_int_equal(cfg_override(&c, set, err), 0);
                assert_int_equal(cfg_override(&c, "l2.slice_hash=mod", err), 0);
                mdl_slice_hash h;
                mdl_slice_hash_init(&c, &h);
                assert_true(h.ok);
                for (size_t e = 0; e < sizeof bins / sizeof *bins; e++) {
                    mdl_subword s;
                    mdl_subword_of(&c, 1 << 20, bins[e], 8, &s);
                    long full = (long)s.full_lines, count[MDL_MAX_SLICES] = { 0 }, top = 0;
                    if (full + (s.last_words > 0) > MDL_MAX_COUNTED_LINES)
                        continue;
                    for (long l = 0; l < full; l++)
                        if (++count[mdl_slice_of_line(&h, l)] > top)
                            top = count[mdl_slice_of_line(&h, l)];
                    assert_float_equal(s.busiest_full, (double)top, 0);
                    if (s.last_words > 0)
                        assert_float_equal(s.partial_slice_full, (double)count[mdl_slice_of_line(&h, full)], 0);
                }
            }
}

static void test_subword_layout(void **state)
{
    (void)state;
    cfg_config c;
    config(&c);
    mdl_subword s;
    /* u16, 329 bins: 165 words, five full lines and a last line of 5 words */
    mdl_subword_of(&c, 524288, 329, 16, &s);
    assert_float_equal(s.words, 165, 0);
    assert_float_equal(s.full_lines, 5, 0);
    assert_float_equal(s.last_words, 5, 0);
    mdl_subword_instr_t in;
    mdl_subword_instr(&c, &s, 32, &in);
    /* the short line draws 5/165 of the lanes and has one sector to pass */
    assert_true(in.requests > 5.5 && in.requests < 5.7); /* 5 x 0.999 + 1 - (160/165)^32 */
    assert_true(in.passes < 5 * 4 + 1);
    assert_true(in.busiest_passes <= in.passes + 1e-9);
}

static void test_request_passes(void **state)
{
    (void)state;
    cfg_config c;
    config(&c);
    /* 32 lanes on 32 distinct words, merged: one pass per sector, 4 sectors */
    assert_true(fabs(mdl_request_passes(&c, 32, 0, 32, 1) - 4) < 0.01);
    /* every lane on one word, unmerged: one pass per lane */
    assert_float_equal(mdl_request_passes(&c, 32, 32, 1, 0), 32, 1e-9);
    /* 32 lanes over 2 words of one sector: the busier word, about 19 lanes */
    double two = mdl_request_passes(&c, 32, 0, 2, 0);
    assert_true(two > 16 && two < 22);
}

/* Lines that share a slice: a hash ignoring line bits 0 and 2 puts 2
 * consecutive lines on one slice, 4 on two, 8 on two (4 each); with 100
 * slices, 256 lines put 4 on the busiest. */
static void test_slice_chunks(void **state)
{
    (void)state;
    cfg_config c;
    config(&c);
    c.l2.interleave_lines = 1;
    c.l2.hash_ignore_mask = 5;
    c.l2.slice_count = 100;
    assert_true(mdl_slice_chunk_lines(&c, 1) == 1);
    assert_true(mdl_slice_chunk_lines(&c, 2) == 2);
    assert_true(mdl_slice_chunk_lines(&c, 4) == 2);
    assert_true(mdl_slice_chunk_lines(&c, 8) == 4);
    assert_true(mdl_slice_chunk_lines(&c, 64) == 4);
    assert_true(mdl_busiest_slice_lines(&c, 256) == 4);
    assert_true(mdl_busiest_slice_lines(&c, 1024) == 12); /* 256 chunks on 100 slices: 3 */
    c.l2.hash_ignore_mask = 0;
    c.l2.interleave_lines = 4;
    assert_true(mdl_slice_chunk_lines(&c, 8) == 4);
    assert_true(mdl_busiest_slice_lines(&c, 8) == 4);
}

/* The busier half of the L2: blocks of 2,048 lines alternate between the
 * halves, so one block (or less) is all one half's, 1.5 blocks two thirds,
 * two blocks half, three blocks two thirds again; the far side's SMs are
 * held to the link's rate over that share. */
static void test_partition_share(void **state)
{
    (void)state;
    cfg_config c;
    config(&c);
    c.l2.partition_block_lines = 2048;
    c.l2.partition_link_requests_per_cycle = 0;
    assert_true(mdl_partition_share(&c, 1024) == 0); /* no cap, no halves */
    c.l2.partition_link_requests_per_cycle = 14;
    assert_true(mdl_partition_share(&c, 1) == 1);
    assert_true(mdl_partition_share(&c, 2048) == 1);
    assert_true(fabs(mdl_partition_share(&c, 3072) - 2.0 / 3) < 1e-12);
    assert_true(mdl_partition_share(&c, 4096) == 0.5);
    assert_true(fabs(mdl_partition_share(&c, 6144) - 2.0 / 3) < 1e-12);
    /* 100 SMs at 2 cycles a request: 25 a cycle a side.  Over a 10-request
     * link the far side runs at 10 a cycle at one block (share 1), 15 at
     * two thirds (the near side, a third across, keeps its 25), and both
     * sides at 20 when the lines split evenly */
    c.gpu.sm_count = 100;
    c.l2.partition_link_requests_per_cycle = 10;
    assert_true(fabs(mdl_partition_cycles(&c, 3500, 1, 2) - 100) < 1e-9);
    assert_true(fabs(mdl_partition_cycles(&c, 4000, 2.0 / 3, 2) - 100) < 1e-9);
    assert_true(fabs(mdl_partition_cycles(&c, 4000, 0.5, 2) - 100) < 1e-9);
}

static void test_occupancy_matches_limits(void **state)
{
    (void)state;
    cfg_config c;
    mdl_occupancy o;
    config(&c);
    assert_int_equal(mdl_occupancy_of(&c, 1024, 0, 1024, &o), 0);
    assert_int_equal(o.wg_per_sm, c.gpu.max_threads_per_sm / 1024);
    assert_int_equal(o.limit, CFG_OCC_THREADS);
    assert_int_equal(mdl_occupancy_of(&c, 32, 0, 1024, &o), 0);
    assert_int_equal(o.limit, CFG_OCC_WG_SLOTS);
    assert_int_equal(mdl_occupancy_of(&c, 256, 49152, 1024, &o), 0);
    assert_int_equal(o.wg_per_sm, c.gpu.smem_per_sm_bytes / (49152 + c.gpu.smem_reserved_per_wg_bytes));
    assert_int_equal(o.limit, CFG_OCC_SMEM);
}

/* A GPU that reserves no shared memory per workgroup: a workgroup that
 * declares none is capped by the other limits (no division by zero), and
 * the capacity divides exactly at the probe's steps (48 KiB an SM: 2 at 24
 * KiB, 1 at 25). */
static void test_occupancy_without_reserve(void **state)
{
    (void)state;
    cfg_config c;
    mdl_occupancy o;
    config(&c);
    c.gpu.smem_reserved_per_wg_bytes = 0;
    c.gpu.smem_per_sm_bytes = 49152;
    assert_int_equal(mdl_occupancy_of(&c, 32, 0, 1024, &o), 0);
    assert_int_equal(o.wg_per_sm, c.gpu.max_wg_per_sm);
    assert_int_equal(o.limit, CFG_OCC_WG_SLOTS);
    assert_int_equal(cfg_wg_per_sm(&c, 64, 24 * 1024, NULL), 2);
    assert_int_equal(cfg_wg_per_sm(&c, 64, 25 * 1024, NULL), 1);
    assert_int_equal(cfg_wg_per_sm(&c, 64, 16 * 1024, NULL), 3);
    assert_int_equal(cfg_wg_per_sm(&c, 64, 17 * 1024, NULL), 2);
    assert_int_equal(cfg_wg_per_sm(&c, 64, 49153, NULL), 0);
}

static void test_predictions_shaped_like_mechanisms(void **state)
{
    (void)state;
    cfg_config c;
    config(&c);
    /* a counter is never faster with more selected threads, and saturates */
    double prev = 0;
    static const double sel[] = { 0, 0.001, 0.01, 0.1, 0.5, 1 };
    for (int i = 0; i < 6; i++) {
        double t = predict(&c, PAT_COUNTER, 1 << 20, sel[i], 256, 0);
        assert_true(t >= prev * 0.999);
        prev = t;
    }
    /* two bins of one line are far slower than many bins */
    assert_true(predict(&c, PAT_HISTOGRAM, 1 << 20, 1, 2, 0) > 5 * predict(&c, PAT_HISTOGRAM, 1 << 20, 1, 65536, 0));
    /* a hot bin slows a wide histogram */
    assert_true(predict(&c, PAT_HISTOGRAM, 1 << 20, 1, 4096, 0.5) > 2 * predict(&c, PAT_HISTOGRAM, 1 << 20, 1, 4096, 0));
    /* CAS contention grows about as the square of the contenders */
    double a = predict(&c, PAT_CAS_APPEND, 1 << 16, 1, 256, 0), b = predict(&c, PAT_CAS_APPEND, 1 << 17, 1, 256, 0);
    assert_true(b / a > 3 && b / a < 5);
    /* the launch cost is the floor */
    assert_true(predict(&c, PAT_STORE, 1, 1, 256, 0) >= c.launch.kernel_overhead_cycles / c.gpu.sm_clock_mhz);
}

/* A word's contenders: 1 + Binomial(per_word - 1, cap / per_word) where
 * fewer lanes are resident than the word has, no spread otherwise, and a
 * sub-word histogram with more words than threads still counts one attempt
 * a thread. */
static void test_cas_spread(void **state)
{
    (void)state;
    mdl_cas_spread sp;
    double sum = 0, mean = 0;
    mdl_cas_spread_of(1000, 1.7, &sp);
    assert_true(sp.terms > 0 && sp.share == 1);
    for (int i = 0; i < sp.terms; i++) {
        sum += sp.w[i];
        mean += sp.w[i] * sp.k[i];
    }
    assert_float_equal(sum, 1, 1e-12);
    assert_float_equal(mean, 1 + 999 * 1.7 / 1000, 1e-6);
    static const double none[][2] = { { 1.5, 0.5 }, { 100, 100 }, { 100, 0 }, { 1000, 40 }, { 1000, -1 } };
    for (int i = 0; i < 5; i++) {
        mdl_cas_spread_of(none[i][0], none[i][1], &sp);
        assert_int_equal(sp.terms, 0);
        assert_true(sp.share == 0);
    }
    mdl_cas_spread_of(1000, 24, &sp); /* fading between the two caps */
    assert_true(sp.terms > 0 && sp.share > 0.49 && sp.share < 0.51);
    cfg_config c;
    pat_params p;
    atom_stats st;
    char err[CFG_ERR_MAX];
    config(&c);
    pat_defaults(&p);
    p.pattern = PAT_HISTOGRAM_U8_CAS;
    p.n = 1 << 19;
    p.bins = 1 << 22; /* 2^20 words for 2^19 threads */
    assert_int_equal(mdl_predict(&c, &p, &st, err), 0);
    assert_float_equal(st.cas_attempts, (double)p.n, 0.5);
}

/* Every cell of every pattern's export grid is a finite positive time. */
static void test_finite_over_export_grid(void **state)
{
    (void)state;
    cfg_config c;
    config(&c);
    for (int id = 0; id < PAT_COUNT; id++) {
        exp_axis axes[EXP_MAX_AXES];
        int na;
        assert_int_equal(exp_axes_of(&c, (enum pat_id)id, axes, &na), 0);
        for (int i = 0; i < axes[0].count; i += 4)
            for (int j = 0; na > 1 && j < axes[1].count; j += 2) {
                pat_params p;
                atom_stats st;
                char err[CFG_ERR_MAX];
                pat_defaults(&p);
                p.pattern = (enum pat_id)id;
                p.n = (uint64_t)axes[0].values[i];
                double v = axes[1].values[j];
                if (axes[1].kind == EXP_AXIS_SELECTIVITY)
                    p.selectivity = v;
                else if (axes[1].kind == EXP_AXIS_BINS)
                    p.bins = (uint32_t)v;
                else
                    p.addresses = (uint32_t)v;
                if (mdl_predict(&c, &p, &st, err))
                    fail_msg("%s: %s", pat_name(p.pattern), err);
                assert_true(isfinite(st.time_us) && st.time_us > 0);
                assert_true(isfinite(st.cycles));
            }
    }
}

static void test_refuses_what_the_simulator_refuses(void **state)
{
    (void)state;
    cfg_config c;
    pat_params p;
    atom_stats st;
    char err[CFG_ERR_MAX];
    config(&c);
    pat_defaults(&p);
    p.pattern = PAT_COUNTER;
    p.wg = 48;
    assert_int_not_equal(mdl_predict(&c, &p, &st, err), 0);
    assert_non_null(strstr(err, "multiple of the subgroup size"));
    p.wg = 256;
    p.pattern = PAT_HISTOGRAM_SHARED;
    p.bins = 1 << 20;
    assert_int_not_equal(mdl_predict(&c, &p, &st, err), 0);
    assert_non_null(strstr(err, "max_smem_per_wg_bytes"));
}

/* The terms behind one prediction; wg 0 and s < 0 keep the defaults. */
static mdl_terms terms_of(const cfg_config *c, enum pat_id id, uint64_t n, int wg, double s)
{
    pat_params p;
    atom_stats st;
    mdl_terms t;
    char err[CFG_ERR_MAX];
    pat_defaults(&p);
    p.pattern = id;
    p.n = n;
    if (wg)
        p.wg = wg;
    if (s >= 0)
        p.selectivity = s;
    if (mdl_predict_terms(c, &p, &st, &t, err))
        fail_msg("%s: %s", pat_name(id), err);
    return t;
}

/* A workgroup's warps queue at the port for the sub-word read and first CAS
 * (findings 50): a launch of fewer threads than one workgroup has only its
 * own warps to queue behind, so it takes less time than a full one. */
static void test_subword_port_queue_counts_launched_warps(void **state)
{
    (void)state;
    cfg_config c;
    config(&c);
    double one = predict_stats(&c, PAT_HISTOGRAM_U16_CAS, 32, 1024, 1, 1u << 22, 0).time_us;
    double eight = predict_stats(&c, PAT_HISTOGRAM_U16_CAS, 256, 1024, 1, 1u << 22, 0).time_us;
    double full = predict_stats(&c, PAT_HISTOGRAM_U16_CAS, 1024, 1024, 1, 1u << 22, 0).time_us;
    assert_true(one < eight && eight < full);
    /* one warp queues behind nobody, whatever the workgroup size */
    assert_float_equal(one, predict_stats(&c, PAT_HISTOGRAM_U16_CAS, 32, 32, 1, 1u << 22, 0).time_us, 0.05 * one);
}

static void test_terms_explain_the_bound(void **state)
{
    (void)state;
    cfg_config c;
    config(&c);
    /* one word, every warp */
    assert_int_equal(terms_of(&c, PAT_COUNTER, 1 << 24, 0, -1).bound, MDL_T_ADDRESS);
    assert_string_equal(mdl_term_name(MDL_T_ADDRESS), "same_address");
    /* many small workgroups */
    assert_int_equal(terms_of(&c, PAT_STORE, 1 << 24, 32, -1).bound, MDL_T_DISPATCH);
}

/* With no request issued there is no last reply to wait for; one warp in
 * a thousand issuing brings the whole reply latency back. */
static void test_no_request_no_reply_tail(void **state)
{
    (void)state;
    cfg_config c;
    config(&c);
    assert_float_equal(terms_of(&c, PAT_BITMASK, 1 << 20, 0, 0).cycles[MDL_T_TAIL], 0, 0);
    assert_float_equal(terms_of(&c, PAT_BITMASK, 1 << 20, 0, 0.001).cycles[MDL_T_TAIL],
                       mdl_global_atomic_latency_cycles(&c), 1e-6);
    assert_true(predict(&c, PAT_BITMASK, 1 << 20, 0, 256, 0) < predict(&c, PAT_BITMASK, 1 << 20, 0.001, 256, 0));
}

/* As the simulator runs it (test_engine.c): work starts dispatch_lead_cycles
 * before the launch floor ends and the floor bounds the kernel, so a store
 * whose work fits in the lead takes the floor, and a long one is shorter by
 * the lead exactly. */
static void test_work_overlaps_the_launch_floor(void **state)
{
    (void)state;
    cfg_config c;
    char err[CFG_ERR_MAX];
    config(&c);
    double floor_us = c.launch.kernel_overhead_cycles / c.gpu.sm_clock_mhz;
    double small0 = predict(&c, PAT_STORE, 256, 0, 256, 0), long0 = predict(&c, PAT_STORE, 1 << 24, 1, 256, 0);
    assert_true(small0 > floor_us);
    assert_int_equal(cfg_override(&c, "launch.dispatch_lead_cycles=2000", err), 0);
    assert_float_equal(predict(&c, PAT_STORE, 256, 0, 256, 0), floor_us, 1e-12);
    assert_float_equal(long0 - predict(&c, PAT_STORE, 1 << 24, 1, 256, 0), 2000 / c.gpu.sm_clock_mhz, 1e-6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_numbers),
        cmocka_unit_test(test_distinct_and_max_load),
        cmocka_unit_test(test_cas_attempts),
        cmocka_unit_test(test_cas_count_law),
        cmocka_unit_test(test_cas_spread),
        cmocka_unit_test(test_subword_line_price),
        cmocka_unit_test(test_subword_layout),
        cmocka_unit_test(test_subword_busiest_slice),
        cmocka_unit_test(test_request_passes),
        cmocka_unit_test(test_slice_chunks),
        cmocka_unit_test(test_partition_share),
        cmocka_unit_test(test_occupancy_matches_limits),
        cmocka_unit_test(test_occupancy_without_reserve),
        cmocka_unit_test(test_predictions_shaped_like_mechanisms),
        cmocka_unit_test(test_finite_over_export_grid),
        cmocka_unit_test(test_refuses_what_the_simulator_refuses),
        cmocka_unit_test(test_subword_port_queue_counts_launched_warps),
        cmocka_unit_test(test_terms_explain_the_bound),
        cmocka_unit_test(test_no_request_no_reply_tail),
        cmocka_unit_test(test_work_overlaps_the_launch_floor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
