/* formulas_mem.c - the address stream of a warp's atomic instruction
 * (distinct addresses and lines, what merges), and the throughput bounds
 * behind it: same-address serialization, the busiest L2 slice, the SM
 * memory ports and DRAM. */
#include "formulas.h"

#include <math.h>
#include <string.h>

double mdl_distinct(double k, double draws)
{
    if (k <= 1)
        return k > 0 ? 1 : 0;
    return k * -expm1(draws * log1p(-1.0 / k));
}

/* 1 - (1 - p)^n without cancellation for small p. */
static double p_any(double p, double n)
{
    if (p >= 1)
        return 1;
    if (p <= 0)
        return 0;
    return -expm1(n * log1p(-p));
}

enum mdl_merge mdl_merge_mode(const cfg_config *c, int uniform_address, int is_cas)
{
    if (is_cas)
        return c->coalesce.merge_cas ? MDL_MERGE_PER_ADDRESS : MDL_MERGE_NONE;
    if (uniform_address && c->coalesce.compiler_aggregation)
        return MDL_MERGE_SUM;
    switch (c->coalesce.merge_rule) {
    case CFG_MERGE_NONE:
        return MDL_MERGE_NONE;
    case CFG_MERGE_PER_ADDRESS:
        return MDL_MERGE_PER_ADDRESS;
    default:
        return MDL_MERGE_IF_UNIFORM;
    }
}

double mdl_ops_of(enum mdl_merge m, double lanes, double addresses, double p_uniform)
{
    switch (m) {
    case MDL_MERGE_NONE:
        return lanes;
    case MDL_MERGE_IF_UNIFORM:
        return p_uniform + (1 - p_uniform) * lanes;
    case MDL_MERGE_PER_ADDRESS:
        return addresses;
    case MDL_MERGE_SUM:
    default:
        return lanes > 0 ? 1 : 0;
    }
}

/* Sector by sector: a sector of the line holds 8 words; the uniformly
 * spread lanes fall on it in proportion to its words, the hot lanes on the
 * first sector's first word.  A sector costs the lanes on its most-hit
 * word, or one pass when each word is one op. */
double mdl_request_passes(const cfg_config *c, double lanes, double hot, double words, int merged)
{
    double per_sector = 8, spread = lanes - hot;
    if (lanes <= 0)
        return 0;
    if (words < 1)
        words = 1;
    double line_words = c->coalesce.line_bytes / 4.0;
    if (words > line_words)
        words = line_words;
    double passes = 0;
    for (double first = 0; first < words; first += per_sector) {
        double w = words - first < per_sector ? words - first : per_sector;
        double u = spread * w / words;    /* spread lanes on this sector */
        double h = first == 0 ? hot : 0;  /* hot lanes on its first word */
        if (merged) {
            double p_used = h > 0 ? 1 : -expm1(-u);
            passes += p_used;
            continue;
        }
        double spread_max = mdl_max_load(u, w);
        double hot_word = h + u / w;
        passes += hot_word > spread_max ? hot_word : spread_max;
    }
    return passes;
}

void mdl_warp_aggregation(const cfg_config *c, double s, int uniform_address, mdl_warp_op *w)
{
    memset(w, 0, sizeof *w);
    double L = c->gpu.subgroup_size;
    enum mdl_merge m = mdl_merge_mode(c, uniform_address, 0);
    int merged = m != MDL_MERGE_NONE; /* one address: the uniform rule merges too */
    w->p_issue = p_any(s, L);
    w->lanes = w->p_issue > 0 ? L * s / w->p_issue : 0;
    w->addresses = 1;
    w->requests = 1;
    w->ops = merged ? 1 : w->lanes;
    w->passes = merged ? 1 : w->lanes;
    w->hot_requests = 1;
    w->hot_request_passes = w->passes;
    /* a whole warp on one address adds as one sum (see merged_sum) */
    w->merged_sum = m == MDL_MERGE_SUM || m == MDL_MERGE_IF_UNIFORM;
    w->hot_merged_lanes = merged && !w->merged_sum ? w->lanes - 1 : 0;
    w->hot_pass_share = 1;
    w->words = w->lines = 1;
}

