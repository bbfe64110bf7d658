/* subword.h - 8- and 16-bit histogram bins emulated with 32-bit CAS, as a
 * compiler does for a language without sub-word atomics: read the word
 * (atomicAdd 0), then CAS the word with the field incremented until no other
 * lane changed it in between.  Shared by histogram_u8_cas.c and
 * histogram_u16_cas.c. */
#ifndef ATOM_SIM_PATTERNS_SUBWORD_H
#define ATOM_SIM_PATTERNS_SUBWORD_H

#include <stdlib.h>

#include "common.h"

enum { SW_WORDS };
int sim_histogram_reference(const sim_ctx *c, uint32_t hot_threshold, uint32_t **out, char err[CFG_ERR_MAX]);

static inline int sw_setup(const sim_ctx *c, sim_layout *lay, unsigned bits)
{
    uint32_t per = 32u / bits;
    lay->count = 1;
    lay->cas = 1;
    lay->buf[SW_WORDS] = (sim_buffer_decl){ (c->p->bins + per - 1) / per, 1, 1 };
    return 0;
}

/* w->u packs (word << 5) | shift; w->v holds the expected old value. */
static inline void sw_step(const sim_ctx *c, sim_warp *w, sim_op *op, unsigned bits)
{
    uint32_t per = 32u / bits, field = (1u << bits) - 1;
    switch (w->pc) {
    case 0:
        FOR_LANES(w->valid, l)
        {
            uint32_t b = pat_bin(sim_lane_key(w, (int)l), c->p->bins, 0);
            w->u[l] = ((b / per) << 5) | ((b % per) * bits);
        }
        w->active = w->valid;
        w->pc = 1;
        sim_op_alu(op, pc_instr(c, 1, 0, 1, 1) + 2);
        return;
    case 1: /* old = atomicAdd(&w, 0) */
        w->pc = 2;
        if (!w->active)
            break;
        pc_global(op, SIM_OP_GATOMIC, SIM_ATOMIC_ADD, SW_WORDS, 1, w->active);
        FOR_LANES(w->active, l)
        {
            op->index[l] = w->u[l] >> 5;
            op->operand[l] = 0;
        }
        return;
    case 2:
        w->pc = 3;
        sim_op_alu(op, c->cfg->core.cas_loop_instructions);
        return;
    case 3:
        w->pc = 4;
        pc_global(op, SIM_OP_GATOMIC, SIM_ATOMIC_CAS, SW_WORDS, 1, w->active);
        FOR_LANES(w->active, l)
        {
            uint32_t old = w->ret[l], sh = w->u[l] & 31;
            uint32_t inc = (((old >> sh) & field) + 1) & field;
            w->v[l] = old;
            op->index[l] = w->u[l] >> 5;
            op->compare[l] = old;
            op->operand[l] = (old & ~(field << sh)) | (inc << sh);
        }
        return;
    case 4: {
        uint64_t done = 0;
        FOR_LANES(w->active, l)
        {
            if (w->ret[l] == w->v[l])
                done |= 1ull << l;
        }
        w->active &= ~done;
        if (w->active) { /* the failed lanes retry with the value they saw */
            w->pc = 3;
            sim_op_alu(op, c->cfg->core.cas_loop_instructions);
            return;
        }
        break;
    }
    }
    sim_op_exit(op);
}

/* Fast-forward (sim/fastfwd.c): threads that never ran add one to their
 * bins, as their loops would have; one unit each. */
static inline double sw_ff_skip(const sim_ctx *c, const sim_memrw *m, uint64_t first, uint64_t count, unsigned bits)
{
    uint32_t per = 32u / bits, field = (1u << bits) - 1;
    for (uint64_t t = first; m && t < first + count; t++) {
        uint32_t b = pat_bin(pat_key((uint32_t)t), c->p->bins, 0), sh = (b % per) * bits;
        uint32_t *wd = &m->words[SW_WORDS][b / per];
        *wd = (*wd & ~(field << sh)) | (((((*wd >> sh) & field) + 1) & field) << sh);
    }
    return (double)count;
}

static inline int sw_check(const sim_ctx *c, const sim_memview *m, unsigned bits, char err[CFG_ERR_MAX])
{
    uint32_t per = 32u / bits, field = (1u << bits) - 1;
    uint32_t *ref;
    if (sim_histogram_reference(c, 0, &ref, err))
        return -1;
    for (uint32_t b = 0; b < c->p->bins; b++) {
        uint32_t got = (m->words[SW_WORDS][b / per] >> ((b % per) * bits)) & field;
        if (got != (ref[b] & field)) {
            snprintf(err, CFG_ERR_MAX, "bin %u holds %u, expected %u", b, got, ref[b] & field);
            free(ref);
            return -1;
        }
    }
    free(ref);
    return 0;
}

#endif
