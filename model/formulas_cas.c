/* formulas_cas.c - compare-and-swap loops under contention: retry
 * amplification, the time of one word's race, and the sub-word (8/16-bit)
 * emulation that turns every histogram update into such a loop. */
#include "formulas.h"

#include <math.h>

double mdl_cas_attempts(double n, double cap)
{
    if (n <= 0)
        return 0;
    if (cap <= 0 || cap >= n)
        return n * (n + 1) / 2;
    if (cap < 1) /* fewer than one contender at a time is one at a time: n attempts */
        cap = 1;
    return cap * (n - cap) + cap * (cap + 1) / 2;
}

/* sum_{j=1..a} max(rtt, j c), continuous in the crossover j0 = rtt / c. */
static double sum_max_linear(double a, double rtt, double c)
{
    if (a <= 0)
        return 0;
    double j0 = c > 0 ? rtt / c : a;
    if (j0 > a)
        j0 = a;
    return rtt * j0 + c * (a * (a + 1) / 2 - j0 * (j0 + 1) / 2);
}

/* A success needs a CAS that carries the current value.  After one lands,
 * every attempt already queued carries the old value and fails; the first
 * lane to see the new value re-enters behind them.  So with k contenders
 * in their loops a success costs the whole queue, k lanes at lane_cycles
 * each, or one loop round trip when the queue is shorter than that. */
void mdl_cas_race_of(const cfg_config *c, double n, double cap, double m, double lane_cycles, mdl_cas_race *r)
{
    if (m < 1)
        m = 1;
    if (cap <= 0 || cap > n)
        cap = n;
    if (cap < 1 && n >= 1)
        cap = 1;
    r->rtt_cycles = mdl_global_atomic_latency_cycles(c) + mdl_alu_chain_cycles(c, c->core.cas_loop_instructions);
    r->attempts = mdl_cas_attempts(n, cap);
    r->ops = c->coalesce.merge_cas ? r->attempts / m : r->attempts;
    r->cycles = sum_max_linear(cap, r->rtt_cycles, lane_cycles) + (n - cap) * fmax(r->rtt_cycles, cap * lane_cycles);
}

void mdl_subword_of(const cfg_config *c, double n, double bins, int bits, mdl_subword *s)
{
    double per = 32.0 / bits;
    s->bins_per_word = bins < per ? bins : per;
    s->words = ceil(bins / per);
    s->lines = ceil(s->words / (c->coalesce.line_bytes / 4.0));
    s->per_word = n / s->words;
}
