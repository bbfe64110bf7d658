/* engine.c - the event loop: workgroup dispatch in waves, warp schedulers,
 * shared-memory atomic units and barriers.  Global memory is memsys.c.
 *
 * One event is one warp becoming ready to issue its next operation; the
 * event heap holds at most one entry per resident warp.  Everything is
 * allocated in sim_engine_open: the loop does no allocation, no string work
 * and no I/O. */
#include "engine.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memsys.h"
#include "pattern.h"

typedef struct event {
    double t;
    uint64_t order;   /* tie << 32 | warp: arbitration among equal times, from the seed */
} event;

typedef struct wg_slot {
    uint64_t wg;
    int warps_left;
    int bar_count;
    double bar_time;
    double ack_time; /* its last global store or atomic acknowledged at the SM */
    double bar_release; /* its last barrier released its warps (split exits) */
} wg_slot;

struct sim_engine {
    cfg_config cfg;
    pat_params p;
    sim_ctx ctx;
    const sim_pattern *pat;
    mem_sys *mem;
    int sm_count, wg_per_sm, warps_per_wg, schedulers, smem_words_alloc;
    uint64_t wg_total, next_wg;
    int nslots, nwarps, nslices;
    int slice_ev0;           /* event id of slice 0's service: after the warps and the slots */
    int cas_deferred;        /* global atomics wait at the slices (mem_cas_deferred) */
    wg_slot *slots;
    sim_warp *warps;
    double *warp_mem_done;   /* last shared-memory op of each warp completes */
    double *bar_arrive;
    int *warp_slot, *warp_sm, *warp_sched; /* per warp: no division per event */
    sim_op *saved_ops;       /* a memory op waiting for its SM's port or a deferred CAS's replies, per warp */
    double *cas_ready;       /* per warp: when its deferred CAS left the port (+1) */
    unsigned char *pending;
    double *port_arrive;
    int *port_waiting;       /* per SM: warps waiting for the port, head included */
    int *port_fifo;          /* per SM ring of waiting warps behind the head */
    int *port_head;
    int port_cap;
    double *sched_free;
    double *smem_free;
    uint32_t *smem;          /* the pattern's shared words, per slot */
    event *heap;
    int heap_n;
    double dispatcher_free;
    double *warp_launch_free; /* per SM: its next warp may start */
    double *warp_left;        /* per warp: when it exited (split exits) */
    int split_exit_on;        /* launch.split_exit_cycles applies to this dispatch */
    double split_share;       /* recent workgroups that split, an exponential average (split_exit_share_wgs) */
    double sender_linger;     /* a warp that sent a global write leaves no earlier than an uncontended round trip after */
    double end_warps, end_mem;
    double budget, events;
    atom_stats st;
    sim_op op;
    char err[CFG_ERR_MAX];
};

static uint32_t mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x21f0aaadu;
    x ^= x >> 15;
    x *= 0x735a2d97u;
    x ^= x >> 15;
    return x;
}

static inline int ev_less(const event *a, const event *b)
{
    return a->t < b->t || (a->t == b->t && a->order < b->order);
}

static void heap_push(sim_engine *e, double t, uint32_t warp)
{
    event ev = { t, (uint64_t)mix32(warp ^ (uint32_t)e->p.seed * 0x9e3779b9u) << 32 | warp };
    int i = e->heap_n++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!ev_less(&ev, &e->heap[parent]))
            break;
        e->heap[i] = e->heap[parent];
        i = parent;
    }
    e->heap[i] = ev;
}

static event heap_pop(sim_engine *e)
{
    event top = e->heap[0];
    event last = e->heap[--e->heap_n];
    int i = 0, n = e->heap_n;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && ev_less(&e->heap[c + 1], &e->heap[c]))
            c++;
        if (!ev_less(&e->heap[c], &last))
            break;
        e->heap[i] = e->heap[c];
        i = c;
    }
    if (n)
        e->heap[i] = last;
    return top;
}

