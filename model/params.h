/* params.h - the patterns of the CLI contract and their run parameters.
 *
 * Shared by the simulator, the model, the harness comparison and the CLI, so
 * that all of them agree on the key hash, the selection rule and the bin of
 * every thread (docs/patterns.md). */
#ifndef ATOM_PARAMS_H
#define ATOM_PARAMS_H

#include <stdint.h>

enum pat_id {
    PAT_STORE,
    PAT_COUNTER,
    PAT_COUNTER_AGGREGATED,
    PAT_COMPACTION,
    PAT_HISTOGRAM,
    PAT_HISTOGRAM_SHARED,
    PAT_HISTOGRAM_U8_CAS,
    PAT_HISTOGRAM_U16_CAS,
    PAT_CAS_APPEND,
    PAT_BITMASK,
    PAT_REDUCE,
    PAT_DISTINCT_LINES,
    PAT_COUNT
};

/* Which flags a pattern reads (the others are accepted and ignored). */
enum pat_flag {
    PF_SELECTIVITY = 1 << 0,
    PF_BINS = 1 << 1,
    PF_HOT = 1 << 2,
    PF_ADDRESSES = 1 << 3,
    PF_WG = 1 << 4
};

typedef struct pat_params {
    enum pat_id pattern;
    uint64_t n;
    int wg;
    double selectivity;
    uint32_t bins;
    double hot;
    uint32_t addresses;
    uint32_t smem_per_wg;             /* requested; 0 = the pattern's own need */
    uint64_t seed;
} pat_params;

#define PAT_MAX_N (1ull << 30)
#define PAT_MAX_BINS (1u << 24)
#define PAT_MAX_ADDRESSES (1u << 24)

const char *pat_name(enum pat_id id);
int pat_from_name(const char *name, enum pat_id *out);
unsigned pat_flags(enum pat_id id);
int pat_uses_cas(enum pat_id id);

/* Defaults of the contract: n 2^20, wg 256, S 1, K 256, F 0, P 1, seed 1. */
void pat_defaults(pat_params *p);

/* Range checks that need no config (n > 0, S and F in [0,1], K, P > 0). */
int pat_check(const pat_params *p, char *err, unsigned errlen);

/* 1 for the patterns whose global atomics return their old value to the
 * warp (the sub-word CAS histograms, cas-append, compaction). */
int pat_returns_old_value(enum pat_id id);


/* Shared memory the pattern itself allocates per workgroup, in bytes. */
uint32_t pat_own_smem_bytes(const pat_params *p);
/* What the workgroup really allocates: max(own need, --smem-per-wg). */
uint32_t pat_smem_bytes(const pat_params *p);

static inline uint32_t pat_key(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* round(F * 1e6): a thread is chosen iff key % 1000000 < threshold. */
uint32_t pat_threshold(double fraction);

static inline int pat_selected(uint32_t key, uint32_t threshold)
{
    return key % 1000000u < threshold;
}

/* Histogram bin of a key, with the hot-bin rule (hot_threshold 0: uniform). */
static inline uint32_t pat_bin(uint32_t key, uint32_t bins, uint32_t hot_threshold)
{
    if (hot_threshold && key % 1000000u < hot_threshold)
        return 0;
    return (key >> 3) % bins;
}

#endif