void mdl_warp_histogram(const cfg_config *c, double k, double f, int is_cas, mdl_warp_op *w)
{
    memset(w, 0, sizeof *w);
    double L = c->gpu.subgroup_size;
    double per_line = c->coalesce.line_bytes / 4.0;
    double q0 = f + (1 - f) / k, qo = (1 - f) / k;
    double nl = ceil(k / per_line), wl = k < per_line ? k : per_line;
    double p0 = q0 + (wl - 1) * qo, pl = wl * qo;
    enum mdl_merge m = mdl_merge_mode(c, 0, is_cas);
    double uni0 = pow(q0, L), uni = uni0 + (k - 1) * pow(qo, L);
    double req0 = p_any(p0, L), reqo = p_any(pl, L);
    /* merged: always (per_address, merge_cas), or only for the rare
     * instruction whose lanes all hit one word (uniform rule) */
    double p_merge = m == MDL_MERGE_PER_ADDRESS ? 1 : m == MDL_MERGE_IF_UNIFORM ? uni : 0;
    w->p_issue = 1;
    w->lanes = L;
    w->addresses = p_any(q0, L) + (k - 1) * p_any(qo, L);
    w->requests = req0 + (nl - 1) * reqo;
    w->ops = mdl_ops_of(m, L, w->addresses, uni);
    /* line 0 holds bin 0: the f lanes, and its share of the spread ones */
    double lanes0 = L * p0 / req0, hot0 = L * f / req0;
    double pass0 = mdl_request_passes(c, lanes0, hot0, wl, 0), pass0m = mdl_request_passes(c, lanes0, hot0, wl, 1);
    double passo = 0, passom = 0;
    if (nl > 1) {
        double lanes_o = L * pl / reqo;
        passo = mdl_request_passes(c, lanes_o, 0, wl, 0);
        passom = mdl_request_passes(c, lanes_o, 0, wl, 1);
    }
    double line0 = req0 * ((1 - p_merge) * pass0 + p_merge * pass0m);
    w->passes = line0 + (nl - 1) * reqo * ((1 - p_merge) * passo + p_merge * passom);
    w->hot_pass_share = w->passes > 0 ? line0 / w->passes : 1;
    /* requests that include bin 0, and their passes */
    w->hot_requests = p_any(q0, L);
    w->hot_request_passes = (1 - p_merge) * pass0 + p_merge * pass0m;
    w->merged_sum = m != MDL_MERGE_PER_ADDRESS;
    w->hot_merged_lanes = m == MDL_MERGE_PER_ADDRESS ? L * q0 / w->hot_requests - 1 : 0;
    w->words = k;
    w->lines = nl;
}

void mdl_warp_distinct_lines(const cfg_config *c, double p, mdl_warp_op *w)
{
    memset(w, 0, sizeof *w);
    double L = c->gpu.subgroup_size;
    enum mdl_merge m = mdl_merge_mode(c, 0, 0);
    int merged = p <= 1 ? m != MDL_MERGE_NONE : m == MDL_MERGE_PER_ADDRESS;
    w->p_issue = 1;
    w->lanes = L;
    w->addresses = p < L ? p : L;
    w->requests = w->addresses; /* one address per line */
    double per = L / w->requests; /* lanes on each address */
    w->ops = merged ? w->addresses : L;
    w->passes = w->requests * (merged ? 1 : per);
    /* A request's lanes on its one word chain through the read-modify-
     * write; a slice interleaving that line with others pays
     * l2.word_chain_cycles a link, shared by its lines (sim/memsys.c: the
     * distinct lines among its last 4 requests), where that beats the
     * pass rate: P = 2 and 4 put two lines a slice (H100: 897 and 452 us
     * at n = 2^20, 16% over 1.45-cycle passes). */
    double slice_lines = fmin(fmin(mdl_slice_chunk_lines(c, p), p), 4);
    if (!merged && per > 1 && slice_lines > 1 && c->l2.word_chain_cycles > 0)
        w->passes *= fmax(1, c->l2.word_chain_cycles / (slice_lines * c->l2.atomic_issue_cycles));
    w->hot_requests = p < L ? 1 : L / p;
    w->hot_request_passes = merged ? 1 : per;
    w->merged_sum = m != MDL_MERGE_PER_ADDRESS;
    w->hot_merged_lanes = m == MDL_MERGE_PER_ADDRESS ? per - 1 : 0;
    w->hot_pass_share = 1 / p;
    w->words = w->lines = p;
    w->cyclic = 1;
}

