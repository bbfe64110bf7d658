/* memsys.c - the memory system's life and its request path: opening
 * (buffers, slices, L2 tags), atomics and stores resolved when the warp
 * issues them, and the statistics.  Its other parts: memsys_int.h.
 *
 * Requests are resolved when the warp issues them, in event order.  With a
 * constant crossbar latency that is also their arrival order at the slices,
 * so one pass computes each request's admission (bounded queue), its service
 * start (atomic unit issue rate), each op's start (read-modify-write
 * dependency on its address) and its reply, with no per-request events.
 * The exception is l2.cas_service = random or class (cas_sched.c).
 * Everything is allocated at open; nothing here allocates per request. */
#include "memsys_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mem_open(const cfg_config *cfg, const sim_layout *lay, int nwarps, uint64_t seed, mem_sys **out,
             char err[CFG_ERR_MAX])
{
    mem_sys *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, CFG_ERR_MAX, "out of memory for the memory system");
        return 2;
    }
    m->cfg = cfg;
    m->nslices = cfg->l2.slice_count;
    m->qdepth = cfg->l2.queue_depth_requests;
    m->line_shift = __builtin_ctz((unsigned)cfg->coalesce.line_bytes);
    m->line_bytes = cfg->coalesce.line_bytes;
    m->xbar = cfg->xbar.latency_cycles;
    m->lsu = cfg->coalesce.lsu_cycles_per_request;
    m->lsu_ret = cfg->coalesce.lsu_return_cycles_per_request;
    m->issue = cfg->l2.atomic_issue_cycles;
    m->cas_issue = cfg->l2.cas_issue_cycles > 0 ? cfg->l2.cas_issue_cycles : m->issue;
    m->same_addr = cfg->l2.same_address_cycles;
    m->word_chain = cfg->l2.word_chain_cycles;
    m->atom_lat = cfg->l2.atomic_latency_cycles;
    m->reply_gap = cfg->coalesce.reply_cycles_per_request;
    m->store_issue = cfg->l2.store_issue_cycles;
    m->dram_lat = cfg->dram.latency_cycles;
    m->dram_bpc = cfg_dram_bytes_per_cycle(cfg);
    m->merge_rule = cfg->coalesce.merge_rule;
    m->merge_cas = cfg->coalesce.merge_cas;
    m->compiler_agg = cfg->coalesce.compiler_aggregation;
    m->interleave = cfg->l2.interleave_lines;
    int ignore = cfg->l2.hash_ignore_mask;
    m->squeeze_bits = ignore ? 32 - __builtin_clz((unsigned)ignore) : 0;
    m->squeeze_drop = __builtin_popcount((unsigned)ignore);
    for (uint32_t v = 0; v < (1u << m->squeeze_bits); v++) {
        uint32_t packed = 0, pos = 0;
        for (int b = 0; b < m->squeeze_bits; b++)
            if (!(ignore >> b & 1))
                packed |= (v >> b & 1u) << pos++;
        m->squeeze[v] = (uint16_t)packed;
    }
    m->merged_lane = cfg->l2.merged_lane_cycles;
    m->hol = cfg->l2.hol_blocking;
    m->hold_all = cfg->l2.full_queue_holds == CFG_HOLD_ALL;
    m->hash = cfg->l2.slice_hash;
    m->part_shift = cfg->l2.partition_block_lines > 0 && cfg->l2.partition_link_requests_per_cycle > 0
                        ? __builtin_ctz((unsigned)cfg->l2.partition_block_lines)
                        : -1;
    m->link_cycles = m->part_shift >= 0 ? 1.0 / cfg->l2.partition_link_requests_per_cycle : 0;
    m->link_queue = cfg->l2.partition_link_queue_requests;
    if ((double)m->nslices * m->qdepth > 64e6) {
        snprintf(err, CFG_ERR_MAX, "l2.slice_count x l2.queue_depth_requests = %.0f queue entries is too many (max 6.4e7)",
                 (double)m->nslices * m->qdepth);
        free(m);
        return 2;
    }
    m->slices = calloc((size_t)m->nslices, sizeof *m->slices);
    m->port_free = calloc((size_t)cfg->gpu.sm_count, sizeof *m->port_free);
    int ok = m->slices && m->port_free && l2_tags_open(&m->tags, (uint64_t)(cfg->l2.size_bytes / cfg->coalesce.line_bytes)) == 0;
    for (int s = 0; ok && s < m->nslices; s++)
        ok = (m->slices[s].ring = calloc((size_t)m->qdepth, sizeof(double))) != NULL;
    /* Buffers sit on separate 1 MiB-aligned ranges, as allocations would. */
    uint64_t next_byte = 1ull << 20;
    m->nbuf = lay->count;
    for (int b = 0; ok && b < lay->count; b++) {
        buffer *bf = &m->buf[b];
        uint64_t words = lay->buf[b].words ? lay->buf[b].words : 1;
        bf->words_n = words;
        bf->stride_bytes = 4u * (lay->buf[b].stride_words ? lay->buf[b].stride_words : 1);
        bf->base_line = next_byte >> m->line_shift;
        next_byte += (words * bf->stride_bytes + (1ull << 20)) & ~((1ull << 20) - 1);
        bf->words = calloc(words, sizeof *bf->words);
        bf->stores = calloc(words, 1);
        ok = bf->words && bf->stores;
        if (ok && lay->buf[b].atomic)
            ok = (bf->ready = calloc(words, sizeof *bf->ready)) != NULL;
    }
    /* H100 bitmask, one workgroup per SM: its atomics lengthen a
     * workgroup's life by an L2 round trip, not a DRAM one; the harness's
     * clear left the 2 MiB target in L2.  Lines past capacity evict the
     * first ones, as the clear's own writes would have.  They start clean:
     * H100 distinct-lines past capacity costs 150-155 bytes of DRAM an op
     * (n = 2^20 at P = 2^19 and 2^20: 52.0 and 52.9 us), a fill and one
     * dirty sector back, where lines the clear left dirty would add a
     * whole line's write-back to the first 409,600 misses (66 us). */
    for (int b = 0; ok && cfg->l2.warm_start && b < m->nbuf; b++) {
        const buffer *bf = &m->buf[b];
        uint64_t lines = (bf->words_n * bf->stride_bytes + (1ull << m->line_shift) - 1) >> m->line_shift;
        uint32_t evicted;
        for (uint64_t l = bf->base_line; l < bf->base_line + lines; l++)
            l2_tags_touch(&m->tags, l, 0, &evicted);
    }
    if (ok && lay->cas && cfg->l2.cas_service != CFG_CAS_ARRIVAL)
        ok = ms_cas_open(m, lay, nwarps, seed);
    if (!ok) {
        mem_close(m);
        snprintf(err, CFG_ERR_MAX, "out of memory for the simulated buffers");
        return 2;
    }
    *out = m;
    return 0;
}

