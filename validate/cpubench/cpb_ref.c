/* cpb_ref.c - the serial reference of cpb_ref.h.  Streams over the
 * elements once; only the histograms keep a reference array (K counts). */
#include "cpb_ref.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef unsigned long long ull;

static int fail(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* A second hash of a key for the multiset sum: a key sum alone would miss
 * two wrong keys whose errors cancel. */
static uint64_t mix(uint32_t key)
{
    return (uint64_t)pat_key(key ^ 0x9e3779b9u) * 0x9e3779b97f4a7c15ull;
}

static int check_bins(const cpb_job *j, char *why, size_t len)
{
    uint32_t k = j->k.d, n = j->c.n;
    uint32_t *ref = calloc(k, sizeof *ref);
    if (!ref)
        return fail(why, len, "no memory for the reference (%u bins)", k);
    if (j->c.pattern == PAT_DISTINCT_LINES)
        for (uint32_t i = 0; i < n; i++)
            ref[i % k]++;
    else
        for (uint32_t i = 0; i < n; i++) {
            uint32_t key = pat_key(i);
            ref[j->hot_thr && pat_selected(key, j->hot_thr) ? 0 : (key >> 3) % k]++;
        }
    /* the width comes from the pattern, not from the job under test */
    enum pat_id p = j->c.pattern;
    unsigned bits = p == PAT_HISTOGRAM_U8_CAS ? 8 : p == PAT_HISTOGRAM_U16_CAS ? 16 : 32;
    uint32_t mask = (uint32_t)((1ull << bits) - 1);
    int rc = 0;
    for (uint32_t b = 0; b < k && !rc; b++) {
        uint32_t got = bits == 32   ? ((const uint32_t *)j->out)[b]
                       : bits == 16 ? ((const uint16_t *)j->out)[b]
                                    : ((const uint8_t *)j->out)[b];
        if (got != (ref[b] & mask))
            rc = fail(why, len, "bin %u is %u, expected %u", b, got, ref[b] & mask);
    }
    free(ref);
    return rc;
}

static int check_slots(const cpb_job *j, char *why, size_t len)
{
    const uint32_t *out = j->out;
    uint32_t fill = pat_key(CPB_FILL_INDEX);
    uint64_t nsel = 0, sum = 0, mixed = 0, got = 0;
    for (int w = 0; w < j->workers; w++)
        got += j->slot[w].count;
    for (uint32_t i = 0; i < j->c.n; i++) {
        uint32_t key = pat_key(i);
        if (pat_selected(key, j->sel_thr))
            nsel++, sum += key, mixed += mix(key);
    }
    if (got != nsel)
        return fail(why, len, "the count is %llu, expected %llu", (ull)got, (ull)nsel);
    for (uint64_t s = 0; s < nsel; s++)
        sum -= out[s], mixed -= mix(out[s]);
    if (sum || mixed)
        return fail(why, len, "the %llu slots do not hold the selected keys (sum off by %llu, hash sum by %llu)",
                    (ull)nsel, (ull)sum, (ull)mixed);
    for (uint64_t s = nsel; s < j->c.n; s++)
        if (out[s] != fill)
            return fail(why, len, "slot %llu past the count %llu was written", (ull)s, (ull)nsel);
    return 0;
}

int cpb_ref_check(const cpb_job *j, char *why, size_t len)
{
    const uint32_t *out = j->out;
    uint32_t n = j->c.n, thr = j->sel_thr;
    uint64_t want = 0;
    switch (j->c.pattern) {
    case PAT_STORE: {
        uint32_t fill = pat_key(CPB_FILL_INDEX);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t key = pat_key(i), w = pat_selected(key, thr) ? key : fill;
            if (out[i] != w)
                return fail(why, len, "out[%u] is 0x%08x, expected 0x%08x", i, out[i], w);
        }
        return 0;
    }
    case PAT_COUNTER:
    case PAT_COUNTER_AGGREGATED:
        for (uint32_t i = 0; i < n; i++)
            want += pat_selected(pat_key(i), thr);
        return j->total == want ? 0 : fail(why, len, "the counter is %llu, expected %llu", (ull)j->total, (ull)want);
    case PAT_REDUCE: {
        uint32_t t = 0;
        for (uint32_t i = 0; i < n; i++)
            t += pat_key(i) & 255u;
        return (uint32_t)j->total == t ? 0 : fail(why, len, "the total is %u, expected %u", (uint32_t)j->total, t);
    }
    case PAT_BITMASK:
        for (uint32_t w = 0; w < (uint32_t)(((uint64_t)n + 31) / 32); w++) {
            uint32_t bits = 0;
            for (uint32_t b = 0; b < 32 && 32 * w + b < n; b++)
                bits |= (uint32_t)pat_selected(pat_key(32 * w + b), thr) << b;
            if (out[w] != bits)
                return fail(why, len, "mask word %u is 0x%08x, expected 0x%08x", w, out[w], bits);
        }
        return 0;
    case PAT_COMPACTION:
    case PAT_CAS_APPEND:
        return check_slots(j, why, len);
    default:
        return check_bins(j, why, len);
    }
}
