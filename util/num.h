/* num.h - the one strict number parser: every flag, config value and file
 * field that holds a number is read here, so that one spelling means one
 * value everywhere (docs/robustness.md).
 *
 * Accepted: base 10 only, an optional sign where the caller allows one,
 * digits with an optional fraction and exponent (1048576, 0.25, 1e6,
 * 2.5e-3), and for whole numbers 2^E.  Refused: hex (0x10, 0x1p4), a
 * leading zero before a digit (010 reads as eight to some readers, ten to
 * others), surrounding spaces, trailing text, infinity and NaN (unless a
 * field allows them), values that overflow.  Range checks happen on the
 * double before any cast, so a negative or huge value is refused rather
 * than wrapped. */
#ifndef ATOM_UTIL_NUM_H
#define ATOM_UTIL_NUM_H

/* A finite decimal number; 0, or -1 when s is not one. */
int num_parse_double(const char *s, double *out);

/* A whole number >= 0: decimal digits, 2^E (E <= 63) or an exact integer
 * in exponent form (1e6); 0, or -1. */
int num_parse_u64(const char *s, unsigned long long *out);

enum num_flags {
    NUM_INTEGER = 1,    /* the value must be integral */
    NUM_NONFINITE = 2,  /* inf, -inf and nan are accepted as such */
};

/* A number in [min, max] under flags: 0, or -1 when it is not a number
 * (or not integral with NUM_INTEGER), -2 when it is out of range (*out
 * then holds it, for the message). */
int num_parse_range(const char *s, double min, double max, unsigned flags, double *out);

#endif
