/* sig6.c - "%.6g" and its read-back without printf and strtod (sig6.h).
 *
 * A positive v in [1e-16, 1e27) is D x 10^(X-5) with D the six digits
 * (100000..999999) and X the decimal exponent.  x = v x 10^(5-X) is one
 * multiplication or division by an exact power of ten (10^22 is the
 * largest exact one), so it is v's scaled value to within half an ulp,
 * under 2.4e-10 for x < 1e6.  Where x's fraction is further than 1e-9 from
 * one half, rounding x to the nearest integer rounds the exact value the
 * same way, as printf does; nearer, the slow path decides.  Reading back,
 * D x 10^(X-5) is again one correctly rounded operation on exact operands:
 * the double strtod returns. */
#include "sig6.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const double pow10_exact[23] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

/* v x 10^k for |k| <= 22, one correctly rounded operation */
static double scale10(double v, int k)
{
    return k >= 0 ? v * pow10_exact[k] : v / pow10_exact[-k];
}

/* The six digits and exponent of v, or -1 where the fast path cannot be
 * sure (zero, negative, not finite, out of range, near a tie). */
static int digits_of(double v, long *digits, int *x10)
{
    if (!(v >= 1e-16 && v < 1e27))
        return -1;
    int x = (int)floor(log10(v));
    for (int tries = 0; tries < 2; tries++) {
        if (5 - x > 22 || 5 - x < -22)
            return -1;
        double s = scale10(v, 5 - x);
        if (s < 99999.5) { /* log10 rounded up past a power of ten */
            x--;
            continue;
        }
        if (s >= 1e6) { /* or down below one */
            x++;
            continue;
        }
        double fl = floor(s), frac = s - fl;
        if (fabs(frac - 0.5) < 1e-9)
            return -1;
        long d = (long)fl + (frac > 0.5);
        if (d == 1000000) { /* 999999.6 rounds up to the next exponent */
            d = 100000;
            x++;
        }
        *digits = d;
        *x10 = x;
        return 0;
    }
    return -1;
}

void sig6_format(char *buf, size_t len, double v)
{
    long d;
    int x;
    if (len < 16 || digits_of(v, &d, &x)) {
        snprintf(buf, len, "%.6g", v);
        return;
    }
    char dig[7];
    for (int i = 5; i >= 0; i--, d /= 10)
        dig[i] = (char)('0' + d % 10);
    int nd = 6; /* %g drops trailing zeros */
    while (nd > 1 && dig[nd - 1] == '0')
        nd--;
    char *p = buf;
    if (x < -4 || x >= 6) {
        *p++ = dig[0];
        if (nd > 1) {
            *p++ = '.';
            for (int i = 1; i < nd; i++)
                *p++ = dig[i];
        }
        *p++ = 'e';
        *p++ = x < 0 ? '-' : '+';
        int ax = abs(x);
        if (ax >= 100)
            *p++ = (char)('0' + ax / 100);
        *p++ = (char)('0' + ax / 10 % 10);
        *p++ = (char)('0' + ax % 10);
    } else if (x >= 0) {
        for (int i = 0; i <= x; i++)
            *p++ = dig[i];
        if (nd > x + 1) {
            *p++ = '.';
            for (int i = x + 1; i < nd; i++)
                *p++ = dig[i];
        }
    } else {
        *p++ = '0';
        *p++ = '.';
        for (int i = 0; i < -x - 1; i++)
            *p++ = '0';
        for (int i = 0; i < nd; i++)
            *p++ = dig[i];
    }
    *p = '\0';
}

double sig6_round(double v)
{
    long d;
    int x;
    if (digits_of(v, &d, &x)) {
        char buf[40];
        snprintf(buf, sizeof buf, "%.6g", v);
        return strtod(buf, NULL);
    }
    return scale10((double)d, x - 5);
}
