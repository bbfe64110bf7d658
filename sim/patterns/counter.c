/* counter.c - `counter`: if selected, atomicAdd(&count, 1).  Every selected
 * lane targets one address: the worst case of same-address contention,
 * unless lanes are merged before they leave the SM. */
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
        sim_op_alu(op, pc_instr(c, 1, 1, 0, 0));
        return;
    case 1:
        if (w->active) {
            pc_global(op, SIM_OP_GATOMIC, SIM_ATOMIC_ADD, COUNT, 0, w->active);
            op->last = 1;
            op->uniform_address = 1;
            FOR_LANES(w->active, l)
            {
                op->index[l] = 0;
                op->operand[l] = 1;
            }
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

const sim_pattern sim_pattern_counter = { PAT_COUNTER, setup, pc_nop_start, step, check, NULL };
