/* One measured configuration, the sweep (comma-list grid) that expands into
 * many, and the one option table that parses the contract's flags both on
 * the command line and in plan files (its parameters' names, kinds, ranges
 * and help from the contract's table, model/params.c). */
#ifndef VKB_CFG_H
#define VKB_CFG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../model/params.h"
#include "vkb_pattern.h"

/* "--smem-per-wg max": the device's maxComputeSharedMemorySize, resolved
 * once the device is open. */
#define VKB_SMEM_MAX UINT32_MAX
#define VKB_LIST_MAX 64

/* --tail: what a bitmask or store warp does before it exits (a probe of
 * the selectivity hump; the contract is VKB_TAIL_NONE). */
enum { VKB_TAIL_NONE, VKB_TAIL_BARRIER, VKB_TAIL_FENCE };

typedef struct vkb_cfg {
    int pattern;
    uint32_t n, wg, bins, addresses, smem_per_wg;
    double selectivity, hot;
    int reps, warmup;
    int sel_unit; /* VKB_SEL_* (vkb_hash.h), the same for a whole run */
    int tail;     /* VKB_TAIL_*, the same for a whole run */
    uint32_t spin; /* --spin: silent threads' delay loop, the same for a whole run */
    int line; /* plan line it came from, 0 for the command line */
} vkb_cfg;

/* A list per flag: the patterns, and per parameter of the contract's table
 * (model/params.h) len[id] values, value k in v[k]'s field. */
typedef struct vkb_sweep {
    int npattern;
    int pattern[VKB_LIST_MAX];
    int len[PP_COUNT];
    pat_params v[VKB_LIST_MAX];
    int reps, warmup; /* -1: the run's default */
} vkb_sweep;

typedef struct vkb_cfg_list {
    vkb_cfg *v;
    size_t len, cap;
} vkb_cfg_list;

/* The contract's defaults; no pattern yet. */
void vkb_sweep_init(vkb_sweep *s);

/* 1 if name (without dashes) is a sweep flag, else 0. */
int vkb_sweep_has_flag(const char *name);

/* Sets one flag from its text value (a comma list where the flag allows
 * one). VKB_EUSAGE with a message naming the flag on a bad value. */
int vkb_sweep_set(vkb_sweep *s, const char *name, const char *value,
                  char *err);

/* Appends the grid to out, in pattern, n, wg, smem, bins, hot, addresses,
 * selectivity order (so configurations that share a pipeline are adjacent).
 * reps/warmup of -1 take the given defaults. */
int vkb_sweep_expand(const vkb_sweep *s, int reps, int warmup, int line,
                     vkb_cfg_list *out, char *err);

/* Prints the sweep flags with their ranges, from the option table. */
void vkb_sweep_help(FILE *f);

/* Resolves "max", raises smem to the pattern's own need and resets the
 * flags the pattern ignores to the contract's defaults, so that two
 * configurations that measure the same thing compare equal. */
void vkb_cfg_normalize(vkb_cfg *c, uint32_t smem_max);

int vkb_cfg_same(const vkb_cfg *a, const vkb_cfg *b);
/* The configuration as the contract's parameters (model/params.h). */
void vkb_cfg_params(const vkb_cfg *c, pat_params *p);

/* "counter n=1048576 wg=256 ..." for messages. */
const char *vkb_cfg_describe(const vkb_cfg *c, char *buf, size_t len);

int vkb_cfg_list_push(vkb_cfg_list *l, const vkb_cfg *c);
void vkb_cfg_list_free(vkb_cfg_list *l);

#endif
