/* coalesce.c - one warp instruction's lanes grouped into line requests
 * and, within a request, into address groups, with a per-instruction hash
 * table reset by a generation stamp (no clearing, no allocation). */
#include "memsys_int.h"

#include <string.h>

static uint32_t hash64(uint64_t x)
{
    x *= 0x9e3779b97f4a7c15ull;
    return (uint32_t)(x >> 57); /* 7 bits: HASH_SLOTS */
}

/* Lookup-or-insert; returns the slot, *fresh when the key is new. */
static int group_slot(grp_table *g, uint32_t gen, uint64_t key, int *fresh)
{
    uint32_t h = hash64(key);
    for (;;) {
        if (g->stamp[h] != gen) {
            g->stamp[h] = gen;
            g->key[h] = key;
            *fresh = 1;
            return (int)h;
        }
        if (g->key[h] == key) {
            *fresh = 0;
            return (int)h;
        }
        h = (h + 1) & (HASH_SLOTS - 1);
    }
}

static void next_gen(mem_sys *m)
{
    if (++m->gen == 0) { /* wrapped: clear stamps so stale ones never match */
        memset(m->lines.stamp, 0, sizeof m->lines.stamp);
        memset(m->words.stamp, 0, sizeof m->words.stamp);
        m->gen = 1;
    }
}

/* Groups the op's lanes into line requests (one hash probe per lane) and,
 * within a request, lanes on one address into one address group (a short
 * scan: a line holds few distinct words).  Whether a group is one L2 op or
 * one op per lane is the merge rule's business (mem_atomic).  Requests,
 * groups and lanes keep first-lane order.  Returns the count of requests. */
int ms_coalesce(mem_sys *m, const sim_op *op, int *nops_out)
{
    const buffer *bf = &m->buf[op->buffer];
    int nops = 0, nreq = 0, fresh;
    next_gen(m);
    for (uint64_t mask = op->mask; mask; mask &= mask - 1) {
        int lane = __builtin_ctzll(mask);
        uint32_t idx = op->index[lane];
        m->op_next_lane[lane] = -1;
        /* a word seen before in this instruction: one more lane on it */
        int ws = group_slot(&m->words, m->gen, idx, &fresh);
        if (!fresh) {
            int o = m->words.val[ws];
            m->op_next_lane[m->op_last[o]] = lane;
            m->op_last[o] = lane;
            m->op_lanes[o]++;
            continue;
        }
        uint64_t byte = (uint64_t)idx * bf->stride_bytes;
        uint64_t line = bf->base_line + (byte >> m->line_shift);
        int s = group_slot(&m->lines, m->gen, line, &fresh);
        int r;
        if (fresh) {
            r = nreq++;
            m->lines.val[s] = r;
            m->req_line[r] = line;
            m->req_first[r] = -1;
            m->req_ops[r] = 0;
        } else
            r = m->lines.val[s];
        int o = nops++;
        m->words.val[ws] = o;
        m->op_idx[o] = idx;
        m->op_sector[o] = (uint8_t)((byte & (uint64_t)(m->line_bytes - 1)) >> 5);
        m->op_first[o] = lane;
        m->op_last[o] = lane;
        m->op_lanes[o] = 1;
        m->op_next[o] = -1;
        if (m->req_first[r] < 0)
            m->req_first[r] = o;
        else
            m->op_next[m->req_last[r]] = o;
        m->req_last[r] = o;
        m->req_ops[r]++;
    }
    *nops_out = nops;
    return nreq;
}

