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

/* The value output buffers are cleared to: the key of thread 2^32-1, which
 * no thread i < 2^31 can produce, so an unwritten slot is never a key. */
#define VKB_FILL_INDEX 0xffffffffu

#endif
