/* model.c - the analytical model: composes the named formulas of
 * formulas*.c per pattern into one prediction (cycles, time and the
 * counters the formulas estimate).
 *
 * Composition: launch + the largest of the overlapped bounds (dispatcher,
 * schedulers, workgroup slots, memory ports, busiest L2 slice, hottest
 * address, DRAM, shared-memory unit, CAS race) + the last reply's latency.
 * The bounds overlap because the GPU runs them concurrently: while one
 * resource saturates, the others wait on it, so the slowest one sets the
 * pace.  Each pattern only says what its threads ask of those resources. */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "formulas.h"

/* What one dispatch asks of every resource, summed over the kernel. */
typedef struct body {
    double warps, workgroups;
    double warps_per_wg;
    double warp_instr;                /* every warp instruction */
    double lifetime;                  /* one workgroup, first issue to exit */
    double ack_wait;                  /* and on to its slot's freeing: acks of its sends */
    double atomic_instr, requests, ops, lanes;
    double ret_requests;              /* of atomics whose old value is used */
    double addr_cycles;               /* the hottest word's dependency chain */
    double slice_passes;              /* atomic-unit passes on the busiest slice */
    double slice_cas_passes;          /* the same for compare-and-swap, at their own rate */
    double stores;                    /* store line requests */
    double half_requests;             /* requests to the busier half of the L2 */
    double dram_bytes;
    double smem_busy_per_sm;
    double smem_atomic_instr, smem_conflict;
    double cas_cycles, cas_attempts, cas_failures;
    double tail;                      /* after the bounds: the last reply */
} body;

static double p_any(double p, double n)
{
    if (p >= 1)
        return 1;
    if (p <= 0)
        return 0;
    return -expm1(n * log1p(-p));
}

/* Share of a kernel's passes that the busiest slice works: the hot line's
 * chunk of lines sharing its slice, or the busiest chunk of the spread. */
static double busiest_share(const cfg_config *c, double lines, double hot_share)
{
    if (lines <= 1)
        return 1;
    double il = mdl_slice_chunk_lines(c, lines), in_chunk = il < lines ? il : lines;
    double hot_chunk = hot_share + (in_chunk - 1) * (1 - hot_share) / (lines - 1);
    double spread = mdl_busiest_slice_lines(c, lines) / lines;
    return hot_chunk > spread ? hot_chunk : spread;
}

/* Adds `warps` warps' worth of one atomic instruction to the body. */
static void add_warp_op(const cfg_config *c, body *b, const mdl_warp_op *w, double warps)
{
    double issuing = warps * w->p_issue;
    b->atomic_instr += issuing;
    b->requests += issuing * w->requests;
    b->ops += issuing * w->ops;
    b->lanes += issuing * w->lanes;
    b->addr_cycles += mdl_same_address_chain_cycles(c, issuing * w->hot_requests, w->hot_request_passes,
                                                    w->merged_sum ? 0 : w->hot_merged_lanes);
    b->slice_passes += issuing * w->passes * busiest_share(c, w->lines, w->hot_pass_share);
    /* the hot line's block takes its share on top of the spread's */
    double half = mdl_partition_share(c, w->lines);
    b->half_requests += issuing * w->requests * (w->hot_pass_share + (1 - w->hot_pass_share) * half);
    b->dram_bytes += mdl_atomic_dram_bytes(c, w->lines, issuing * w->ops, w->cyclic);
}

/* The same for an atomic whose old value the warp uses: its requests also
 * pay the port's return cost (coalesce.lsu_return_cycles_per_request). */
static void add_returning_op(const cfg_config *c, body *b, const mdl_warp_op *w, double warps)
{
    add_warp_op(c, b, w, warps);
    b->ret_requests += warps * w->p_issue * w->requests;
}

/* ALU instructions that every pattern's thread spends on its key. */
static double instr(const cfg_config *c, int key, int sel, int bin, int addr)
{
    const cfg_core *k = &c->core;
    return key * k->key_instructions + sel * k->select_instructions + bin * k->bin_instructions +
           addr * k->address_instructions;
}

/* The kernel ends when its last request has been served; with no request
 * at all (selectivity 0) there is none to wait for.  H100 bitmask: 6.50 us
 * at selectivity 0 against 6.75 at 0.001 and 6.94 at 1. */
static double reply_tail(const body *b, double p, double cycles)
{
    return cycles * (1 - pow(1 - p, b->warps));
}

/* One ALU block, one global operation (issued with probability p), exit:
 * the shape of store, counter, bitmask, histogram and distinct-lines, and
 * of cas-append's read before its loop (the one that waits for a reply).
 * wait_share: the share of workgroups that wait for the operation's reply
 * (0: it returns nothing the kernel uses). */
static void simple_kernel(const cfg_config *c, body *b, double alu, double p, double wait_share)
{
    b->warp_instr += b->warps * (alu + p + 1);
    b->lifetime = mdl_alu_chain_cycles(c, alu) + 1 + c->core.exit_cycles +
                  wait_share * mdl_global_atomic_latency_cycles(c);
    b->tail = reply_tail(b, p, mdl_global_atomic_latency_cycles(c));
}

