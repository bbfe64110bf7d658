/* store.c - `store`: if selected, out[i] = key.  No atomics: the floor that
 * every atomic pattern is compared with. */
#include "common.h"

enum { OUT };

static int setup(const sim_ctx *c, sim_layout *lay, char err[CFG_ERR_MAX])
{
    (void)err;
    lay->count = 1;
    lay->buf[OUT] = (sim_buffer_decl){ c->p->n, 1, 0 };
    return 0;
}

static void step(const sim_ctx *c, sim_warp *w, sim_op *op)
{
    switch (w->pc++) {
    case 0:
        w->active = pc_select(c, w);
        sim_op_alu(op, pc_instr(c, 1, 1, 0, 1));
        return;
    case 1:
        if (w->active) {
            pc_global(op, SIM_OP_GSTORE, SIM_ATOMIC_ADD, OUT, 0, w->active);
            op->last = 1;
            FOR_LANES(w->active, l)
            {
                op->index[l] = (uint32_t)(w->first_thread + l);
                op->operand[l] = w->v[l];
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
    for (uint64_t i = 0; i < c->p->n; i++) {
        uint32_t k = pat_key((uint32_t)i);
        int sel = pat_selected(k, c->sel_threshold);
        if (m->stores[OUT][i] != (sel ? 1 : 0) || (sel && m->words[OUT][i] != k)) {
            snprintf(err, CFG_ERR_MAX, "out[%llu] is wrong", (unsigned long long)i);
            return -1;
        }
    }
    return 0;
}

const sim_pattern sim_pattern_store = { PAT_STORE, setup, pc_nop_start, step, check, NULL };
