/* score.c - the dispatcher's scoring: continuous penalty, categorical
 * inhibition, data movement, and the GPU-or-CPU decision. */
#include "score.h"

static const char *const reason_names[DSP_REASON_COUNT] = {
    [DSP_REASON_GPU_FASTER] = "gpu_faster",
    [DSP_REASON_CPU_FASTER] = "cpu_faster",
    [DSP_REASON_DENSITY] = "density",
    [DSP_REASON_CAS] = "cas",
};

const char *dsp_reason_name(enum dsp_reason r)
{
    return r < DSP_REASON_COUNT ? reason_names[r] : "?";
}

const char *dsp_target_name(enum dsp_target t)
{
    return t == DSP_GPU ? "gpu" : "cpu";
}

void dsp_thresholds_of(const cfg_config *c, dsp_thresholds *t)
{
    t->penalty_start = c->dispatch.density_penalty_start;
    t->inhibit = c->dispatch.density_inhibit;
    t->inhibit_cas = c->dispatch.inhibit_cas;
}

double dsp_penalty(double fraction, const dsp_thresholds *t)
{
    if (fraction <= t->penalty_start)
        return 0;
    if (fraction >= t->inhibit || t->inhibit <= t->penalty_start)
        return 1;
    return (fraction - t->penalty_start) / (t->inhibit - t->penalty_start);
}

int dsp_inhibited(const dsp_density *d, const dsp_thresholds *t, enum dsp_reason *why)
{
    if (d->cas && t->inhibit_cas) {
        *why = DSP_REASON_CAS;
        return 1;
    }
    if (d->atomics && d->fraction > t->inhibit) {
        *why = DSP_REASON_DENSITY;
        return 1;
    }
    return 0;
}

/* One 32-bit element per thread comes in; what goes out depends on the
 * pattern (a count, the compacted keys, the bins, the mask). */
double dsp_input_bytes(const pat_params *p)
{
    return 4.0 * (double)p->n;
}

double dsp_output_bytes(const pat_params *p)
{
    switch (p->pattern) {
    case PAT_STORE:
        return 4.0 * (double)p->n * p->selectivity;
    case PAT_COMPACTION:
    case PAT_CAS_APPEND:
        return 4.0 * (double)p->n * p->selectivity + 4;
    case PAT_HISTOGRAM:
    case PAT_HISTOGRAM_SHARED:
        return 4.0 * p->bins;
    case PAT_HISTOGRAM_U8_CAS:
        return 1.0 * p->bins;
    case PAT_HISTOGRAM_U16_CAS:
        return 2.0 * p->bins;
    case PAT_BITMASK:
        return (double)p->n / 8;
    case PAT_DISTINCT_LINES:
        return 4.0 * p->addresses;
    default:
        return 4;
    }
}

double dsp_transfer_us(const cfg_config *c, double bytes)
{
    return bytes / (c->dispatch.pcie_bandwidth_gbps * 1e3);
}

void dsp_decide(const cfg_config *c, const pat_params *p, const dsp_density *d, double gpu_kernel_us,
                double cpu_compute_us, dsp_decision *out)
{
    dsp_thresholds t;
    dsp_thresholds_of(c, &t);
    /* the input lives on one side; the other side fetches it, and the GPU
     * hands its result back to the host when the data lives there */
    if (c->dispatch.data_on_gpu) {
        out->gpu_us = gpu_kernel_us;
        out->cpu_us = cpu_compute_us + dsp_transfer_us(c, dsp_input_bytes(p));
    } else {
        out->gpu_us = gpu_kernel_us + dsp_transfer_us(c, dsp_input_bytes(p) + dsp_output_bytes(p));
        out->cpu_us = cpu_compute_us;
    }
    out->penalty = d->atomics ? dsp_penalty(d->fraction, &t) : 0;
    out->inhibited = dsp_inhibited(d, &t, &out->reason);
    if (out->inhibited) {
        out->target = DSP_CPU;
        return;
    }
    if (out->gpu_us * (1 + out->penalty) <= out->cpu_us) {
        out->target = DSP_GPU;
        out->reason = DSP_REASON_GPU_FASTER;
    } else {
        out->target = DSP_CPU;
        out->reason = DSP_REASON_CPU_FASTER;
    }
}
