/* memsys_int.h - what the memory system's files share and nothing else
 * sees (memsys.h is the public side): the mem_sys struct and its parts,
 * the small helpers of the per-request path (static inline, so that the
 * split into files costs the inner loop no call), and the functions one
 * file calls in another:
 *   memsys.c     open, close, statistics; atomics and stores resolved at issue
 *   coalesce.c   lanes into line requests and address groups
 *   xbar.c       the SM memory port, the crossbar, the link between the L2's halves
 *   cas_sched.c  compare-and-swaps resolved when served (l2.cas_service) */
#ifndef ATOM_SIM_MEMSYS_INT_H
#define ATOM_SIM_MEMSYS_INT_H

#include "memsys.h"
#include "l2tags.h"

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

/* ---- helpers of the per-request path -------------------------------- */

static inline int slice_of(const mem_sys *m, uint64_t line)
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

/* A request's time at the slice, for its statistics: sojourn (queue depth
 * by Little's law) and busy time (the union of service intervals). */
static inline void slice_account(slice *sl, double arrival, double start, double departure)
{
    sl->sojourn_sum += departure - arrival;
    double from = start > sl->busy_until ? start : sl->busy_until;
    if (departure > from)
        sl->busy += departure - from;
    if (departure > sl->busy_until)
        sl->busy_until = departure;
    sl->requests++;
}

static inline void finish_request(slice *sl, int qdepth, double arrival, double start, double departure)
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
static inline double dram_slot(mem_sys *m, double start, double bytes)
{
    m->dram_bytes += bytes;
    double bound = m->dram_bytes / m->dram_bpc;
    return start > bound ? start : bound;
}

/* The 32-byte sectors request r touches, one bit each (a walk of its
 * ops, not of its lanes). */
static inline uint32_t req_sectors(const mem_sys *m, int r)
{
    uint32_t sectors = 0;
    for (int o = m->req_first[r]; o >= 0; o = m->op_next[o])
        sectors |= 1u << m->op_sector[o];
    return sectors;
}

/* Bytes request r moves to or from DRAM: its distinct sectors. */
static inline double req_bytes(const mem_sys *m, int r)
{
    return 32.0 * __builtin_popcount(req_sectors(m, r));
}

/* L2 residency of an atomic's line, whose `sectors` it updates: 1 when the
 * line was not resident (a miss, counted; resident from now on).  The line
 * it evicts writes its dirty sectors back: DRAM bandwidth, which no reply
 * waits for. */
static inline int line_miss(mem_sys *m, uint64_t line, uint32_t sectors)
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
static inline double line_ready(mem_sys *m, uint64_t line, double start, int r)
{
    return line_miss(m, line, req_sectors(m, r)) ? dram_slot(m, start, m->line_bytes) + m->dram_lat : start;
}

/* Distinct lines among a slice's last SLICE_RECENT atomic requests, this
 * one's (`line`) included. */
static inline int interleaved_lines(const slice *sl, uint64_t line)
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
static inline int uniform_lanes(const sim_op *op)
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
static inline int merge_of(const mem_sys *m, const sim_op *op, int *aggregated)
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

/* The atomic unit works a request sector by sector; a pass updates each
 * distinct word of a sector once, so lanes on one word (not merged) take
 * one pass each: the passes request r needs, in *ops its L2 ops and in
 * *chain the most on one word.  One rule for the requests resolved at
 * issue (mem_atomic) and the deferred ones (mem_cas_send). */
static inline int ms_request_passes(const mem_sys *m, int r, int merge, int *ops, int *chain)
{
    int sect_max[32], nsect = m->line_bytes / 32, passes = 0;
    for (int k = 0; k < nsect; k++)
        sect_max[k] = 0;
    *ops = 0;
    *chain = 1;
    for (int o = m->req_first[r]; o >= 0; o = m->op_next[o]) {
        int n = merge ? 1 : m->op_lanes[o];
        if (n > sect_max[m->op_sector[o]])
            sect_max[m->op_sector[o]] = n;
        if (n > *chain)
            *chain = n;
        *ops += n;
    }
    for (int k = 0; k < nsect; k++)
        passes += sect_max[k];
    return passes;
}

/* ---- across the files ----------------------------------------------- */

/* coalesce.c: groups the op's lanes into line requests and address groups
 * (m->req_*, m->op_*); returns the request count, *nops_out the groups. */
int ms_coalesce(mem_sys *m, const sim_op *op, int *nops_out);

/* xbar.c: a request's arrival past the link between the L2's halves. */
double ms_cross_halves(mem_sys *m, int sm, uint64_t line, double t, double arr, double port);

/* xbar.c: a request through the port, the crossbar and the slice's
 * bounded queue; returns its admission cycle. */
double ms_send_request(mem_sys *m, int sm, double t, double port, uint64_t line, int crosses, slice *sl,
                       double *arrival, int holds);

/* cas_sched.c: the waiting rooms of l2.cas_service = random or class;
 * 1 when allocated. */
int ms_cas_open(mem_sys *m, const sim_layout *lay, int nwarps, uint64_t seed);
/* The bytes ms_cas_open allocates, and its allocations added to *allocs
 * (mem_estimate). */
double ms_cas_estimate(const cfg_config *cfg, const sim_layout *lay, int nwarps, int *allocs);

#endif
