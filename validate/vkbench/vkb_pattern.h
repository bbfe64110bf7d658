/* The twelve patterns of docs/patterns.md as a table: their names, which flags
 * they use, what shared memory they need and how large their buffers are.
 * Everything pattern-specific on the host that is not checking lives here. */
#ifndef VKB_PATTERN_H
#define VKB_PATTERN_H

#include <stdint.h>

typedef enum {
    VKB_STORE,
    VKB_COUNTER,
    VKB_COUNTER_AGGREGATED,
    VKB_COMPACTION,
    VKB_HISTOGRAM,
    VKB_HISTOGRAM_SHARED,
    VKB_HISTOGRAM_U8_CAS,
    VKB_HISTOGRAM_U16_CAS,
    VKB_CAS_APPEND,
    VKB_BITMASK,
    VKB_REDUCE,
    VKB_DISTINCT_LINES,
    VKB_NPATTERNS
} vkb_pattern_id;

/* Flags a pattern reads; the others are ignored (and normalized away). */
enum {
    VKB_USES_SELECTIVITY = 1,
    VKB_USES_BINS = 2,
    VKB_USES_HOT = 4,
    VKB_USES_ADDRESSES = 8
};

typedef struct vkb_pattern {
    const char *name;
    unsigned uses;      /* VKB_USES_* */
    int needs_ballot;   /* needs GL_KHR_shader_subgroup_ballot */
    int has_out;        /* writes keys to the output buffer */
} vkb_pattern;

const vkb_pattern *vkb_pattern_get(int id);

/* Returns the id, or -1 for a name the contract does not define. */
int vkb_pattern_find(const char *name);

/* Shared memory the pattern itself declares, in bytes. */
uint32_t vkb_pattern_smem_need(int id, uint32_t bins);

/* 32-bit words of the atomic target and of the output buffer. */
uint64_t vkb_pattern_target_words(int id, uint32_t n, uint32_t bins,
                                  uint32_t addresses);
/* What besides keys a run stores in the output buffer (bits of out_mode):
 * VKB_OUT_COUNTS (vkbench --count-cas): the patterns that count their
 * compare-and-swaps, one count a thread; VKB_OUT_READS (--win-order):
 * cas-append's first reads too, o[2n + i]; VKB_OUT_TRACE (--trace):
 * cas-append's and bitmask's trace records, 7 words a unit from o[3n]. */
enum { VKB_OUT_COUNTS = 1, VKB_OUT_READS = 2, VKB_OUT_TRACE = 4 };
uint64_t vkb_pattern_out_words(int id, uint32_t n, int out_mode);

/* 1 for the patterns with a --trace module (cas-append, bitmask). */
int vkb_pattern_traced(int id);

/* 1 for the patterns whose threads can count their compare-and-swaps. */
int vkb_pattern_counts_cas(int id);

/* Where --count-cas puts a thread's count in the output buffer: o[i] for
 * the sub-word histograms, o[n + i] for cas-append (its keys fill o[0..n)).
 * Only the threads that run a CAS loop write one. */
uint32_t vkb_pattern_count_offset(int id, uint32_t n);

#endif
