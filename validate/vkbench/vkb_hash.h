/* The contract's key function and selection rule, shared by the host
 * reference and (in GLSL) by the shaders: both must agree bit for bit. */
#ifndef VKB_HASH_H
#define VKB_HASH_H

#include <stdint.h>

/* key(i) = lowbias32(i), a bijection on 32-bit words. */
static inline uint32_t vkb_lowbias32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* The inverse of vkb_lowbias32: maps a key found in an output slot back to
 * the thread that must have written it, so checks need no sorting. */
uint32_t vkb_lowbias32_inv(uint32_t key);

/* round(f * 1e6) for f in [0, 1]: the push-constant threshold that the
 * shader compares key % 1000000 against. */
uint32_t vkb_threshold(double f);

static inline int vkb_selected(uint32_t key, uint32_t thr)
{
    return key % 1000000u < thr;
}

/* --select-unit: what one selection draw decides. VKB_SEL_THREAD is the
 * contract (each thread draws on its own key); the others are probes of the
 * selectivity hump that keep the same fraction of selected lanes or warps
 * but change how they mix: a whole warp (32 consecutive threads), a whole
 * workgroup, or lane 0 of a warp only. */
enum { VKB_SEL_THREAD, VKB_SEL_WARP, VKB_SEL_WORKGROUP, VKB_SEL_LANE0 };

/* Thread i (in workgroups of wg threads) is selected: mirrors
 * selected_at() in patterns.comp. */
static inline int vkb_selected_at(uint32_t i, uint32_t wg, int unit,
                                  uint32_t thr)
{
    switch (unit) {
    case VKB_SEL_WARP:
        return vkb_selected(vkb_lowbias32(i >> 5), thr);
    case VKB_SEL_WORKGROUP:
        return vkb_selected(vkb_lowbias32(i / wg), thr);
    case VKB_SEL_LANE0:
        return (i & 31u) == 0 && vkb_selected(vkb_lowbias32(i >> 5), thr);
    }
    return vkb_selected(vkb_lowbias32(i), thr);
}

/* The value output buffers are cleared to: the key of thread 2^32-1, which
 * no thread i < 2^31 can produce, so an unwritten slot is never a key. */
#define VKB_FILL_INDEX 0xffffffffu

#endif