/* A workgroup's life around its send (mdl_wg_life_cycles), split into the
 * life to its last warp's exit and the wait for its acknowledgement: the
 * last wave's wait is the kernel's tail, already charged after the bounds. */
static void wg_life(const cfg_config *c, body *b, double path_cycles, double requests, double p_send, double ack_cycles)
{
    double port = c->coalesce.lsu_cycles_per_request;
    b->lifetime = mdl_wg_life_cycles(c, b->warps_per_wg, path_cycles, requests, port, p_send, 0);
    b->ack_wait = mdl_wg_life_cycles(c, b->warps_per_wg, path_cycles, requests, port, p_send, ack_cycles) - b->lifetime;
}

/* simple_kernel for a send that no warp waits for: `requests` requests a
 * sending warp, acknowledged ack_cycles after issue.  The workgroup lives
 * until its last warp's send is through the port and acknowledged
 * (mdl_wg_life_cycles), which sets the pace at one workgroup an SM. */
static void sending_kernel(const cfg_config *c, body *b, double alu, double p, double requests, double ack_cycles)
{
    simple_kernel(c, b, alu, p, 0);
    wg_life(c, b, mdl_alu_chain_cycles(c, alu), requests, p, ack_cycles);
}

static void pat_store(const cfg_config *c, const pat_params *p, body *b)
{
    double L = c->gpu.subgroup_size, s = p->selectivity;
    double issue = p_any(s, L);
    sending_kernel(c, b, instr(c, 1, 1, 0, 1), issue, ceil(L * 4 / c->coalesce.line_bytes), mdl_store_ack_cycles(c));
    b->stores = b->warps * issue * ceil(L * 4 / c->coalesce.line_bytes);
    b->dram_bytes += (double)p->n / 8 * p_any(s, 8) * 32; /* sectors written back */
    b->tail = reply_tail(b, issue,
                         c->coalesce.lsu_cycles_per_request + c->xbar.latency_cycles + c->l2.store_issue_cycles);
}

static void pat_counter(const cfg_config *c, const pat_params *p, body *b, int aggregated)
{
    mdl_warp_op w;
    mdl_warp_aggregation(c, p->selectivity, 1, &w);
    double alu = instr(c, 1, 1, 0, 0) + (aggregated ? c->core.subgroup_op_instructions : 0);
    sending_kernel(c, b, alu, w.p_issue, w.requests, mdl_global_atomic_latency_cycles(c));
    add_warp_op(c, b, &w, b->warps);
}

/* The slot's head comes back, then the key goes to out[slot]: the reply
 * is waited for, and the store follows it. */
static void pat_compaction(const cfg_config *c, const pat_params *p, body *b)
{
    double L = c->gpu.subgroup_size;
    mdl_warp_op w;
    mdl_warp_aggregation(c, p->selectivity, 1, &w);
    double alu = instr(c, 1, 1, 0, 0);
    add_returning_op(c, b, &w, b->warps);
    b->warp_instr += b->warps * (alu + 1) + b->warps * w.p_issue * (1 + instr(c, 0, 0, 0, 1) + 1);
    /* consecutive slots per warp: its lanes' keys land on one or two lines */
    double lines_per_store = 1 + (w.lanes * 4 - 4) / c->coalesce.line_bytes;
    /* the store is the send the slot's retirement waits on; a warp with no
     * lane selected exits after its selection, so the workgroup waits for
     * the atomic's round trip only where some warp of it sends */
    double q = p_any(w.p_issue, b->warps_per_wg);
    double path = mdl_alu_chain_cycles(c, alu) +
                  q * (mdl_alu_chain_cycles(c, instr(c, 0, 0, 0, 1)) + mdl_global_atomic_latency_cycles(c) + 1);
    wg_life(c, b, path, fmin(lines_per_store, L), w.p_issue, mdl_store_ack_cycles(c));
    b->stores = b->warps * w.p_issue * fmin(lines_per_store, L);
    b->dram_bytes += (double)p->n * p->selectivity * 4;
    b->tail = reply_tail(b, w.p_issue, mdl_global_atomic_latency_cycles(c) + c->xbar.latency_cycles);
}

static void pat_bitmask(const cfg_config *c, const pat_params *p, body *b)
{
    mdl_warp_op w;
    mdl_warp_bitmask(c, (double)p->n, p->selectivity, &w);
    sending_kernel(c, b, instr(c, 1, 1, 0, 1) + 2, w.p_issue, w.requests, mdl_global_atomic_latency_cycles(c));
    add_warp_op(c, b, &w, b->warps);
}

static void pat_histogram(const cfg_config *c, const pat_params *p, body *b)
{
    mdl_warp_op w;
    mdl_warp_histogram(c, p->bins, p->hot, 0, &w);
    sending_kernel(c, b, instr(c, 1, 0, 1, 1), 1, w.requests, mdl_global_atomic_latency_cycles(c));
    add_warp_op(c, b, &w, b->warps);
}

