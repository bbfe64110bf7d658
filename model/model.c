/* model.c - placeholder until the analytical model lands: refuses clearly. */
#include "model.h"

#include <stdio.h>

int mdl_predict(const cfg_config *cfg, const pat_params *p, atom_stats *st, char err[CFG_ERR_MAX])
{
    (void)cfg;
    (void)p;
    (void)st;
    snprintf(err, CFG_ERR_MAX, "the analytical model is not built yet (use --engine sim)");
    return -1;
}
