/* Inverse of the key hash and the threshold rounding (see vkb_hash.h). */
#include "vkb_hash.h"

#include <math.h>

/* Multiplicative inverse mod 2^32 by Newton's iteration: each step doubles
 * the number of correct low bits, five steps reach 32 from 3. */
static uint32_t inv_mul(uint32_t a)
{
    uint32_t x = a;
    for (int k = 0; k < 5; k++)
        x *= 2u - a * x;
    return x;
}

/* x ^= x >> s is undone by xoring in the shifted value until it vanishes. */
static uint32_t inv_xorshift(uint32_t y, unsigned s)
{
    uint32_t x = y;
    for (unsigned k = s; k < 32; k += s)
        x = y ^ (x >> s);
    return x;
}

uint32_t vkb_lowbias32_inv(uint32_t x)
{
    static uint32_t inv1, inv2;
    if (!inv1) {
        inv1 = inv_mul(0x7feb352du);
        inv2 = inv_mul(0x846ca68bu);
    }
    x = inv_xorshift(x, 16);
    x *= inv2;
    x = inv_xorshift(x, 15);
    x *= inv1;
    x = inv_xorshift(x, 16);
    return x;
}

uint32_t vkb_threshold(double f)
{
    return (uint32_t)lround(f * 1000000.0);
}
