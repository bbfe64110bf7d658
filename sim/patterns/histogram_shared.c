/* histogram_shared.c - `histogram-shared`: privatized bins in shared
 * memory.  Zero them in a workgroup-strided loop, barrier, one shared atomic
 * per thread, barrier, then flush each non-zero bin with one global atomic.
 * Global traffic scales with workgroups x bins, not with n.  The zero loop
 * is one repeated store and the flush scans with a repeated load that stops
 * at the first chunk holding a non-zero bin, so a warp costs a few events
 * however many bins it owns. */
#include "common.h"

#include <stdlib.h>

enum { BINS };
enum { ZERO_STORE, BAR1, KEY, LOCAL_ADD, BAR2, FLUSH_LOAD, FLUSH_ADD, DONE };

int sim_histogram_reference(const sim_ctx *c, uint32_t hot_threshold, uint32_t **out, char err[CFG_ERR_MAX]);

static int setup(const sim_ctx *c, sim_layout *lay, char err[CFG_ERR_MAX])
{
    (void)err;
    lay->count = 1;
    lay->buf[BINS] = (sim_buffer_decl){ c->p->bins, 1, 1 };
    return 0;
}

/* Lanes whose strided index k = lane_id + iter * wg is below K. */
static uint64_t strided_mask(const sim_ctx *c, const sim_warp *w, sim_op *op)
{
    uint64_t mask = 0;
    uint32_t base = w->warp_in_wg * (uint32_t)c->lanes + w->iter * (uint32_t)c->p->wg;
    for (int l = 0; l < c->lanes; l++) {
        uint32_t k = base + (uint32_t)l;
        if (k < c->p->bins) {
            mask |= 1ull << l;
            op->index[l] = k;
        }
    }
    return mask;
}

/* Iterations of the strided loop over the bins that this warp runs. */
static uint32_t chunks(const sim_ctx *c, const sim_warp *w)
{
    uint32_t first = w->warp_in_wg * (uint32_t)c->lanes;
    uint32_t wg = (uint32_t)c->p->wg;
    return first < c->p->bins ? (c->p->bins - first + wg - 1) / wg : 0;
}

/* The loop's remaining iterations as one repeated shared op. */
static void strided_loop(const sim_ctx *c, sim_warp *w, sim_op *op, enum sim_op_kind kind, int instructions)
{
    op->kind = kind;
    op->instructions = instructions;
    op->mask = strided_mask(c, w, op);
    op->repeat = chunks(c, w) - w->iter;
    op->repeat_stride = (uint32_t)c->p->wg;
    op->index_limit = c->p->bins;
}

static void step(const sim_ctx *c, sim_warp *w, sim_op *op)
{
    for (;;) {
        switch (w->pc) {
        case ZERO_STORE:
            w->pc = BAR1;
            if (!chunks(c, w))
                continue;
            strided_loop(c, w, op, SIM_OP_SSTORE, 2); /* loop counter and compare */
            FOR_LANES(op->mask, l)
            {
                op->operand[l] = 0;
            }
            return;
        case BAR1:
            w->pc = KEY;
            op->kind = SIM_OP_BARRIER;
            return;
        case KEY:
            FOR_LANES(w->valid, l)
            {
                w->v[l] = pat_bin(sim_lane_key(w, (int)l), c->p->bins, 0);
            }
            w->pc = LOCAL_ADD;
            sim_op_alu(op, pc_instr(c, 1, 0, 1, 1));
            return;
        case LOCAL_ADD:
            w->pc = BAR2;
            if (!w->valid)
                continue;
            op->kind = SIM_OP_SATOMIC;
            op->result_used = 0;
            op->mask = w->valid;
            FOR_LANES(w->valid, l)
            {
                op->index[l] = w->v[l];
                op->operand[l] = 1;
            }
            return;
        case BAR2:
            w->pc = FLUSH_LOAD;
            w->iter = 0;
            op->kind = SIM_OP_BARRIER;
            return;
        case FLUSH_LOAD:
            if (w->iter >= chunks(c, w)) {
                w->pc = DONE;
                continue;
            }
            strided_loop(c, w, op, SIM_OP_SLOAD, 2 + c->cfg->core.address_instructions); /* loop, test, address */
            op->until_nonzero = 1;
            w->pc = FLUSH_ADD;
            return;
        case FLUSH_ADD: {
            /* w->ret holds the words of the scan's last chunk */
            uint64_t nz = 0;
            w->iter += w->burst_done - 1;
            uint64_t mask = strided_mask(c, w, op);
            FOR_LANES(mask, l)
            {
                if (w->ret[l]) {
                    nz |= 1ull << l;
                    op->operand[l] = w->ret[l];
                }
            }
            w->iter++;
            w->pc = FLUSH_LOAD;
            if (!nz)
                continue;
            pc_global(op, SIM_OP_GATOMIC, SIM_ATOMIC_ADD, BINS, 0, nz);
            return;
        }
        default:
            sim_op_exit(op);
            return;
        }
    }
}

static int check(const sim_ctx *c, const sim_memview *m, char err[CFG_ERR_MAX])
{
    uint32_t *ref;
    if (sim_histogram_reference(c, 0, &ref, err))
        return -1;
    for (uint32_t b = 0; b < c->p->bins; b++)
        if (m->words[BINS][b] != ref[b]) {
            snprintf(err, CFG_ERR_MAX, "bin %u holds %u, expected %u", b, m->words[BINS][b], ref[b]);
            free(ref);
            return -1;
        }
    free(ref);
    return 0;
}

const sim_pattern sim_pattern_histogram_shared = { PAT_HISTOGRAM_SHARED, setup, pc_nop_start, step, check, NULL };
