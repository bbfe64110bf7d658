/* score.c - the dispatcher's decision: data movement, the cost rule, and
 * seed 000's penalty and inhibition. */
#include "score.h"

#include <string.h>

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

static const char *const rule_names[] = { "cost", "seed" };
static const char *const data_on_names[] = { "gpu", "host", "both" };

const char *dsp_rule_name(enum dsp_rule r)
{
    return (unsigned)r < 2 ? rule_names[r] : "?";
}

const char *dsp_data_on_name(enum dsp_data_on d)
{
    return (unsigned)d < 3 ? data_on_names[d] : "?";
}

static int from_name(const char *const *names, int count, const char *name, int *out)
{
    for (int i = 0; i < count; i++)
        if (!strcmp(names[i], name)) {
            *out = i;
            return 0;
        }
    return -1;
}

int dsp_rule_from_name(const char *name, enum dsp_rule *out)
{
    int i;
    if (from_name(rule_names, 2, name, &i))
        return -1;
    *out = (enum dsp_rule)i;
    return 0;
}

int dsp_data_on_from_name(const char *name, enum dsp_data_on *out)
{
    int i;
    if (from_name(data_on_names, 3, name, &i))
        return -1;
    *out = (enum dsp_data_on)i;
    return 0;
}

void dsp_policy_of(const cfg_config *c, dsp_policy *p)
{
    p->rule = (enum dsp_rule)c->dispatch.rule;
    p->data_on = (enum dsp_data_on)c->dispatch.data_on;
    p->host_launch_us = c->dispatch.host_launch_us;
    p->pcie_bandwidth_gbps = c->dispatch.pcie_bandwidth_gbps;
    dsp_thresholds_of(c, &p->seed);
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

double dsp_transfer_us(const dsp_policy *pol, double bytes)
{
    return bytes / (pol->pcie_bandwidth_gbps * 1e3);
}

void dsp_decide(const dsp_policy *pol, const pat_params *p, const dsp_density *d, double gpu_kernel_us,
                double cpu_compute_us, dsp_decision *out)
{
    /* the side without the input fetches it; the GPU hands its result back
     * to the host when the data lives there */
    out->gpu_us = gpu_kernel_us + pol->host_launch_us;
    out->cpu_us = cpu_compute_us;
    if (pol->data_on == DSP_DATA_ON_GPU)
        out->cpu_us += dsp_transfer_us(pol, dsp_input_bytes(p));
    else if (pol->data_on == DSP_DATA_ON_HOST)
        out->gpu_us += dsp_transfer_us(pol, dsp_input_bytes(p) + dsp_output_bytes(p));
    out->cost_target = out->gpu_us <= out->cpu_us ? DSP_GPU : DSP_CPU;

    out->penalty = d->atomics ? dsp_penalty(d->fraction, &pol->seed) : 0;
    out->inhibited = dsp_inhibited(d, &pol->seed, &out->seed_reason);
    if (out->inhibited)
        out->seed_target = DSP_CPU;
    else if (out->gpu_us * (1 + out->penalty) <= out->cpu_us) {
        out->seed_target = DSP_GPU;
        out->seed_reason = DSP_REASON_GPU_FASTER;
    } else {
        out->seed_target = DSP_CPU;
        out->seed_reason = DSP_REASON_CPU_FASTER;
    }

    if (pol->rule == DSP_RULE_SEED) {
        out->target = out->seed_target;
        out->reason = out->seed_reason;
    } else {
        out->target = out->cost_target;
        out->reason = out->cost_target == DSP_GPU ? DSP_REASON_GPU_FASTER : DSP_REASON_CPU_FASTER;
    }
}
