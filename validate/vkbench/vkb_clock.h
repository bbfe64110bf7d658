/* The clock guard. GPUs lower their SM clock when they are mostly idle,
 * and a harness that checks every result on the host keeps them mostly
 * idle between dispatches: timings then stretch by 2x without a sign. So
 * each repetition is preceded by a probe, a fixed chain of dependent
 * multiply-adds in one workgroup, timed; when the probe is slower than the
 * reference by more than the tolerance (vkb_guard.h: both taken on the
 * warmed GPU, the tolerance from the probe's own spread there unless given),
 * a heater (the same work on many workgroups) runs until the clock is back,
 * and the repetition is redone. */
#ifndef VKB_CLOCK_H
#define VKB_CLOCK_H

#include "vkb_gpu.h"

typedef struct vkb_clock vkb_clock;

typedef struct vkb_clock_stats {
    double ref_us;        /* the median probe on the warmed GPU: its top clock */
    double fastest_us;    /* the fastest probe of the run */
    double spread;        /* the reference probes' slow-side spread, fraction */
    int automatic;        /* tol came from the spread */
    int too_noisy;        /* the spread asked for more than the largest tol */
    uint32_t probe_iters; /* multiply-adds per probe thread */
    double tol;           /* fraction: 0.05 accepts a probe 5% slower */
    int warms;            /* times the heater had to run */
    double warm_s;        /* wall time spent heating */
} vkb_clock_stats;

/* Heats the GPU, sizes the probe (tens of microseconds) and takes the
 * reference. tol_pct > 0 fixes the tolerance; 0 derives it (vkb_guard.h). */
int vkb_clock_open(vkb_gpu *g, double tol_pct, vkb_clock **out, char *err);

/* Records the probe, between its own timestamps, into cb. */
void vkb_clock_record_probe(vkb_clock *c, VkCommandBuffer cb);

/* After cb has completed: *ok = 1 when the probe ran at the top clock;
 * *ratio is the probe over the reference, the repetition's clock evidence. */
int vkb_clock_probe_ok(vkb_clock *c, int *ok, double *ratio, char *err);

/* Runs the heater until a probe is within tolerance. VKB_ECLOCK when the
 * clock has not come back within a few seconds. */
int vkb_clock_warm(vkb_clock *c, char *err);

void vkb_clock_get_stats(const vkb_clock *c, vkb_clock_stats *s);
void vkb_clock_close(vkb_clock *c);

#endif
