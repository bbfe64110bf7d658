/* fastfwd.c - compare-and-swap runs past the event budget: steady
 * workgroups skipped.
 *
 * A retry loop's events grow with its successes times the warps racing for
 * each word, so a CAS pattern over many waves of workgroups can need far
 * more events than sim.max_events.  Where the projected events pass
 * FF_SHARE of the budget, the engine measures windows (cycles, events and
 * counters per unit, a unit being one lane's successful compare-and-swap),
 * each at least budget / FF_WINDOWS events and a wave's worth of launches.
 * Once the stream is steady it skips the last workgroups of the grid, as
 * many as the budget cannot run: a stationary stream costs K workgroups K
 * times what one costs at the measured rate, as sampled simulators skip
 * the repetitive part of a kernel.  The skipped threads write their
 * results (the pattern's ff_skip), so the functional check covers every
 * thread; their time and counters are added at the window's rates.  The
 * rest, the last wave's drain included, runs in detail: a run whose
 * resident workgroups alone need more than the budget still stops at it
 * (docs/findings.md, section 43: the drain policies tried).  A run whose
 * projection stays within FF_SHARE of the budget is the detailed run. */
#include "engine_int.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The share of sim.max_events a fast-forwarded run plans to use: the rest
 * absorbs the error of its event projections. */
#define FF_SHARE 0.75
/* Windows a budget holds: their length. */
#define FF_WINDOWS 128.0
/* Fewer units than this in a window measure no rate: the window goes on. */
#define FF_MIN_UNITS 64.0
/* FF_RATES windows in a row whose cycles per unit lie within this of each
 * other are steady. */
#define FF_STEADY 0.05

/* The engine's counters a skipped unit adds to, before the memory's. */
static const size_t eng_counters[] = {
    offsetof(atom_stats, warp_instructions),   offsetof(atom_stats, smem_atomic_instructions),
    offsetof(atom_stats, smem_conflict_cycles), offsetof(atom_stats, stall_issue_cycles),
    offsetof(atom_stats, stall_memory_cycles),  offsetof(atom_stats, stall_backpressure_cycles),
    offsetof(atom_stats, stall_barrier_cycles), offsetof(atom_stats, stall_smem_cycles),
    offsetof(atom_stats, split_exit_warps),
};
#define FF_ENG (int)(sizeof eng_counters / sizeof eng_counters[0])

static double *eng_counter(atom_stats *st, int i)
{
    return (double *)(void *)((char *)st + eng_counters[i]);
}

static void counters(sim_engine *e, double *v)
{
    for (int i = 0; i < FF_ENG; i++)
        v[i] = *eng_counter(&e->st, i);
    mem_ff_read(e->mem, v + FF_ENG);
}

double eng_ff_estimate(const sim_engine *e, int *allocs)
{
    if (!e->pat->ff_skip)
        return 0;
    *allocs += 1;
    return 4.0 * (FF_ENG + mem_ff_count(e->nslices)) * sizeof(double);
}

int eng_ff_open(sim_engine *e)
{
    /* deferred compare-and-swaps (l2.cas_service random or class) hold
     * requests across windows in a way no skip accounts for: not offered */
    e->ff_on = e->pat->ff_skip && !e->cas_deferred;
    if (!e->ff_on)
        return 1;
    e->ff_nsnap = FF_ENG + mem_ff_count(e->nslices);
    e->ff_snap = calloc(4 * (size_t)e->ff_nsnap, sizeof(double));
    if (!e->ff_snap)
        return 0;
    e->ff_now = e->ff_snap + e->ff_nsnap;
    e->ff_per_unit = e->ff_now + e->ff_nsnap;
    e->ff_added = e->ff_per_unit + e->ff_nsnap;
    return 1;
}

void eng_ff_close(sim_engine *e)
{
    free(e->ff_snap);
}

void eng_ff_start(sim_engine *e)
{
    e->ff_windows = 0;
    e->ff_every = e->budget / FF_WINDOWS;
    e->ff_next_check = e->ff_on ? e->ff_every : INFINITY;
    e->ff_cycles_per_unit = 0;
    memset(e->ff_rates, 0, sizeof e->ff_rates);
    e->ff_offset_cycles = e->ff_units_skipped = 0;
    e->ff_units_total = -1; /* counted at the first measured window: runs that never get there pay nothing */
    if (e->ff_on)
        memset(e->ff_added, 0, (size_t)e->ff_nsnap * sizeof(double));
}

static void window_reset(sim_engine *e, double t, double units)
{
    e->ff_t0 = t;
    e->ff_units0 = units;
    e->ff_events0 = e->events;
    e->ff_wg0 = e->next_wg;
    counters(e, e->ff_snap);
}

