/* The clock guard's decision, apart from Vulkan so that a test can feed it
 * a simulated probe. A fixed tolerance over the fastest probe failed on a
 * fresh H100: one lucky fast probe set a baseline that the board's own
 * jitter then exceeded on every row, and the guard re-warmed without end.
 * So the reference is the median of probes taken on a warmed GPU, and the
 * tolerance (unless the user fixes one) is a multiple of those probes'
 * spread on that board: jitter stays inside it, a clock dip (rows 2x to 5x
 * slow) does not. */
#ifndef VKB_GUARD_H
#define VKB_GUARD_H

/* Probes the reference is taken from, on a warmed GPU. */
#define VKB_GUARD_PROBES 15
/* Automatic tolerance: this many times the probes' slow-side spread ... */
#define VKB_GUARD_SPREAD_FACTOR 3.0
/* ... but at least this (a quiet board still jitters on longer runs) and at
 * most this (beyond it a dip of the clock could pass as jitter). */
#define VKB_GUARD_MIN_TOL 0.03
#define VKB_GUARD_MAX_TOL 0.25

typedef struct vkb_guard {
    double ref_us;  /* median probe at the top clock */
    double spread;  /* second-slowest probe over the median, minus 1 */
    double tol;     /* a probe up to ref_us * (1 + tol) is at the top clock */
    int automatic;  /* tol came from the spread */
    int too_noisy;  /* the spread asked for more than VKB_GUARD_MAX_TOL */
    double fastest_us; /* the fastest probe seen, for the record */
} vkb_guard;

/* Sets the reference and tolerance from n >= 3 probes (microseconds, in
 * any order; the array is sorted in place). tol_pct > 0 fixes the
 * tolerance; 0 derives it from the spread. Returns 0, or -1 when the
 * probes are too few or not positive. */
int vkb_guard_set(vkb_guard *g, double *probes_us, int n, double tol_pct);

/* 1 when a probe of probe_us ran at the top clock. The reference stays
 * where it was set: lowering it to a faster probe, as the fixed guard did,
 * lets one lucky probe reject every row after it. */
int vkb_guard_accept(vkb_guard *g, double probe_us);

/* The probe over the reference: the clock evidence of one repetition. */
double vkb_guard_ratio(const vkb_guard *g, double probe_us);

#endif