/* Thread i updates line i % P, so n < P threads touch only the first n
 * lines: the kernel behaves as P = n (H100: n = 3,870 and P = 1.1 million
 * take 4.99 us, the launch floor; charged as 1.1 million lines, 8.65).
 * With l2.warm_start the harness's clear left the buffer's last lines in
 * L2, as many as fit, clean; touched lines before those are cold: each
 * miss fills its whole line, not the one sector of a first touch (H100:
 * n = 32,768, P = 1.1 million, 6.69 us against 4.8 for resident lines). */
static void pat_distinct_lines(const cfg_config *c, const pat_params *p, body *b)
{
    mdl_warp_op w;
    double touched = fmin((double)p->addresses, (double)p->n);
    double cap_lines = c->l2.size_bytes / c->coalesce.line_bytes;
    double cold = 0; /* lines that miss, as a share of the ops */
    if (touched > cap_lines)
        cold = 1;
    else if (c->l2.warm_start && p->addresses > cap_lines)
        cold = fmin(touched, p->addresses - cap_lines) / (double)p->n;
    mdl_warp_distinct_lines(c, touched, &w);
    /* a workgroup's acknowledgement waits for its misses' DRAM trips */
    sending_kernel(c, b, instr(c, 1, 0, 0, 1) + 2, 1, w.requests,
                   mdl_global_atomic_latency_cycles(c) + (1 - pow(1 - cold, w.requests)) * c->dram.latency_cycles);
    add_warp_op(c, b, &w, b->warps);
    if (c->l2.warm_start && touched <= cap_lines && p->addresses > cap_lines)
        b->dram_bytes += (c->coalesce.line_bytes - 32) * fmin(touched, p->addresses - cap_lines);
}

/* Zero, barrier, shared atomics, barrier, flush the non-zero bins with one
 * global atomic each: a warp's flush instruction covers 32 consecutive
 * bins, one line, each lane on its own word. */
static void pat_histogram_shared(const cfg_config *c, const pat_params *p, body *b)
{
    const cfg_core *k = &c->core;
    double L = c->gpu.subgroup_size, wg = p->wg, bins = p->bins;
    double warps_per_wg = ceil(wg / L), iters = ceil(bins / wg);
    double nz, per_line = c->coalesce.line_bytes / 4.0;
    /* the flush's last add is the send the slot waits on */
    wg_life(c, b, mdl_privatized_histogram_cycles(c, p->wg, bins, &nz) - k->exit_cycles - 1, 1, 1,
            mdl_global_atomic_latency_cycles(c));
    b->warp_instr += b->workgroups * warps_per_wg *
                     (iters * 3 + 1 + instr(c, 1, 0, 1, 1) + 1 + 1 + iters * (1 + 2 + k->address_instructions + 1) + 1);
    b->smem_atomic_instr = b->warps;
    double pass = mdl_smem_warp_cycles(c, L, bins);
    b->smem_conflict = b->warps * (pass - c->smem.atomic_issue_cycles);
    b->smem_busy_per_sm = mdl_privatized_smem_busy_cycles(c, p->wg, bins) * b->workgroups / c->gpu.sm_count;
    double lines = ceil(bins / per_line);
    double group = bins < L ? bins : L, p_nz = nz / bins;
    double groups = ceil(bins / L) * p_any(group / bins, wg); /* flush instructions that send anything */
    double lanes_per = group * p_nz / p_any(group / bins, wg);
    double req_passes = mdl_request_passes(c, lanes_per, 0, group, 1); /* distinct words: one pass per sector */
    double requests = b->workgroups * groups;
    b->atomic_instr += requests;
    b->requests += requests;
    b->ops += b->workgroups * nz;
    b->lanes += b->workgroups * nz;
    /* bin 0 is in a flush request of every workgroup where it is non-zero */
    b->addr_cycles += mdl_same_address_chain_cycles(c, b->workgroups * p_nz, req_passes, 0);
    b->slice_passes += b->workgroups * mdl_flush_busiest_passes(c, bins, p_nz);
    b->dram_bytes += mdl_atomic_dram_bytes(c, lines, b->workgroups * nz, 0);
    b->tail = mdl_global_atomic_latency_cycles(c);
}

