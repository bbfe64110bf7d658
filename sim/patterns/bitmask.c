/* bitmask.c - `bitmask`: if selected, atomicOr(&mask[i >> 5], 1 << (i & 31)).
 * The 32 lanes of a warp share one word, so merging decides its cost. */
#include "common.h"

enum { MASK };

static int setup(const sim_ctx *c, sim_layout *lay, char err[CFG_ERR_MAX])
{
    (void)err;
    lay->count = 1;
    lay->buf[MASK] = (sim_buffer_decl){ (c->p->n + 31) / 32, 1, 1 };
    return 0;
}

static void step(const sim_ctx *c, sim_warp *w, sim_op *op)
{
    switch (w->pc++) {
    case 0:
        w->active = pc_select(c, w);
        sim_op_alu(op, pc_instr(c, 1, 1, 0, 1) + 2);
        return;
    case 1:
        if (w->active) {
            pc_global(op, SIM_OP_GATOMIC, SIM_ATOMIC_OR, MASK, 0, w->active);
            op->last = 1;
            FOR_LANES(w->active, l)
            {
                uint64_t i = w->first_thread + l;
                op->index[l] = (uint32_t)(i >> 5);
                op->operand[l] = 1u << (i & 31);
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
    uint64_t words = (c->p->n + 31) / 32;
    for (uint64_t wd = 0; wd < words; wd++) {
        uint32_t want = 0;
        for (uint64_t i = wd * 32; i < wd * 32 + 32 && i < c->p->n; i++)
            if (pat_selected(pat_key((uint32_t)i), c->sel_threshold))
                want |= 1u << (i & 31);
        if (m->words[MASK][wd] != want) {
            snprintf(err, CFG_ERR_MAX, "mask word %llu is %08x, expected %08x", (unsigned long long)wd, m->words[MASK][wd], want);
            return -1;
        }
    }
    return 0;
}

const sim_pattern sim_pattern_bitmask = { PAT_BITMASK, setup, pc_nop_start, step, check, NULL };
