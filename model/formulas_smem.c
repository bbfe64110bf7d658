/* formulas_smem.c - shared-memory atomics (bank conflicts, same-word
 * serialization), privatized histograms and the per-workgroup flush. */
#include "formulas.h"

#include <math.h>
#include <string.h>

double mdl_nonzero_bins(double bins, double threads)
{
    return mdl_distinct(bins, threads);
}

/* The simulator's rule (sim/smem.c): each distinct word costs its bank one
 * pass plus same_word_cycles per extra lane on it; the worst bank sets the
 * instruction's time.  Consecutive words up to the bank count never share
 * a bank; beyond it the chosen words fall on banks at random. */
double mdl_smem_warp_cycles(const cfg_config *c, double lanes, double words)
{
    double pass = c->smem.atomic_issue_cycles;
    if (lanes <= 0)
        return pass;
    double d = mdl_distinct(words, lanes);
    double per_word = lanes / d;
    double banks = c->smem.bank_count;
    double words_per_bank = words <= banks ? 1 : mdl_max_load(d, banks);
    return words_per_bank * (pass + (per_word - 1) * c->smem.same_word_cycles);
}

/* One warp of the workgroup walks ceil(K / wg) strided iterations in the
 * zeroing and the flush loop; the warps' shared atomics queue at their SM's
 * shared-memory unit.  As in the simulator (sim/smem.c eng_smem_issue), an
 * iteration's counter, compare and address instructions are a dependent
 * chain (core.alu_latency_cycles each) and its back-edge branch holds the
 * warp smem.loop_branch_cycles: a zeroing store costs that and a one-cycle
 * pass, a flush load that, the pass and the load's latency (the test needs
 * the word), and each flush instruction that sends anything its issue and
 * the SM port's time (docs/findings.md #14). */
double mdl_privatized_histogram_cycles(const cfg_config *c, int wg, double bins, double *flush_ops)
{
    const cfg_core *k = &c->core;
    double L = c->gpu.subgroup_size, warps = ceil(wg / L);
    double iters = ceil(bins / wg);
    double branch = c->smem.loop_branch_cycles;
    double zero = iters * (mdl_alu_chain_cycles(c, 2) + branch + 1);
    double key = mdl_alu_chain_cycles(c, k->key_instructions + k->bin_instructions + k->address_instructions);
    double local = warps * mdl_smem_warp_cycles(c, L, bins) + c->smem.atomic_latency_cycles;
    double group = bins < L ? bins : L;
    double sends = iters * -expm1(wg * log1p(-fmin(1, group / bins))); /* a warp's flush instructions that send */
    double flush = iters * (mdl_alu_chain_cycles(c, 2 + k->address_instructions) + branch + 1 + c->smem.access_latency_cycles) +
                   sends * (1 + c->coalesce.lsu_cycles_per_request);
    if (flush_ops)
        *flush_ops = mdl_nonzero_bins(bins, wg);
    return zero + 2 * k->barrier_cycles + key + local + flush + k->exit_cycles;
}

/* Sectors of a line's `words` words (8 to a sector) with a non-zero bin,
 * each bin non-zero with probability p: the passes of its flush request. */
static double line_passes(double words, double p)
{
    double passes = 0;
    for (double first = 0; first < words; first += 8) {
        double w = words - first < 8 ? words - first : 8;
        passes += p >= 1 ? 1 : -expm1(w * log1p(-p));
    }
    return passes;
}

double mdl_flush_busiest_passes(const cfg_config *c, double bins, double p_nonzero)
{
    double line_words = c->coalesce.line_bytes / 4.0;
    double full = floor(bins / line_words), last = bins - full * line_words;
    double p_full = line_passes(line_words, p_nonzero), p_last = last > 0 ? line_passes(last, p_nonzero) : 0;
    double lines = full + (last > 0);
    mdl_slice_hash h;
    mdl_slice_hash_init(c, &h);
    if (lines > MDL_MAX_COUNTED_LINES || !h.ok)
        return (full * p_full + p_last) * mdl_busiest_slice_lines(c, lines) / lines;
    double on[MDL_MAX_SLICES];
    memset(on, 0, (size_t)h.slices * sizeof on[0]);
    double busiest = 0;
    for (long l = 0; l < (long)lines; l++) {
        long sl = mdl_slice_of_line(&h, l);
        on[sl] += l < (long)full ? p_full : p_last;
        if (on[sl] > busiest)
            busiest = on[sl];
    }
    return busiest;
}

double mdl_workgroup_flush_cycles(const cfg_config *c, int wg)
{
    const cfg_core *k = &c->core;
    double L = c->gpu.subgroup_size, warps = ceil(wg / L);
    double key = mdl_alu_chain_cycles(c, k->key_instructions + 1);
    /* smem[0] is a constant word: the compiler may sum the lanes first, and
     * one lane adds (sim/smem.c smem_cycles), as pat_reduce's unit time has it */
    double lanes = mdl_merge_mode(c, 1, 0) == MDL_MERGE_SUM ? 1 : L;
    double local = warps * mdl_smem_warp_cycles(c, lanes, 1) + c->smem.atomic_latency_cycles;
    return key + local + k->barrier_cycles + c->smem.access_latency_cycles + 1 + k->exit_cycles;
}

double mdl_privatized_smem_busy_cycles(const cfg_config *c, int wg, double bins)
{
    double L = c->gpu.subgroup_size, warps = ceil(wg / L);
    double passes = ceil(bins / L); /* strided stores and loads, one pass each */
    return 2 * passes + warps * mdl_smem_warp_cycles(c, L, bins);
}