static void pat_reduce(const cfg_config *c, const pat_params *p, body *b)
{
    double L = c->gpu.subgroup_size, warps_per_wg = ceil(p->wg / L);
    /* thread 0's add after the barrier is the send the slot waits on */
    wg_life(c, b, mdl_workgroup_flush_cycles(c, p->wg) - c->core.exit_cycles - 1, 1, 1, mdl_global_atomic_latency_cycles(c));
    b->warp_instr += b->workgroups * (warps_per_wg * (instr(c, 1, 0, 0, 0) + 1 + 1 + 1 + 1) + 2);
    b->smem_atomic_instr = b->warps;
    /* smem[0] is a constant word: the compiler may sum the warp's lanes first */
    double pass = mdl_smem_warp_cycles(c, mdl_merge_mode(c, 1, 0) == MDL_MERGE_SUM ? 1 : L, 1);
    b->smem_conflict = b->warps * (pass - c->smem.atomic_issue_cycles);
    b->smem_busy_per_sm = b->warps * pass / c->gpu.sm_count;
    b->atomic_instr += b->workgroups;
    b->requests += b->workgroups;
    b->ops += b->workgroups;
    b->lanes += b->workgroups;
    b->addr_cycles += mdl_same_address_chain_cycles(c, b->workgroups, 1, 0); /* thread 0 alone: one lane */
    b->slice_passes += b->workgroups;
    b->dram_bytes += 32;
    b->tail = mdl_global_atomic_latency_cycles(c);
}

/* Contenders in their loops at once: the resident workgroups that have any
 * (workgroups without one finish at once and make room). */
static double cas_cap(const mdl_occupancy *o, double wg, double contenders_per_thread, double n)
{
    double per_wg = wg * contenders_per_thread / p_any(contenders_per_thread, wg);
    double cap = o->resident_wgs * per_wg;
    return cap < n ? cap : n;
}

/* One CAS request's hold on its word in the model's race, where the GPU's
 * count law is off (model.cas_saving_exponent = 0, or for the sub-word
 * races model.cas_line_lane_cycles = 0; docs/findings.md 48 and 49): its
 * passes, and its merged lanes at
 * model.cas_merged_lane_cycles each.  The race charges
 * every queued attempt in full, where the simulator's merged requests
 * overlap, so the model keeps its own costs where they were measured: H100
 * one-word races cost 0.338 cycles per attempt with 32-lane warps and 0.57
 * with 1.6 (cas-append n = 131072, S = 1 and 0.05), which a request of
 * 0.72 plus 0.326 per extra lane gives; the L2 chain (1.45 per request)
 * charged small warps twice that. */
static double cas_lane_cycles(const cfg_config *c)
{
    return c->model.cas_merged_lane_cycles > 0 ? c->model.cas_merged_lane_cycles : c->l2.merged_lane_cycles;
}

static double cas_request_cycles(const cfg_config *c, double passes, double merged_lanes)
{
    double issue = mdl_cas_issue_cycles(c), lanes = merged_lanes > 0 ? merged_lanes : 0;
    double before = (passes > 1 ? passes - 1 : 0) * issue;
    if (c->model.cas_request_cycles > 0)
        return before + c->model.cas_request_cycles + lanes * cas_lane_cycles(c);
    /* the simulator's chain on a word: its passes at the CAS rate, then
     * same_address_cycles and merged_lane_cycles per extra merged lane */
    return fmax(before + c->l2.same_address_cycles + lanes * cas_lane_cycles(c), passes * issue);
}

static void pat_cas_append(const cfg_config *c, const pat_params *p, body *b, const mdl_occupancy *o)
{
    double s = p->selectivity, contenders = (double)p->n * s;
    mdl_warp_op read;
    mdl_warp_aggregation(c, s, 1, &read); /* atomicAdd(&head, 0): the compiler's one op per warp */
    add_returning_op(c, b, &read, b->warps);
    /* a warp with no lane selected exits without the read, so a workgroup
     * waits for its round trip only where some warp of it reads (as in
     * compaction): at selectivity 0 the kernel is a select and an exit */
    simple_kernel(c, b, instr(c, 1, 1, 0, 0), read.p_issue, p_any(read.p_issue, b->warps_per_wg));
    if (contenders <= 0)
        return;
    mdl_cas_race race;
    mdl_warp_op cas;
    mdl_warp_aggregation(c, s, 0, &cas);
    double m = cas.lanes; /* contending lanes a warp brings */
    double req_passes = c->coalesce.merge_cas ? 1 : m;
    double slot = p->wg * s / p_any(s, p->wg); /* contenders a workgroup brings, given any */
    double cap = cas_cap(o, p->wg, s, contenders);
    /* the GPU's count: a share of first-come's once the racers span SMs,
     * each lane-attempt a full read-modify-write of the word at the L2's
     * same-address price */
    double saving = mdl_cas_saving(c, cap, ceil(cap / slot));
    double per_request = mdl_cas_law(c) ? (req_passes - 1) * mdl_cas_issue_cycles(c) + m * c->l2.same_address_cycles
                                        : cas_request_cycles(c, req_passes, c->coalesce.merge_cas ? m - 1 : 0);
    mdl_cas_race_of(c, contenders, cap, m, per_request / m, slot, saving, &race);
    double cas_instr = race.attempts / m;
    b->atomic_instr += cas_instr;
    b->requests += cas_instr;
    b->ret_requests += cas_instr;
    b->ops += race.ops;
    b->lanes += race.attempts;
    b->slice_cas_passes += cas_instr * req_passes;
    b->warp_instr += cas_instr * (1 + c->core.cas_loop_instructions) + contenders / m;
    b->cas_attempts = race.attempts;
    b->cas_failures = race.attempts - contenders;
    b->cas_cycles = race.cycles;
    b->stores = contenders; /* one scattered store per success */
    b->dram_bytes += contenders * 4;
}