double mem_estimate(const cfg_config *cfg, const sim_layout *lay, int nwarps, int *allocs)
{
    double nslices = cfg->l2.slice_count;
    uint64_t sets = (uint64_t)(cfg->l2.size_bytes / cfg->coalesce.line_bytes) / L2_WAYS;
    double bytes = sizeof(mem_sys) + nslices * sizeof(slice) + (double)cfg->gpu.sm_count * sizeof(double) +
                   (double)(sets ? sets : 1) * sizeof(l2_set) + nslices * cfg->l2.queue_depth_requests * sizeof(double);
    *allocs += 4 + cfg->l2.slice_count;
    for (int b = 0; b < lay->count; b++) {
        double words = lay->buf[b].words ? (double)lay->buf[b].words : 1;
        bytes += words * (sizeof(uint32_t) + 1 + (lay->buf[b].atomic ? sizeof(double) : 0));
        *allocs += 2 + (lay->buf[b].atomic != 0);
    }
    if (lay->cas && cfg->l2.cas_service != CFG_CAS_ARRIVAL)
        bytes += ms_cas_estimate(cfg, lay, nwarps, allocs);
    return bytes;
}

void mem_close(mem_sys *m)
{
    if (!m)
        return;
    if (m->slices)
        for (int s = 0; s < m->nslices; s++)
            free(m->slices[s].ring);
    free(m->req);
    free(m->cas_left);
    free(m->cas_op);
    free(m->cas_ret);
    free(m->cas_reply);
    free(m->queues);
    free(m->qclass);
    free(m->slices);
    free(m->port_free);
    l2_tags_close(&m->tags);
    for (int b = 0; b < m->nbuf; b++) {
        free(m->buf[b].words);
        free(m->buf[b].stores);
        free(m->buf[b].ready);
    }
    free(m);
}

/* Applies one op's lanes to memory in lane order and sets their results. */
static void apply_op(mem_sys *m, buffer *bf, const sim_op *op, int o, uint32_t *ret)
{
    uint32_t *w = &bf->words[m->op_idx[o]];
    int lane = m->op_first[o];
    switch (op->atomic) {
    case SIM_ATOMIC_ADD:
        for (; lane >= 0; lane = m->op_next_lane[lane]) {
            ret[lane] = *w;
            *w += op->operand[lane];
        }
        break;
    case SIM_ATOMIC_OR:
        for (; lane >= 0; lane = m->op_next_lane[lane]) {
            ret[lane] = *w;
            *w |= op->operand[lane];
        }
        break;
    case SIM_ATOMIC_CAS:
        for (; lane >= 0; lane = m->op_next_lane[lane]) {
            uint32_t old = *w;
            ret[lane] = old;
            m->cas_attempts++;
            if (old == op->compare[lane])
                *w = op->operand[lane];
            else
                m->cas_failures++;
        }
        break;
    }
}

