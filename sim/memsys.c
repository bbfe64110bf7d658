/* memsys.c - coalescer, SM memory ports, crossbar, L2 slices and DRAM.
 *
 * Requests are resolved when the warp issues them, in event order.  With a
 * constant crossbar latency that is also their arrival order at the slices,
 * so one pass computes each request's admission (bounded queue), its service
 * start (atomic unit issue rate), each op's start (read-modify-write
 * dependency on its address) and its reply, with no per-request events.
 * The exception is l2.cas_service = random or class: a compare-and-swap pattern's
 * atomics wait at their slice and are resolved when served, in an order no
 * pass at issue time can know (mem_cas_send, mem_cas_serve; one engine
 * event per request served).  Everything is allocated at open; nothing
 * here allocates per request. */
#include "memsys.h"
#include "l2tags.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HASH_SLOTS 128 /* > 2 x SIM_MAX_LANES keeps probe chains short */

/* A deferred compare-and-swap request, from send to service. */
typedef struct cas_req {
    uint64_t lanes;       /* its lanes: one line's */
    uint64_t line;
    double arrival;
    double busy;          /* atomic unit cycles */
    int warp;
    int lane_chain;       /* merged lanes lengthen the word's dependency */
    int src;              /* the slice input queue it waits in */
    int next;             /* the next request in the crossbar, or in its input queue */
} cas_req;

/* Requests a slice remembers to tell whether it is interleaving lines (a
 * power of two). */
#define SLICE_RECENT 4

typedef struct slice {
    double free;          /* atomic unit can start its next request */
    double busy;          /* union of service intervals */
    double busy_until;
    double sojourn_sum;   /* for Little's law: mean queue depth */
    double depth_max;
    double *ring;         /* departures of the last Q requests, arrival order */
    int pos;
    uint64_t requests;
    uint64_t recent[SLICE_RECENT]; /* lines of its last atomic requests, line + 1 */
    int recent_pos;
    /* deferred compare-and-swaps: in the crossbar (arrival order), then waiting */
    int xbar_head, xbar_tail;
    int nwait;
    int scheduled;        /* a service event for it is in the engine's heap */
    /* per input queue (l2.cas_sources of them): FIFO head and tail, and its
     * place in `ready_q`, the dense list of non-empty queues (-1: empty) */
    int *qhead, *qtail, *qpos, *ready_q;
    int nready;
} slice;

/* Open-addressing table reset per instruction by a generation stamp. */
typedef struct grp_table {
    uint32_t stamp[HASH_SLOTS];
    uint64_t key[HASH_SLOTS];
    int val[HASH_SLOTS];
} grp_table;

typedef struct buffer {
    uint32_t *words;
    uint8_t *stores;
    double *ready;        /* per word: next op on it may start (atomic buffers) */
    uint64_t base_line;   /* first line of the buffer */
    uint64_t words_n;
    uint32_t stride_bytes;
} buffer;

struct mem_sys {
    const cfg_config *cfg;
    int nslices, qdepth, line_shift, line_bytes;
    double xbar, lsu, lsu_ret, issue, cas_issue, same_addr, atom_lat, reply_gap, store_issue, dram_lat, dram_bpc;
    int merge_rule, merge_cas, compiler_agg, hol, hash, interleave, hold_all;
    int part_shift;        /* line index >> part_shift: the L2 half's block (-1: one L2) */
    double link_cycles;    /* the link between the halves: cycles per request, each way */
    double link_queue;     /* requests its queue holds before it holds a sender's port */
    double link_free[2];   /* when it takes its next request from side 0 and from side 1 */
    /* the slice hash does not see some low line bits: the line's bits
     * below squeeze_bits go through squeeze[] (kept bits packed down), the
     * rest shift down by squeeze_drop */
    int squeeze_bits, squeeze_drop;
    uint16_t squeeze[1 << 16];
    double merged_lane, word_chain;
    slice *slices;
    double *port_free;    /* per SM memory port */
    l2_tags tags;         /* L2 residency (l2tags.c) */
    double dram_bytes;     /* moved so far, for the bandwidth bound */
    buffer buf[SIM_MAX_BUFFERS];
    int nbuf;
    /* scratch for grouping one warp instruction */
    uint32_t gen;
    grp_table lines;   /* line -> request */
    grp_table words;   /* word index -> address group */
    int op_first[SIM_MAX_LANES], op_next_lane[SIM_MAX_LANES], op_last[SIM_MAX_LANES], op_lanes[SIM_MAX_LANES];
    uint32_t op_idx[SIM_MAX_LANES];
    uint8_t op_sector[SIM_MAX_LANES];  /* 32-byte sector within its line */
    int op_next[SIM_MAX_LANES];      /* next op of the same request */
    int req_first[SIM_MAX_LANES], req_last[SIM_MAX_LANES];
    uint64_t req_line[SIM_MAX_LANES];
    int req_ops[SIM_MAX_LANES];
    /* counters */
    double atomic_instructions, l2_requests, l2_ops, store_requests, misses;
    double cas_attempts, cas_failures;
    /* deferred compare-and-swaps (l2.cas_service = random or class) */
    int cas_random;
    int req_per_warp;     /* request records per warp: its most lines in one instruction */
    cas_req *req;         /* warp w's requests are req[w * req_per_warp ...] */
    const sim_op **cas_op; /* per warp: its op, kept by the engine until the reply */
    uint32_t **cas_ret;   /* per warp: where its old values go */
    int *cas_left;        /* per warp: requests not yet served */
    double *cas_reply;    /* per warp: its latest reply so far */
    int *queues;          /* the slices' input queue arrays, one block */
    uint8_t *qclass;      /* l2.cas_service = class: queue q's class at slice s, [s * nsources + q] */
    int nsources;
    uint64_t rng;
};