int sim_engine_open(const cfg_config *cfg, const pat_params *p, sim_engine **out, char err[CFG_ERR_MAX])
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

    sim_layout lay;
    memset(&lay, 0, sizeof lay);
    int rc = e->pat->setup(&e->ctx, &lay, err);
    if (rc) {
        free(e);
        return 2;
    }
    e->slots = calloc((size_t)e->nslots, sizeof *e->slots);
    e->warps = calloc((size_t)e->nwarps, sizeof *e->warps);
    e->warp_mem_done = calloc((size_t)e->nwarps, sizeof(double));
    e->bar_arrive = calloc((size_t)e->nwarps, sizeof(double));
    e->saved_ops = malloc((size_t)e->nwarps * sizeof *e->saved_ops);
    e->cas_ready = calloc((size_t)e->nwarps, sizeof(double));
    e->pending = calloc((size_t)e->nwarps, 1);
    e->port_arrive = calloc((size_t)e->nwarps, sizeof(double));
    e->port_cap = occ * warps_per_wg;
    e->port_waiting = calloc((size_t)e->sm_count, sizeof(int));
    e->port_head = calloc((size_t)e->sm_count, sizeof(int));
    e->port_fifo = calloc((size_t)e->sm_count * (size_t)e->port_cap, sizeof(int));
    e->warp_slot = malloc((size_t)e->nwarps * sizeof(int));
    e->warp_sm = malloc((size_t)e->nwarps * sizeof(int));
    e->warp_sched = malloc((size_t)e->nwarps * sizeof(int));
    for (int w = 0; e->warp_slot && e->warp_sm && e->warp_sched && w < e->nwarps; w++) {
        e->warp_slot[w] = w / warps_per_wg;
        e->warp_sm[w] = e->warp_slot[w] / occ;
        /* warps of the SM share its schedulers by their slot on the SM */
        e->warp_sched[w] = e->warp_sm[w] * e->schedulers + (w % e->port_cap) % e->schedulers;
    }
    e->sched_free = calloc((size_t)e->sm_count * (size_t)e->schedulers, sizeof(double));
    e->warp_launch_free = calloc((size_t)e->sm_count, sizeof(double));
    e->warp_left = calloc((size_t)e->nwarps, sizeof(double));
    e->split_exit_on = cfg->launch.split_exit_cycles > 0 && occ >= cfg->launch.split_exit_min_wg_per_sm &&
                       occ <= cfg->launch.split_exit_max_wg_per_sm &&
                       (int64_t)occ * smem_bytes <= (int64_t)cfg->launch.split_exit_smem_max_bytes;
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
    *out = e;
    return 0;
}

