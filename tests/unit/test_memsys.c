/* test_memsys.c - the coalescer and L2 (sim/memsys.c) through whole runs:
 * how many L2 operations and line requests a warp instruction becomes with
 * and without same-address merging, per pattern, against counts computed
 * here from the contract's key, selection and bin rules; store requests;
 * L2 misses; queue depth under saturation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "sim_helpers.h"

/* Warps are 32 consecutive ids (wg is a multiple of 32): warp w holds ids
 * [32w, min(32w + 32, n)). */
static uint64_t warps_with_selected(uint64_t n, double s)
{
    uint64_t count = 0;
    uint32_t t = pat_threshold(s);
    for (uint64_t w = 0; w * 32 < n; w++) {
        int any = 0;
        for (uint64_t i = w * 32; i < w * 32 + 32 && i < n; i++)
            any |= pat_key((uint32_t)i) % 1000000u < t;
        count += any;
    }
    return count;
}

/* Sum over warps of the distinct values of f(i) over the warp's ids that
 * pass `want`. */
typedef uint64_t (*id_fn)(uint64_t i, const void *arg);
typedef int (*id_pred)(uint64_t i, const void *arg);
static uint64_t per_warp_distinct(uint64_t n, id_fn f, id_pred want, const void *arg)
{
    uint64_t total = 0;
    for (uint64_t w = 0; w * 32 < n; w++) {
        uint64_t seen[32];
        int k = 0;
        for (uint64_t i = w * 32; i < w * 32 + 32 && i < n; i++) {
            if (want && !want(i, arg))
                continue;
            uint64_t v = f(i, arg);
            int j = 0;
            while (j < k && seen[j] != v)
                j++;
            if (j == k)
                seen[k++] = v;
        }
        total += (uint64_t)k;
    }
    return total;
}

struct hist_arg { uint32_t bins; int line_shift; };

static uint64_t hist_bin(uint64_t i, const void *arg)
{
    const struct hist_arg *a = arg;
    return (pat_key((uint32_t)i) >> 3) % a->bins;
}

static uint64_t hist_line(uint64_t i, const void *arg)
{
    const struct hist_arg *a = arg;
    return (hist_bin(i, arg) * 4) >> a->line_shift;
}

static uint64_t store_line(uint64_t i, const void *arg)
{
    return (i * 4) >> *(const int *)arg;
}

static int half_selected(uint64_t i, const void *arg)
{
    (void)arg;
    return pat_key((uint32_t)i) % 1000000u < 500000u;
}

/* counter: merged, one L2 op per warp instruction; unmerged, one per
 * selected lane.  Either way one line request per instruction. */
static void counter_ops(void **state)
{
    (void)state;
    const uint64_t n = 1000; /* not a multiple of 32 or 64: a partial last warp */
    cfg_config c;
    pat_params p;
    th_params(&p, PAT_COUNTER, n, 64);
    p.selectivity = 0.5;
    uint64_t warps = warps_with_selected(n, 0.5), sel = th_selected(n, 0.5);
    assert_true(sel > warps);

    th_config(&c, "gpu.sm_count=2", NULL);
    th_merge(&c, 1);
    atom_stats st = th_run(&c, &p);
    assert_int_equal((uint64_t)st.atomic_instructions, warps);
    assert_int_equal((uint64_t)st.l2_atomic_ops, warps);
    assert_int_equal((uint64_t)st.l2_requests, warps);
    assert_true(st.requests_per_atomic_instruction == 1);

    th_merge(&c, 0);
    st = th_run(&c, &p);
    assert_int_equal((uint64_t)st.atomic_instructions, warps);
    assert_int_equal((uint64_t)st.l2_atomic_ops, sel);
    assert_int_equal((uint64_t)st.l2_requests, warps);

    /* S = 1: every lane */
    p.selectivity = 1;
    st = th_run(&c, &p);
    assert_int_equal((uint64_t)st.l2_atomic_ops, n);
    assert_int_equal((uint64_t)st.atomic_instructions, (n + 31) / 32);
}

/* counter-aggregated: one elected lane per warp adds the ballot's count, so
 * one op per warp with a selected lane, whatever the hardware merges. */
