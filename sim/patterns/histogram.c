/* histogram.c - `histogram`: atomicAdd(&bins[b], 1) with b the key's bin,
 * or bin 0 for the hot fraction F of threads.  Contention per bin falls with
 * K until the lanes of a warp spread over many lines. */
#include "common.h"

#include <stdlib.h>

enum { BINS };

static int setup(const sim_ctx *c, sim_layout *lay, char err[CFG_ERR_MAX])
{
    (void)err;
    lay->count = 1;
    lay->buf[BINS] = (sim_buffer_decl){ c->p->bins, 1, 1 };
    return 0;
}

static void step(const sim_ctx *c, sim_warp *w, sim_op *op)
{
    switch (w->pc++) {
    case 0: /* every lane computed, masked ones included: plain loops are cheaper */
        if (c->hot_threshold)
            for (int l = 0; l < c->lanes; l++)
                w->v[l] = pat_bin(sim_lane_key(w, l), c->p->bins, c->hot_threshold);
        else if (c->bins_mask)
            for (int l = 0; l < c->lanes; l++)
                w->v[l] = (sim_lane_key(w, l) >> 3) & c->bins_mask;
        else
            for (int l = 0; l < c->lanes; l++)
                w->v[l] = (sim_lane_key(w, l) >> 3) % c->p->bins;
        sim_op_alu(op, pc_instr(c, 1, 0, 1, 1));
        return;
    case 1:
        if (w->valid) {
            pc_global(op, SIM_OP_GATOMIC, SIM_ATOMIC_ADD, BINS, 0, w->valid);
            op->last = 1;
            memcpy(op->index, w->v, (size_t)c->lanes * sizeof op->index[0]);
            for (int l = 0; l < c->lanes; l++)
                op->operand[l] = 1;
            return;
        }
        /* fall through */
    default:
        sim_op_exit(op);
    }
}

/* Shared by the histogram variants: expected counts per bin. */
int sim_histogram_reference(const sim_ctx *c, uint32_t hot_threshold, uint32_t **out, char err[CFG_ERR_MAX])
{
    uint32_t *ref = calloc(c->p->bins, sizeof *ref);
    if (!ref) {
        snprintf(err, CFG_ERR_MAX, "out of memory for the reference histogram");
        return -1;
    }
    if (!hot_threshold && c->bins_mask) {
        /* bins computed a block at a time (a loop the compiler vectorizes),
         * then counted: the check is a tenth of a large run otherwise */
        enum { BLOCK = 1024 };
        uint32_t bin[BLOCK];
        uint64_t i = 0;
        for (; i + BLOCK <= c->p->n; i += BLOCK) {
            for (uint32_t k = 0; k < BLOCK; k++)
                bin[k] = (pat_key((uint32_t)i + k) >> 3) & c->bins_mask;
            for (uint32_t k = 0; k < BLOCK; k++)
                ref[bin[k]]++;
        }
        for (; i < c->p->n; i++)
            ref[(pat_key((uint32_t)i) >> 3) & c->bins_mask]++;
    } else
        for (uint64_t i = 0; i < c->p->n; i++)
            ref[pat_bin(pat_key((uint32_t)i), c->p->bins, hot_threshold)]++;
    *out = ref;
    return 0;
}

static int check(const sim_ctx *c, const sim_memview *m, char err[CFG_ERR_MAX])
{
    uint32_t *ref;
    if (sim_histogram_reference(c, c->hot_threshold, &ref, err))
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

const sim_pattern sim_pattern_histogram = { PAT_HISTOGRAM, setup, pc_nop_start, step, check, NULL };
