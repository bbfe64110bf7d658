/* engine.c - the event loop: warp schedulers, the SMs' memory ports and
 * deferred compare-and-swaps; workgroups are workgroup.c, the
 * shared-memory unit smem.c, global memory memsys.c (engine_int.h).
 *
 * One event is one warp becoming ready to issue its next operation; the
 * event heap holds at most one entry per resident warp.  Everything is
 * allocated in sim_engine_open: the loop does no allocation, no string work
 * and no I/O. */
#include "engine_int.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* The checks a run's parameters pass against the config, and the engine's
 * sizes and the pattern's layout: everything before the first allocation
 * that grows with the run.  Returns 0, or 2 with err set (bad input). */
static int prepare(const cfg_config *cfg, const pat_params *p, sim_engine **out, sim_layout *lay, char err[CFG_ERR_MAX])
{
    *out = NULL;
    if (pat_check(p, err, CFG_ERR_MAX))
        return 2;
    if (p->wg % cfg->gpu.subgroup_size) {
        snprintf(err, CFG_ERR_MAX, "--wg %d is not a multiple of the subgroup size %d", p->wg, cfg->gpu.subgroup_size);
        return 2;
    }
    if (p->wg > cfg->gpu.max_wg_size) {
        snprintf(err, CFG_ERR_MAX, "--wg %d exceeds gpu.max_wg_size %d", p->wg, cfg->gpu.max_wg_size);
        return 2;
    }
    uint32_t smem_bytes = pat_smem_bytes(p);
    if (smem_bytes > (uint32_t)cfg->gpu.max_smem_per_wg_bytes) {
        snprintf(err, CFG_ERR_MAX, "shared memory per workgroup %u bytes exceeds gpu.max_smem_per_wg_bytes %d%s", smem_bytes,
                 cfg->gpu.max_smem_per_wg_bytes, p->pattern == PAT_HISTOGRAM_SHARED ? " (too many --bins for histogram-shared)" : "");
        return 2;
    }
    int warps_per_wg = p->wg / cfg->gpu.subgroup_size;
    int occ = cfg_wg_per_sm(cfg, p->wg, smem_bytes, NULL);
    if (occ < 1) {
        snprintf(err, CFG_ERR_MAX, "no workgroup of %d threads with %u bytes of shared memory fits on an SM", p->wg, smem_bytes);
        return 2;
    }
    sim_engine *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return 2;
    }
    e->cfg = *cfg;
    e->p = *p;
    e->pat = sim_pattern_get(p->pattern);
    e->sm_count = cfg->gpu.sm_count;
    e->wg_per_sm = occ;
    e->warps_per_wg = warps_per_wg;
    e->schedulers = cfg->gpu.schedulers_per_sm;
    e->wg_total = (p->n + (uint64_t)p->wg - 1) / (uint64_t)p->wg;
    e->nslots = e->sm_count * occ;
    e->nwarps = e->nslots * warps_per_wg;
    e->port_cap = occ * warps_per_wg;
    e->ctx.cfg = &e->cfg;
    e->ctx.p = &e->p;
    e->ctx.lanes = cfg->gpu.subgroup_size;
    e->ctx.warps_per_wg = warps_per_wg;
    e->ctx.sel_threshold = pat_threshold(p->selectivity);
    e->ctx.hot_threshold = pat_threshold(p->hot);
    e->ctx.smem_words = pat_own_smem_bytes(p) / 4;
    e->ctx.bins_mask = (p->bins & (p->bins - 1)) ? 0 : p->bins - 1;
    e->smem_words_alloc = e->ctx.smem_words ? (int)e->ctx.smem_words : 1;
    e->budget = cfg->sim.max_events;

    memset(lay, 0, sizeof *lay);
    if (e->pat->setup(&e->ctx, lay, err)) {
        free(e);
        return 2;
    }
    e->nslices = cfg->l2.slice_count;
    *out = e;
    return 0;
}

/* The glibc overhead an allocation may carry beyond its bytes: a chunk
 * header, or a page for one large enough to be mapped on its own. */
#define ENG_ALLOC_OVERHEAD (4096.0 + 64.0)

/* Every byte sim_engine_open and a run allocate, counted at their
 * allocation sites (below, memsys.c, cas_sched.c and the histograms'
 * functional check: keep them in step), each allocation with its
 * overhead: an upper bound, held to the allocator by tests/unit/
 * test_engine_memory.c. */
