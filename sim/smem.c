/* smem.c - the SM's shared-memory unit: bank conflicts and same-word
 * serialization of one warp instruction, its values, and the loop chain
 * of a repeated op.  The only file of sim/ that reads the [smem] keys. */
#include "engine_int.h"

#include <string.h>

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
double eng_smem_issue(sim_engine *e, int w, double t, sim_op *op)
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

