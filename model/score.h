/* score.h - the dispatcher's scoring (seed 000), weighed against the CPU
 * tier's predicted cost:
 *
 *   - contention density below dispatch.density_penalty_start: no penalty;
 *   - between it and dispatch.density_inhibit: a continuous penalty that
 *     rises linearly from 0 to 1, and the GPU's cost counts (1 + penalty)
 *     times: at the inhibit threshold the GPU must be twice as fast to win;
 *   - above dispatch.density_inhibit, and for CAS-based algorithms when
 *     dispatch.inhibit_cas is set: categorical inhibition, a score of
 *     negative infinity that no cost can override.  It is carried as an
 *     explicit flag and reason, never as an IEEE infinity, so that tables
 *     stay valid JSON.
 *
 * Moving the data: dispatch.data_on_gpu says where the input lives; the
 * other side pays for crossing PCIe (dispatch.pcie_bandwidth_gbps). */
#ifndef ATOM_MODEL_SCORE_H
#define ATOM_MODEL_SCORE_H

#include "config.h"
#include "density.h"
#include "params.h"

enum dsp_target { DSP_GPU = 0, DSP_CPU = 1 };

/* Why the decision went the way it did. */
enum dsp_reason {
    DSP_REASON_GPU_FASTER,            /* GPU cost (penalized) below the CPU's */
    DSP_REASON_CPU_FASTER,            /* CPU cost below the GPU's (penalized) */
    DSP_REASON_DENSITY,               /* inhibited: density above the threshold */
    DSP_REASON_CAS,                   /* inhibited: a CAS-based algorithm */
    DSP_REASON_COUNT
};
const char *dsp_reason_name(enum dsp_reason r);
const char *dsp_target_name(enum dsp_target t);

typedef struct dsp_thresholds {
    double penalty_start;             /* fraction of thread capacity */
    double inhibit;
    int inhibit_cas;
} dsp_thresholds;
void dsp_thresholds_of(const cfg_config *c, dsp_thresholds *t);

/* The continuous penalty in [0, 1] (0 below start, 1 at inhibit). */
double dsp_penalty(double fraction, const dsp_thresholds *t);

/* 1 when the categorical inhibition applies, with its reason. */
int dsp_inhibited(const dsp_density *d, const dsp_thresholds *t, enum dsp_reason *why);

/* Bytes a pattern's input and output move when they cross PCIe. */
double dsp_input_bytes(const pat_params *p);
double dsp_output_bytes(const pat_params *p);
double dsp_transfer_us(const cfg_config *c, double bytes);

typedef struct dsp_decision {
    double gpu_us, cpu_us;            /* predicted, data movement included */
    double penalty;
    int inhibited;
    enum dsp_reason reason;
    enum dsp_target target;
} dsp_decision;

/* gpu_kernel_us and cpu_compute_us are the engines' predictions without
 * data movement; the config says which side moves the data. */
void dsp_decide(const cfg_config *c, const pat_params *p, const dsp_density *d, double gpu_kernel_us,
                double cpu_compute_us, dsp_decision *out);

#endif
