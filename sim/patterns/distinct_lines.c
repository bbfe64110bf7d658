/* distinct_lines.c - `distinct-lines`: atomicAdd(&word[(i % P) * 32], 1):
 * P addresses, one per 128-byte line.  Separates per-address serialization
 * (small P) from per-request costs (every lane its own line). */
#include "common.h"

enum { WORDS };

static int setup(const sim_ctx *c, sim_layout *lay, char err[CFG_ERR_MAX])
{
    (void)err;
    lay->count = 1;
    lay->buf[WORDS] = (sim_buffer_decl){ c->p->addresses, 32, 1 };
    return 0;
}

static void step(const sim_ctx *c, sim_warp *w, sim_op *op)
{
    switch (w->pc++) {
    case 0:
        sim_op_alu(op, pc_instr(c, 1, 0, 0, 1) + 2);
        return;
    case 1:
        if (w->valid) {
            pc_global(op, SIM_OP_GATOMIC, SIM_ATOMIC_ADD, WORDS, 0, w->valid);
            op->last = 1;
            FOR_LANES(w->valid, l)
            {
                op->index[l] = (uint32_t)((w->first_thread + l) % c->p->addresses);
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
    uint64_t P = c->p->addresses, n = c->p->n;
    for (uint64_t j = 0; j < P; j++) {
        uint64_t want = n / P + (j < n % P ? 1 : 0);
        if (m->words[WORDS][j] != (uint32_t)want) {
            snprintf(err, CFG_ERR_MAX, "address %llu holds %u, expected %llu", (unsigned long long)j, m->words[WORDS][j],
                     (unsigned long long)want);
            return -1;
        }
    }
    return 0;
}

const sim_pattern sim_pattern_distinct_lines = { PAT_DISTINCT_LINES, setup, pc_nop_start, step, check, NULL };
