/* seed_formulas.c - the seeds' formulas verbatim (see seed_formulas.h for
 * the quoted sentences each one transcribes). */
#include "seed_formulas.h"

double seed_contended_latency_cycles(double base_cycles, double queued)
{
    return base_cycles + queued;
}

double seed_shared_contended_cycles(double base_cycles, double queued)
{
    return base_cycles + queued;
}

double seed_cas_attempts(double n)
{
    return n * (n + 1) / 2;
}

double seed_cas_amplification(double n)
{
    return n > 0 ? seed_cas_attempts(n) / n : 0;
}

double seed_cas_batch_cycles(double n)
{
    return seed_cas_attempts(n); /* "At 1 per cycle" */
}

double seed_dram_atomics_per_cycle(double dram_latency_cycles)
{
    return 1.0 / (2.0 * dram_latency_cycles);
}

double seed_histogram_atomics_per_cycle(double dram_latency_cycles, double bins)
{
    return seed_dram_atomics_per_cycle(dram_latency_cycles) * bins;
}

double seed_threads_per_cycle(const cfg_config *c)
{
    return (double)c->gpu.sm_count * c->gpu.fp32_lanes_per_sm;
}

double seed_contention_density(double selectivity, double threads_per_cycle, double bins)
{
    return selectivity * threads_per_cycle / bins;
}

double seed_density_fraction(double selectivity, double bins)
{
    return selectivity / bins;
}

double seed_throughput_fraction(double n)
{
    /* stated points: 512 -> no collapse yet, 1024 -> 45%, 2048 -> 15% */
    if (n <= 512)
        return 1.0;
    if (n <= 1024)
        return 1.0 - 0.55 * (n - 512) / 512;
    if (n <= 2048)
        return 0.45 - 0.30 * (n - 1024) / 1024;
    return 0.15;
}