void sim_engine_close(sim_engine *e)
{
    if (!e)
        return;
    mem_close(e->mem);
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

static void launch_wg(sim_engine *e, int slot, double t)
{
    double start = t > e->dispatcher_free ? t : e->dispatcher_free;
    e->dispatcher_free = start + e->cfg.launch.wg_dispatch_cycles;
    /* handed out during the launch overhead (dispatch_lead_cycles): it starts when that ends */
    if (start < e->cfg.launch.kernel_overhead_cycles)
        start = e->cfg.launch.kernel_overhead_cycles;
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

/* Shared-memory access of one warp instruction: lanes on distinct words of
 * one bank conflict; extra lanes on one word serialize unless merged.
 * Words are chained per bank, so the cost is linear in lanes for the usual
 * conflict-free or broadcast accesses (a profile showed the quadratic search
 * of distinct words taking half the time of shared-memory patterns). */
static double smem_cycles(const sim_engine *e, const sim_op *op, int atomic)
{
    int banks = e->cfg.smem.bank_count < SIM_SMEM_BANKS_MAX ? e->cfg.smem.bank_count : SIM_SMEM_BANKS_MAX;
    int head[SIM_SMEM_BANKS_MAX];
    int next[SIM_MAX_LANES], count[SIM_MAX_LANES];
    uint32_t word[SIM_MAX_LANES];
    int nseen = 0;
    double pass = atomic ? e->cfg.smem.atomic_issue_cycles : 1.0;
    double same = atomic ? e->cfg.smem.same_word_cycles : 0.0;
    /* an atomic on a compile-time constant word: the compiler sums the warp's
     * lanes and one lane adds, as for a global one (H100 reduce, one
     * workgroup per SM: 30 more warps a workgroup cost 57 cycles more than
     * in a kernel without the add, not the 375 a serialized word would) */
    if (atomic && op->uniform_address && e->cfg.coalesce.compiler_aggregation)
        return pass;
    if (banks <= 64 && (banks & (banks - 1)) == 0) { /* the common case: every lane in its own bank */
        uint64_t used = 0;
        uint64_t m = op->mask;
        for (; m; m &= m - 1) {
            uint64_t bit = 1ull << (op->index[__builtin_ctzll(m)] & (uint32_t)(banks - 1));
            if (used & bit)
                break;
            used |= bit;
        }
        if (!m)
            return pass;
    }
    for (int b = 0; b < banks; b++)
        head[b] = -1;
    for (uint64_t m = op->mask; m; m &= m - 1) {
        uint32_t wd = op->index[__builtin_ctzll(m)];
        int b = (int)(wd % (uint32_t)banks);
        int k = head[b];
        while (k >= 0 && word[k] != wd)
            k = next[k];
        if (k < 0) {
            k = nseen++;
            word[k] = wd;
            count[k] = 0;
            next[k] = head[b];
            head[b] = k;
        }
        count[k]++;
    }
    double worst = 0;
    for (int b = 0; b < banks; b++) {
        double cost = 0;
        for (int k = head[b]; k >= 0; k = next[k])
            cost += pass + (count[k] - 1) * same;
        if (cost > worst)
            worst = cost;
    }
    return worst > 0 ? worst : pass;
}

static void smem_apply(sim_engine *e, int slot, sim_warp *w, const sim_op *op)
{
    uint32_t *sm = &e->smem[(size_t)slot * (size_t)e->smem_words_alloc];
    uint32_t words = (uint32_t)e->smem_words_alloc;
    for (uint64_t m = op->mask; m; m &= m - 1) {
        int lane = __builtin_ctzll(m);
        uint32_t idx = op->index[lane];
        if (idx >= words) /* patterns stay in range; the wrap only guards memory */
            idx %= words;
        if (op->kind == SIM_OP_SSTORE) { /* no read: stores return nothing */
            sm[idx] = op->operand[lane];
            continue;
        }
        w->ret[lane] = sm[idx];
        if (op->kind == SIM_OP_SATOMIC)
            sm[idx] += op->operand[lane];
    }
}

/* Lanes of a repeated shared op still below its index limit after moving
 * every index on by the op's stride. */
static uint64_t smem_advance(sim_op *op)
{
    uint64_t mask = 0;
    for (uint64_t m = op->mask; m; m &= m - 1) {
        int lane = __builtin_ctzll(m);
        op->index[lane] += op->repeat_stride;
        if (op->index[lane] < op->index_limit)
            mask |= 1ull << lane;
    }
    return mask;
}

static int any_nonzero(const sim_warp *w, uint64_t mask)
{
    for (; mask; mask &= mask - 1)
        if (w->ret[__builtin_ctzll(mask)])
            return 1;
    return 0;
}

/* A warp's shared-memory op, or a loop of them (op->repeat).  One op
 * issues its ALU instructions and itself on the warp's scheduler, then
 * waits for the SM's shared-memory unit.  A loop runs functionally first;
 * its instances then take the scheduler and the unit back to back from now
 * (the resources are single free-times that later events must find in time
 * order), while the warp itself is held for the loop's dependent chain:
 * each instance issues when the previous one lets the warp go on.  The ALU
 * instructions before an instance depend on each other (counter, compare,
 * address), so they hold the warp core.alu_latency_cycles each, as an ALU
 * op does, and a loop's instance also waits for its back-edge branch,
 * smem.loop_branch_cycles (h100-shared-flush.csv: a lone warp's zero and
 * flush iterations take 112 cycles a pair, docs/findings.md #14). */
static double smem_issue(sim_engine *e, int w, double t, sim_op *op)
{
    const cfg_config *c = &e->cfg;
    int sm = e->warp_sm[w];
    sim_warp *wp = &e->warps[w];
    double *sched = &e->sched_free[e->warp_sched[w]];
    int atomic = op->kind == SIM_OP_SATOMIC;
    int waits = op->kind == SIM_OP_SLOAD || op->result_used;
    double lat = atomic ? c->smem.atomic_latency_cycles : c->smem.access_latency_cycles;
    double pre = op->instructions;
    double dep = pre * c->core.alu_latency_cycles + (op->repeat > 0 ? c->smem.loop_branch_cycles : 0);
    uint32_t reps = op->repeat > 1 ? op->repeat : 1;
    /* a stride that is a multiple of the bank count keeps every lane in its
     * bank, so an instance with the same lanes costs what the last one did */
    int same_banks = reps > 1 && op->repeat_stride % (uint32_t)c->smem.bank_count == 0;
    uint64_t cyc_mask = 0;
    double cyc = 0, cyc_first = 0, cyc_sum = 0, chain = 0;
    uint32_t k = 0;
    while (k < reps) {
        if (k > 0) {
            op->mask = smem_advance(op);
            if (!op->mask)
                break;
        }
        if (k == 0 || !same_banks || op->mask != cyc_mask) {
            cyc = smem_cycles(e, op, atomic);
            cyc_mask = op->mask;
        }
        if (k == 0)
            cyc_first = cyc;
        else /* the instance after the previous one lets the warp go */
            chain += dep + cyc + (waits ? lat : 0);
        cyc_sum += cyc;
        if (atomic) {
            e->st.smem_atomic_instructions++;
            e->st.smem_conflict_cycles += cyc - c->smem.atomic_issue_cycles;
        }
        smem_apply(e, e->warp_slot[w], wp, op);
        k++;
        if (op->until_nonzero && any_nonzero(wp, op->mask))
            break;
    }
    wp->burst_done = k;
    /* `instructions` ALU instructions issue just before a shared op (loop
     * counters, addresses): one event instead of two, and the SM-local unit
     * makes the small reordering harmless */
    double st = t > *sched ? t : *sched;
    *sched = st + k * (1 + pre);
    st += dep;
    e->st.warp_instructions += k * (1 + pre);
    double ss = st > e->smem_free[sm] ? st : e->smem_free[sm];
    e->smem_free[sm] = ss + cyc_sum;
    e->st.stall_smem_cycles += ss - st;
    e->st.stall_issue_cycles += st - t;
    double last = ss + cyc_first + chain; /* the last instance leaves the unit */
    double complete = last + lat;
    if (complete > e->warp_mem_done[w])
        e->warp_mem_done[w] = complete;
    return waits ? complete : last;
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

static void warp_exit(sim_engine *e, int w, double t)
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
    if (--s->warps_left == 0 && e->next_wg < e->wg_total) {
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

static void barrier_arrive(sim_engine *e, int w, double t)
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

/* The L2 acknowledged one of warp w's global stores or atomics at `ack`:
 * with launch.retire_waits_for_acks its slot frees no earlier. */
static void slot_ack(sim_engine *e, int w, double ack)
{
    wg_slot *s = &e->slots[e->warp_slot[w]];
    if (ack > s->ack_time)
        s->ack_time = ack;
}

/* Warp w is ready for its next operation at `ready`; `last`: the pattern
 * exits right after the op it finished, so it leaves without an event. */
static void warp_resume(sim_engine *e, int w, double ready, int last)
{
    if (last) {
        e->st.warp_instructions += 1;
        warp_exit(e, w, ready);
    } else
        heap_push(e, ready, (uint32_t)w);
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
    e->dispatcher_free = t0 - c->launch.dispatch_lead_cycles;
    e->split_share = 0;
    e->end_warps = t0;
    e->end_mem = t0;
    /* first wave: workgroups spread across SMs before any SM gets a second */
    for (int j = 0; j < e->wg_per_sm && e->next_wg < e->wg_total; j++)
        for (int sm = 0; sm < e->sm_count && e->next_wg < e->wg_total; sm++)
            launch_wg(e, sm * e->wg_per_sm + j, t0 - c->launch.dispatch_lead_cycles);

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
        int w = (int)(uint32_t)ev.order;
        if (w >= e->slice_ev0) { /* a slice serves a waiting compare-and-swap */
            cas_served(e, w - e->slice_ev0, ev.t);
            continue;
        }
        if (w >= e->nwarps) { /* a slot is free: its next workgroup, if any is left */
            if (e->next_wg < e->wg_total)
                launch_wg(e, w - e->nwarps, ev.t);
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
            ready = smem_issue(e, w, t, op);
            break;
        case SIM_OP_BARRIER:
            e->st.warp_instructions += 1;
            barrier_arrive(e, w, t);
            continue;
        case SIM_OP_EXIT:
        default:
            e->st.warp_instructions += 1;
            warp_exit(e, w, t);
            continue;
        }
        warp_resume(e, w, ready, op->last);
    }

    double cycles = e->end_warps > e->end_mem ? e->end_warps : e->end_mem;
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
