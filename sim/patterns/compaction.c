/* compaction.c - `compaction`: if selected, slot = atomicAdd(&head, 1);
 * out[slot] = key.  The returned slot is used, so the warp waits for the
 * atomic's round trip before its dependent store. */
#include "common.h"

enum { HEAD, OUT };

static int setup(const sim_ctx *c, sim_layout *lay, char err[CFG_ERR_MAX])
{
    return pc_setup_head_out(c, lay, err);
}

static void step(const sim_ctx *c, sim_warp *w, sim_op *op)
{
    switch (w->pc++) {
    case 0:
        w->active = pc_select(c, w);
        sim_op_alu(op, pc_instr(c, 1, 1, 0, 0));
        return;
    case 1:
        if (!w->active)
            break;
        pc_global(op, SIM_OP_GATOMIC, SIM_ATOMIC_ADD, HEAD, 1, w->active);
        op->uniform_address = 1;
        FOR_LANES(w->active, l)
        {
            op->index[l] = 0;
            op->operand[l] = 1;
        }
        return;
    case 2:
        sim_op_alu(op, pc_instr(c, 0, 0, 0, 1));
        return;
    case 3:
        pc_global(op, SIM_OP_GSTORE, SIM_ATOMIC_ADD, OUT, 0, w->active);
        FOR_LANES(w->active, l)
        {
            op->index[l] = w->ret[l];
            op->operand[l] = w->v[l];
        }
        return;
    }
    sim_op_exit(op);
}

static int check(const sim_ctx *c, const sim_memview *m, char err[CFG_ERR_MAX])
{
    return pc_check_compacted(c, m->words[OUT], m->stores[OUT], m->words[HEAD][0], c->p->n, err);
}

const sim_pattern sim_pattern_compaction = { PAT_COMPACTION, setup, pc_nop_start, step, check, NULL };