static double estimate(const sim_engine *e, const sim_layout *lay)
{
    double nw = e->nwarps, ns = e->nslots, sms = e->sm_count;
    int allocs = 21;
    double bytes = sizeof *e + ns * sizeof(wg_slot) + nw * (sizeof(sim_warp) + sizeof(sim_op)) +
                   nw * 5 * sizeof(double) /* warp_mem_done, bar_arrive, cas_ready, port_arrive, warp_left */ +
                   nw * (1 + 3 * sizeof(int)) /* pending; warp_slot, warp_sm, warp_sched */ +
                   sms * 2 * sizeof(int) + sms * (double)e->port_cap * sizeof(int) +
                   sms * e->schedulers * sizeof(double) + sms * 2 * sizeof(double) +
                   ns * e->smem_words_alloc * sizeof(uint32_t) + (nw + ns + e->nslices) * sizeof(event);
    bytes += mem_estimate(&e->cfg, lay, e->nwarps, &allocs);
    bytes += eng_ff_estimate(e, &allocs);
    switch (e->p.pattern) { /* sim_histogram_reference: one count a bin, during the check */
    case PAT_HISTOGRAM:
    case PAT_HISTOGRAM_SHARED:
    case PAT_HISTOGRAM_U8_CAS:
    case PAT_HISTOGRAM_U16_CAS:
        bytes += (double)e->p.bins * sizeof(uint32_t);
        allocs++;
        break;
    default:
        break;
    }
    return bytes + allocs * ENG_ALLOC_OVERHEAD;
}

int sim_engine_estimate(const cfg_config *cfg, const pat_params *p, double *bytes, char err[CFG_ERR_MAX])
{
    sim_engine *e;
    sim_layout lay;
    int rc = prepare(cfg, p, &e, &lay, err);
    if (rc)
        return rc;
    *bytes = estimate(e, &lay);
    free(e);
    return 0;
}

int sim_engine_open(const cfg_config *cfg, const pat_params *p, sim_engine **out, char err[CFG_ERR_MAX])
{
    sim_engine *e;
    sim_layout lay;
    int rc = prepare(cfg, p, &e, &lay, err);
    *out = NULL;
    if (rc)
        return rc;
    /* a budget, as sim.max_events is: the run fails (1) and names it, before
     * it allocates (n = 2^30 used to take 5.3 GB without a word) */
    double need = estimate(e, &lay), limit = cfg->sim.max_memory_mb * 1048576.0;
    if (need > limit) {
        snprintf(err, CFG_ERR_MAX,
                 "memory budget sim.max_memory_mb=%.0f exceeded: this run needs an estimated %.0f MB "
                 "(raise it with -p sim.max_memory_mb=...)",
                 cfg->sim.max_memory_mb, ceil(need / 1048576.0));
        free(e);
        return 1;
    }
    e->slots = calloc((size_t)e->nslots, sizeof *e->slots);
    e->warps = calloc((size_t)e->nwarps, sizeof *e->warps);
    e->warp_mem_done = calloc((size_t)e->nwarps, sizeof(double));
    e->bar_arrive = calloc((size_t)e->nwarps, sizeof(double));
    e->saved_ops = malloc((size_t)e->nwarps * sizeof *e->saved_ops);
    e->cas_ready = calloc((size_t)e->nwarps, sizeof(double));
    e->pending = calloc((size_t)e->nwarps, 1);
    e->port_arrive = calloc((size_t)e->nwarps, sizeof(double));
    e->port_waiting = calloc((size_t)e->sm_count, sizeof(int));
    e->port_head = calloc((size_t)e->sm_count, sizeof(int));
    e->port_fifo = calloc((size_t)e->sm_count * (size_t)e->port_cap, sizeof(int));
    e->warp_slot = malloc((size_t)e->nwarps * sizeof(int));
    e->warp_sm = malloc((size_t)e->nwarps * sizeof(int));
    e->warp_sched = malloc((size_t)e->nwarps * sizeof(int));
    for (int w = 0; e->warp_slot && e->warp_sm && e->warp_sched && w < e->nwarps; w++) {
        e->warp_slot[w] = w / e->warps_per_wg;
        e->warp_sm[w] = e->warp_slot[w] / e->wg_per_sm;
        /* warps of the SM share its schedulers by their slot on the SM */
        e->warp_sched[w] = e->warp_sm[w] * e->schedulers + (w % e->port_cap) % e->schedulers;
    }
    e->sched_free = calloc((size_t)e->sm_count * (size_t)e->schedulers, sizeof(double));
    e->warp_launch_free = calloc((size_t)e->sm_count, sizeof(double));
    e->warp_left = calloc((size_t)e->nwarps, sizeof(double));
    int occ = e->wg_per_sm;
    e->split_exit_on = cfg->launch.split_exit_cycles > 0 && occ >= cfg->launch.split_exit_min_wg_per_sm &&
                       occ <= cfg->launch.split_exit_max_wg_per_sm &&
                       (int64_t)occ * pat_smem_bytes(p) <= (int64_t)cfg->launch.split_exit_smem_max_bytes;
    e->sender_linger = 2 * cfg->xbar.latency_cycles;
    e->smem_free = calloc((size_t)e->sm_count, sizeof(double));
    e->smem = calloc((size_t)e->nslots * (size_t)e->smem_words_alloc, sizeof(uint32_t));
    /* one event per warp, one per slot waiting to take its next workgroup,
     * one per L2 slice serving deferred compare-and-swaps */
    e->nslices = cfg->l2.slice_count;
    e->slice_ev0 = e->nwarps + e->nslots;
    e->heap = calloc((size_t)e->nwarps + (size_t)e->nslots + (size_t)e->nslices, sizeof *e->heap);
    if (!e->slots || !e->warps || !e->warp_mem_done || !e->bar_arrive || !e->saved_ops || !e->cas_ready || !e->pending || !e->port_arrive ||
        !e->port_waiting || !e->port_head || !e->port_fifo || !e->warp_slot || !e->warp_sm || !e->warp_sched || !e->sched_free ||
        !e->warp_launch_free || !e->warp_left || !e->smem_free || !e->smem || !e->heap) {
        sim_engine_close(e);
        snprintf(err, CFG_ERR_MAX, "out of memory for %d resident warps", e->nwarps);
        return 2;
    }
    rc = mem_open(&e->cfg, &lay, e->nwarps, p->seed, &e->mem, err);
    if (rc) {
        sim_engine_close(e);
        return rc;
    }
    e->cas_deferred = mem_cas_deferred(e->mem);
    if (!eng_ff_open(e)) {
        sim_engine_close(e);
        snprintf(err, CFG_ERR_MAX, "out of memory for the fast-forward's counters");
        return 2;
    }
    *out = e;
    return 0;
}

