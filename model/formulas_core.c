/* formulas_core.c - launch cost, occupancy, the workgroup dispatcher,
 * scheduler issue, workgroup-slot turnover and the uncontended and
 * contended latencies of global and shared-memory atomics. */
#include "formulas.h"

#include <math.h>

double mdl_launch_cycles(const cfg_config *c)
{
    return c->launch.kernel_overhead_cycles;
}

/* The occupancy rule itself is the config's (cfg_wg_per_sm), shared with
 * the simulator; this adds the waves it makes of a launch. */
int mdl_occupancy_of(const cfg_config *c, int wg, uint32_t smem_bytes, double workgroups, mdl_occupancy *o)
{
    o->wg_per_sm = cfg_wg_per_sm(c, wg, smem_bytes, &o->limit);
    if (o->wg_per_sm < 1) {
        o->wg_per_sm = 0;
        o->resident_wgs = 0;
        o->waves = 0;
        return -1;
    }
    o->resident_wgs = (double)c->gpu.sm_count * o->wg_per_sm;
    o->waves = workgroups / o->resident_wgs;
    return 0;
}

double mdl_dispatch_cycles(const cfg_config *c, double workgroups)
{
    return workgroups * c->launch.wg_dispatch_cycles;
}

/* Workgroups run from dispatch_lead_cycles before the launch floor ends,
 * and no kernel ends before it (engine.c does the same): a kernel whose
 * work fits in the lead takes the floor (docs/findings.md 47). */
double mdl_kernel_cycles(const cfg_config *c, double work_cycles)
{
    double floor_cycles = mdl_launch_cycles(c);
    double end = floor_cycles - c->launch.dispatch_lead_cycles + work_cycles;
    return end > floor_cycles ? end : floor_cycles;
}

double mdl_issue_cycles(const cfg_config *c, double warp_instructions)
{
    return warp_instructions / ((double)c->gpu.sm_count * c->gpu.schedulers_per_sm);
}

/* The first wave needs no retire; every later one pays it.  Fractional
 * waves keep the formula smooth, so that tables interpolate cleanly. */
double mdl_slot_cycles(const cfg_config *c, const mdl_occupancy *o, double wg_lifetime_cycles)
{
    double later = o->waves > 1 ? o->waves - 1 : 0;
    return wg_lifetime_cycles + later * (wg_lifetime_cycles + c->launch.wg_retire_cycles);
}

/* The last of a workgroup's `warps` warps reaches the SM's port W - 1 gaps
 * after the first: each gap the larger of the launch gap and one warp's
 * port time (the warps start launch.warp_launch_cycles apart and take the
 * port in turn).  mdl_wg_life_cycles and mdl_port_shift_cycles share it. */
static double port_queue_cycles(const cfg_config *c, double warps, double warp_port_cycles)
{
    return (warps > 1 ? warps - 1 : 0) * fmax(c->launch.warp_launch_cycles, warp_port_cycles);
}

/* As the simulator runs a workgroup (sim/workgroup.c eng_launch_wg, eng_warp_exit): its
 * warps start launch.warp_launch_cycles apart, and their sends take the SM's
 * memory port in turn, so the last warp issues its send (W - 1) such gaps
 * after the first; it leaves once its requests are through the port, and
 * with launch.retire_waits_for_acks the slot frees only once the L2 has
 * acknowledged its workgroup's last send.  H100, one workgroup per SM
 * (h100-mechanisms-2.csv, -4.csv): 3.2 cycles more life per warp, and a
 * store adds 160-190 cycles, an atomic 310-360, though no warp waits. */
double mdl_wg_life_cycles(const cfg_config *c, double warps, double path_cycles, double requests, double port_cycles,
                          double p_send, double ack_cycles)
{
    double own_cycles = requests * port_cycles; /* one sending warp's requests through the port */
    double shift_cycles = port_queue_cycles(c, warps, p_send * own_cycles);
    double leave_cycles = p_send * own_cycles + 1 + c->core.exit_cycles;
    /* the acknowledgement is waited for only where some warp sent */
    double q = 0;
    if (c->launch.retire_waits_for_acks)
        q = p_send >= 1 ? 1 : p_send <= 0 ? 0 : -expm1(warps * log1p(-p_send));
    return shift_cycles + path_cycles + (1 - q) * leave_cycles + q * fmax(leave_cycles, ack_cycles);
}

/* A workgroup's warps reach a returning read and the compare-and-swap
 * that follows it together, so the SM's port serves their requests one
 * warp after another (sim/xbar.c ms_send_request): the last warp's read
 * goes through W - 1 gaps after the first's, each gap the larger of the
 * launch gap and one warp's port time.  While those gaps add up to less
 * than one warp's round trip from read to CAS, the CASes find the port
 * free again; past it they queue behind the reads still waiting, and the
 * wait grows by what the gaps exceed the round trip by, towards 2 (W - 1)
 * gaps.  H100, 2^22 bins, one workgroup an SM (h100-atomic-latency.csv):
 * 4 warps of 32 requests run at 0.97-0.99 of the GPU, 32 warps at
 * 0.94-0.95 (findings 50). */
double mdl_port_shift_cycles(const cfg_config *c, double warps, double warp_port_cycles, double round_trip_cycles)
{
    double first_cycles = port_queue_cycles(c, warps, warp_port_cycles);
    return first_cycles + fmax(0, first_cycles - round_trip_cycles);
}

/* Send issue to the L2's acknowledgement back at the SM: the crossbar both
 * ways and the slice's store issue (engine.c: ack = departure + xbar). */
double mdl_store_ack_cycles(const cfg_config *c)
{
    return 2 * c->xbar.latency_cycles + c->l2.store_issue_cycles;
}

double mdl_alu_chain_cycles(const cfg_config *c, double instructions)
{
    return instructions * c->core.alu_latency_cycles;
}

double mdl_global_atomic_latency_cycles(const cfg_config *c)
{
    return c->coalesce.lsu_cycles_per_request + 2 * c->xbar.latency_cycles + c->l2.atomic_issue_cycles +
           c->l2.atomic_latency_cycles;
}

double mdl_reply_spread_cycles(const cfg_config *c, double requests)
{
    return requests > 1 ? (requests - 1) * c->coalesce.reply_cycles_per_request : 0;
}