static void counter_aggregated_one_op_per_warp(void **state)
{
    (void)state;
    const uint64_t n = 1000;
    for (int merge = 0; merge <= 1; merge++)
        for (int s10 = 1; s10 <= 10; s10 += 3) {
            cfg_config c;
            pat_params p;
            th_config(&c, "gpu.sm_count=2", NULL);
            th_merge(&c, merge);
            th_params(&p, PAT_COUNTER_AGGREGATED, n, 96);
            p.selectivity = s10 / 10.0;
            atom_stats st = th_run(&c, &p);
            uint64_t warps = warps_with_selected(n, p.selectivity);
            assert_int_equal((uint64_t)st.atomic_instructions, warps);
            assert_int_equal((uint64_t)st.l2_atomic_ops, warps);
            assert_int_equal((uint64_t)st.l2_requests, warps);
        }
}

/* bitmask: a warp's 32 lanes or into one word (i >> 5). */
static void bitmask_ops(void **state)
{
    (void)state;
    const uint64_t n = 1000;
    cfg_config c;
    pat_params p;
    th_params(&p, PAT_BITMASK, n, 32);
    th_config(&c, "gpu.sm_count=2", NULL);
    th_merge(&c, 1);
    atom_stats st = th_run(&c, &p);
    assert_int_equal((uint64_t)st.atomic_instructions, 32);
    assert_int_equal((uint64_t)st.l2_atomic_ops, 32);
    assert_int_equal((uint64_t)st.l2_requests, 32);
    th_merge(&c, 0);
    st = th_run(&c, &p);
    assert_int_equal((uint64_t)st.l2_atomic_ops, n);
    assert_int_equal((uint64_t)st.l2_requests, 32);
}

/* distinct-lines: lane l of warp w goes to address (32w + l) % P, one per
 * 128-byte line: P >= 32 gives 32 requests per instruction; P = 2 gives 2;
 * P = 1 gives 1. */
static void distinct_lines_requests(void **state)
{
    (void)state;
    static const struct { uint32_t P; double rpi; } rows[] = { { 1, 1 }, { 2, 2 }, { 5, 5 }, { 32, 32 }, { 64, 32 }, { 4096, 32 } };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        for (int merge = 0; merge <= 1; merge++) {
            cfg_config c;
            pat_params p;
            th_config(&c, "gpu.sm_count=2", NULL);
            th_merge(&c, merge);
            th_params(&p, PAT_DISTINCT_LINES, 1024, 128);
            p.addresses = rows[i].P;
            atom_stats st = th_run(&c, &p);
            assert_int_equal((int)st.atomic_instructions, 32);
            if (st.requests_per_atomic_instruction != rows[i].rpi)
                fail_msg("P=%u merge=%d: %g requests per instruction, expected %g", rows[i].P, merge,
                         st.requests_per_atomic_instruction, rows[i].rpi);
            assert_true(st.l2_requests == 32 * rows[i].rpi);
            /* merged: one op per address (= per line here); unmerged: one per lane */
            assert_true(st.l2_atomic_ops == (merge ? 32 * rows[i].rpi : 1024));
        }
    }
}

/* histogram: requests = distinct lines of a warp's bins, ops = distinct
 * bins (merged) or lanes (unmerged); bins = 1 is one request per
 * instruction, and so is F = 1 (every thread in the hot bin 0). */
static void histogram_coalescing(void **state)
{
    (void)state;
    const uint64_t n = 1000;
    static const struct { uint32_t bins; int line; } rows[] = { { 1, 128 }, { 7, 128 }, { 256, 128 }, { 256, 32 }, { 100000, 128 } };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char lb[64];
        snprintf(lb, sizeof lb, "coalesce.line_bytes=%d", rows[i].line);
        struct hist_arg a = { rows[i].bins, __builtin_ctz((unsigned)rows[i].line) };
        uint64_t want_req = per_warp_distinct(n, hist_line, NULL, &a);
        uint64_t want_ops = per_warp_distinct(n, hist_bin, NULL, &a);
        for (int merge = 0; merge <= 1; merge++) {
            cfg_config c;
            pat_params p;
            th_config(&c, "gpu.sm_count=2", lb, NULL);
            th_merge(&c, merge);
            th_params(&p, PAT_HISTOGRAM, n, 64);
            p.bins = rows[i].bins;
            atom_stats st = th_run(&c, &p);
            assert_int_equal((uint64_t)st.atomic_instructions, 32);
            if ((uint64_t)st.l2_requests != want_req)
                fail_msg("bins=%u line=%d: %g requests, computed %llu", rows[i].bins, rows[i].line, st.l2_requests,
                         (unsigned long long)want_req);
            assert_int_equal((uint64_t)st.l2_atomic_ops, merge ? want_ops : n);
            if (rows[i].bins == 1)
                assert_true(st.requests_per_atomic_instruction == 1);
        }
    }
    cfg_config c;
    pat_params p;
    th_config(&c, "gpu.sm_count=2", NULL);
    th_merge(&c, 1);
    th_params(&p, PAT_HISTOGRAM, n, 64);
    p.hot = 1;
    atom_stats st = th_run(&c, &p);
    assert_true(st.requests_per_atomic_instruction == 1);
    assert_true(st.l2_atomic_ops == st.atomic_instructions);
}

