/* num.c - the one strict number parser (num.h). */
#include "num.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Base 10 only, one spelling a number: strtod would also read hex (0x10,
 * 0x1p4), leading spaces, "inf" and "nan"; none of those pass here. */
static int decimal_text(const char *s, int sign_ok)
{
    if (sign_ok && (*s == '-' || *s == '+'))
        s++;
    if (!((*s >= '0' && *s <= '9') || (*s == '.' && s[1] >= '0' && s[1] <= '9')))
        return 0;
    if (s[0] == '0' && s[1] >= '0' && s[1] <= '9')
        return 0;
    return !strpbrk(s, "xXpP");
}

int num_parse_double(const char *s, double *out)
{
    char *end;
    if (!s || !*s || !decimal_text(s, 1))
        return -1;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int num_parse_u64(const char *s, unsigned long long *out)
{
    char *end;
    if (!s || !decimal_text(s, 0))
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end == 0 && errno == 0) {
        *out = v;
        return 0;
    }
    /* 2^20 and 1e6 style values, exact integers only */
    double d;
    if (!strncmp(s, "2^", 2)) {
        if (num_parse_u64(s + 2, &v) || v > 63)
            return -1;
        *out = 1ull << v;
        return 0;
    }
    if (num_parse_double(s, &d) || d < 0 || d != floor(d) || d >= 18446744073709551616.0)
        return -1;
    *out = (unsigned long long)d;
    return 0;
}

static int nonfinite(const char *s, double *out)
{
    if (!strcmp(s, "inf") || !strcmp(s, "+inf"))
        *out = INFINITY;
    else if (!strcmp(s, "-inf"))
        *out = -INFINITY;
    else if (!strcmp(s, "nan"))
        *out = NAN;
    else
        return -1;
    return 0;
}

int num_parse_range(const char *s, double min, double max, unsigned flags, double *out)
{
    double v;
    if ((flags & NUM_NONFINITE) && s && !nonfinite(s, &v)) {
        *out = v;
        return 0;
    }
    if (!s)
        return -1;
    if (!strncmp(s, "2^", 2)) {
        unsigned long long u;
        if (num_parse_u64(s, &u))
            return -1;
        v = (double)u;
    } else if (num_parse_double(s, &v)) {
        return -1;
    }
    if ((flags & NUM_INTEGER) && v != floor(v))
        return -1;
    *out = v;
    return v < min || v > max ? -2 : 0;
}
