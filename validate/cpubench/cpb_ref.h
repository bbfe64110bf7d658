/* cpb_ref.h - checks a job's result against a reference computed serially,
 * element by element, with the contract's own functions (pat_key,
 * pat_selected, pat_bin and a plain % for the bin), so that neither the
 * vectorized loops nor the reciprocal nor the merge are trusted. */
#ifndef CPB_REF_H
#define CPB_REF_H

#include <stddef.h>

#include "cpb_job.h"

/* 0 when the result is right; else -1 with the first difference in why.
 * Store: every element (selected: its key, else untouched); counters and
 * reduce: the value (reduce mod 2^32, as the GPU's 32-bit sum); histograms
 * and distinct-lines: every bin (the sub-word ones mod 2^8 / 2^16);
 * bitmask: every word; compaction and cas-append: the count, the keys as a
 * multiset (their sum and the sum of a second hash of them, order free, as
 * on the GPU) and the slots past the count untouched. */
int cpb_ref_check(const cpb_job *j, char *why, size_t len);

#endif