/* Newer merge rules, where the option table has them: "uniform" merges
 * only an instruction whose lanes all share one address (bitmask: yes;
 * histogram: no); compiler aggregation merges an add on a compile-time
 * uniform address (counter) even when the hardware merges nothing. */
static void merge_rules(void **state)
{
    (void)state;
    if (!cfg_find("coalesce", "merge_rule"))
        skip();
    const uint64_t n = 1000;
    cfg_config c;
    pat_params p;
    th_config(&c, "gpu.sm_count=2", "coalesce.merge_rule=uniform", "coalesce.compiler_aggregation=0", NULL);
    th_params(&p, PAT_BITMASK, n, 64);
    atom_stats st = th_run(&c, &p);
    assert_true(st.l2_atomic_ops == st.atomic_instructions);
    th_params(&p, PAT_HISTOGRAM, n, 64);
    st = th_run(&c, &p);
    assert_int_equal((uint64_t)st.l2_atomic_ops, n);
    p.bins = 1; /* every lane on bin 0: uniform after all */
    st = th_run(&c, &p);
    assert_true(st.l2_atomic_ops == st.atomic_instructions);

    th_config(&c, "gpu.sm_count=2", "coalesce.merge_rule=none", "coalesce.compiler_aggregation=1", NULL);
    th_params(&p, PAT_COUNTER, n, 64);
    st = th_run(&c, &p);
    assert_true(st.l2_atomic_ops == st.atomic_instructions);
    th_params(&p, PAT_BITMASK, n, 64); /* i >> 5 is not a compile-time constant */
    st = th_run(&c, &p);
    assert_int_equal((uint64_t)st.l2_atomic_ops, n);
}

/* store: one request per distinct line among a warp's selected lanes. */
static void store_requests(void **state)
{
    (void)state;
    const uint64_t n = 1000;
    for (int line = 32; line <= 128; line *= 4) {
        char lb[64];
        int shift = __builtin_ctz((unsigned)line);
        snprintf(lb, sizeof lb, "coalesce.line_bytes=%d", line);
        cfg_config c;
        pat_params p;
        th_config(&c, "gpu.sm_count=2", lb, NULL);
        th_params(&p, PAT_STORE, n, 64);
        atom_stats st = th_run(&c, &p);
        assert_int_equal((uint64_t)st.store_requests, per_warp_distinct(n, store_line, NULL, &shift));
        assert_int_equal((uint64_t)st.atomic_instructions, 0);
        p.selectivity = 0.5;
        st = th_run(&c, &p);
        assert_int_equal((uint64_t)st.store_requests, per_warp_distinct(n, store_line, half_selected, &shift));
    }
    /* by hand for 128-byte lines: 31 full warps and one of 8 lanes, one line each */
    cfg_config c;
    pat_params p;
    th_config(&c, "gpu.sm_count=2", NULL);
    th_params(&p, PAT_STORE, n, 64);
    assert_int_equal((int)th_run(&c, &p).store_requests, 32);
}

/* L2 residency: each line misses once in a large L2; an 8-line L2
 * (1024 bytes, direct-mapped) thrashes on a warp's 32 lines. */
static void l2_misses(void **state)
{
    (void)state;
    cfg_config c;
    pat_params p;
    th_config(&c, "gpu.sm_count=1", NULL);
    th_params(&p, PAT_COUNTER, 4096, 256);
    assert_int_equal((int)th_run(&c, &p).l2_misses, 1);
    th_params(&p, PAT_DISTINCT_LINES, 256, 32);
    p.addresses = 64;
    assert_int_equal((int)th_run(&c, &p).l2_misses, 64);
    th_config(&c, "gpu.sm_count=1", "l2.size_bytes=1024", NULL);
    assert_int_equal((int)th_run(&c, &p).l2_misses, 256);
}

