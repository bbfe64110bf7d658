/* cpu_copies.h - how many private copies of a histogram's bins a CPU-tier
 * worker uses in turn: one rule for the loop that runs them (cpubench,
 * validate/cpubench/cpb_scan.c) and the tier that prices their fold
 * (model/cpu_tier.c), so the two cannot drift apart.  Header-only: cpubench
 * links none of the model. */
#ifndef ATOM_MODEL_CPU_COPIES_H
#define ATOM_MODEL_CPU_COPIES_H

#include <stdint.h>

/* 8 copies while 8 fit this many bytes (L1-resident), else 4 while 4 do,
 * else 1: more copies break the chain of updates to one bin, and the fold
 * that merges them costs (copies - 1) x bins adds */
#define CPU_HIST_COPIES_BYTES 16384

static inline unsigned cpu_hist_copies(uint64_t bins, unsigned bytes_per_bin)
{
    uint64_t one = bins * bytes_per_bin;
    return one * 8 <= CPU_HIST_COPIES_BYTES ? 8 : one * 4 <= CPU_HIST_COPIES_BYTES ? 4 : 1;
}

#endif