void mdl_warp_bitmask(const cfg_config *c, double n, double s, mdl_warp_op *w)
{
    memset(w, 0, sizeof *w);
    double L = c->gpu.subgroup_size;
    double words_per_warp = L > 32 ? L / 32 : 1;
    enum mdl_merge m = mdl_merge_mode(c, 0, 0);
    int merged = L <= 32 ? m != MDL_MERGE_NONE : m == MDL_MERGE_PER_ADDRESS;
    w->p_issue = p_any(s, L);
    w->lanes = w->p_issue > 0 ? L * s / w->p_issue : 0;
    w->addresses = words_per_warp;
    w->requests = 1;
    w->ops = merged ? words_per_warp : w->lanes;
    w->passes = mdl_request_passes(c, w->lanes, 0, words_per_warp, merged);
    w->hot_requests = words_per_warp / ceil(n / 32); /* each word belongs to one warp */
    w->hot_request_passes = w->passes;
    w->merged_sum = m != MDL_MERGE_PER_ADDRESS;
    w->hot_merged_lanes = m == MDL_MERGE_PER_ADDRESS ? w->lanes / words_per_warp - 1 : 0;
    w->words = ceil(n / 32);
    w->lines = ceil(w->words / (c->coalesce.line_bytes / 4.0));
    w->hot_pass_share = 1 / w->lines;
}

double mdl_same_address_chain_cycles(const cfg_config *c, double requests, double passes, double merged_lanes)
{
    return mdl_chain_cycles_at(c, requests, passes, merged_lanes, c->l2.merged_lane_cycles);
}

double mdl_chain_cycles_at(const cfg_config *c, double requests, double passes, double merged_lanes, double lane_cycles)
{
    double per = (passes > 1 ? passes - 1 : 0) * c->l2.atomic_issue_cycles + c->l2.same_address_cycles +
                 (merged_lanes > 0 ? merged_lanes : 0) * lane_cycles;
    double floor_ = passes * c->l2.atomic_issue_cycles; /* the passes themselves, when the chain is shorter */
    return requests * (per > floor_ ? per : floor_);
}

/* E[max] = sum over m >= 0 of P(max > m), with the bins independent
 * Poisson(lambda); the Gaussian extreme-value form beyond lambda 64, where
 * the sum would need hundreds of terms. */
double mdl_max_load(double balls, double bins)
{
    if (balls <= 0)
        return 0;
    if (bins <= 1 || balls <= 1)
        return balls;
    double lambda = balls / bins, e;
    if (lambda > 64) {
        e = lambda + sqrt(2 * lambda * log(bins));
    } else {
        double term = exp(-lambda), cdf = term;
        e = 0;
        for (int m = 0; m < 1000; m++) {
            double tail = -expm1(bins * log(cdf < 1 ? cdf : 1));
            if (tail < 1e-12)
                break;
            e += tail;
            term *= lambda / (m + 1);
            cdf += term;
        }
    }
    if (e < 1)
        e = 1;
    return e < balls ? e : balls;
}

void mdl_slice_hash_init(const cfg_config *c, mdl_slice_hash *h)
{
    unsigned mask = (unsigned)c->l2.hash_ignore_mask;
    h->interleave = c->l2.interleave_lines > 1 ? c->l2.interleave_lines : 1;
    h->slices = c->l2.slice_count;
    h->ok = c->l2.slice_hash == CFG_HASH_MOD && h->slices >= 1 && h->slices <= MDL_MAX_SLICES;
    h->low_bits = mask ? 32 - __builtin_clz(mask) : 0;
    h->nkept = 0;
    for (int b = 0; b < h->low_bits; b++)
        if (!(mask >> b & 1))
            h->kept[h->nkept++] = b;
}

long mdl_slice_of_line(const mdl_slice_hash *h, long line)
{
    line /= h->interleave;
    long packed = 0;
    for (int k = 0; k < h->nkept; k++)
        packed |= (line >> h->kept[k] & 1) << k;
    packed |= line >> h->low_bits << h->nkept;
    return packed % h->slices;
}

