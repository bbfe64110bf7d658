/* l2tags.c - the L2's residency, set-associative with LRU replacement.
 *
 * Why not direct-mapped: a cyclic sweep over more lines than the L2 holds
 * (distinct-lines, P > capacity) misses on every op under LRU, but a
 * direct-mapped array keeps every line whose slot no later line shares
 * (P = 1.28x capacity: 78% of lines).  The H100 sides with LRU:
 * distinct-lines at n = 2^20 takes 52.0 us at P = 2^19 lines (1.28x its
 * 50 MB) and 52.9 at 2^20, where the direct-mapped simulator gave 25.5 and
 * 38.7 (validate/data/h100.csv).  The ways are not public; any count of
 * two or more gives a cyclic sweep the same misses, so 16 is no fit.
 * Lookups scan one set: no allocation per access. */
#include "l2tags.h"

#include <stdlib.h>

int l2_tags_open(l2_tags *t, uint64_t capacity_lines)
{
    t->sets = capacity_lines / L2_WAYS;
    if (t->sets < 1)
        t->sets = 1;
    t->clock = 0;
    t->set = calloc((size_t)t->sets, sizeof *t->set);
    return t->set ? 0 : -1;
}

void l2_tags_close(l2_tags *t)
{
    free(t->set);
}

/* The clock is about to wrap: every way's last use shifts down 16 bits,
 * which keeps their order but for ties (0 stays: empty).  Once per 4
 * billion accesses. */
static void renumber(l2_tags *t)
{
    for (uint64_t s = 0; s < t->sets; s++)
        for (int w = 0; w < L2_WAYS; w++)
            if (t->set[s].used[w])
                t->set[s].used[w] = t->set[s].used[w] >> 16 | 1;
    t->clock = UINT32_MAX >> 16;
}

int l2_tags_touch(l2_tags *t, uint64_t line, uint32_t sectors, uint32_t *evicted_sectors)
{
    l2_set *st = &t->set[line % t->sets];
    uint32_t tag = (uint32_t)(line + 1);
    *evicted_sectors = 0;
    if (++t->clock == UINT32_MAX)
        renumber(t);
    /* hits are the common case: look for the line alone first */
    for (int w = 0; w < L2_WAYS; w++)
        if (st->line[w] == tag) {
            st->used[w] = t->clock;
            st->dirty[w] |= sectors;
            return 0;
        }
    int victim = 0;
    for (int w = 1; w < L2_WAYS; w++)
        if (st->used[w] < st->used[victim]) /* empty ways have used 0: taken first */
            victim = w;
    if (st->line[victim])
        *evicted_sectors = st->dirty[victim];
    st->line[victim] = tag;
    st->used[victim] = t->clock;
    st->dirty[victim] = sectors;
    return 1;
}
