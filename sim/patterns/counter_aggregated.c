/* counter_aggregated.c - `counter-aggregated`: a subgroup ballot of the
 * selected lanes; one elected lane adds the ballot's bit count.  One L2 op
 * per warp at most, whatever the hardware merges. */
#include "common.h"

enum { COUNT };

static int setup(const sim_ctx *c, sim_layout *lay, char err[CFG_ERR_MAX])
{
    return pc_setup_one_word(c, lay, err);
}

static void step(const sim_ctx *c, sim_warp *w, sim_op *op)
{
    switch (w->pc++) {
    case 0:
        w->active = pc_select(c, w);
        sim_op_alu(op, pc_instr(c, 1, 1, 0, 0) + c->cfg->core.subgroup_op_instructions);
        return;
    case 1:
        if (w->active) {
            int leader = __builtin_ctzll(w->active);
            pc_global(op, SIM_OP_GATOMIC, SIM_ATOMIC_ADD, COUNT, 0, 1ull << leader);
            op->last = 1;
        op->uniform_address = 1;
            op->index[leader] = 0;
            op->operand[leader] = (uint32_t)__builtin_popcountll(w->active);
            return;
        }
        /* fall through */
    default:
        sim_op_exit(op);
    }
}

static int check(const sim_ctx *c, const sim_memview *m, char err[CFG_ERR_MAX])
{
    return pc_check_count(c, m->words[COUNT], err);
}

const sim_pattern sim_pattern_counter_aggregated = { PAT_COUNTER_AGGREGATED, setup, pc_nop_start, step, check, NULL };
