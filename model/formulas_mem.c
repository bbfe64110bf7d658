/* formulas_mem.c - the address stream of a warp's atomic instruction
 * (distinct addresses and lines, what merges), and the throughput bounds
 * behind it: same-address serialization, the busiest L2 slice, the SM
 * memory ports and DRAM. */
#include "formulas.h"

#include <math.h>

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

void mdl_warp_aggregation(const cfg_config *c, double s, int uniform_address, mdl_warp_op *w)
{
    double L = c->gpu.subgroup_size;
    enum mdl_merge m = mdl_merge_mode(c, uniform_address, 0);
    w->p_issue = p_any(s, L);
    w->lanes = w->p_issue > 0 ? L * s / w->p_issue : 0;
    w->addresses = 1;
    w->requests = 1;
    w->ops = mdl_ops_of(m, w->lanes, 1, 1);
    w->hot_op_share = w->hot_lane_share = w->hot_line_share = 1;
    w->words = w->lines = 1;
    w->summed = m == MDL_MERGE_SUM;
}

void mdl_warp_histogram(const cfg_config *c, double k, double f, int is_cas, mdl_warp_op *w)
{
    double L = c->gpu.subgroup_size;
    double per_line = c->coalesce.line_bytes / 4.0;
    double q0 = f + (1 - f) / k, qo = (1 - f) / k;
    double nl = ceil(k / per_line), wl = k < per_line ? k : per_line;
    double p0 = q0 + (wl - 1) * qo, pl = wl * qo;
    enum mdl_merge m = mdl_merge_mode(c, 0, is_cas);
    double uni0 = pow(q0, L), uni = uni0 + (k - 1) * pow(qo, L);
    w->p_issue = 1;
    w->lanes = L;
    w->addresses = p_any(q0, L) + (k - 1) * p_any(qo, L);
    w->requests = p_any(p0, L) + (nl - 1) * p_any(pl, L);
    w->ops = mdl_ops_of(m, L, w->addresses, uni);
    w->hot_lane_share = q0;
    /* ops on bin 0 and on its line, by merge rule */
    double ops0, opsl0, addr_l0 = p_any(q0, L) + (wl - 1) * p_any(qo, L);
    double uni_l0 = uni0 + (wl - 1) * pow(qo, L);
    switch (m) {
    case MDL_MERGE_NONE:
        ops0 = L * q0;
        opsl0 = L * p0;
        break;
    case MDL_MERGE_IF_UNIFORM:
        ops0 = uni0 + L * q0 - L * uni0;
        opsl0 = uni_l0 + L * p0 - L * uni_l0;
        break;
    default:
        ops0 = p_any(q0, L);
        opsl0 = addr_l0;
        break;
    }
    w->hot_op_share = w->ops > 0 ? fmin(1, ops0 / w->ops) : 0;
    w->hot_line_share = w->ops > 0 ? fmin(1, opsl0 / w->ops) : 0;
    w->words = k;
    w->lines = nl;
    w->summed = 0;
}

void mdl_warp_distinct_lines(const cfg_config *c, double p, mdl_warp_op *w)
{
    double L = c->gpu.subgroup_size;
    enum mdl_merge m = mdl_merge_mode(c, 0, 0);
    w->p_issue = 1;
    w->lanes = L;
    w->addresses = p < L ? p : L;
    w->requests = w->addresses; /* one address per line */
    w->ops = mdl_ops_of(m, L, w->addresses, p <= 1 ? 1 : 0);
    w->hot_op_share = w->hot_lane_share = w->hot_line_share = 1 / p;
    w->words = w->lines = p;
    w->summed = 0;
}

void mdl_warp_bitmask(const cfg_config *c, double n, double s, mdl_warp_op *w)
{
    double L = c->gpu.subgroup_size;
    double words_per_warp = L > 32 ? L / 32 : 1;
    enum mdl_merge m = mdl_merge_mode(c, 0, 0);
    w->p_issue = p_any(s, L);
    w->lanes = w->p_issue > 0 ? L * s / w->p_issue : 0;
    w->addresses = words_per_warp;
    w->requests = 1;
    w->ops = mdl_ops_of(m, w->lanes, words_per_warp, L <= 32 ? 1 : 0);
    w->words = ceil(n / 32);
    w->lines = ceil(w->words / (c->coalesce.line_bytes / 4.0));
    w->hot_op_share = w->hot_lane_share = 1 / w->words;
    w->hot_line_share = 1 / w->lines;
    w->summed = 0;
}

double mdl_same_address_cycles(const cfg_config *c, double ops, double lanes, int summed)
{
    double extra = summed || lanes <= ops ? 0 : lanes - ops;
    return ops * c->l2.same_address_cycles + extra * c->l2.merged_lane_cycles;
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

double mdl_busiest_slice_lines(const cfg_config *c, double lines)
{
    if (lines <= 0)
        return 0;
    double il = c->l2.interleave_lines;
    double chunks = ceil(lines / il);
    double busiest = mdl_max_load(chunks, c->l2.slice_count) * il;
    return busiest < lines ? busiest : lines;
}

double mdl_l2_slice_cycles(const cfg_config *c, double ops, double lines)
{
    if (lines < 1)
        lines = 1;
    return ops * (mdl_busiest_slice_lines(c, lines) / lines) * c->l2.atomic_issue_cycles;
}

double mdl_l2_aggregate_cycles(const cfg_config *c, double ops)
{
    return ops * c->l2.atomic_issue_cycles / c->l2.slice_count;
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

/* First touch reads each line's sector once; beyond the L2's capacity a
 * fraction of the ops misses and moves a sector each way. */
double mdl_atomic_dram_bytes(const cfg_config *c, double lines, double ops)
{
    double cap_lines = c->l2.size_bytes / c->coalesce.line_bytes;
    double bytes = 32.0 * (lines < cap_lines ? lines : cap_lines);
    if (lines > cap_lines)
        bytes += 64.0 * ops * (1 - cap_lines / lines);
    return bytes;
}
