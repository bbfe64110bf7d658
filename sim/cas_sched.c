/* cas_sched.c - compare-and-swaps resolved when served, under
 * l2.cas_service = random or class: a compare-and-swap pattern's atomics
 * wait at their slice, in per-source input queues, and are resolved in
 * the order the slice serves them (one engine event per request served),
 * an order no pass at issue time can know. */
#include "memsys_int.h"

#include <stdlib.h>

/* The waiting rooms, for nwarps resident warps: only for a pattern that
 * issues compare-and-swaps under l2.cas_service = random or class. */
/* Requests one warp's compare-and-swap may have waiting: one a line of
 * the largest atomic buffer, at most one a lane. */
static int req_per_warp(const cfg_config *cfg, const sim_layout *lay)
{
    uint64_t lines = 1, line_bytes = (uint64_t)cfg->coalesce.line_bytes;
    for (int b = 0; b < lay->count; b++)
        if (lay->buf[b].atomic) {
            uint64_t bytes = (lay->buf[b].words ? lay->buf[b].words : 1) * 4ull * (lay->buf[b].stride_words ? lay->buf[b].stride_words : 1);
            uint64_t l = (bytes + line_bytes - 1) / line_bytes;
            if (l > lines)
                lines = l;
        }
    int lanes = cfg->gpu.subgroup_size < SIM_MAX_LANES ? cfg->gpu.subgroup_size : SIM_MAX_LANES;
    return lines < (uint64_t)lanes ? (int)lines : lanes;
}

double ms_cas_estimate(const cfg_config *cfg, const sim_layout *lay, int nwarps, int *allocs)
{
    size_t per = (size_t)cfg->l2.cas_sources, nslices = (size_t)cfg->l2.slice_count;
    double pool = (double)nwarps * req_per_warp(cfg, lay);
    double bytes = pool * sizeof(cas_req) +
                   (double)nwarps * (sizeof(int) + sizeof(const sim_op *) + sizeof(uint32_t *) + sizeof(double)) +
                   (double)nslices * per * 4 * sizeof(int);
    *allocs += 6;
    if (cfg->l2.cas_service == CFG_CAS_CLASS) {
        bytes += (double)nslices * per;
        *allocs += 1;
    }
    return bytes;
}

int ms_cas_open(mem_sys *m, const sim_layout *lay, int nwarps, uint64_t seed)
{
    m->cas_random = 1;
    m->req_per_warp = req_per_warp(m->cfg, lay);
    size_t pool = (size_t)nwarps * (size_t)m->req_per_warp;
    m->nsources = m->cfg->l2.cas_sources; /* at most sm_count (cfg_validate) */
    size_t per = (size_t)m->nsources;
    m->req = calloc(pool, sizeof *m->req);
    m->cas_left = calloc((size_t)nwarps, sizeof *m->cas_left);
    m->cas_op = calloc((size_t)nwarps, sizeof *m->cas_op);
    m->cas_ret = calloc((size_t)nwarps, sizeof *m->cas_ret);
    m->cas_reply = calloc((size_t)nwarps, sizeof *m->cas_reply);
    m->queues = malloc((size_t)m->nslices * per * 4 * sizeof *m->queues);
    int ok = m->req && m->cas_left && m->cas_op && m->cas_ret && m->cas_reply && m->queues;
    for (int s = 0; ok && s < m->nslices; s++) {
        slice *sl = &m->slices[s];
        sl->xbar_head = sl->xbar_tail = -1;
        sl->qhead = m->queues + (size_t)s * per * 4;
        sl->qtail = sl->qhead + per;
        sl->qpos = sl->qtail + per;
        sl->ready_q = sl->qpos + per;
        for (int q = 0; q < m->nsources; q++)
            sl->qhead[q] = sl->qtail[q] = sl->qpos[q] = -1;
    }
    m->rng = (seed + 1) * 0x9e3779b97f4a7c15ull;
    if (ok && m->cfg->l2.cas_service == CFG_CAS_CLASS) {
        /* where a source sits relative to a slice is fixed by the chip, not
         * the run: a hash of the pair, independent of the seed */
        m->qclass = malloc((size_t)m->nslices * per);
        ok = m->qclass != NULL;
        for (int s = 0; ok && s < m->nslices; s++)
            for (int q = 0; q < m->nsources; q++) {
                uint64_t x = ((uint64_t)s << 32 | (uint32_t)q) * 0x9e3779b97f4a7c15ull;
                x ^= x >> 29;
                x *= 0xbf58476d1ce4e5b9ull;
                x ^= x >> 32;
                m->qclass[(size_t)s * per + q] = (uint8_t)(x % (uint64_t)m->cfg->l2.cas_classes);
            }
    }
    return ok;
}

int mem_cas_deferred(const mem_sys *m)
{
    return m->cas_random;
}