/* A warp's CAS instructions while it drains: its loop runs until its last
 * lane wins, and its lanes win at uniform places in their words' races of
 * `rounds` rounds, so its j-th of them carries L (rounds - j + 1) / rounds
 * lanes (a warp of 32 lanes averages 16.5).  Per attempt, over its
 * instructions: the instructions, their line requests and atomic-unit
 * passes, and the lanes a request brings to one line and to one word. */
typedef struct sw_drain {
    double instr, requests, passes, busiest_passes; /* per attempt */
    double lanes_line, words_hit;     /* per request */
} sw_drain;

static void subword_drain(const cfg_config *c, const mdl_subword *sw, double rounds, sw_drain *d)
{
    double L = c->gpu.subgroup_size;
    int steps = rounds < 1 ? 1 : rounds > L ? (int)L : (int)ceil(rounds);
    double lanes = 0, requests = 0, passes = 0, busiest = 0, words_hit = 0;
    for (int j = 1; j <= steps; j++) {
        mdl_subword_instr_t in;
        double a = L * j / steps;
        mdl_subword_instr(c, sw, a, &in);
        lanes += a;
        requests += in.requests;
        passes += in.passes;
        busiest += in.busiest_passes;
        words_hit += in.words_hit;
    }
    d->instr = steps / lanes;
    d->requests = requests / lanes;
    d->passes = passes / lanes;
    d->busiest_passes = busiest / lanes;
    d->lanes_line = lanes / requests;
    d->words_hit = words_hit / requests;
}

/* A word's race averaged over the spread of its contenders (mdl_cas_spread,
 * formulas_cas.c), blended into the race at their mean where the spread
 * fades: attempts a lane, and the race's attempts, ops and cycles. */
static double spread_mix(const mdl_cas_spread *spread, double avg, double at_mean)
{
    return spread->share * avg + (1 - spread->share) * at_mean;
}

static double subword_attempts_per_lane(const mdl_cas_spread *spread, double per_word, double cap, double active)
{
    double mean = mdl_cas_attempts_at(per_word, cap, active), avg = 0;
    for (int i = 0; i < spread->terms; i++)
        avg += spread->w[i] * mdl_cas_attempts_at(per_word, spread->k[i], active);
    return spread_mix(spread, avg, mean) / per_word;
}

static void subword_race(const cfg_config *c, const mdl_cas_spread *spread, double per_word, double cap, double m,
                         double lane_cycles, double slot_contenders, double saving, double rtt, mdl_cas_race *r)
{
    mdl_cas_race_rtt(c, per_word, cap, m, lane_cycles, slot_contenders, saving, rtt, r);
    if (spread->terms == 0)
        return;
    mdl_cas_race avg = { 0, 0, 0, r->rtt_cycles };
    for (int i = 0; i < spread->terms; i++) {
        mdl_cas_race one;
        mdl_cas_race_rtt(c, per_word, spread->k[i], m, lane_cycles, slot_contenders, saving, rtt, &one);
        avg.attempts += spread->w[i] * one.attempts;
        avg.ops += spread->w[i] * one.ops;
        avg.cycles += spread->w[i] * one.cycles;
    }
    r->attempts = spread_mix(spread, avg.attempts, r->attempts);
    r->ops = spread_mix(spread, avg.ops, r->ops);
    r->cycles = spread_mix(spread, avg.cycles, r->cycles);
}

/* The rounds a warp's loop runs: until its last lane wins.  A lane wins at
 * a uniform place in its word's race, which lasts 2 a - 1 rounds for a
 * attempts a lane; with the contenders spread the races differ, and the
 * warp waits for the slowest of its subgroup's lanes: the mean of the
 * largest of L uniform places over the spread. */
static double subword_rounds(const cfg_config *c, const mdl_cas_spread *spread, double per_word, double active,
                             double per_lane)
{
    double mean = 2 * per_lane - 1;
    if (spread->terms == 0)
        return mean;
    double g[MDL_CAS_SPREAD_TERMS], top = 1, L = c->gpu.subgroup_size;
    for (int i = 0; i < spread->terms; i++) {
        g[i] = fmax(1, 2 * mdl_cas_attempts_at(per_word, spread->k[i], active) / per_word - 1);
        top = fmax(top, g[i]);
    }
    /* E[max] = integral over x of 1 - F(x)^L, F the lanes' place
     * distribution, at one point a round (an export asks it of every cell) */
    double e = 0;
    for (double x = 0.5; x < top; x += 1) {
        double f = 0, dx = fmin(1, top - x + 0.5);
        for (int i = 0; i < spread->terms; i++)
            f += spread->w[i] * fmin(x, g[i]) / g[i];
        e += (1 - pow(f, L)) * dx;
    }
    return spread_mix(spread, fmax(1, e), mean);
}

