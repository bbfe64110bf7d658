/* cpb_merge.c - the merges of cpb_merge.h.  Bins go a chunk at a time, the
 * chunk's sum staying in L1 while every worker's copy streams past it, so
 * a merge of 2^22 bins reads each copy once and writes out once (summing
 * one whole copy after another would stream out through memory W times). */
#include "cpb_merge.h"

#include <string.h>

#include "cpb_simd.h"

#define CHUNK 4096u

#define MERGE(NAME, T)                                                                                              \
    CPB_CLONES void NAME(T *out, T *const *priv, int workers, uint32_t blo, uint32_t bhi)                          \
    {                                                                                                              \
        for (uint32_t c = blo; c < bhi; c += CHUNK) {                                                              \
            uint32_t m = bhi - c < CHUNK ? bhi - c : CHUNK;                                                        \
            T *o = out + c;                                                                                        \
            memcpy(o, priv[0] + c, m * sizeof(T));                                                                 \
            for (int w = 1; w < workers; w++) {                                                                    \
                const T *p = priv[w] + c;                                                                          \
                for (uint32_t b = 0; b < m; b++)                                                                   \
                    o[b] += p[b];                                                                                  \
            }                                                                                                      \
        }                                                                                                          \
    }

MERGE(cpb_merge32, uint32_t)
MERGE(cpb_merge16, uint16_t)
MERGE(cpb_merge8, uint8_t)