void sim_engine_close(sim_engine *e)
{
    if (!e)
        return;
    mem_close(e->mem);
    eng_ff_close(e);
    free(e->slots);
    free(e->warps);
    free(e->warp_mem_done);
    free(e->bar_arrive);
    free(e->saved_ops);
    free(e->cas_ready);
    free(e->pending);
    free(e->port_arrive);
    free(e->port_waiting);
    free(e->port_head);
    free(e->port_fifo);
    free(e->warp_slot);
    free(e->warp_sm);
    free(e->warp_sched);
    free(e->sched_free);
    free(e->warp_launch_free);
    free(e->warp_left);
    free(e->smem_free);
    free(e->smem);
    free(e->heap);
    free(e);
}

const char *sim_engine_error(const sim_engine *e)
{
    return e->err;
}

/* FIFO of warps waiting behind the head for an SM's memory port; at most
 * every resident warp of the SM, so the ring never overflows. */
static void port_enqueue(sim_engine *e, int sm, int w)
{
    int tail = (e->port_head[sm] + e->port_waiting[sm] - 2) % e->port_cap;
    e->port_fifo[sm * e->port_cap + tail] = w;
}

static int port_dequeue(sim_engine *e, int sm)
{
    int w = e->port_fifo[sm * e->port_cap + e->port_head[sm]];
    e->port_head[sm] = (e->port_head[sm] + 1) % e->port_cap;
    return w;
}

/* Copies an op for its replay: the header and only the lanes up to the
 * highest one in its mask (a full copy was 15% of a histogram's run). */
static void op_save(sim_op *dst, const sim_op *src)
{
    size_t lanes = src->mask ? (size_t)(64 - __builtin_clzll(src->mask)) : 0;
    memcpy(dst, src, offsetof(sim_op, index));
    memcpy(dst->index, src->index, lanes * sizeof src->index[0]);
    memcpy(dst->operand, src->operand, lanes * sizeof src->operand[0]);
    memcpy(dst->compare, src->compare, lanes * sizeof src->compare[0]);
}

/* Sends warp w's deferred atomic and schedules the slices that were idle.
 * Returns 1 when the warp now waits for replies (cas_served wakes it). */
static int cas_send(sim_engine *e, int w, int sm, double st, const sim_op *op, int replay, double *sent)
{
    if (!replay) { /* the slices read the op until its last reply */
        op_save(&e->saved_ops[w], op);
        op = &e->saved_ops[w];
    }
    int slices[SIM_MAX_LANES], nwake;
    double when[SIM_MAX_LANES];
    int nreq = mem_cas_send(e->mem, w, sm, st, op, e->warps[w].ret, sent, slices, when, &nwake);
    for (int k = 0; k < nwake; k++)
        heap_push(e, when[k], (uint32_t)(e->slice_ev0 + slices[k]));
    return nreq > 0;
}

