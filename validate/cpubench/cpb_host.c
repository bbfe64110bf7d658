/* cpb_host.c - the machine facts of cpb_host.h and cpb_simd.h. */
#define _GNU_SOURCE
#include "cpb_host.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../util/clock.h"
#include "cpb_simd.h"

#ifndef CPB_COMMIT
#define CPB_COMMIT "unknown"
#endif

const char *cpb_commit(void)
{
    return CPB_COMMIT;
}

void cpb_cpu_model(char *buf, size_t len)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    snprintf(buf, len, "unknown");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10)) {
            char *c = strchr(line, ':');
            if (c) {
                c += 1 + (c[1] == ' ');
                c[strcspn(c, "\n")] = 0;
                snprintf(buf, len, "%s", c);
            }
            break;
        }
    if (f)
        fclose(f);
}

void cpb_boot_id(char *buf, size_t len)
{
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    snprintf(buf, len, "unknown");
    if (f && fgets(buf, (int)len, f))
        buf[strcspn(buf, "\n")] = 0;
    if (f)
        fclose(f);
    if (!buf[0])
        snprintf(buf, len, "unknown");
}

int cpb_online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

void cpb_date(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

double cpb_now_us(void)
{
    return 1e6 * clk_now();
}

/* The keys one skip branch of cpb_scan_store covers: its AVX-512 clone
 * tests 16 lanes before a masked write, the AVX2 one 8, and the default
 * build branches on every key (objdump of build/cpubench). */
int cpb_store_lanes(void)
{
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("x86-64-v4"))
        return 16;
    if (__builtin_cpu_supports("x86-64-v3"))
        return 8;
#endif
    return 1;
}

/* The tests the target_clones resolver makes, in the same order. */
const char *cpb_simd_level(void)
{
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
    __builtin_cpu_init();
    int v4 = __builtin_cpu_supports("x86-64-v4"), v3 = __builtin_cpu_supports("x86-64-v3");
    if (v4)
        return "x86-64-v4 (AVX-512)";
    if (v3)
        return "x86-64-v3 (AVX2)";
    return "x86-64 (SSE2)";
#else
    return "the compiler's default";
#endif
}
