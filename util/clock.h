/* clock.h - monotonic seconds, the one clock that the progress lines, the
 * reports' wall times, the lookup timings and the harnesses read.  Header
 * only (static inline) so that vkbench and cpubench, which link none of
 * util/, take it with an #include; clock_gettime needs POSIX 2008, which
 * every build here declares (_GNU_SOURCE, or _POSIX_C_SOURCE=200809L). */
#ifndef ATOM_UTIL_CLOCK_H
#define ATOM_UTIL_CLOCK_H

#include <time.h>

/* Seconds since an arbitrary fixed point: differences are elapsed time. */
static inline double clk_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#endif