/* Slice s's service event: waiting requests served; their warps go on
 * once their last replies are back. */
static void cas_served(sim_engine *e, int s, double t)
{
    int woken[SIM_MAX_LANES], nwoken;
    double replies[SIM_MAX_LANES];
    double next = mem_cas_serve(e->mem, s, t, woken, replies, &nwoken);
    if (next >= 0)
        heap_push(e, next > t ? next : t, (uint32_t)(e->slice_ev0 + s));
    for (int k = 0; k < nwoken; k++) {
        int w = woken[k];
        double reply = replies[k];
        if (reply > e->end_mem)
            e->end_mem = reply;
        if (e->cfg.launch.retire_waits_for_acks)
            slot_ack(e, w, reply);
        double ready = e->cas_ready[w];
        if (reply > ready) {
            e->st.stall_memory_cycles += reply - ready;
            ready = reply;
        }
        warp_resume(e, w, ready, e->saved_ops[w].last);
    }
}

int sim_engine_run(sim_engine *e, atom_stats *out)
{
    const cfg_config *c = &e->cfg;
    double alu_lat = c->core.alu_latency_cycles;
    int waits_acks = c->launch.retire_waits_for_acks;
    double t0 = c->launch.kernel_overhead_cycles;
    memset(&e->st, 0, sizeof e->st);
    /* Workgroups run from dispatch_lead_cycles before the launch floor ends
     * (docs/findings.md 47); the floor still bounds the kernel from below,
     * since both ends start at it. */
    e->dispatcher_free = t0 - c->launch.dispatch_lead_cycles;
    e->split_share = 0;
    e->end_warps = t0;
    e->end_mem = t0;
    e->wg_end = e->wg_total;
    eng_ff_start(e);
    /* first wave: workgroups spread across SMs before any SM gets a second */
    for (int j = 0; j < e->wg_per_sm && e->next_wg < e->wg_end; j++)
        for (int sm = 0; sm < e->sm_count && e->next_wg < e->wg_end; sm++)
            eng_launch_wg(e, sm * e->wg_per_sm + j, t0 - c->launch.dispatch_lead_cycles);

    while (e->heap_n) {
        event ev = heap_pop(e);
        if (e->heap_n) { /* the next event's warp is cold in cache by then: fetch it now */
            uint32_t nw = (uint32_t)e->heap[0].order;
            if (nw >= (uint32_t)e->nwarps) /* a slot event: nothing to fetch */
                nw = 0;
            __builtin_prefetch(&e->warps[nw]);
            __builtin_prefetch(e->pending[nw] ? (const void *)&e->saved_ops[nw] : (const void *)&e->warps[nw].v[0]);
        }
        if (++e->events > e->budget) {
            snprintf(e->err, sizeof e->err, "event budget sim.max_events=%.0f exceeded (raise it with -p sim.max_events=...)",
                     e->budget);
            return 1;
        }
        if (e->events >= e->ff_next_check) /* never, unless the pattern can be fast-forwarded */
            eng_ff_checkpoint(e, ev.t);
        int w = (int)(uint32_t)ev.order;
        if (w >= e->slice_ev0) { /* a slice serves a waiting compare-and-swap */
            cas_served(e, w - e->slice_ev0, ev.t);
            continue;
        }
        if (w >= e->nwarps) { /* a slot is free: its next workgroup, if any is left */
            if (e->next_wg < e->wg_end)
                eng_launch_wg(e, w - e->nwarps, ev.t);
            continue;
        }
        int sm = e->warp_sm[w];
        sim_warp *wp = &e->warps[w];
        double t = ev.t;
        double *sched = &e->sched_free[e->warp_sched[w]];
        double ready, st, sent, done;
        int deferred;

        int replay = e->pending[w];
        sim_op *op = &e->op;
        if (replay) { /* the memory op that waited for the port, read in place */
            e->pending[w] = 0;
            op = &e->saved_ops[w];
        } else {
            op->mask = 0;
            op->instructions = 0;
            op->last = 0;
            op->repeat = 0;
            op->until_nonzero = 0;
            op->uniform_address = 0;
            e->pat->step(&e->ctx, wp, op);
        }
        switch (op->kind) {
        case SIM_OP_ALU: {
            double n = op->instructions;
            st = t > *sched ? t : *sched;
            *sched = st + n;
            ready = st + n > t + n * alu_lat ? st + n : t + n * alu_lat;
            e->st.stall_issue_cycles += st - t;
            e->st.warp_instructions += n;
            break;
        }
        case SIM_OP_GATOMIC:
        case SIM_OP_GSTORE:
            if (!replay && (mem_port_free(e->mem, sm) > t || e->port_waiting[sm])) {
                /* the SM's memory port is busy: wait in its FIFO, one event
                 * per waiting warp (the head is in the heap, the rest here) */
                op_save(&e->saved_ops[w], op);
                e->pending[w] = 1;
                e->port_arrive[w] = t;
                if (e->port_waiting[sm]++ == 0)
                    heap_push(e, mem_port_free(e->mem, sm), (uint32_t)w);
                else
                    port_enqueue(e, sm, w);
                continue;
            }
            if (replay)
                e->st.stall_backpressure_cycles += t - e->port_arrive[w];
            st = t > *sched ? t : *sched;
            *sched = st + 1;
            e->st.stall_issue_cycles += st - t;
            e->st.warp_instructions += 1;
            deferred = op->kind == SIM_OP_GATOMIC && e->cas_deferred;
            if (deferred) {
                deferred = cas_send(e, w, sm, st, op, replay, &sent);
                done = sent; /* the replies, if any, come with cas_served */
            } else {
                if (op->kind == SIM_OP_GATOMIC)
                    done = mem_atomic(e->mem, sm, st, op, wp->ret, &sent);
                else
                    done = mem_store(e->mem, sm, st, op, &sent);
                if (done > e->end_mem)
                    e->end_mem = done;
                /* an atomic's reply is back at the SM at `done`; a store's
                 * acknowledgement leaves the slice then */
                if (waits_acks)
                    slot_ack(e, w, op->kind == SIM_OP_GATOMIC ? done : done + c->xbar.latency_cycles);
            }
            if (replay && --e->port_waiting[sm] > 0) {
                double when = mem_port_free(e->mem, sm);
                heap_push(e, when > t ? when : t, (uint32_t)port_dequeue(e, sm));
            }
            if (e->split_exit_on && sent + e->sender_linger > e->warp_left[w])
                e->warp_left[w] = sent + e->sender_linger;
            e->st.stall_backpressure_cycles += sent - st;
            ready = sent + 1;
            if (deferred) { /* the slices wake the warp with its last reply */
                e->cas_ready[w] = ready;
                continue;
            }
            if (op->result_used && done > ready) {
                e->st.stall_memory_cycles += done - ready;
                ready = done;
            }
            break;
        case SIM_OP_SATOMIC:
        case SIM_OP_SLOAD:
        case SIM_OP_SSTORE:
            ready = eng_smem_issue(e, w, t, op);
            break;
        case SIM_OP_BARRIER:
            e->st.warp_instructions += 1;
            eng_barrier_arrive(e, w, t);
            continue;
        case SIM_OP_EXIT:
        default:
            e->st.warp_instructions += 1;
            eng_warp_exit(e, w, t);
            continue;
        }
        warp_resume(e, w, ready, op->last);
    }

    double cycles = (e->end_warps > e->end_mem ? e->end_warps : e->end_mem) + e->ff_offset_cycles;
    eng_ff_finish(e, &e->st);
    e->st.cycles = cycles;
    e->st.time_us = cycles / c->gpu.sm_clock_mhz;
    e->st.workgroups = (double)e->wg_total;
    e->st.wg_per_sm = e->wg_per_sm;
    e->st.waves = (double)e->wg_total / e->nslots;
    e->st.events = e->events;
    mem_stats(e->mem, cycles, &e->st);

    sim_memview view;
    mem_view(e->mem, &view);
    if (e->pat->check(&e->ctx, &view, e->err)) {
        char msg[CFG_ERR_MAX];
        snprintf(msg, sizeof msg, "%s: functional check failed: %s", pat_name(e->p.pattern), e->err);
        snprintf(e->err, sizeof e->err, "%s", msg);
        return 1;
    }
    *out = e->st;
    return 0;
}

int sim_run(const cfg_config *cfg, const pat_params *p, atom_stats *st, char err[CFG_ERR_MAX])
{
    sim_engine *e;
    int rc = sim_engine_open(cfg, p, &e, err);
    if (rc)
        return rc;
    rc = sim_engine_run(e, st);
    if (rc)
        snprintf(err, CFG_ERR_MAX, "%s", sim_engine_error(e));
    sim_engine_close(e);
    return rc;
}
