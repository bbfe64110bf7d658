/* The clock guard's reference and tolerance (vkb_guard.h). */
#include "vkb_guard.h"

#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int vkb_guard_set(vkb_guard *g, double *probes_us, int n, double tol_pct)
{
    if (n < 3)
        return -1;
    for (int i = 0; i < n; i++)
        if (!(probes_us[i] > 0))
            return -1;
    qsort(probes_us, (size_t)n, sizeof *probes_us, cmp_double);
    g->ref_us = n % 2 ? probes_us[n / 2] : (probes_us[n / 2 - 1] + probes_us[n / 2]) / 2;
    /* the second-slowest: one probe caught by a passing hiccup should not
     * widen the band for the whole run */
    g->spread = probes_us[n - 2] / g->ref_us - 1;
    g->automatic = !(tol_pct > 0);
    g->too_noisy = 0;
    g->fastest_us = probes_us[0];
    if (!g->automatic) {
        g->tol = tol_pct / 100;
        return 0;
    }
    double tol = VKB_GUARD_SPREAD_FACTOR * g->spread;
    g->too_noisy = tol > VKB_GUARD_MAX_TOL;
    g->tol = tol < VKB_GUARD_MIN_TOL ? VKB_GUARD_MIN_TOL : g->too_noisy ? VKB_GUARD_MAX_TOL : tol;
    return 0;
}

int vkb_guard_accept(vkb_guard *g, double probe_us)
{
    if (!(probe_us > 0))
        return 0;
    if (probe_us < g->fastest_us)
        g->fastest_us = probe_us;
    return probe_us <= g->ref_us * (1 + g->tol);
}

double vkb_guard_ratio(const vkb_guard *g, double probe_us)
{
    return g->ref_us > 0 ? probe_us / g->ref_us : 0;
}