/* The sub-word races take the GPU's count and price where both keys are set */
static int subword_law(const cfg_config *c)
{
    return mdl_cas_law(c) && c->model.cas_line_lane_cycles > 0;
}

/* A lane-attempt's hold in a sub-word race, for requests of `k` lanes to a
 * line of `line_words` words.  Under the law (docs/findings.md 49) a
 * request holds its line's slice for its lanes at the line's lane price,
 * or for its busiest 8-byte chunk's lanes one after another at the word's
 * read-modify-write price, whichever is longer: a line of an odd number of
 * words counts its last chunk as half of one (its lanes fall on it half as
 * often); the request's sector passes are not added (the busiest slice's
 * passes at l2.cas_issue_cycles stay a term of their own), and merged or
 * not the chunk's lanes go one by one.  Otherwise the first-come race's
 * request (cas_request_cycles) over the `m` lanes it brings a word: merged,
 * it holds its words for its most-hit word's extra lanes (the simulator's
 * chain, waiting for every word it updates); the model's own H100 costs
 * (model.cas_request_cycles) charge every lane of the request instead: two
 * words of one line with half the contenders each take 0.54x one word's
 * time on the H100, where independent races would take 0.25x. */
static double subword_lane_cycles(const cfg_config *c, const sw_drain *d, double line_words, double m)
{
    double k = d->lanes_line;
    if (subword_law(c) && k > 0)
        return fmax(c->model.cas_line_lane_cycles * k,
                    c->l2.same_address_cycles * mdl_max_load(k, fmax(1, line_words / 2))) / k;
    double hold = c->model.cas_request_cycles > 0 ? k - d->words_hit /* every lane of it */
                                                   : fmax(m, mdl_max_load(k, line_words)) - 1;
    return cas_request_cycles(c, d->passes / d->requests, c->coalesce.merge_cas ? hold : 0) / m;
}

/* Every thread updates one 8- or 16-bit bin: read the word, then a CAS loop
 * on it.  The words race in parallel, but a warp's CAS instruction is one
 * request per line it touches, so the lanes of the other words of a line
 * lengthen every word's chain: that is the interference measured between
 * the 2 to 8 words of one line. */
static void pat_subword(const cfg_config *c, const pat_params *p, body *b, const mdl_occupancy *o, int bits)
{
    mdl_subword sw;
    mdl_warp_op read;
    mdl_subword_of(c, (double)p->n, p->bins, bits, &sw);
    mdl_warp_histogram(c, sw.words, 0, 0, &read);
    add_returning_op(c, b, &read, b->warps);
    b->warp_instr += b->warps * (instr(c, 1, 0, 1, 1) + 2 + 1 + 1);
    b->lifetime = mdl_alu_chain_cycles(c, instr(c, 1, 0, 1, 1) + 2) + mdl_global_atomic_latency_cycles(c) + 1 +
                  c->core.exit_cycles;
    b->tail = mdl_global_atomic_latency_cycles(c);
    double resident = fmin((double)p->n, o->resident_wgs * p->wg);
    double cap = fmin(sw.per_word, resident / sw.words);
    /* a lane's mean place in its word's race, (rounds + 1) / 2 */
    /* the spread of a word's contenders, once for the three uses below */
    mdl_cas_spread spread;
    mdl_cas_spread_of(sw.per_word, cap, &spread);
    double per_lane = subword_attempts_per_lane(&spread, sw.per_word, cap, mdl_cas_active_share(p->wg));
    sw_drain d;
    subword_drain(c, &sw, subword_rounds(c, &spread, sw.per_word, mdl_cas_active_share(p->wg), per_lane), &d);
    /* a warp lives through its last CAS's round trip too, and through the
     * read's and that CAS's replies, one request after another */
    double loop_cycles = mdl_global_atomic_latency_cycles(c) + mdl_alu_chain_cycles(c, c->core.cas_loop_instructions);
    double retry_requests = d.requests / d.instr;
    b->lifetime += loop_cycles + mdl_reply_spread_cycles(c, read.requests) + mdl_reply_spread_cycles(c, retry_requests);
    /* and behind its workgroup's other warps at the port, which reach the
     * read and the first CAS together (findings 50); a launch smaller than
     * one workgroup has fewer warps to queue behind */
    double port = c->coalesce.lsu_cycles_per_request + c->coalesce.lsu_return_cycles_per_request;
    b->lifetime += mdl_port_shift_cycles(c, fmin(b->warps_per_wg, b->warps), read.requests * port,
                                         loop_cycles + mdl_reply_spread_cycles(c, read.requests));
    /* lanes a warp brings to one word, given it brings any */
    double m = d.lanes_line / d.words_hit;
    double line_words = fmin(sw.words, c->coalesce.line_bytes / 4.0);
    double lane_cycles = subword_lane_cycles(c, &d, line_words, m);
    double saving = 1, slice_words = 0;
    if (subword_law(c)) {
        /* a word's race saves as cas-append's does across SMs (the busiest
         * word's race below takes the same saving, that of the mean word's
         * racers), and the busiest slice serves its words' attempts one
         * request after another */
        saving = mdl_cas_saving(c, cap, ceil(resident / p->wg));
        slice_words = fmax(sw.busiest_full * line_words, sw.partial_slice_full * line_words + sw.last_words);
    }
    mdl_cas_race race;
    /* one iteration of a retrying warp's loop: the round trip, its
     * replies entering the SM one after another (findings 36) and, on top,
     * its requests' port time, a stand-in for the port that the SM's other
     * racing warps share (the simulator overlaps a lone warp's port time
     * with its replies; the sum was chosen on in-sample data, and it
     * counts the first request's lsu_cycles_per_request twice, 2.7
     * cycles).  A retry that hits many lines is a long round (findings
     * 50).  The last CAS's round above keeps section 36's form, replies
     * alone, as measured on uncontended rows. */
    double rtt = loop_cycles + retry_requests * port + mdl_reply_spread_cycles(c, retry_requests);
    subword_race(c, &spread, sw.per_word, cap, m, lane_cycles, p->wg, saving, rtt, &race);
    double attempts = race.attempts * sw.words;
    double cas_instr = attempts * d.instr, requests = attempts * d.requests;
    b->atomic_instr += cas_instr;
    b->requests += requests;
    b->ret_requests += requests;
    b->ops += race.ops * sw.words;
    b->lanes += attempts;
    b->slice_cas_passes += attempts * d.busiest_passes;
    b->warp_instr += cas_instr * (1 + c->core.cas_loop_instructions);
    b->cas_attempts = attempts;
    b->cas_failures = attempts - (double)p->n;
    /* a warp lives through every pass of its loop, not only the first: each
     * retry is another round trip before its workgroup's slot frees */
    double passes_per_warp = cas_instr / b->warps;
    if (passes_per_warp > 1)
        b->lifetime += (passes_per_warp - 1) * rtt;
    /* the kernel ends with the race of its most-contended word */
    double n_max = sw.words > 1 ? fmax(mdl_max_load((double)p->n, sw.words), sw.per_word) : sw.per_word;
    mdl_cas_race last;
    mdl_cas_race_rtt(c, n_max, cap * n_max / sw.per_word, m, lane_cycles, p->wg, saving, rtt, &last);
    /* under the law the busiest slice serves its words' attempts one
     * request after another */
    b->cas_cycles = fmax(last.cycles, race.attempts * slice_words * lane_cycles);
}