int mem_cas_send(mem_sys *m, int w, int sm, double t, const sim_op *op, uint32_t *ret, double *sent, int *wake_slice,
                 double *wake_t, int *nwake)
{
    int ngroups, aggregated;
    int merge = merge_of(m, op, &aggregated);
    int nreq = ms_coalesce(m, op, &ngroups);
    double port = m->lsu + (op->result_used ? m->lsu_ret : 0);
    m->atomic_instructions++;
    m->l2_requests += nreq;
    *nwake = 0;
    if (nreq > m->req_per_warp) /* cannot happen: a request is a line of the buffer, one per lane at most */
        nreq = m->req_per_warp;
    for (int r = 0; r < nreq; r++) {
        int s = slice_of(m, m->req_line[r]);
        slice *sl = &m->slices[s];
        /* the port as in send_request; the waiting room has no bound, so a
         * full queue holds nothing here */
        double base = m->port_free[sm] > t ? m->port_free[sm] : t;
        m->port_free[sm] = base + port;
        uint64_t lanes = 0;
        int req_ops, chain;
        int passes = ms_request_passes(m, r, merge, &req_ops, &chain);
        for (int o = m->req_first[r]; o >= 0; o = m->op_next[o])
            for (int lane = m->op_first[o]; lane >= 0; lane = m->op_next_lane[lane])
                lanes |= 1ull << lane;
        m->l2_ops += req_ops;
        int id = w * m->req_per_warp + r;
        cas_req *q = &m->req[id];
        q->lanes = lanes;
        q->line = m->req_line[r];
        q->arrival = ms_cross_halves(m, sm, q->line, t, t + m->xbar, port);
        q->busy = passes * (op->atomic == SIM_ATOMIC_CAS ? m->cas_issue : m->issue);
        q->warp = w;
        q->lane_chain = merge && !aggregated && m->merged_lane > 0;
        /* SMs feed a slice through nsources queues, contiguous groups of
         * SMs each (as SMs sit in GPCs) */
        q->src = (int)((int64_t)sm * m->nsources / m->cfg->gpu.sm_count);
        q->next = -1;
        if (sl->xbar_tail >= 0)
            m->req[sl->xbar_tail].next = id;
        else
            sl->xbar_head = id;
        sl->xbar_tail = id;
        if (!sl->scheduled) {
            sl->scheduled = 1;
            wake_slice[*nwake] = s;
            wake_t[(*nwake)++] = q->arrival;
        }
    }
    m->cas_left[w] = nreq;
    m->cas_op[w] = op;
    m->cas_ret[w] = ret;
    m->cas_reply[w] = t;
    *sent = m->port_free[sm] > t ? m->port_free[sm] : t;
    return nreq;
}

/* Into its input queue's FIFO; a queue that was empty joins ready_q. */
static void wait_push(mem_sys *m, slice *sl, int id)
{
    int q = m->req[id].src;
    m->req[id].next = -1;
    if (sl->qtail[q] >= 0)
        m->req[sl->qtail[q]].next = id;
    else {
        sl->qhead[q] = id;
        sl->qpos[q] = sl->nready;
        sl->ready_q[sl->nready++] = q;
    }
    sl->qtail[q] = id;
    sl->nwait++;
}

/* The head of the i-th non-empty input queue; an emptied queue leaves
 * ready_q (the last one moves into its place). */
static int wait_take(mem_sys *m, slice *sl, int i)
{
    int q = sl->ready_q[i];
    int id = sl->qhead[q];
    sl->qhead[q] = m->req[id].next;
    if (sl->qhead[q] < 0) {
        sl->qtail[q] = -1;
        int last = sl->ready_q[--sl->nready];
        sl->ready_q[i] = last;
        sl->qpos[last] = i;
        sl->qpos[q] = -1;
    }
    sl->nwait--;
    return id;
}

/* xorshift64*: uniform in [0, n) */
static uint32_t rng_below(mem_sys *m, uint32_t n)
{
    m->rng ^= m->rng >> 12;
    m->rng ^= m->rng << 25;
    m->rng ^= m->rng >> 27;
    uint64_t x = m->rng * 0x2545f4914f6cdd1dull;
    return (uint32_t)(((x >> 32) * (uint64_t)n) >> 32);
}

/* l2.cas_service = class: the non-empty input queue of the best class at
 * slice sl, the oldest head among equals (its index in ready_q). A scan of
 * the non-empty queues, at most l2.cas_sources. */
static int best_class(const mem_sys *m, const slice *sl)
{
    const uint8_t *cls = m->qclass + (size_t)(sl - m->slices) * (size_t)m->nsources;
    int best = 0;
    for (int i = 1; i < sl->nready; i++) {
        int a = sl->ready_q[i], b = sl->ready_q[best];
        if (cls[a] < cls[b] ||
            (cls[a] == cls[b] && m->req[sl->qhead[a]].arrival < m->req[sl->qhead[b]].arrival))
            best = i;
    }
    return best;
}

/* Serves one waiting request of slice sl at cycle t (its unit is free).
 * Returns its warp if that was the warp's last outstanding request, else -1. */