/* Lines of a run of `lines` consecutive lines that share one slice: a
 * chunk of l2.interleave_lines, doubled by each line-index bit that the
 * slice hash ignores (l2.hash_ignore_mask) and that the run spans. */
double mdl_slice_chunk_lines(const cfg_config *c, double lines)
{
    double il = c->l2.interleave_lines, chunks = ceil(lines / il), chunk = il;
    for (int b = 0; b < 31; b++)
        if ((c->l2.hash_ignore_mask >> b & 1) && (double)(1u << b) < chunks)
            chunk *= 2;
    return chunk;
}

/* The chunks go to distinct slices (the slice hash permutes consecutive
 * chunk numbers, in the simulator and, by the distinct-lines data, on the
 * H100), so the busiest slice holds ceil(chunks / slices) chunks. */
double mdl_busiest_slice_lines(const cfg_config *c, double lines)
{
    if (lines <= 0)
        return 0;
    double chunk = mdl_slice_chunk_lines(c, lines);
    double chunks = ceil(lines / chunk);
    double busiest = ceil(chunks / c->l2.slice_count) * chunk;
    return busiest < lines ? busiest : lines;
}

double mdl_partition_share(const cfg_config *c, double lines)
{
    double block = c->l2.partition_block_lines;
    if (block <= 0 || c->l2.partition_link_requests_per_cycle <= 0)
        return 0;
    if (lines <= block)
        return 1;
    double full = floor(lines / block), rest = lines - full * block;
    double even = ceil(full / 2) * block, odd = floor(full / 2) * block;
    if (fmod(full, 2) == 0)
        even += rest;
    else
        odd += rest;
    return (even > odd ? even : odd) / lines;
}

double mdl_partition_cycles(const cfg_config *c, double requests, double share, double port_cycles)
{
    double link = c->l2.partition_link_requests_per_cycle;
    if (link <= 0 || share <= 0 || requests <= 0 || port_cycles <= 0)
        return 0;
    /* Each side's SMs run at their ports or at the link's rate over the
     * share of their requests that cross (`share` for the side away from the
     * busier half, the rest for the near side), whichever is lower: a full
     * link queue holds them, and the other side takes on the workgroups
     * they cannot. */
    double side = c->gpu.sm_count / 2.0 / port_cycles;
    double far = link / share < side ? link / share : side;
    double near = share < 1 && link / (1 - share) < side ? link / (1 - share) : side;
    return requests / (near + far);
}

double mdl_lsu_cycles(const cfg_config *c, double requests)
{
    return requests * c->coalesce.lsu_cycles_per_request / c->gpu.sm_count;
}

double mdl_dram_cycles(const cfg_config *c, double bytes)
{
    return bytes / cfg_dram_bytes_per_cycle(c);
}

double mdl_l2_store_cycles(const cfg_config *c, double stores)
{
    return stores * c->l2.store_issue_cycles / c->l2.slice_count;
}

/* First touch reads each line's sector once.  Beyond the L2's capacity a
 * fraction of the ops misses: the line is filled whole and evicts a line
 * whose updated sector goes back to DRAM (every resident line is dirty).
 * Random targets miss in proportion to what does not fit; a cyclic sweep
 * (distinct-lines: i % P) misses every time under LRU once it does not fit
 * (H100: 2^19 and 2^20 lines time alike), its fill being its first touch;
 * with l2.warm_start its first misses evict the clear's lines, which are
 * clean (sim/memsys.c, mem_open). */
double mdl_atomic_dram_bytes(const cfg_config *c, double lines, double ops, int cyclic)
{
    double cap_lines = c->l2.size_bytes / c->coalesce.line_bytes;
    double bytes = 32.0 * (lines < cap_lines ? lines : cap_lines);
    if (lines > cap_lines && cyclic)
        return (c->coalesce.line_bytes + 32.0) * ops - (c->l2.warm_start ? 32.0 * fmin(ops, cap_lines) : 0);
    if (lines > cap_lines)
        bytes += (c->coalesce.line_bytes + 32.0) * ops * (1 - cap_lines / lines);
    return bytes;
}
