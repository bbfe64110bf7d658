/* reduce.c - `reduce`: every thread adds key & 255 to one shared word,
 * barrier, then thread 0 adds the workgroup's sum to the global total
 * (seed 000's per-workgroup flush).  Global contention = workgroups. */
#include "common.h"

enum { TOTAL };

static int setup(const sim_ctx *c, sim_layout *lay, char err[CFG_ERR_MAX])
{
    return pc_setup_one_word(c, lay, err);
}

static void step(const sim_ctx *c, sim_warp *w, sim_op *op)
{
    switch (w->pc++) {
    case 0:
        sim_op_alu(op, pc_instr(c, 1, 0, 0, 0) + 1);
        return;
    case 1:
        if (w->valid) {
            op->kind = SIM_OP_SATOMIC;
            op->result_used = 0;
            op->uniform_address = 1; /* smem[0]: the compiler may sum the warp first */
            op->mask = w->valid;
            FOR_LANES(w->valid, l)
            {
                op->index[l] = 0;
                op->operand[l] = sim_lane_key(w, (int)l) & 255u;
            }
            return;
        }
        w->pc++;
        /* fall through */
    case 2:
        op->kind = SIM_OP_BARRIER;
        return;
    case 3:
        if (w->warp_in_wg == 0) {
            op->kind = SIM_OP_SLOAD;
            op->mask = 1;
            op->index[0] = 0;
            return;
        }
        break;
    case 4:
        pc_global(op, SIM_OP_GATOMIC, SIM_ATOMIC_ADD, TOTAL, 0, 1);
        op->uniform_address = 1;
        op->index[0] = 0;
        op->operand[0] = w->ret[0];
        return;
    }
    sim_op_exit(op);
}

static int check(const sim_ctx *c, const sim_memview *m, char err[CFG_ERR_MAX])
{
    uint32_t want = 0;
    for (uint64_t i = 0; i < c->p->n; i++)
        want += pat_key((uint32_t)i) & 255u;
    if (m->words[TOTAL][0] != want) {
        snprintf(err, CFG_ERR_MAX, "total is %u, expected %u", m->words[TOTAL][0], want);
        return -1;
    }
    return 0;
}

const sim_pattern sim_pattern_reduce = { PAT_REDUCE, setup, pc_nop_start, step, check, NULL };
