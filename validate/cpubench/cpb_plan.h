/* cpb_plan.h - reads vkbench's plan files (validate/README.md, "Plan
 * format") into the list of configurations cpubench times, normalized and
 * de-duplicated the way vkbench does it, so that a CPU row and a GPU row of
 * one plan carry the same configuration columns and can be joined. */
#ifndef CPB_PLAN_H
#define CPB_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "../../model/params.h"

/* "--smem-per-wg max" before it is resolved. */
#define CPB_SMEM_MAX UINT32_MAX
#define CPB_ERRLEN 512

typedef struct cpb_cfg {
    enum pat_id pattern;
    uint32_t n, wg, bins, addresses, smem_per_wg;
    double selectivity, hot;
    int reps, warmup;
    int line; /* in the plan, for messages */
} cpb_cfg;

typedef struct cpb_cfg_list {
    cpb_cfg *v;
    size_t len, cap;
} cpb_cfg_list;

/* Appends every line's grid to out ("-" reads stdin).  reps and warmup are
 * the defaults for lines that set none; "max" shared memory becomes
 * smem_max.  Flags a pattern ignores are reset to the contract's defaults,
 * shared memory is raised to the pattern's own need, and a configuration
 * seen before is dropped.  Returns 0, or -1 with a one-line message in err
 * naming the file and line. */
int cpb_plan_read(const char *path, int reps, int warmup, uint32_t smem_max, cpb_cfg_list *out, char *err);
void cpb_cfg_list_free(cpb_cfg_list *l);

/* The value syntax of plans, also used for cpubench's own options:
 * a decimal integer without leading zeros, or 2^E.  0 or -1. */
int cpb_parse_uint(const char *text, uint64_t *v);

/* "histogram n=1048576 wg=256 ..." for messages. */
void cpb_cfg_describe(const cpb_cfg *c, char *buf, size_t len);
/* The configuration as the contract's parameters (model/params.h). */
void cpb_cfg_params(const cpb_cfg *c, pat_params *p);

#endif