static uint32_t hash64(uint64_t x)
{
    x *= 0x9e3779b97f4a7c15ull;
    return (uint32_t)(x >> 57); /* 7 bits: HASH_SLOTS */
}

/* The waiting rooms, for nwarps resident warps: only for a pattern that
 * issues compare-and-swaps under l2.cas_service = random or class. */
static int cas_open(mem_sys *m, const sim_layout *lay, int nwarps, uint64_t seed)
{
    m->cas_random = 1;
    uint64_t lines = 1;
    for (int b = 0; b < lay->count; b++)
        if (lay->buf[b].atomic) {
            uint64_t bytes = (lay->buf[b].words ? lay->buf[b].words : 1) * 4ull * (lay->buf[b].stride_words ? lay->buf[b].stride_words : 1);
            uint64_t l = (bytes + (uint64_t)m->line_bytes - 1) / (uint64_t)m->line_bytes;
            if (l > lines)
                lines = l;
        }
    int lanes = m->cfg->gpu.subgroup_size < SIM_MAX_LANES ? m->cfg->gpu.subgroup_size : SIM_MAX_LANES;
    m->req_per_warp = lines < (uint64_t)lanes ? (int)lines : lanes;
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
        ok = cas_open(m, lay, nwarps, seed);
    if (!ok) {
        mem_close(m);
        snprintf(err, CFG_ERR_MAX, "out of memory for the simulated buffers");
        return 2;
    }
    *out = m;
    return 0;
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

static int slice_of(const mem_sys *m, uint64_t line)
{
    if (m->interleave > 1)
        line /= (uint64_t)m->interleave;
    /* squeeze the ignored bits out (not just clear them), so that the
     * groups of lines that share a slice still number consecutively and a
     * mod hash keeps using every slice */
    if (m->squeeze_bits) {
        uint64_t low = line & ((1ull << m->squeeze_bits) - 1);
        line = (line >> m->squeeze_bits << (m->squeeze_bits - m->squeeze_drop)) | m->squeeze[low];
    }
    if (m->hash == CFG_HASH_MOD)
        return (int)(line % (uint64_t)m->nslices);
    /* xor-fold the line bits, mix, and map onto the slices with a
     * multiply-shift (no division in the per-request path) */
    line ^= (line >> 5) ^ (line >> 11) ^ (line >> 17) ^ (line >> 23);
    uint32_t h = (uint32_t)(line * 0x9e3779b97f4a7c15ull >> 32);
    return (int)(((uint64_t)h * (uint64_t)m->nslices) >> 32);
}

/* Lookup-or-insert in the per-instruction hash table; returns the slot. */
/* Lookup-or-insert; returns the slot, *fresh when the key is new. */
static int group_slot(grp_table *g, uint32_t gen, uint64_t key, int *fresh)
{
    uint32_t h = hash64(key);
    for (;;) {
        if (g->stamp[h] != gen) {
            g->stamp[h] = gen;
            g->key[h] = key;
            *fresh = 1;
            return (int)h;
        }
        if (g->key[h] == key) {
            *fresh = 0;
            return (int)h;
        }
        h = (h + 1) & (HASH_SLOTS - 1);
    }
}

static void next_gen(mem_sys *m)
{
    if (++m->gen == 0) { /* wrapped: clear stamps so stale ones never match */
        memset(m->lines.stamp, 0, sizeof m->lines.stamp);
        memset(m->words.stamp, 0, sizeof m->words.stamp);
        m->gen = 1;
    }
}

/* Groups the op's lanes into line requests (one hash probe per lane) and,
 * within a request, lanes on one address into one address group (a short
 * scan: a line holds few distinct words).  Whether a group is one L2 op or
 * one op per lane is the merge rule's business (mem_atomic).  Requests,
 * groups and lanes keep first-lane order.  Returns the count of requests. */
static int coalesce(mem_sys *m, const sim_op *op, int *nops_out)
{
    const buffer *bf = &m->buf[op->buffer];
    int nops = 0, nreq = 0, fresh;
    next_gen(m);
    for (uint64_t mask = op->mask; mask; mask &= mask - 1) {
        int lane = __builtin_ctzll(mask);
        uint32_t idx = op->index[lane];
        m->op_next_lane[lane] = -1;
        /* a word seen before in this instruction: one more lane on it */
        int ws = group_slot(&m->words, m->gen, idx, &fresh);
        if (!fresh) {
            int o = m->words.val[ws];
            m->op_next_lane[m->op_last[o]] = lane;
            m->op_last[o] = lane;
            m->op_lanes[o]++;
            continue;
        }
        uint64_t byte = (uint64_t)idx * bf->stride_bytes;
        uint64_t line = bf->base_line + (byte >> m->line_shift);
        int s = group_slot(&m->lines, m->gen, line, &fresh);
        int r;
        if (fresh) {
            r = nreq++;
            m->lines.val[s] = r;
            m->req_line[r] = line;
            m->req_first[r] = -1;
            m->req_ops[r] = 0;
        } else
            r = m->lines.val[s];
        int o = nops++;
        m->words.val[ws] = o;
        m->op_idx[o] = idx;
        m->op_sector[o] = (uint8_t)((byte & (uint64_t)(m->line_bytes - 1)) >> 5);
        m->op_first[o] = lane;
        m->op_last[o] = lane;
        m->op_lanes[o] = 1;
        m->op_next[o] = -1;
        if (m->req_first[r] < 0)
            m->req_first[r] = o;
        else
            m->op_next[m->req_last[r]] = o;
        m->req_last[r] = o;
        m->req_ops[r]++;
    }
    *nops_out = nops;
    return nreq;
}

/* The crossbar from SM `sm` for a request on `line` sent at t, arriving
 * at arr unless it crosses between the L2's halves.  Aligned blocks of
 * lines alternate between the halves, and even SMs sit by half 0, odd ones
 * by half 1 (alternating, so that workgroups handed out in order do not
 * line up with blocks of lines).  A request to the other half queues for
 * the link between them, which carries a limited number of requests a
 * cycle each way, and a full queue there (l2.partition_link_queue_requests)
 * holds the sender's port.  H100 (docs/findings.md, section 4): one block is a plateau at 3.8
 * cycles of port time per lane against 3.0, and from 2,048 to 3,072 lines
 * the time falls as the far SMs' share of crossing requests does.
 * Atomics only: stores held to it ran the 2^24 store rows 3-5% slow.
 * Returns the arrival. */
static double cross_halves(mem_sys *m, int sm, uint64_t line, double t, double arr, double port)
{
    if (m->part_shift < 0)
        return arr;
    int side = sm & 1;
    if ((int)(line >> m->part_shift & 1) == side)
        return arr;
    double *free_at = &m->link_free[side];
    if (*free_at > arr)
        arr = *free_at;
    *free_at = arr + m->link_cycles;
    double entered = arr - m->link_queue * m->link_cycles; /* a queue slot freed up */
    if (entered > t + m->xbar) {
        double hold = entered - m->xbar + port;
        if (hold > m->port_free[sm])
            m->port_free[sm] = hold;
    }
    return arr;
}

/* Sends a request on `line` from SM `sm` no earlier than t: the memory
 * port (busy `port` cycles for it), the crossbar (and, when `crosses`, the
 * link between the L2's halves) and the slice's bounded queue; a full queue
 * holds the port too when `holds`.  Returns the admission cycle. */
static double send_request(mem_sys *m, int sm, double t, double port, uint64_t line, int crosses, slice *sl,
                           double *arrival, int holds)
{
    /* All requests of one instruction leave together; the port then stays
     * busy for lsu cycles per request.  The engine only issues a memory
     * instruction once the port is free (mem_port_free), which keeps each
     * request's arrival close to the event order that resolves it. */
    double base = m->port_free[sm] > t ? m->port_free[sm] : t;
    m->port_free[sm] = base + port;
    double arr = crosses ? cross_halves(m, sm, line, t, t + m->xbar, port) : t + m->xbar;
    double slot_free = sl->ring[sl->pos]; /* departure of the request Q places back */
    double adm = arr > slot_free ? arr : slot_free;
    if (adm > arr && holds) {
        /* a full queue holds the request in the port: later sends wait */
        double hold = adm - m->xbar + port;
        if (hold > m->port_free[sm])
            m->port_free[sm] = hold;
    }
    /* depth seen on arrival: queued requests not yet departed.  Departures
     * are near-monotone in arrival order, so a binary search over the ring
     * finds the oldest one still queued. */
    int lo = 0, hi = m->qdepth; /* ring[pos-k] > adm holds for k <= lo */
    int newest = sl->pos ? sl->pos - 1 : m->qdepth - 1;
    if (sl->ring[newest] <= adm || (sl->requests & 3))
        hi = 0; /* drained, or not a sampled request: the maximum is sampled 1 in 4 */
    while (lo < hi) {
        int k = (lo + hi + 1) / 2;
        int i = sl->pos - k;
        if (i < 0)
            i += m->qdepth;
        if (sl->ring[i] > adm)
            lo = k;
        else
            hi = k - 1;
    }
    if (lo > sl->depth_max)
        sl->depth_max = lo;
    *arrival = arr;
    return adm;
}

/* A request's time at the slice, for its statistics: sojourn (queue depth
 * by Little's law) and busy time (the union of service intervals). */
static void slice_account(slice *sl, double arrival, double start, double departure)
{
    sl->sojourn_sum += departure - arrival;
    double from = start > sl->busy_until ? start : sl->busy_until;
    if (departure > from)
        sl->busy += departure - from;
    if (departure > sl->busy_until)
        sl->busy_until = departure;
    sl->requests++;
}

static void finish_request(slice *sl, int qdepth, double arrival, double start, double departure)
{
    sl->ring[sl->pos] = departure;
    if (++sl->pos == qdepth)
        sl->pos = 0;
    slice_account(sl, arrival, start, departure);
}

/* DRAM bandwidth as a cumulative bound: a transfer cannot end before
 * every byte moved so far could have crossed the bus.  Unlike a FIFO of
 * free times it does not punish a request resolved slightly out of time
 * order, which the issue-order resolution of requests allows. */
static double dram_slot(mem_sys *m, double start, double bytes)
{
    m->dram_bytes += bytes;
    double bound = m->dram_bytes / m->dram_bpc;
    return start > bound ? start : bound;
}

/* The 32-byte sectors request r touches, one bit each (a walk of its
 * ops, not of its lanes). */
static uint32_t req_sectors(const mem_sys *m, int r)
{
    uint32_t sectors = 0;
    for (int o = m->req_first[r]; o >= 0; o = m->op_next[o])
        sectors |= 1u << m->op_sector[o];
    return sectors;
}

/* Bytes request r moves to or from DRAM: its distinct sectors. */
static double req_bytes(const mem_sys *m, int r)
{
    return 32.0 * __builtin_popcount(req_sectors(m, r));
}

/* L2 residency of an atomic's line, whose `sectors` it updates: 1 when the
 * line was not resident (a miss, counted; resident from now on).  The line
 * it evicts writes its dirty sectors back: DRAM bandwidth, which no reply
 * waits for. */
static int line_miss(mem_sys *m, uint64_t line, uint32_t sectors)
{
    uint32_t evicted;
    if (!l2_tags_touch(&m->tags, line, sectors, &evicted))
        return 0;
    m->misses++;
    m->dram_bytes += 32.0 * __builtin_popcount(evicted);
    return 1;
}

/* A miss costs a DRAM round trip and the bandwidth of a whole line's fill
 * (H100 distinct-lines, a miss every op: 151-155 bytes an op, n = 983,867
 * at P = 1.7 million lines and n = 2^20 at P = 2^20, where a 32-byte
 * sector and its write-back would be 64). */
static double line_ready(mem_sys *m, uint64_t line, double start, int r)
{
    return line_miss(m, line, req_sectors(m, r)) ? dram_slot(m, start, m->line_bytes) + m->dram_lat : start;
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

/* Distinct lines among a slice's last SLICE_RECENT atomic requests, this
 * one's (`line`) included. */
static int interleaved_lines(const slice *sl, uint64_t line)
{
    int lines = 1;
    for (int i = 0; i < SLICE_RECENT; i++) {
        uint64_t l = sl->recent[i];
        if (!l || l == line + 1)
            continue;
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= sl->recent[j] == l;
        lines += !seen;
    }
    return lines;
}

/* 1 when every lane of the instruction targets one address. */
static int uniform_lanes(const sim_op *op)
{
    if (!op->mask)
        return 1;
    uint32_t first = op->index[__builtin_ctzll(op->mask)];
    for (uint64_t mask = op->mask; mask; mask &= mask - 1)
        if (op->index[__builtin_ctzll(mask)] != first)
            return 0;
    return 1;
}

/* Whether the op's lanes on one address are one L2 op (*aggregated: one
 * op with no per-lane cost). */
static int merge_of(const mem_sys *m, const sim_op *op, int *aggregated)
{
    *aggregated = 0;
    if (op->atomic == SIM_ATOMIC_CAS)
        return m->merge_cas;
    if (op->uniform_address && m->compiler_agg)
        return *aggregated = 1; /* the warp sends one lane with the sum */
    if (m->merge_rule == CFG_MERGE_UNIFORM)
        return *aggregated = uniform_lanes(op); /* a whole-warp merge: no per-lane cost (H100) */
    return m->merge_rule == CFG_MERGE_PER_ADDRESS;
}

double mem_atomic(mem_sys *m, int sm, double t, const sim_op *op, uint32_t *ret, double *sent)
{
    buffer *bf = &m->buf[op->buffer];
    int aggregated;
    int merge = merge_of(m, op, &aggregated);
    int ngroups;
    int nreq = coalesce(m, op, &ngroups);
    int nsect = m->line_bytes / 32;
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
        double adm = send_request(m, sm, t, port, m->req_line[r], 1, sl, &arrival, holds);
        double start = adm > sl->free ? adm : sl->free;
        double base = line_ready(m, m->req_line[r], start, r);
        /* The atomic unit works a request sector by sector; a pass updates
         * each distinct word of a sector once, so lanes on one word (not
         * merged) take one pass each.  The request starts once the words it
         * updates are past their read-modify-write dependency. */
        int sect_max[32];
        for (int k = 0; k < nsect; k++)
            sect_max[k] = 0;
        double wait = start;
        int req_ops = 0, chain = 1;
        for (int o = m->req_first[r]; o >= 0; o = m->op_next[o]) {
            int ops = merge ? 1 : m->op_lanes[o];
            int sct = m->op_sector[o];
            if (ops > sect_max[sct])
                sect_max[sct] = ops;
            if (ops > chain)
                chain = ops;
            req_ops += ops;
            if (bf->ready[m->op_idx[o]] > wait)
                wait = bf->ready[m->op_idx[o]];
            apply_op(m, bf, op, o, ret);
        }
        m->l2_ops += req_ops;
        int passes = 0;
        for (int k = 0; k < nsect; k++)
            passes += sect_max[k];
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

int mem_cas_deferred(const mem_sys *m)
{
    return m->cas_random;
}

int mem_cas_send(mem_sys *m, int w, int sm, double t, const sim_op *op, uint32_t *ret, double *sent, int *wake_slice,
                 double *wake_t, int *nwake)
{
    int ngroups, aggregated;
    int merge = merge_of(m, op, &aggregated);
    int nreq = coalesce(m, op, &ngroups);
    int nsect = m->line_bytes / 32;
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
        int sect_max[32];
        for (int k = 0; k < nsect; k++)
            sect_max[k] = 0;
        uint64_t lanes = 0;
        int req_ops = 0;
        for (int o = m->req_first[r]; o >= 0; o = m->op_next[o]) {
            int ops = merge ? 1 : m->op_lanes[o];
            if (ops > sect_max[m->op_sector[o]])
                sect_max[m->op_sector[o]] = ops;
            req_ops += ops;
            for (int lane = m->op_first[o]; lane >= 0; lane = m->op_next_lane[lane])
                lanes |= 1ull << lane;
        }
        m->l2_ops += req_ops;
        int passes = 0;
        for (int k = 0; k < nsect; k++)
            passes += sect_max[k];
        int id = w * m->req_per_warp + r;
        cas_req *q = &m->req[id];
        q->lanes = lanes;
        q->line = m->req_line[r];
        q->arrival = cross_halves(m, sm, q->line, t, t + m->xbar, port);
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

double mem_store(mem_sys *m, int sm, double t, const sim_op *op, double *sent)
{
    buffer *bf = &m->buf[op->buffer];
    int nops;
    int nreq = coalesce(m, op, &nops);
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
        double adm = send_request(m, sm, t, m->lsu, m->req_line[r], 0, sl, &arrival, m->hold_all);
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