double mem_atomic(mem_sys *m, int sm, double t, const sim_op *op, uint32_t *ret, double *sent)
{
    buffer *bf = &m->buf[op->buffer];
    int aggregated;
    int merge = merge_of(m, op, &aggregated);
    int ngroups;
    int nreq = ms_coalesce(m, op, &ngroups);
    /* H100 sub-word CAS histograms that saturate one to four slices run
     * 12-29% faster than passes at the add's rate allow */
    double issue = op->atomic == SIM_ATOMIC_CAS ? m->cas_issue : m->issue;
    double reply = t;
    /* an atomic whose old value the warp uses brings data back through the
     * port: H100 sub-word CAS histograms with few conflicts (a returning
     * read and CAS per lane) cost more per request than distinct-lines */
    double port = m->lsu + (op->result_used ? m->lsu_ret : 0);
    /* H100: a reduction's full queue does not hold its port (the shared
     * histogram's flush stays slice-bound at 4 to 64 lines), a returning
     * atomic's does (the sparse one-word CAS races need it; every CAS
     * returns its old value) */
    int holds = m->hold_all || op->result_used;
    m->atomic_instructions++;
    m->l2_requests += nreq;
    for (int r = 0; r < nreq; r++) {
        slice *sl = &m->slices[slice_of(m, m->req_line[r])];
        double arrival;
        double adm = ms_send_request(m, sm, t, port, m->req_line[r], 1, sl, &arrival, holds);
        double start = adm > sl->free ? adm : sl->free;
        double base = line_ready(m, m->req_line[r], start, r);
        /* the request starts once the words it updates are past their
         * read-modify-write dependency */
        double wait = start;
        int req_ops, chain;
        int passes = ms_request_passes(m, r, merge, &req_ops, &chain);
        for (int o = m->req_first[r]; o >= 0; o = m->op_next[o]) {
            if (bf->ready[m->op_idx[o]] > wait)
                wait = bf->ready[m->op_idx[o]];
            apply_op(m, bf, op, o, ret);
        }
        m->l2_ops += req_ops;
        double busy = passes * issue;
        /* Lanes of one request on one word chain through its read-modify-
         * write.  Back to back on one line the unit forwards each result
         * (histogram K = 2: 1.45 cycles a pass); a slice that interleaves
         * lines pays the full latency per link, shared by the lines (H100
         * distinct-lines: 3.37 cycles per lane-op at two lines a slice,
         * the pass rate from three lines on). */
        if (m->word_chain > 0 && chain > 1) {
            int lines = interleaved_lines(sl, m->req_line[r]);
            if (lines > 1 && chain * m->word_chain / lines > busy)
                busy = chain * m->word_chain / lines;
        }
        sl->recent[sl->recent_pos] = m->req_line[r] + 1;
        sl->recent_pos = (sl->recent_pos + 1) & (SLICE_RECENT - 1);
        /* a miss waits in the slice's miss buffers, not in the atomic unit */
        double end = (base > wait ? base : wait) + busy;
        double next = end - issue + m->same_addr;
        if (merge && !aggregated && m->merged_lane > 0)
            for (int o = m->req_first[r]; o >= 0; o = m->op_next[o])
                bf->ready[m->op_idx[o]] = next + (m->op_lanes[o] - 1) * m->merged_lane;
        else
            for (int o = m->req_first[r]; o >= 0; o = m->op_next[o])
                bf->ready[m->op_idx[o]] = next;
        sl->free = (m->hol ? wait : start) + busy;
        finish_request(sl, m->qdepth, adm, start, end);
        /* the replies of an atomic whose old value the warp waits for
         * enter the SM one request after another (h100-atomic-latency.csv) */
        double back = end + m->atom_lat + m->xbar;
        if (op->result_used && r > 0 && reply + m->reply_gap > back)
            back = reply + m->reply_gap;
        if (back > reply)
            reply = back;
    }
    *sent = m->port_free[sm] > t ? m->port_free[sm] : t;
    return reply;
}

