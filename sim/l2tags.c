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

enum { L2_WAYS = 16 };

int l2_tags_open(l2_tags *t, uint64_t capacity_lines)
{
    t->sets = capacity_lines / L2_WAYS;
    if (t->sets < 1)
        t->sets = 1;
    t->clock = 0;
    size_t n = (size_t)(t->sets * L2_WAYS);
    t->line = calloc(n, sizeof *t->line);
    t->used = calloc(n, sizeof *t->used);
    t->dirty = calloc(n, sizeof *t->dirty);
    return t->line && t->used && t->dirty ? 0 : -1;
}

void l2_tags_close(l2_tags *t)
{
    free(t->line);
    free(t->used);
    free(t->dirty);
}

int l2_tags_touch(l2_tags *t, uint64_t line, uint32_t sectors, uint32_t *evicted_sectors)
{
    size_t base = (size_t)(line % t->sets) * L2_WAYS, victim = base;
    *evicted_sectors = 0;
    t->clock++;
    for (size_t w = base; w < base + L2_WAYS; w++) {
        if (t->line[w] == line + 1) {
            t->used[w] = t->clock;
            t->dirty[w] |= sectors;
            return 0;
        }
        if (t->used[w] < t->used[victim]) /* empty ways have used 0: taken first */
            victim = w;
    }
    if (t->line[victim])
        *evicted_sectors = t->dirty[victim];
    t->line[victim] = line + 1;
    t->used[victim] = t->clock;
    t->dirty[victim] = sectors;
    return 1;
}
