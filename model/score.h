/* score.h - the dispatcher's decision: which side, GPU or CPU tier, runs
 * one operation, from the two predicted costs.
 *
 * Two rules, named by dispatch.rule:
 *   - cost (the default): the faster side, data movement included;
 *   - seed: seed 000's scoring, kept for comparison.  Below
 *     dispatch.density_penalty_start no penalty; up to
 *     dispatch.density_inhibit a penalty rising linearly from 0 to 1 (the
 *     GPU's cost counts (1 + penalty) times); above it, and for CAS-based
 *     algorithms when dispatch.inhibit_cas is set, categorical inhibition.
 *     Inhibition is an explicit flag and reason, never an IEEE infinity, so
 *     tables stay valid JSON.
 * Every decision carries both verdicts, so tables and answers can show the
 * seed's beside the rule in force.
 *
 * Moving the data: dispatch.data_on says where the input lives (gpu, host
 * or both); the side without it pays for crossing PCIe
 * (dispatch.pcie_bandwidth_gbps), and the GPU pays dispatch.host_launch_us
 * on the host. */
#ifndef ATOM_MODEL_SCORE_H
#define ATOM_MODEL_SCORE_H

#include "config.h"
#include "density.h"
#include "params.h"

enum dsp_target { DSP_GPU = 0, DSP_CPU = 1 };
enum dsp_rule { DSP_RULE_COST = 0, DSP_RULE_SEED = 1 };
enum dsp_data_on { DSP_DATA_ON_GPU = 0, DSP_DATA_ON_HOST = 1, DSP_DATA_ON_BOTH = 2 };
const char *dsp_rule_name(enum dsp_rule r);
const char *dsp_data_on_name(enum dsp_data_on d);
int dsp_rule_from_name(const char *name, enum dsp_rule *out);       /* 0, or -1 */
int dsp_data_on_from_name(const char *name, enum dsp_data_on *out); /* 0, or -1 */

/* Why the decision went the way it did. */
enum dsp_reason {
    DSP_REASON_GPU_FASTER,            /* GPU cost (penalized, under the seed rule) at most the CPU's */
    DSP_REASON_CPU_FASTER,            /* CPU cost below the GPU's (penalized, under the seed rule) */
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

/* What dispatch.* says, without the rest of the GPU config: what a cost
 * table carries so that a lookup can decide without the config. */
typedef struct dsp_policy {
    enum dsp_rule rule;
    enum dsp_data_on data_on;
    double host_launch_us, pcie_bandwidth_gbps;
    dsp_thresholds seed;
} dsp_policy;
void dsp_policy_of(const cfg_config *c, dsp_policy *p);

/* The PCIe time for the bytes, at the policy's bandwidth. */
double dsp_transfer_us(const dsp_policy *pol, double bytes);

typedef struct dsp_decision {
    double gpu_us, cpu_us;            /* predicted, data movement included */
    enum dsp_target cost_target;      /* the faster side */
    double penalty;                   /* the seed rule's, 0 to 1 */
    int inhibited;                    /* the seed rule's categorical inhibition */
    enum dsp_target seed_target;
    enum dsp_reason seed_reason;
    enum dsp_target target;           /* per the policy's rule */
    enum dsp_reason reason;
} dsp_decision;

/* gpu_kernel_us and cpu_compute_us are the engines' predictions without
 * data movement; the policy says which side moves the data. */
void dsp_decide(const dsp_policy *pol, const pat_params *p, const dsp_density *d, double gpu_kernel_us,
                double cpu_compute_us, dsp_decision *out);

#endif
