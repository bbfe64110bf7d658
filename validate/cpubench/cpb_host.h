/* cpb_host.h - what a measurement file says about the machine and the
 * build that made it: CPU model, date, harness commit, vector level, and
 * the wall clock every timing uses. */
#ifndef CPB_HOST_H
#define CPB_HOST_H

#include <stddef.h>

/* The build's commit (validate/cpubench.mk passes -DCPB_COMMIT). */
const char *cpb_commit(void);
/* /proc/cpuinfo's "model name", or "unknown". */
void cpb_cpu_model(char *buf, size_t len);
/* The kernel's boot id, or "unknown": two files with one boot id were
 * measured on one machine between the same reboots, so a claim of "two
 * hosts" can be checked (host names on lent machines say nothing). */
void cpb_boot_id(char *buf, size_t len);
int cpb_online_cpus(void);
/* UTC, ISO 8601. */
void cpb_date(char *buf, size_t len);
/* CLOCK_MONOTONIC in microseconds. */
double cpb_now_us(void);

#endif