static const char *const term_names[MDL_T_COUNT] = {
    [MDL_T_LAUNCH] = "launch", [MDL_T_DISPATCH] = "dispatch", [MDL_T_ISSUE] = "issue",
    [MDL_T_SLOTS] = "slots",   [MDL_T_LSU] = "lsu",           [MDL_T_SLICE] = "l2_slice", [MDL_T_HALF] = "l2_half",
    [MDL_T_ADDRESS] = "same_address", [MDL_T_DRAM] = "dram", [MDL_T_SMEM] = "smem",
    [MDL_T_CAS] = "cas_race",  [MDL_T_TAIL] = "tail",
};

const char *mdl_term_name(enum mdl_term t)
{
    return t < MDL_T_COUNT ? term_names[t] : "?";
}

/* The same input checks as the simulator, with the same messages, so the
 * two engines refuse the same runs. */
static int check_input(const cfg_config *c, const pat_params *p, char err[CFG_ERR_MAX])
{
    if (pat_check(p, err, CFG_ERR_MAX))
        return -1;
    if (p->wg % c->gpu.subgroup_size) {
        snprintf(err, CFG_ERR_MAX, "--wg %d is not a multiple of the subgroup size %d", p->wg, c->gpu.subgroup_size);
        return -1;
    }
    if (p->wg > c->gpu.max_wg_size) {
        snprintf(err, CFG_ERR_MAX, "--wg %d exceeds gpu.max_wg_size %d", p->wg, c->gpu.max_wg_size);
        return -1;
    }
    uint32_t smem = pat_smem_bytes(p);
    if (smem > (uint32_t)c->gpu.max_smem_per_wg_bytes) {
        snprintf(err, CFG_ERR_MAX, "shared memory per workgroup %u bytes exceeds gpu.max_smem_per_wg_bytes %d%s", smem,
                 c->gpu.max_smem_per_wg_bytes, p->pattern == PAT_HISTOGRAM_SHARED ? " (too many --bins for histogram-shared)" : "");
        return -1;
    }
    return 0;
}

