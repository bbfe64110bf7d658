/* Host reference and result checks for the twelve patterns. */
#include "vkb_ref.h"

#include <stdlib.h>
#include <string.h>

#include "vkb_common.h"
#include "vkb_hash.h"

struct vkb_ref {
    vkb_cfg c;
    uint32_t sel_thr, hot_thr;
    uint32_t nsel;     /* selected threads */
    uint32_t total;    /* reduce: sum of key & 255, mod 2^32 */
    uint32_t *bins;    /* histograms: exact counts per bin */
    uint32_t *mask;    /* bitmask: expected words */
    uint8_t *seen;     /* compaction, cas-append: one byte per thread */
};

uint32_t vkb_ref_fill(void)
{
    return vkb_lowbias32(VKB_FILL_INDEX);
}

static uint32_t bin_of(const vkb_ref *r, uint32_t key)
{
    if (r->c.pattern == VKB_HISTOGRAM && vkb_selected(key, r->hot_thr))
        return 0;
    return (key >> 3) % r->c.bins;
}

int vkb_ref_open(const vkb_cfg *c, vkb_ref **out, char *err)
{
    vkb_ref *r = calloc(1, sizeof *r);
    int id = c->pattern;
    int hist = id == VKB_HISTOGRAM || id == VKB_HISTOGRAM_SHARED ||
               id == VKB_HISTOGRAM_U8_CAS || id == VKB_HISTOGRAM_U16_CAS;

    if (!r)
        return vkb_errf(err, VKB_EFAIL, "out of memory");
    r->c = *c;
    r->sel_thr = vkb_threshold(c->selectivity);
    r->hot_thr = vkb_threshold(c->hot);
    if (hist)
        r->bins = calloc(c->bins, sizeof *r->bins);
    if (id == VKB_BITMASK)
        r->mask = calloc(((size_t)c->n + 31) / 32, sizeof *r->mask);
    if (id == VKB_COMPACTION || id == VKB_CAS_APPEND)
        r->seen = malloc(c->n);
    if ((hist && !r->bins) || (id == VKB_BITMASK && !r->mask) ||
        ((id == VKB_COMPACTION || id == VKB_CAS_APPEND) && !r->seen)) {
        vkb_ref_close(r);
        return vkb_errf(err, VKB_EFAIL, "out of memory for the reference");
    }
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t key = vkb_lowbias32(i);
        if (vkb_selected_at(i, c->wg, c->sel_unit, r->sel_thr)) {
            r->nsel++;
            if (r->mask)
                r->mask[i >> 5] |= 1u << (i & 31);
        }
        r->total += key & 255u;
        if (r->bins)
            r->bins[bin_of(r, key)]++;
    }
    *out = r;
    return VKB_OK;
}

void vkb_ref_close(vkb_ref *r)
{
    if (!r)
        return;
    free(r->bins);
    free(r->mask);
    free(r->seen);
    free(r);
}

static int check_count(const char *what, uint32_t got, uint32_t want,
                       char *why)
{
    if (got == want)
        return VKB_OK;
    return vkb_errf(why, VKB_ECHECK, "%s is %u, expected %u", what, got,
                    want);
}

static int check_store(const vkb_ref *r, const uint32_t *out, char *why)
{
    uint32_t fill = vkb_ref_fill();
    for (uint32_t i = 0; i < r->c.n; i++) {
        uint32_t key = vkb_lowbias32(i);
        uint32_t want =
            vkb_selected_at(i, r->c.wg, r->c.sel_unit, r->sel_thr) ? key
                                                                     : fill;
        if (out[i] != want)
            return vkb_errf(why, VKB_ECHECK, "out[%u] is 0x%08x, expected "
                            "0x%08x", i, out[i], want);
    }
    return VKB_OK;
}

/* Every slot below the count holds the key of a distinct selected thread
 * and every slot above it is untouched; with the count equal to the number
 * of selected threads, the sets are equal. */
