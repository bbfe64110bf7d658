/* sim_helpers.h - small configs and one-call runs for the engine's unit
 * tests.  Include after <cmocka.h>.  Every config starts from the defaults
 * and changes keys only through cfg_override, as a user's -p would, so a
 * test reads like the command line it stands for. */
#ifndef TESTS_SIM_HELPERS_H
#define TESTS_SIM_HELPERS_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../../model/config.h"
#include "../../model/params.h"
#include "../../model/stats.h"
#include "../../sim/engine.h"

/* Defaults, then each "section.key=value" in turn (NULL-terminated). */
static inline void th_config(cfg_config *c, ...)
{
    char err[CFG_ERR_MAX];
    va_list ap;
    cfg_defaults(c);
    va_start(ap, c);
    for (const char *a; (a = va_arg(ap, const char *)) != NULL;)
        if (cfg_override(c, a, err))
            fail_msg("-p %s: %s", a, err);
    va_end(ap);
}

/* Merging of same-address lanes, whatever keys the table has for it:
 * "off" turns every merging mechanism off (each lane is one L2 op), "on"
 * merges lanes on one address within an instruction in hardware. */
static inline void th_set_if_known(cfg_config *c, const char *assignment)
{
    char sec[64], key[96], err[CFG_ERR_MAX];
    if (sscanf(assignment, "%63[^.].%95[^=]", sec, key) == 2 && cfg_find(sec, key) && cfg_override(c, assignment, err))
        fail_msg("-p %s: %s", assignment, err);
}

static inline void th_merge(cfg_config *c, int on)
{
    th_set_if_known(c, on ? "coalesce.merge_same_address=1" : "coalesce.merge_same_address=0");
    th_set_if_known(c, on ? "coalesce.merge_rule=per_address" : "coalesce.merge_rule=none");
    th_set_if_known(c, "coalesce.compiler_aggregation=0");
}

static inline void th_params(pat_params *p, enum pat_id id, uint64_t n, int wg)
{
    pat_defaults(p);
    p->pattern = id;
    p->n = n;
    p->wg = wg;
}

/* Runs and requires success (the engine checks the functional result). */
static inline atom_stats th_run(const cfg_config *c, const pat_params *p)
{
    atom_stats st;
    char err[CFG_ERR_MAX];
    memset(&st, 0, sizeof st);
    err[0] = 0;
    int rc = sim_run(c, p, &st, err);
    if (rc)
        fail_msg("%s n=%llu wg=%d: sim_run returned %d: %s", pat_name(p->pattern), (unsigned long long)p->n, p->wg,
                 rc, err);
    return st;
}

/* Threads among the first n whose key is selected at fraction s. */
static inline uint64_t th_selected(uint64_t n, double s)
{
    uint64_t k = 0;
    uint32_t t = pat_threshold(s);
    for (uint64_t i = 0; i < n; i++)
        k += pat_key((uint32_t)i) % 1000000u < t;
    return k;
}

#endif