int mdl_predict_terms(const cfg_config *c, const pat_params *p, atom_stats *st, mdl_terms *t, char err[CFG_ERR_MAX])
{
    body b;
    mdl_occupancy o;
    if (check_input(c, p, err))
        return -1;
    memset(&b, 0, sizeof b);
    b.warps = ceil((double)p->n / c->gpu.subgroup_size);
    b.workgroups = ceil((double)p->n / p->wg);
    b.warps_per_wg = ceil((double)p->wg / c->gpu.subgroup_size);
    if (mdl_occupancy_of(c, p->wg, pat_smem_bytes(p), b.workgroups, &o)) {
        snprintf(err, CFG_ERR_MAX, "no workgroup of %d threads with %u bytes of shared memory fits on an SM", p->wg,
                 pat_smem_bytes(p));
        return -1;
    }
    switch (p->pattern) {
    case PAT_STORE: pat_store(c, p, &b); break;
    case PAT_COUNTER: pat_counter(c, p, &b, 0); break;
    case PAT_COUNTER_AGGREGATED: pat_counter(c, p, &b, 1); break;
    case PAT_COMPACTION: pat_compaction(c, p, &b); break;
    case PAT_HISTOGRAM: pat_histogram(c, p, &b); break;
    case PAT_HISTOGRAM_SHARED: pat_histogram_shared(c, p, &b); break;
    case PAT_HISTOGRAM_U8_CAS: pat_subword(c, p, &b, &o, 8); break;
    case PAT_HISTOGRAM_U16_CAS: pat_subword(c, p, &b, &o, 16); break;
    case PAT_CAS_APPEND: pat_cas_append(c, p, &b, &o); break;
    case PAT_BITMASK: pat_bitmask(c, p, &b); break;
    case PAT_REDUCE: pat_reduce(c, p, &b); break;
    case PAT_DISTINCT_LINES: pat_distinct_lines(c, p, &b); break;
    default:
        snprintf(err, CFG_ERR_MAX, "pattern %d has no model", (int)p->pattern);
        return -1;
    }

    mdl_terms tt;
    memset(&tt, 0, sizeof tt);
    tt.cycles[MDL_T_LAUNCH] = mdl_launch_cycles(c);
    tt.cycles[MDL_T_DISPATCH] = mdl_dispatch_cycles(c, b.workgroups);
    tt.cycles[MDL_T_ISSUE] = mdl_issue_cycles(c, b.warp_instr);
    tt.cycles[MDL_T_SLOTS] = mdl_slot_cycles(c, &o, b.lifetime) + (o.waves > 1 ? o.waves - 1 : 0) * b.ack_wait;
    tt.cycles[MDL_T_LSU] = mdl_lsu_cycles(c, b.requests + b.stores) +
                           b.ret_requests * c->coalesce.lsu_return_cycles_per_request / c->gpu.sm_count;
    tt.cycles[MDL_T_SLICE] = b.slice_passes * c->l2.atomic_issue_cycles + b.slice_cas_passes * mdl_cas_issue_cycles(c) +
                             mdl_l2_store_cycles(c, b.stores);
    if (b.requests > 0)
        tt.cycles[MDL_T_HALF] = mdl_partition_cycles(c, b.requests, b.half_requests / b.requests,
                                                     c->coalesce.lsu_cycles_per_request +
                                                         c->coalesce.lsu_return_cycles_per_request * b.ret_requests / b.requests);
    tt.cycles[MDL_T_ADDRESS] = b.addr_cycles;
    tt.cycles[MDL_T_DRAM] = mdl_dram_cycles(c, b.dram_bytes);
    tt.cycles[MDL_T_SMEM] = b.smem_busy_per_sm;
    tt.cycles[MDL_T_CAS] = b.cas_cycles;
    tt.cycles[MDL_T_TAIL] = b.tail;
    double body_cycles = 0;
    tt.bound = MDL_T_DISPATCH;
    for (int i = MDL_T_DISPATCH; i <= MDL_T_CAS; i++)
        if (tt.cycles[i] > body_cycles) {
            body_cycles = tt.cycles[i];
            tt.bound = (enum mdl_term)i;
        }
    double cycles = mdl_kernel_cycles(c, body_cycles + tt.cycles[MDL_T_TAIL]);

    if (st) {
        memset(st, 0, sizeof *st);
        st->cycles = cycles;
        st->time_us = cycles / c->gpu.sm_clock_mhz;
        st->workgroups = b.workgroups;
        st->wg_per_sm = o.wg_per_sm;
        st->waves = o.waves;
        st->warp_instructions = round(b.warp_instr);
        st->atomic_instructions = round(b.atomic_instr);
        st->l2_requests = round(b.requests);
        st->l2_atomic_ops = round(b.ops);
        st->requests_per_atomic_instruction = b.atomic_instr > 0 ? b.requests / b.atomic_instr : 0;
        st->store_requests = round(b.stores);
        st->cas_attempts = round(b.cas_attempts);
        st->cas_failures = round(b.cas_failures);
        st->smem_atomic_instructions = round(b.smem_atomic_instr);
        st->smem_conflict_cycles = b.smem_conflict;
        st->busiest_slice_utilization = body_cycles > 0 ? fmin(1, tt.cycles[MDL_T_SLICE] / cycles) : 0;
    }
    if (t)
        *t = tt;
    return 0;
}

int mdl_predict(const cfg_config *cfg, const pat_params *p, atom_stats *st, char err[CFG_ERR_MAX])
{
    return mdl_predict_terms(cfg, p, st, NULL, err);
}