/* The last workgroups still to launch, about `units` worth of them: their
 * threads complete at once, and their time and counters are charged at the
 * last window's rates. */
static void skip_last(sim_engine *e, double units, double future_units)
{
    uint64_t future_wgs = e->wg_end - e->next_wg;
    uint64_t k = (uint64_t)(units / future_units * (double)future_wgs + 0.5);
    if (k > future_wgs)
        k = future_wgs;
    if (!k)
        return;
    uint64_t first = (e->wg_end - k) * (uint64_t)e->p.wg, end = e->wg_end * (uint64_t)e->p.wg;
    if (end > e->p.n)
        end = e->p.n;
    sim_memrw rw;
    mem_view_rw(e->mem, &rw);
    double done = e->pat->ff_skip(&e->ctx, &rw, first, end - first);
    e->wg_end -= k;
    e->ff_units_skipped += done;
    e->ff_offset_cycles += done * e->ff_cycles_per_unit;
    for (int i = 0; i < e->ff_nsnap; i++)
        e->ff_added[i] += done * e->ff_per_unit[i];
}

void eng_ff_checkpoint(sim_engine *e, double t)
{
    e->ff_next_check = e->events + e->ff_every;
    double units = mem_cas_successes(e->mem);
    if (e->ff_windows++ == 0) { /* the first window holds the start: no steady rate */
        window_reset(e, t, units);
        return;
    }
    /* a window spans at least a wave's worth of launches, so that it
     * averages over the phases of a wave whose workgroups start and end
     * together, and FF_MIN_UNITS units */
    double du = units - e->ff_units0, dt = t - e->ff_t0;
    if (du < FF_MIN_UNITS || e->next_wg - e->ff_wg0 < (uint64_t)e->nslots || dt <= 0)
        return;
    if (e->next_wg >= e->wg_end) { /* every workgroup has launched: nothing to skip */
        e->ff_next_check = INFINITY;
        return;
    }
    if (e->ff_units_total < 0)
        e->ff_units_total = e->pat->ff_skip(&e->ctx, NULL, 0, e->p.n);
    counters(e, e->ff_now);
    for (int i = 0; i < e->ff_nsnap; i++)
        e->ff_per_unit[i] = (e->ff_now[i] - e->ff_snap[i]) / du;
    e->ff_cycles_per_unit = dt / du;
    /* only windows that began once every slot had relaunched (the first
     * wave starts all at once) count towards a steady rate */
    memmove(e->ff_rates + 1, e->ff_rates, (FF_RATES - 1) * sizeof e->ff_rates[0]);
    e->ff_rates[0] = e->ff_wg0 >= 2 * (uint64_t)e->nslots ? e->ff_cycles_per_unit : 0;
    double events_per_unit = (e->events - e->ff_events0) / du;
    window_reset(e, t, units);

    double remaining = e->ff_units_total - units - e->ff_units_skipped;
    uint64_t launched = e->next_wg * (uint64_t)e->p.wg, end = e->wg_end * (uint64_t)e->p.wg;
    double future_threads = (double)((end < e->p.n ? end : e->p.n) - (launched < e->p.n ? launched : e->p.n));
    double future = future_threads * e->ff_units_total / (double)e->p.n;
    double room = e->budget * FF_SHARE - e->events;
    double fits = room > 0 ? room / events_per_unit : 0; /* units the budget can still run */
    if (remaining <= fits || future <= 0)
        return;
    /* steady: the last FF_RATES windows agree.  Relaunches alone do not
     * show it: a slot whose first workgroup had nothing to do relaunches
     * early (sparse cas-append); nor does the first wave's end, which a
     * race may starve to the last (cas-append at S = 1, one workgroup an
     * SM: 95 of its 132 first workgroups ran to the end) */
    double lo = e->ff_rates[0], hi = lo;
    for (int i = 1; i < FF_RATES; i++) {
        lo = fmin(lo, e->ff_rates[i]);
        hi = fmax(hi, e->ff_rates[i]);
    }
    if (!(lo > 0) || hi > lo * (1 + FF_STEADY))
        return;
    double skip = remaining - fits;
    skip_last(e, skip < future ? skip : future, future);
}

void eng_ff_finish(sim_engine *e, atom_stats *st)
{
    if (!e->ff_on || e->wg_end == e->wg_total)
        return;
    const double *a = e->ff_added;
    for (int i = 0; i < FF_ENG; i++)
        *eng_counter(st, i) += a[i];
    mem_ff_add(e->mem, a + FF_ENG, 1);
    st->fast_forward_share = e->ff_units_total > 0 ? e->ff_units_skipped / e->ff_units_total : 0;
}
