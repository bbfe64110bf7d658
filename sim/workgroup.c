/* workgroup.c - a workgroup's life on its slot: launch (dispatcher pace,
 * warps started apart), barriers, and exits, with the split-exit cost and
 * the slot's retirement (acknowledgements, retire cycles). */
#include "engine_int.h"

#include <string.h>

void eng_launch_wg(sim_engine *e, int slot, double t)
{
    double start = t > e->dispatcher_free ? t : e->dispatcher_free;
    e->dispatcher_free = start + e->cfg.launch.wg_dispatch_cycles;
    wg_slot *s = &e->slots[slot];
    s->wg = e->next_wg++;
    s->warps_left = e->warps_per_wg;
    s->bar_count = 0;
    s->bar_time = 0;
    s->ack_time = start;
    s->bar_release = -1e300;
    uint32_t *sm = &e->smem[(size_t)slot * (size_t)e->smem_words_alloc];
    memset(sm, 0, (size_t)e->smem_words_alloc * sizeof *sm); /* real hardware leaves garbage; patterns zero it */
    int lanes = e->ctx.lanes;
    double launch_gap = e->cfg.launch.warp_launch_cycles;
    for (int k = 0; k < e->warps_per_wg; k++) {
        int w = slot * e->warps_per_wg + k;
        sim_warp *wp = &e->warps[w];
        wp->wg = (uint32_t)s->wg;
        wp->warp_in_wg = (uint32_t)k;
        wp->first_thread = s->wg * (uint64_t)e->p.wg + (uint64_t)k * (uint64_t)lanes;
        uint64_t left = e->p.n > wp->first_thread ? e->p.n - wp->first_thread : 0;
        wp->valid = left >= (uint64_t)lanes ? (lanes == 64 ? ~0ull : (1ull << lanes) - 1) : (1ull << left) - 1;
        wp->pc = 0;
        wp->iter = 0;
        wp->active = 0;
        double ws = start;
        if (launch_gap > 0) { /* H100, one workgroup per SM: 3.2 cycles more life per warp */
            double *lf = &e->warp_launch_free[e->warp_sm[w]];
            if (*lf > ws)
                ws = *lf;
            *lf = ws + launch_gap;
        }
        e->warp_mem_done[w] = ws;
        e->warp_left[w] = 0;
        e->pat->start(&e->ctx, wp);
        heap_push(e, ws, (uint32_t)w);
    }
}

/* H100 (docs/findings.md, section 28, split exits): a workgroup whose
 * warps exit at different times slows the whole dispatch in proportion to
 * the warps that left early; a barrier before exit removes the cost and a
 * fence that holds senders back enlarges it.  Modelled as global dispatcher
 * time, since the excess grows with the number of workgroups, not with any
 * one workgroup's life.  Once per workgroup, at its last warp's exit. */
static void split_exits(sim_engine *e, int slot, double now)
{
    const cfg_launch *l = &e->cfg.launch;
    double t_last = now;
    int early = 0;
    double *left = &e->warp_left[slot * e->warps_per_wg];
    for (int k = 0; k < e->warps_per_wg; k++)
        if (left[k] > t_last)
            t_last = left[k];
    /* warps a barrier released together leave together: on the H100 a
     * barrier just before exit removes the cost, senders and all */
    double together = e->slots[slot].bar_release + l->split_exit_window_cycles;
    for (int k = 0; k < e->warps_per_wg; k++)
        if (left[k] < t_last - l->split_exit_window_cycles && left[k] > together)
            early++;
    /* a split costs more the more of the recent workgroups split too: per
     * early warp, 0.00-0.04 cycles where 12% of workgroups hold a sender,
     * 0.07 at 40%, 0.09-0.12 from 92% on (h100-hump-n-sweep.csv) */
    double scale = 1;
    if (l->split_exit_share_wgs > 0) {
        e->split_share += ((early ? 1.0 : 0.0) - e->split_share) / l->split_exit_share_wgs;
        scale = e->split_share;
    }
    if (!early)
        return;
    e->st.split_exit_warps += early;
    /* charged from now: a sender's linger must not book the dispatcher ahead */
    double start = now > e->dispatcher_free ? now : e->dispatcher_free;
    e->dispatcher_free = start + early * l->split_exit_cycles * scale;
}

void eng_warp_exit(sim_engine *e, int w, double t)
{
    int slot = w / e->warps_per_wg;
    wg_slot *s = &e->slots[slot];
    double te = t + e->cfg.core.exit_cycles;
    if (te > e->end_warps)
        e->end_warps = te;
    if (e->split_exit_on) {
        if (te > e->warp_left[w])
            e->warp_left[w] = te;
        if (s->warps_left == 1)
            split_exits(e, slot, te);
    }
    if (--s->warps_left == 0 && e->next_wg < e->wg_end) {
        /* H100, one workgroup per SM: a store adds about 190 cycles to a
         * workgroup's life and an atomic about 340, the round trip to L2,
         * though neither returns a value the warps wait for */
        double free_at = s->ack_time > te ? s->ack_time : te; /* ack_time stays at the start unless waited for */
        /* the slot asks the dispatcher for work when it frees, not now: slots
         * freeing out of order (some waiting for acks) must be served in
         * time order, not in the order their last warps exited */
        heap_push(e, free_at + e->cfg.launch.wg_retire_cycles, (uint32_t)(e->nwarps + slot));
    }
}

void eng_barrier_arrive(sim_engine *e, int w, double t)
{
    int slot = w / e->warps_per_wg;
    wg_slot *s = &e->slots[slot];
    double ready = t > e->warp_mem_done[w] ? t : e->warp_mem_done[w];
    e->bar_arrive[w] = t;
    if (ready > s->bar_time)
        s->bar_time = ready;
    if (++s->bar_count < e->warps_per_wg)
        return;
    double release = s->bar_time + e->cfg.core.barrier_cycles;
    s->bar_count = 0;
    s->bar_time = 0;
    s->bar_release = release;
    for (int k = 0; k < e->warps_per_wg; k++) {
        int wk = slot * e->warps_per_wg + k;
        e->st.stall_barrier_cycles += release - e->bar_arrive[wk];
        heap_push(e, release, (uint32_t)wk);
    }
}