/* A warm start puts the buffers in L2 up to its capacity: a 64-line buffer
 * never misses in the default L2, and misses as if cold in an 8-line one
 * (its lines evict each other before they come round again). */
static void warm_start_fills_up_to_capacity(void **state)
{
    (void)state;
    cfg_config c;
    pat_params p;
    th_params(&p, PAT_DISTINCT_LINES, 256, 32);
    p.addresses = 64;
    th_config(&c, "gpu.sm_count=1", "l2.warm_start=1", NULL);
    assert_int_equal((int)th_run(&c, &p).l2_misses, 0);
    th_config(&c, "gpu.sm_count=1", "l2.warm_start=1", "l2.size_bytes=1024", NULL);
    assert_int_equal((int)th_run(&c, &p).l2_misses, 256);
    /* no misses, no DRAM latency in the reply: a lone counter op's round trip shrinks by it */
    th_params(&p, PAT_COUNTER, 32, 32);
    th_config(&c, "gpu.sm_count=1", "dram.latency_cycles=5000", NULL);
    double cold = th_run(&c, &p).cycles;
    th_config(&c, "gpu.sm_count=1", "dram.latency_cycles=5000", "l2.warm_start=1", NULL);
    double warm = th_run(&c, &p).cycles;
    assert_true(cold - warm >= 5000);
}

/* A chain of one request's lanes on one word pays word_chain_cycles per link,
 * shared by the lines the slice interleaves: distinct-lines with two lines
 * on one slice (16 lanes a request on one word) runs at 10 / 2 cycles a
 * lane instead of 1; a two-bin histogram (one line: forwarded back to back)
 * does not change by a cycle. */
static void word_chains_pay_latency_when_lines_interleave(void **state)
{
    (void)state;
    cfg_config c;
    pat_params p;
    double cycles[2][2];
    for (int on = 0; on < 2; on++) {
        th_config(&c, "gpu.sm_count=1", "l2.slice_count=1", "l2.atomic_issue_cycles=1",
                  on ? "l2.word_chain_cycles=10" : "l2.word_chain_cycles=0", NULL);
        th_merge(&c, 0);
        th_params(&p, PAT_DISTINCT_LINES, 8192, 256);
        p.addresses = 2;
        cycles[on][0] = th_run(&c, &p).cycles;
        th_params(&p, PAT_HISTOGRAM, 8192, 256);
        p.bins = 2;
        cycles[on][1] = th_run(&c, &p).cycles;
    }
    /* 8192 lane-ops: about 8192 cycles of passes, 40960 of chained links */
    if (cycles[1][0] - cycles[0][0] < 0.9 * (8192 * 5.0 - 8192 * 1.0))
        fail_msg("two lines: %g cycles with chains, %g without", cycles[1][0], cycles[0][0]);
    assert_true(cycles[1][1] == cycles[0][1]);
}

/* A saturated slice fills its queue: the deepest queue seen on arrival is
 * Q - 1 (the request that waits for a free entry sees the other Q - 1
 * still queued), for small and large Q alike. */
static void queue_fills_to_its_depth(void **state)
{
    (void)state;
    static const int depths[] = { 16, 64, 256 };
    char report[1024] = "";
    size_t len = 0;
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
        char q[64];
        snprintf(q, sizeof q, "l2.queue_depth_requests=%d", depths[i]);
        cfg_config c;
        pat_params p;
        th_config(&c, "gpu.sm_count=8", q, NULL);
        th_merge(&c, 0);
        th_params(&p, PAT_COUNTER, 65536, 1024);
        atom_stats st = th_run(&c, &p);
        if ((int)st.queue_depth_max != depths[i] - 1)
            len += (size_t)snprintf(report + len, sizeof report - len, " Q=%d: deepest queue %g, expected %d;",
                                    depths[i], st.queue_depth_max, depths[i] - 1);
        /* a time average of a queue that never holds more than Q */
        if (!(st.queue_depth_mean > 0 && st.queue_depth_mean <= depths[i]))
            len += (size_t)snprintf(report + len, sizeof report - len, " Q=%d: mean depth %g, outside (0, %d];",
                                    depths[i], st.queue_depth_mean, depths[i]);
        assert_true(st.stall_backpressure_cycles > 0);
        /* the one hot slice is busy for the whole chain: 65536 ops x 2
         * cycles = 131072 of about 136000 cycles */
        assert_true(st.busiest_slice_utilization > 0.9 && st.busiest_slice_utilization <= 1.0);
    }
    if (len)
        fail_msg("%s", report);
}

