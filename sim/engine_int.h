/* engine_int.h - what the engine's files share and nothing else sees
 * (engine.h is the public side): the sim_engine struct, the event heap and
 * the small per-event helpers (static inline, so that the split into
 * files costs the event loop no call), and the functions one file calls
 * in another:
 *   engine.c     open, close, the event loop, deferred compare-and-swaps
 *   workgroup.c  workgroups' launch, barriers and exits (split exits)
 *   smem.c       the SM's shared-memory unit
 *   fastfwd.c    compare-and-swap runs past the event budget: steady
 *                workgroups skipped */
#ifndef ATOM_SIM_ENGINE_INT_H
#define ATOM_SIM_ENGINE_INT_H

#include "engine.h"

#include <stdint.h>

#include "memsys.h"
#include "pattern.h"

/* fastfwd.c: the windows whose rates must agree before a skip */
#define FF_RATES 3

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
    uint64_t wg_end;         /* launched up to here: wg_total less the workgroups a fast-forward skipped */
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
    /* fast-forward (fastfwd.c): windows of ff_every events; ff_next_check
     * is infinite for a run that cannot be fast-forwarded */
    int ff_on, ff_windows, ff_nsnap;
    double ff_next_check, ff_every;
    double ff_t0, ff_units0, ff_events0; /* the window since the last checkpoint */
    uint64_t ff_wg0;                     /* next_wg at the window's start */
    double ff_rates[FF_RATES];           /* the last windows' cycles per unit, newest first */
    double ff_cycles_per_unit;
    double *ff_snap, *ff_now, *ff_per_unit, *ff_added; /* counters: the engine's, then the memory's */
    double ff_offset_cycles, ff_units_skipped, ff_units_total;
    atom_stats st;
    sim_op op;
    char err[CFG_ERR_MAX];
};

static inline uint32_t mix32(uint32_t x)
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

static inline void heap_push(sim_engine *e, double t, uint32_t warp)
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

static inline event heap_pop(sim_engine *e)
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

/* workgroup.c: hands slot `slot` its next workgroup at t and schedules its warps */
void eng_launch_wg(sim_engine *e, int slot, double t);
/* workgroup.c: warp w leaves at t; the last of its workgroup frees the slot */
void eng_warp_exit(sim_engine *e, int w, double t);
/* workgroup.c: warp w reaches its workgroup's barrier at t */
void eng_barrier_arrive(sim_engine *e, int w, double t);
/* smem.c: warp w's shared-memory op issued at t; returns when the warp may go on */
double eng_smem_issue(sim_engine *e, int w, double t, sim_op *op);

/* fastfwd.c: memory (estimate, open, close) and a run's start */
double eng_ff_estimate(const sim_engine *e, int *allocs);
int eng_ff_open(sim_engine *e);
void eng_ff_close(sim_engine *e);
void eng_ff_start(sim_engine *e);
/* fastfwd.c: at every ff_every events; t is the event's time */
void eng_ff_checkpoint(sim_engine *e, double t);
/* fastfwd.c: the skipped workgroups' counters into the results */
void eng_ff_finish(sim_engine *e, atom_stats *st);

/* The L2 acknowledged one of warp w's global stores or atomics at `ack`:
 * with launch.retire_waits_for_acks its slot frees no earlier. */
static inline void slot_ack(sim_engine *e, int w, double ack)
{
    wg_slot *s = &e->slots[e->warp_slot[w]];
    if (ack > s->ack_time)
        s->ack_time = ack;
}

/* Warp w is ready for its next operation at `ready`; `last`: the pattern
 * exits right after the op it finished, so it leaves without an event. */
static inline void warp_resume(sim_engine *e, int w, double ready, int last)
{
    if (last) {
        e->st.warp_instructions += 1;
        eng_warp_exit(e, w, ready);
    } else
        heap_push(e, ready, (uint32_t)w);
}

#endif
