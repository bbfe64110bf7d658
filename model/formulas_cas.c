/* formulas_cas.c - compare-and-swap loops under contention: retry
 * amplification, the time of one word's race, and the sub-word (8/16-bit)
 * emulation that turns every histogram update into such a loop. */
#include "formulas.h"

#include <math.h>
#include <string.h>

double mdl_cas_issue_cycles(const cfg_config *c)
{
    return c->l2.cas_issue_cycles > 0 ? c->l2.cas_issue_cycles : c->l2.atomic_issue_cycles;
}

double mdl_cas_attempts(double n, double cap)
{
    return mdl_cas_attempts_at(n, cap, 1);
}

/* The contenders of one slot sit at uniform places in the race they joined
 * together, and the slot frees only when its last one wins (k/(k+1) of the
 * way): its contenders are in their loops (1/2)/(k/(k+1)) of its time. */
double mdl_cas_active_share(double slot_contenders)
{
    return slot_contenders > 1 ? (slot_contenders + 1) / (2 * slot_contenders) : 1;
}

double mdl_cas_attempts_at(double n, double cap, double active)
{
    if (n <= 0)
        return 0;
    /* every contender tries at least once: under one contender a word
     * (fewer lanes than words) N(N+1)/2 would count fewer tries than wins */
    if (cap <= 0 || cap >= n)
        return fmax(n, n * (n + 1) / 2);
    if (cap < 1) /* fewer than one contender at a time is one at a time: n attempts */
        cap = 1;
    double busy = active * cap > 1 ? active * cap : 1;
    return busy * (n - cap) + cap * (cap + 1) / 2;
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

int mdl_cas_law(const cfg_config *c)
{
    return c->model.cas_saving_exponent > 0;
}

/* One SM's racers are first-come exactly; across SMs the GPU makes fewer
 * attempts, the more racers the fewer (docs/findings.md 16-18 measured it,
 * 48 fits it to the probes' counts).  No SM count between one and many was
 * measured, so two SMs already take the saving. */
double mdl_cas_saving(const cfg_config *c, double racers, double workgroups)
{
    const cfg_model *m = &c->model;
    double sms = fmin((double)c->gpu.sm_count, workgroups); /* workgroups start one an SM */
    if (!mdl_cas_law(c) || sms <= 1 || racers <= m->cas_saving_knee_lanes)
        return 1;
    return pow(racers / m->cas_saving_knee_lanes, -m->cas_saving_exponent);
}

/* A success needs a CAS that carries the current value.  After one lands,
 * every attempt already queued carries the old value and fails; the first
 * lane to see the new value re-enters behind them.  So with k contenders
 * in their loops a success costs the whole queue, k lanes at lane_cycles
 * each, or one loop round trip when the queue is shorter than that. */
void mdl_cas_race_of(const cfg_config *c, double n, double cap, double m, double lane_cycles, double slot_contenders,
                     double saving, mdl_cas_race *r)
{
    mdl_cas_race_rtt(c, n, cap, m, lane_cycles, slot_contenders, saving,
                     mdl_global_atomic_latency_cycles(c) + mdl_alu_chain_cycles(c, c->core.cas_loop_instructions), r);
}

void mdl_cas_race_rtt(const cfg_config *c, double n, double cap, double m, double lane_cycles, double slot_contenders,
                      double saving, double rtt_cycles, mdl_cas_race *r)
{
    if (m < 1)
        m = 1;
    if (cap <= 0 || cap > n)
        cap = n;
    if (cap < 1 && n >= 1)
        cap = 1;
    r->rtt_cycles = rtt_cycles;
    double active = mdl_cas_active_share(slot_contenders), busy = fmax(active * cap, 1);
    /* the saving is the last wave's, once no workgroup joins: while new
     * ones keep arriving the GPU's count is first-come (findings 48); and
     * never fewer tries than wins, as in mdl_cas_attempts_at */
    r->attempts = fmax(n, busy * (n - cap) + saving * cap * (cap + 1) / 2);
    r->ops = c->coalesce.merge_cas ? r->attempts / m : r->attempts;
    r->cycles = sum_max_linear(cap, r->rtt_cycles, saving * lane_cycles) + (n - cap) * fmax(r->rtt_cycles, busy * lane_cycles);
}

void mdl_cas_spread_of(double per_word, double cap, mdl_cas_spread *s)
{
    s->terms = 0;
    s->share = 0;
    /* no race below two lanes a word; all resident: the count is fixed */
    if (!(per_word >= 2 && cap > 0 && cap < per_word && cap < MDL_CAS_SPREAD_NONE_CAP))
        return;
    double others = per_word - 1, p = cap / per_word, q = 1 - p;
    double mean = others * p, sd = sqrt(others * p * q);
    /* the window that holds all but a negligible tail (6 sd, and 6 for a
     * small mean), within the array */
    double lo = fmax(0, floor(mean - 6 * sd - 6)), hi = fmin(floor(others), ceil(mean + 6 * sd + 6));
    if (hi - lo + 1 > MDL_CAS_SPREAD_TERMS)
        hi = lo + MDL_CAS_SPREAD_TERMS - 1;
    /* pmf(j) of Binomial(others, p), from its log at lo, then by recurrence */
    double pmf = exp(lgamma(others + 1) - lgamma(lo + 1) - lgamma(others - lo + 1) + lo * log(p) + (others - lo) * log1p(-p));
    double sum = 0;
    for (double j = lo; j <= hi; j++) {
        s->k[s->terms] = 1 + j;
        s->w[s->terms] = pmf;
        sum += pmf;
        s->terms++;
        pmf *= (others - j) / (j + 1) * p / q;
    }
    if (!(sum > 0)) {
        s->terms = 0;
        return;
    }
    for (int i = 0; i < s->terms; i++)
        s->w[i] /= sum;
    s->share = cap <= MDL_CAS_SPREAD_FULL_CAP
                   ? 1
                   : (MDL_CAS_SPREAD_NONE_CAP - cap) / (MDL_CAS_SPREAD_NONE_CAP - MDL_CAS_SPREAD_FULL_CAP);
}

/* Full lines on the busiest slice, and on the partial line's slice: counted
 * exactly (a hash block at a time, below) for up to MDL_MAX_COUNTED_LINES
 * lines, else the chunked estimate (mdl_busiest_slice_lines), where one
 * short line matters little. */
static void busiest_of(const cfg_config *c, mdl_subword *s)
{
    long full = (long)s->full_lines, total = full + (s->last_words > 0);
    mdl_slice_hash h;
    mdl_slice_hash_init(c, &h);
    s->busiest_full = s->partial_slice_full = 0;
    if (total > MDL_MAX_COUNTED_LINES || !h.ok) {
        s->busiest_full = fmin(mdl_busiest_slice_lines(c, s->lines), (double)full);
        s->partial_slice_full = s->busiest_full - (s->last_words > 0 && s->busiest_full >= 1);
        return;
    }
    long count[MDL_MAX_SLICES];
    /* only the slices there are: an export asks this for every cell */
    memset(count, 0, (size_t)h.slices * sizeof count[0]);
    /* A chunk of `interleave` lines shares a slice, and the chunks of one
     * block of 2^low_bits chunks that differ only in the bits the hash
     * ignores share one too: so a whole block adds interleave x 2^ignored
     * lines to each of its 2^nkept slices (mdl_slice_of_line, counted a
     * block at a time), and the last, partial block line by line. */
    long block_chunks = 1L << h.low_bits, per_slice = h.interleave << (h.low_bits - h.nkept);
    long blocks = full / (h.interleave * block_chunks);
    for (long j = 0; j < blocks; j++)
        for (long t = 0; t < 1L << h.nkept; t++)
            count[((j << h.nkept) | t) % h.slices] += per_slice;
    for (long l = blocks * h.interleave * block_chunks; l < full; l++)
        count[mdl_slice_of_line(&h, l)]++;
    for (long sl = 0; sl < h.slices; sl++)
        if (count[sl] > s->busiest_full)
            s->busiest_full = (double)count[sl];
    if (s->last_words > 0)
        s->partial_slice_full = count[mdl_slice_of_line(&h, full)];
}

void mdl_subword_of(const cfg_config *c, double n, double bins, int bits, mdl_subword *s)
{
    double per = 32.0 / bits, line_words = c->coalesce.line_bytes / 4.0;
    s->bins_per_word = bins < per ? bins : per;
    s->words = ceil(bins / per);
    s->lines = ceil(s->words / line_words);
    s->full_lines = floor(s->words / line_words);
    s->last_words = s->words - s->full_lines * line_words;
    s->per_word = n / s->words;
    busiest_of(c, s);
}

/* Expected sectors hit by `a` uniform lanes over `words` of the buffer's
 * `total` words, in 8-word sectors from a sector boundary. */
static double sectors_hit(double a, double words, double total)
{
    double full = floor(words / 8), rest = words - full * 8;
    double hit = full * -expm1(a * log1p(-8 / total));
    if (rest > 0)
        hit += -expm1(a * log1p(-rest / total));
    return hit;
}

void mdl_subword_instr(const cfg_config *c, const mdl_subword *s, double a, mdl_subword_instr_t *o)
{
    double line_words = c->coalesce.line_bytes / 4.0, W = s->words, line_passes[2] = { 0, 0 };
    int merged = c->coalesce.merge_cas;
    o->requests = o->passes = o->words_hit = 0;
    /* a line of w words is hit with 1 - (1 - w/W)^a; merged, it takes a
     * pass per sector hit, otherwise its sectors' most-hit words' lanes */
    for (int part = 0; part < 2; part++) {
        double w = part ? s->last_words : line_words, lines = part ? (s->last_words > 0) : s->full_lines;
        if (w <= 0 || lines <= 0)
            continue;
        double p_hit = w >= W ? 1 : -expm1(a * log1p(-w / W));
        double per_line = a * w / W / p_hit;
        line_passes[part] = merged ? sectors_hit(a, w, W) : p_hit * mdl_request_passes(c, per_line, 0, w, 0);
        o->requests += lines * p_hit;
        o->passes += lines * line_passes[part];
        o->words_hit += lines * p_hit * mdl_distinct(w, per_line);
    }
    o->busiest_passes = fmax(s->busiest_full * line_passes[0], s->partial_slice_full * line_passes[0] + line_passes[1]);
}