/* l2.cas_issue_cycles prices a compare-and-swap request's sector passes
 * alone: 0 means the add's rate, a slower CAS pass slows a slice-bound CAS
 * histogram and leaves an add histogram's every cycle unchanged. */
static void cas_passes_have_their_own_rate(void **state)
{
    (void)state;
    cfg_config c;
    pat_params p;
    th_config(&c, "gpu.sm_count=8", "l2.atomic_issue_cycles=2", "l2.cas_issue_cycles=0", NULL);
    th_params(&p, PAT_HISTOGRAM_U8_CAS, 16384, 256);
    p.bins = 512;
    double same = th_run(&c, &p).cycles;
    th_config(&c, "gpu.sm_count=8", "l2.atomic_issue_cycles=2", "l2.cas_issue_cycles=2", NULL);
    assert_float_equal(th_run(&c, &p).cycles, same, 0);
    th_config(&c, "gpu.sm_count=8", "l2.atomic_issue_cycles=2", "l2.cas_issue_cycles=8", NULL);
    double slow = th_run(&c, &p).cycles;
    assert_true(slow > 1.5 * same);
    th_params(&p, PAT_HISTOGRAM, 16384, 256);
    p.bins = 512;
    double add = th_run(&c, &p).cycles;
    th_config(&c, "gpu.sm_count=8", "l2.atomic_issue_cycles=2", "l2.cas_issue_cycles=0", NULL);
    assert_float_equal(th_run(&c, &p).cycles, add, 0);
}

/* l2.full_queue_holds = returning: a full slice queue holds the SM's port
 * only for requests whose reply the warp waits for.  Fire-and-forget adds
 * then never hold it; a returning add (compaction's slot) still does. */
static void only_returning_requests_hold_the_port(void **state)
{
    (void)state;
    cfg_config c;
    pat_params p;
    th_config(&c, "gpu.sm_count=8", "l2.queue_depth_requests=16", NULL);
    th_merge(&c, 0);
    th_params(&p, PAT_COUNTER, 65536, 1024);
    atom_stats all = th_run(&c, &p);
    assert_true(all.stall_backpressure_cycles > 0);
    th_config(&c, "gpu.sm_count=8", "l2.queue_depth_requests=16", "l2.full_queue_holds=returning", NULL);
    th_merge(&c, 0);
    atom_stats ret = th_run(&c, &p);
    /* what is left is the port's own send time, not the queue's hold */
    assert_true(ret.stall_backpressure_cycles < 0.05 * all.stall_backpressure_cycles);
    /* the one hot slice sets the pace either way */
    assert_true(fabs(ret.cycles - all.cycles) < 0.05 * all.cycles);
    th_params(&p, PAT_COMPACTION, 65536, 1024);
    atom_stats comp_ret = th_run(&c, &p);
    th_config(&c, "gpu.sm_count=8", "l2.queue_depth_requests=16", NULL);
    th_merge(&c, 0);
    atom_stats comp_all = th_run(&c, &p);
    /* its returning adds are still held (its stores no longer are) */
    assert_true(comp_ret.stall_backpressure_cycles > 0.5 * comp_all.stall_backpressure_cycles);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(only_returning_requests_hold_the_port),
        cmocka_unit_test(cas_passes_have_their_own_rate),
        cmocka_unit_test(counter_ops),
        cmocka_unit_test(counter_aggregated_one_op_per_warp),
        cmocka_unit_test(bitmask_ops),
        cmocka_unit_test(distinct_lines_requests),
        cmocka_unit_test(histogram_coalescing),
        cmocka_unit_test(merge_rules),
        cmocka_unit_test(store_requests),
        cmocka_unit_test(l2_misses),
        cmocka_unit_test(word_chains_pay_latency_when_lines_interleave),
        cmocka_unit_test(warm_start_fills_up_to_capacity),
        cmocka_unit_test(queue_fills_to_its_depth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
