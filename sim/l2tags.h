/* l2tags.h - which lines the L2 holds: set-associative, least recently
 * used, with each line's dirty sectors, so that a line it evicts costs its
 * write-back.  Used for atomics (memsys.c, cas_sched.c through
 * memsys_int.h's line_miss); stores write through. */
#ifndef ATOM_SIM_L2TAGS_H
#define ATOM_SIM_L2TAGS_H

#include <stdint.h>

#define L2_WAYS 16

/* One set, its ways side by side: a lookup reads three adjacent cache lines. */
typedef struct l2_set {
    uint32_t line[L2_WAYS];  /* line + 1, 0 when empty */
    uint32_t used[L2_WAYS];  /* the access count at its last use */
    uint32_t dirty[L2_WAYS]; /* sectors written since it was filled (bit per 32 bytes) */
} l2_set;

typedef struct l2_tags {
    l2_set *set;
    uint64_t sets;
    uint32_t clock;
} l2_tags;

/* capacity_lines rounded down to whole sets; returns 0, or -1 out of memory */
int l2_tags_open(l2_tags *t, uint64_t capacity_lines);
void l2_tags_close(l2_tags *t);

/* Touches `line`, marking `sectors` dirty.  Returns 1 on a miss (the line
 * is then resident) and sets *evicted_sectors to the dirty sectors of the
 * line it replaced (0 for a hit or a clean or empty way).  Lines are
 * numbered below 2^32 - 1 (params.h: at most 2^30 words a buffer, 2^24
 * lines for distinct-lines). */
int l2_tags_touch(l2_tags *t, uint64_t line, uint32_t sectors, uint32_t *evicted_sectors);

#endif