double mem_store(mem_sys *m, int sm, double t, const sim_op *op, double *sent)
{
    buffer *bf = &m->buf[op->buffer];
    int nops;
    int nreq = ms_coalesce(m, op, &nops);
    double done = t;
    for (uint64_t mask = op->mask; mask; mask &= mask - 1) {
        int lane = __builtin_ctzll(mask);
        uint32_t idx = op->index[lane];
        bf->words[idx] = op->operand[lane];
        if (bf->stores[idx] < 255)
            bf->stores[idx]++;
    }
    m->store_requests += nreq;
    for (int r = 0; r < nreq; r++) {
        slice *sl = &m->slices[slice_of(m, m->req_line[r])];
        double arrival;
        double adm = ms_send_request(m, sm, t, m->lsu, m->req_line[r], 0, sl, &arrival, m->hold_all);
        double start = adm > sl->free ? adm : sl->free;
        /* write-back: the line's sectors leave for DRAM at DRAM's pace */
        double bytes = req_bytes(m, r);
        double d = dram_slot(m, start, bytes);
        double departure = start + m->store_issue;
        if (d > departure)
            departure = d;
        sl->free = m->hol ? departure : start + m->store_issue;
        finish_request(sl, m->qdepth, adm, start, departure);
        if (departure > done)
            done = departure;
    }
    *sent = m->port_free[sm] > t ? m->port_free[sm] : t;
    return done;
}

void mem_stats(const mem_sys *m, double cycles, atom_stats *st)
{
    double busiest = 0, depth_sum = 0, depth_max = 0;
    int active = 0;
    for (int s = 0; s < m->nslices; s++) {
        const slice *sl = &m->slices[s];
        if (sl->busy > busiest)
            busiest = sl->busy;
        if (sl->depth_max > depth_max)
            depth_max = sl->depth_max;
        if (sl->requests) {
            active++;
            depth_sum += sl->sojourn_sum;
        }
    }
    st->atomic_instructions = m->atomic_instructions;
    st->l2_requests = m->l2_requests;
    st->l2_atomic_ops = m->l2_ops;
    st->requests_per_atomic_instruction = m->atomic_instructions > 0 ? m->l2_requests / m->atomic_instructions : 0;
    st->store_requests = m->store_requests;
    st->l2_misses = m->misses;
    st->cas_attempts = m->cas_attempts;
    st->cas_failures = m->cas_failures;
    st->busiest_slice_utilization = cycles > 0 ? busiest / cycles : 0;
    st->queue_depth_mean = active && cycles > 0 ? depth_sum / cycles / active : 0;
    st->queue_depth_max = depth_max;
}

double mem_port_free(const mem_sys *m, int sm)
{
    return m->port_free[sm];
}

void mem_view(const mem_sys *m, sim_memview *v)
{
    memset(v, 0, sizeof *v);
    for (int b = 0; b < m->nbuf; b++) {
        v->words[b] = m->buf[b].words;
        v->stores[b] = m->buf[b].stores;
    }
}

void mem_view_rw(mem_sys *m, sim_memrw *v)
{
    memset(v, 0, sizeof *v);
    for (int b = 0; b < m->nbuf; b++) {
        v->words[b] = m->buf[b].words;
        v->stores[b] = m->buf[b].stores;
    }
}

double mem_cas_successes(const mem_sys *m)
{
    return m->cas_attempts - m->cas_failures;
}

/* The memory's totals a fast-forward reads and adds to, then each
 * slice's busy and sojourn cycles. */
static double *ff_total(mem_sys *m, int i)
{
    double *const totals[] = { &m->atomic_instructions, &m->l2_requests, &m->l2_ops, &m->store_requests,
                               &m->misses,              &m->cas_attempts, &m->cas_failures };
    return totals[i];
}
#define MEM_FF_TOTALS 7

int mem_ff_count(int nslices)
{
    return MEM_FF_TOTALS + 2 * nslices;
}

void mem_ff_read(const mem_sys *m, double *v)
{
    for (int i = 0; i < MEM_FF_TOTALS; i++)
        v[i] = *ff_total((mem_sys *)m, i);
    for (int s = 0; s < m->nslices; s++) {
        v[MEM_FF_TOTALS + 2 * s] = m->slices[s].busy;
        v[MEM_FF_TOTALS + 2 * s + 1] = m->slices[s].sojourn_sum;
    }
}

void mem_ff_add(mem_sys *m, const double *dv, double k)
{
    for (int i = 0; i < MEM_FF_TOTALS; i++)
        *ff_total(m, i) += dv[i] * k;
    for (int s = 0; s < m->nslices; s++) {
        m->slices[s].busy += dv[MEM_FF_TOTALS + 2 * s] * k;
        m->slices[s].sojourn_sum += dv[MEM_FF_TOTALS + 2 * s + 1] * k;
    }
}
