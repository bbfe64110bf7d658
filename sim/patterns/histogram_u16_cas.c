/* histogram_u16_cas.c - `histogram-u16-cas`: 16-bit bins, 2 per 32-bit
 * word, updated through a CAS retry loop (subword.h). */
#include "subword.h"

static int setup(const sim_ctx *c, sim_layout *lay, char err[CFG_ERR_MAX])
{
    (void)err;
    return sw_setup(c, lay, 16);
}

static void step(const sim_ctx *c, sim_warp *w, sim_op *op)
{
    sw_step(c, w, op, 16);
}

static int check(const sim_ctx *c, const sim_memview *m, char err[CFG_ERR_MAX])
{
    return sw_check(c, m, 16, err);
}

static double ff_skip(const sim_ctx *c, const sim_memrw *m, uint64_t first, uint64_t count)
{
    return sw_ff_skip(c, m, first, count, 16);
}

const sim_pattern sim_pattern_histogram_u16_cas = { PAT_HISTOGRAM_U16_CAS, setup, pc_nop_start, step, check, ff_skip };
