/* sig6.h - six significant digits, the precision the cost tables print and
 * decide on (model/export.c, exp_round6): printf's "%.6g" and the double
 * that reads back from it, without printf and strtod where the answer is
 * certain (callgrind: they were a third of a model export's instructions).
 * Both give exactly what snprintf and strtod give: a value whose rounding
 * is too near a tie for double arithmetic to decide takes them instead. */
#ifndef ATOM_UTIL_SIG6_H
#define ATOM_UTIL_SIG6_H

#include <stddef.h>

/* snprintf(buf, len, "%.6g", v), byte for byte. */
void sig6_format(char *buf, size_t len, double v);

/* strtod of that text: v rounded to six significant digits. */
double sig6_round(double v);

#endif