static int serve_one(mem_sys *m, slice *sl, double t)
{
    if (sl->nwait > sl->depth_max)
        sl->depth_max = sl->nwait;
    /* random: any input queue that holds a request, uniformly; class: the
     * best class's; either way that queue's oldest request */
    int pick = m->qclass ? best_class(m, sl) : (int)rng_below(m, (uint32_t)sl->nready);
    cas_req *q = &m->req[wait_take(m, sl, pick)];
    const sim_op *op = m->cas_op[q->warp];
    uint32_t *ret = m->cas_ret[q->warp];
    buffer *bf = &m->buf[op->buffer];
    double wait = t;
    for (uint64_t mask = q->lanes; mask; mask &= mask - 1) {
        double r = bf->ready[op->index[__builtin_ctzll(mask)]];
        if (r > wait)
            wait = r;
    }
    uint32_t sectors = 0;
    for (uint64_t mask = q->lanes; mask; mask &= mask - 1) {
        uint64_t byte = (uint64_t)op->index[__builtin_ctzll(mask)] * bf->stride_bytes;
        sectors |= 1u << ((byte & (uint64_t)(m->line_bytes - 1)) >> 5);
    }
    double base = line_miss(m, q->line, sectors) ? dram_slot(m, t, m->line_bytes) + m->dram_lat : t;
    /* resolved now, in lane order: same-word lanes of one request are one
     * merged op whose first lane can win */
    int cas = op->atomic == SIM_ATOMIC_CAS;
    for (uint64_t mask = q->lanes; mask; mask &= mask - 1) {
        int lane = __builtin_ctzll(mask);
        uint32_t *wd = &bf->words[op->index[lane]];
        uint32_t old = *wd;
        ret[lane] = old;
        if (!cas)
            *wd = op->atomic == SIM_ATOMIC_OR ? old | op->operand[lane] : old + op->operand[lane];
        else if (m->cas_attempts++, old == op->compare[lane])
            *wd = op->operand[lane];
        else
            m->cas_failures++;
    }
    double end = (base > wait ? base : wait) + q->busy;
    double next = end - (cas ? m->cas_issue : m->issue) + m->same_addr;
    if (q->lane_chain) {
        /* next + (lanes on the word - 1) x merged_lane, without grouping */
        for (uint64_t mask = q->lanes; mask; mask &= mask - 1)
            bf->ready[op->index[__builtin_ctzll(mask)]] = next - m->merged_lane;
        for (uint64_t mask = q->lanes; mask; mask &= mask - 1)
            bf->ready[op->index[__builtin_ctzll(mask)]] += m->merged_lane;
    } else
        for (uint64_t mask = q->lanes; mask; mask &= mask - 1)
            bf->ready[op->index[__builtin_ctzll(mask)]] = next;
    /* the request is resolved as it executes, so the unit holds it until
     * its words are ready, whatever l2.hol_blocking says: serving another
     * request meanwhile would resolve the two out of their execution order */
    sl->free = wait + q->busy;
    slice_account(sl, q->arrival, t, end);
    double back = end + m->atom_lat + m->xbar;
    int w = q->warp;
    /* every CAS returns its old value: its replies enter the SM apart, as
     * in mem_atomic (cas_reply[w] starts at the issue time, so the first
     * reply is never held back) */
    if (back < m->cas_reply[w] + m->reply_gap)
        back = m->cas_reply[w] + m->reply_gap;
    if (back > m->cas_reply[w])
        m->cas_reply[w] = back;
    return --m->cas_left[w] == 0 ? w : -1;
}

double mem_cas_serve(mem_sys *m, int s, double t, int *warps, double *replies, int *nwoken)
{
    slice *sl = &m->slices[s];
    /* A request sent from now on arrives a crossbar latency later at the
     * earliest, so every request that arrives before t + xbar is already in
     * the crossbar: the slice can serve up to then in this one event. */
    double horizon = t + m->xbar, now = t;
    *nwoken = 0;
    for (;;) {
        while (sl->xbar_head >= 0 && m->req[sl->xbar_head].arrival <= now) {
            int id = sl->xbar_head;
            sl->xbar_head = m->req[id].next;
            wait_push(m, sl, id);
        }
        if (sl->xbar_head < 0)
            sl->xbar_tail = -1;
        double next;
        if (!sl->nwait) {
            if (sl->xbar_head < 0) {
                sl->scheduled = 0;
                return -1;
            }
            next = m->req[sl->xbar_head].arrival;
        } else if (sl->free > now) /* the unit is still busy */
            next = sl->free;
        else {
            int w = serve_one(m, sl, now);
            if (w >= 0) {
                warps[*nwoken] = w;
                replies[(*nwoken)++] = m->cas_reply[w];
            }
            next = sl->free;
            if (*nwoken == SIM_MAX_LANES)
                return next;
        }
        if (next >= horizon)
            return next;
        now = next;
    }
}

