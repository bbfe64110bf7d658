/* common.h - small helpers the pattern programs share: lane loops, the
 * selection mask, instruction counts from the config, and reference counts
 * for the functional checks. */
#ifndef ATOM_SIM_PATTERNS_COMMON_H
#define ATOM_SIM_PATTERNS_COMMON_H

#include <stdio.h>
#include <string.h>

#include "../pattern.h"

#define FOR_LANES(mask, lane) \
    for (uint64_t m_ = (mask), lane = 0; m_ && ((lane = (uint64_t)__builtin_ctzll(m_)), 1); m_ &= m_ - 1)

/* Keys of the valid lanes into w->v; returns the mask of selected lanes. */
static inline uint64_t pc_select(const sim_ctx *c, sim_warp *w)
{
    uint64_t sel = 0;
    FOR_LANES(w->valid, l)
    {
        uint32_t k = sim_lane_key(w, (int)l);
        w->v[l] = k;
        if (pat_selected(k, c->sel_threshold))
            sel |= 1ull << l;
    }
    return sel;
}

static inline int pc_instr(const sim_ctx *c, int key, int select, int bin, int addr)
{
    const cfg_core *k = &c->cfg->core;
    return key * k->key_instructions + select * k->select_instructions + bin * k->bin_instructions +
           addr * k->address_instructions;
}

static inline void pc_global(sim_op *op, enum sim_op_kind kind, enum sim_atomic_kind a, int buffer, int used, uint64_t mask)
{
    op->kind = kind;
    op->atomic = a;
    op->buffer = buffer;
    op->result_used = used;
    op->uniform_address = 0;
    op->mask = mask;
}

static inline void pc_nop_start(const sim_ctx *c, sim_warp *w)
{
    (void)c;
    (void)w;
}

/* Number of threads selected among the first n ids. */
static inline uint64_t pc_count_selected(uint64_t n, uint32_t threshold)
{
    uint64_t count = 0;
    for (uint64_t i = 0; i < n; i++)
        count += pat_selected(pat_key((uint32_t)i), threshold);
    return count;
}

/* The counter patterns' check: the word holds the number of selected threads. */
static inline int pc_check_count(const sim_ctx *c, const uint32_t *word, char *err)
{
    uint64_t want = pc_count_selected(c->p->n, c->sel_threshold);
    if (*word != (uint32_t)want) {
        snprintf(err, CFG_ERR_MAX, "count is %u, expected %llu", *word, (unsigned long long)want);
        return -1;
    }
    return 0;
}

/* A one-word atomic target (counters, heads, totals). */
static inline int pc_setup_one_word(const sim_ctx *c, sim_layout *lay, char *err)
{
    (void)c;
    (void)err;
    lay->count = 1;
    lay->buf[0] = (sim_buffer_decl){ 1, 1, 1 };
    return 0;
}

/* The appending patterns: an atomic head (buffer 0) and n output slots (1). */
static inline int pc_setup_head_out(const sim_ctx *c, sim_layout *lay, char *err)
{
    (void)err;
    lay->count = 2;
    lay->buf[0] = (sim_buffer_decl){ 1, 1, 1 };
    lay->buf[1] = (sim_buffer_decl){ c->p->n, 1, 0 };
    return 0;
}

/* Checks that out[0..count) holds each selected key exactly once: every
 * slot written once, none beyond, and the multiset of keys matches (an
 * order-independent 64-bit fingerprint; keys are unique since lowbias32 is
 * a bijection). */
static inline int pc_check_compacted(const sim_ctx *c, const uint32_t *out, const uint8_t *stores, uint64_t count,
                                     uint64_t cap, char *err)
{
    uint64_t want = 0, got = 0, expect = 0;
    for (uint64_t i = 0; i < c->p->n; i++) {
        uint32_t k = pat_key((uint32_t)i);
        if (pat_selected(k, c->sel_threshold)) {
            want += (uint64_t)pat_key(k ^ 0x5bd1e995u) * 0x9e3779b97f4a7c15ull + k;
            expect++;
        }
    }
    if (count != expect) {
        snprintf(err, CFG_ERR_MAX, "head is %llu, %llu threads were selected", (unsigned long long)count,
                 (unsigned long long)expect);
        return -1;
    }
    for (uint64_t s = 0; s < cap; s++) {
        if ((s < count) != (stores[s] == 1)) {
            snprintf(err, CFG_ERR_MAX, "slot %llu written %u times", (unsigned long long)s, stores[s]);
            return -1;
        }
        if (s < count)
            got += (uint64_t)pat_key(out[s] ^ 0x5bd1e995u) * 0x9e3779b97f4a7c15ull + out[s];
    }
    if (got != want) {
        snprintf(err, CFG_ERR_MAX, "the compacted keys are not the selected keys");
        return -1;
    }
    return 0;
}

#endif
