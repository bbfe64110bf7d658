/* cpb_scan.c - the per-element loops of cpb_scan.h.  Each is written so the
 * compiler vectorizes the key hash and selection (32-bit lanes, no 64-bit
 * induction variables, the modulus by a constant or a reciprocal), and the
 * parts that cannot vectorize (a histogram's increments, a compaction's
 * moving cursor) read keys and bins a vectorized loop wrote into a small
 * block that stays in L1. */
#include "cpb_scan.h"

#include "../../model/params.h"
#include "cpb_simd.h"

/* Elements per block: 2 KiB of keys and 2 KiB of bins, well inside L1. */
#define BLOCK 512u

/* Elements summed in a 32-bit lane before it is folded into 64 bits:
 * 255 * 2^20 cannot overflow, and the fold stays off the inner loop. */
#define CHUNK (1u << 20)

static inline uint32_t sel(uint32_t key, uint32_t thr)
{
    return key % 1000000u < thr;
}

CPB_CLONES uint64_t cpb_scan_count(uint32_t lo, uint32_t cnt, uint32_t thr)
{
    uint64_t total = 0;
    while (cnt) {
        uint32_t m = cnt < CHUNK ? cnt : CHUNK, c = 0;
        for (uint32_t j = 0; j < m; j++)
            c += sel(pat_key(lo + j), thr);
        total += c;
        lo += m;
        cnt -= m;
    }
    return total;
}

CPB_CLONES uint64_t cpb_scan_reduce(uint32_t lo, uint32_t cnt)
{
    uint64_t total = 0;
    while (cnt) {
        uint32_t m = cnt < CHUNK ? cnt : CHUNK, s = 0;
        for (uint32_t j = 0; j < m; j++)
            s += pat_key(lo + j) & 255u;
        total += s;
        lo += m;
        cnt -= m;
    }
    return total;
}

CPB_CLONES void cpb_scan_store(uint32_t lo, uint32_t cnt, uint32_t thr, uint32_t *out)
{
    uint32_t *o = out + lo;
    for (uint32_t j = 0; j < cnt; j++) {
        uint32_t k = pat_key(lo + j);
        if (sel(k, thr))
            o[j] = k;
    }
}

/* Keys and their selection flags for one block (vectorized). */
CPB_CLONES static void keys_flags(uint32_t lo, uint32_t m, uint32_t thr, uint32_t *key, uint32_t *flag)
{
    for (uint32_t j = 0; j < m; j++) {
        uint32_t k = pat_key(lo + j);
        key[j] = k;
        flag[j] = sel(k, thr);
    }
}

uint32_t cpb_scan_compact(uint32_t lo, uint32_t cnt, uint32_t thr, uint32_t *region)
{
    uint32_t key[BLOCK], flag[BLOCK], c = 0;
    while (cnt) {
        uint32_t m = cnt < BLOCK ? cnt : BLOCK;
        keys_flags(lo, m, thr, key, flag);
        /* branch-free: write every key, advance past the selected ones;
         * the region has room, since c never passes the slice position */
        for (uint32_t j = 0; j < m; j++) {
            region[c] = key[j];
            c += flag[j];
        }
        lo += m;
        cnt -= m;
    }
    return c;
}

CPB_CLONES void cpb_scan_bitmask(uint32_t wlo, uint32_t whi, uint32_t n, uint32_t thr, uint32_t *mask)
{
    for (uint32_t w = wlo; w < whi; w++) {
        uint32_t base = w * 32u, bits = 0;
        if (n - base >= 32u)
            for (uint32_t b = 0; b < 32u; b++)
                bits |= sel(pat_key(base + b), thr) << b;
        else
            for (uint32_t b = 0; b < n - base; b++)
                bits |= sel(pat_key(base + b), thr) << b;
        mask[w] = bits;
    }
}

/* The bins of one block (vectorized: the reciprocal needs a 32x32->64
 * multiply, which every x86-64 level has in vector form).  Without a hot
 * fraction the hot test is left out rather than made against 0: it is a
 * third of the loop's multiplies (0.23 -> 0.16 ns an element here). */
