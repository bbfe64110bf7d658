/* cpb_div.h - the histogram's bin, (key >> 3) % K, for a K known only at
 * run time, without a divide instruction: the dividend has 29 bits, so a
 * 32-bit reciprocal and one 32x32->64 multiply give the exact quotient
 * (Granlund and Montgomery 1994, thm 4.2: m = ceil(2^(29+l) / K),
 * l = ceil(log2 K)), and that multiply vectorizes where a divide cannot. */
#ifndef CPB_DIV_H
#define CPB_DIV_H

#include <stdint.h>

typedef struct cpb_div {
    uint32_t d;     /* K, 1 .. 2^24 (any value up to 2^31 works) */
    uint32_t m;     /* <= 2^30 + 1 */
    uint32_t shift; /* 29 + l */
} cpb_div;

static inline cpb_div cpb_div_make(uint32_t d)
{
    uint32_t l = 0;
    while (l < 32 && (1ull << l) < d)
        l++;
    cpb_div r = { d, (uint32_t)(((1ull << (29 + l)) + d - 1) / d), 29 + l };
    return r;
}

/* x % d for x < 2^29. */
static inline uint32_t cpb_mod29(uint32_t x, uint32_t d, uint32_t m, uint32_t shift)
{
    uint32_t q = (uint32_t)(((uint64_t)x * m) >> shift);
    return x - q * d;
}

#endif
