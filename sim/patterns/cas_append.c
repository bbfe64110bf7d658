/* cas_append.c - `cas-append`: if selected, claim an output slot with a
 * compare-and-swap loop on the head (seed 000's lock-free append), then
 * write the key there.  Every failure re-enters the L2 queue. */
#include "common.h"

enum { HEAD, OUT };

static int setup(const sim_ctx *c, sim_layout *lay, char err[CFG_ERR_MAX])
{
    lay->cas = 1;
    return pc_setup_head_out(c, lay, err);
}

/* w->v: key; w->u: the head value this lane expects. */
static void step(const sim_ctx *c, sim_warp *w, sim_op *op)
{
    switch (w->pc) {
    case 0:
        w->active = pc_select(c, w);
        w->pc = 1;
        sim_op_alu(op, pc_instr(c, 1, 1, 0, 0));
        return;
    case 1: /* old = atomicAdd(&head, 0) */
        if (!w->active)
            break;
        w->pc = 2;
        pc_global(op, SIM_OP_GATOMIC, SIM_ATOMIC_ADD, HEAD, 1, w->active);
        op->uniform_address = 1;
        FOR_LANES(w->active, l)
        {
            op->index[l] = 0;
            op->operand[l] = 0;
        }
        return;
    case 2:
        w->pc = 3;
        sim_op_alu(op, c->cfg->core.cas_loop_instructions);
        return;
    case 3:
        w->pc = 4;
        pc_global(op, SIM_OP_GATOMIC, SIM_ATOMIC_CAS, HEAD, 1, w->active);
        op->uniform_address = 1;
        FOR_LANES(w->active, l)
        {
            w->u[l] = w->ret[l];
            op->index[l] = 0;
            op->compare[l] = w->u[l];
            op->operand[l] = w->u[l] + 1;
        }
        return;
    case 4: {
        uint64_t won = 0;
        FOR_LANES(w->active, l)
        {
            if (w->ret[l] == w->u[l])
                won |= 1ull << l;
        }
        w->active &= ~won;
        w->pc = w->active ? 2 : 5;
        if (won) {
            pc_global(op, SIM_OP_GSTORE, SIM_ATOMIC_ADD, OUT, 0, won);
            FOR_LANES(won, l)
            {
                op->index[l] = w->u[l];
                op->operand[l] = w->v[l];
            }
            return;
        }
        sim_op_alu(op, c->cfg->core.cas_loop_instructions);
        w->pc = 3;
        return;
    }
    }
    sim_op_exit(op);
}

static int check(const sim_ctx *c, const sim_memview *m, char err[CFG_ERR_MAX])
{
    return pc_check_compacted(c, m->words[OUT], m->stores[OUT], m->words[HEAD][0], c->p->n, err);
}

/* Fast-forward (sim/fastfwd.c): each selected thread that never ran
 * claims the next slot and writes its key there; one unit each. */
static double ff_skip(const sim_ctx *c, const sim_memrw *m, uint64_t first, uint64_t count)
{
    double units = 0;
    for (uint64_t t = first; t < first + count; t++) {
        uint32_t k = pat_key((uint32_t)t);
        if (!pat_selected(k, c->sel_threshold))
            continue;
        units++;
        if (!m)
            continue;
        uint32_t slot = m->words[HEAD][0]++;
        m->words[OUT][slot] = k;
        if (m->stores[OUT][slot] < 255)
            m->stores[OUT][slot]++;
    }
    return units;
}

const sim_pattern sim_pattern_cas_append = { PAT_CAS_APPEND, setup, pc_nop_start, step, check, ff_skip };