CPB_CLONES static void bins_block_hot(uint32_t lo, uint32_t m, cpb_div k, uint32_t hot_thr, uint32_t *bin)
{
    for (uint32_t j = 0; j < m; j++) {
        uint32_t key = pat_key(lo + j);
        uint32_t b = cpb_mod29(key >> 3, k.d, k.m, k.shift);
        bin[j] = key % 1000000u < hot_thr ? 0 : b;
    }
}

CPB_CLONES static void bins_block_plain(uint32_t lo, uint32_t m, cpb_div k, uint32_t *bin)
{
    for (uint32_t j = 0; j < m; j++)
        bin[j] = cpb_mod29(pat_key(lo + j) >> 3, k.d, k.m, k.shift);
}

static void bins_block(uint32_t lo, uint32_t m, cpb_div k, uint32_t hot_thr, uint32_t *bin)
{
    if (hot_thr)
        bins_block_hot(lo, m, k, hot_thr, bin);
    else
        bins_block_plain(lo, m, k, bin);
}

/* One scan for each bin width; the copies are folded into the first at the
 * end (in the bins' own width, so the narrow ones wrap the same way). */
#define HIST_SCAN(NAME, T, HOT)                                                                                     \
    static void NAME(uint32_t lo, uint32_t cnt, cpb_div k, uint32_t hot_thr, unsigned copies, T *bins)             \
    {                                                                                                              \
        uint32_t bin[BLOCK];                                                                                       \
        (void)hot_thr;                                                                                             \
        while (cnt) {                                                                                              \
            uint32_t m = cnt < BLOCK ? cnt : BLOCK, j = 0;                                                         \
            bins_block(lo, m, k, HOT, bin);                                                                        \
            if (copies == 8)                                                                                       \
                for (; j + 8 <= m; j += 8)                                                                         \
                    for (uint32_t c = 0; c < 8; c++)                                                               \
                        bins[c * k.d + bin[j + c]]++;                                                              \
            if (copies == 4)                                                                                       \
                for (; j + 4 <= m; j += 4)                                                                         \
                    for (uint32_t c = 0; c < 4; c++)                                                               \
                        bins[c * k.d + bin[j + c]]++;                                                              \
            for (; j < m; j++)                                                                                     \
                bins[bin[j]]++;                                                                                    \
            lo += m;                                                                                               \
            cnt -= m;                                                                                              \
        }                                                                                                          \
        for (unsigned c = 1; c < copies; c++)                                                                      \
            for (uint32_t b = 0; b < k.d; b++)                                                                     \
                bins[b] += bins[c * k.d + b];                                                                      \
    }

HIST_SCAN(hist32, uint32_t, hot_thr)
HIST_SCAN(hist16, uint16_t, 0)
HIST_SCAN(hist8, uint8_t, 0)

void cpb_scan_hist32(uint32_t lo, uint32_t cnt, cpb_div k, uint32_t hot_thr, unsigned copies, uint32_t *bins)
{
    hist32(lo, cnt, k, hot_thr, copies, bins);
}

void cpb_scan_hist16(uint32_t lo, uint32_t cnt, cpb_div k, unsigned copies, uint16_t *bins)
{
    hist16(lo, cnt, k, 0, copies, bins);
}

void cpb_scan_hist8(uint32_t lo, uint32_t cnt, cpb_div k, unsigned copies, uint8_t *bins)
{
    hist8(lo, cnt, k, 0, copies, bins);
}

void cpb_scan_lines(uint32_t lo, uint32_t cnt, uint32_t p, unsigned copies, uint32_t *ctr)
{
    /* one division for the slice; after that the counter index steps */
    uint32_t j = lo % p, t = 0;
    if (copies > 1)
        for (; t + copies <= cnt; t += copies)
            for (uint32_t c = 0; c < copies; c++) {
                ctr[c * p + j]++;
                if (++j == p)
                    j = 0;
            }
    for (; t < cnt; t++) {
        ctr[j]++;
        if (++j == p)
            j = 0;
    }
    for (unsigned c = 1; c < copies; c++)
        for (uint32_t b = 0; b < p; b++)
            ctr[b] += ctr[c * p + b];
}