static int check_slots(vkb_ref *r, const uint32_t *target,
                       const uint32_t *out, char *why)
{
    uint32_t fill = vkb_ref_fill();
    int rc = check_count("the append count", target[0], r->nsel, why);
    if (rc)
        return rc;
    memset(r->seen, 0, r->c.n);
    for (uint32_t s = 0; s < r->nsel; s++) {
        uint32_t i = vkb_lowbias32_inv(out[s]);
        if (i >= r->c.n ||
            !vkb_selected_at(i, r->c.wg, r->c.sel_unit, r->sel_thr))
            return vkb_errf(why, VKB_ECHECK, "slot %u holds 0x%08x, the "
                            "key of no selected thread", s, out[s]);
        if (r->seen[i]++)
            return vkb_errf(why, VKB_ECHECK, "the key of thread %u is in "
                            "two slots (slot %u is the second)", i, s);
    }
    for (uint32_t s = r->nsel; s < r->c.n; s++)
        if (out[s] != fill)
            return vkb_errf(why, VKB_ECHECK, "slot %u past the count was "
                            "written", s);
    return VKB_OK;
}

static int check_words(const char *what, const uint32_t *got,
                       const uint32_t *want, size_t len, char *why)
{
    for (size_t w = 0; w < len; w++)
        if (got[w] != want[w])
            return vkb_errf(why, VKB_ECHECK, "%s[%zu] is %u, expected %u",
                            what, w, got[w], want[w]);
    return VKB_OK;
}

/* Sub-word bins: field b of the packed words holds the count mod 2^bits;
 * the padding fields of the last word stay zero. */
static int check_packed(const vkb_ref *r, const uint32_t *target,
                        unsigned bits, char *why)
{
    unsigned per = 32 / bits;
    uint32_t fmask = (uint32_t)((1ull << bits) - 1);
    size_t words = ((size_t)r->c.bins + per - 1) / per;
    for (size_t b = 0; b < words * per; b++) {
        uint32_t got = (target[b / per] >> ((b % per) * bits)) & fmask;
        uint32_t want = b < r->c.bins ? (r->bins[b] & fmask) : 0;
        if (got != want)
            return vkb_errf(why, VKB_ECHECK, "bin %zu is %u, expected %u "
                            "(%u mod 2^%u)", b, got, want,
                            b < r->c.bins ? r->bins[b] : 0, bits);
    }
    return VKB_OK;
}

static int check_lines(const vkb_ref *r, const uint32_t *target, char *why)
{
    uint32_t p = r->c.addresses, n = r->c.n;
    for (size_t w = 0; w < (size_t)p * 32; w++) {
        uint32_t j = (uint32_t)(w / 32);
        uint32_t want = w % 32 ? 0 : n / p + (j < n % p);
        if (target[w] != want)
            return vkb_errf(why, VKB_ECHECK, "word %zu is %u, expected %u",
                            w, target[w], want);
    }
    return VKB_OK;
}

int vkb_ref_check(vkb_ref *r, const uint32_t *target, const uint32_t *out,
                  char *why)
{
    switch (r->c.pattern) {
    case VKB_STORE:
        return check_store(r, out, why);
    case VKB_COUNTER:
    case VKB_COUNTER_AGGREGATED:
        return check_count("the counter", target[0], r->nsel, why);
    case VKB_COMPACTION:
    case VKB_CAS_APPEND:
        return check_slots(r, target, out, why);
    case VKB_HISTOGRAM:
    case VKB_HISTOGRAM_SHARED:
        return check_words("bin", target, r->bins, r->c.bins, why);
    case VKB_HISTOGRAM_U8_CAS:
        return check_packed(r, target, 8, why);
    case VKB_HISTOGRAM_U16_CAS:
        return check_packed(r, target, 16, why);
    case VKB_BITMASK:
        return check_words("mask word", target, r->mask,
                           ((size_t)r->c.n + 31) / 32, why);
    case VKB_REDUCE:
        return check_count("the total", target[0], r->total, why);
    case VKB_DISTINCT_LINES:
        return check_lines(r, target, why);
    }
    return vkb_errf(why, VKB_EFAIL, "no check for pattern %d", r->c.pattern);
}
