/* pattern.h - the interface every workload pattern implements.
 *
 * A pattern is a per-warp program: the engine calls step() each time a warp
 * is ready, and step() writes the warp's next operation into the engine's
 * scratch op (no allocation).  Results of memory operations (old values per
 * lane) come back in w->ret before the next step, so compare-and-swap loops
 * run on real values and retry exactly as the interleaving dictates.
 * Adding a pattern means one file in sim/patterns/ and one registry line. */
#ifndef ATOM_SIM_PATTERN_H
#define ATOM_SIM_PATTERN_H

#include <stdint.h>

#include "../model/config.h"
#include "../model/params.h"

#define SIM_MAX_LANES 64
#define SIM_SMEM_BANKS_MAX 1024 /* the option table's bound on smem.bank_count */
#define SIM_MAX_BUFFERS 4

enum sim_op_kind {
    SIM_OP_ALU,        /* `instructions` ALU instructions */
    SIM_OP_GATOMIC,    /* global atomic: add, or, cas */
    SIM_OP_GSTORE,     /* global store of `operand` */
    SIM_OP_SATOMIC,    /* shared-memory atomic add */
    SIM_OP_SLOAD,      /* shared-memory load (results in ret) */
    SIM_OP_SSTORE,     /* shared-memory store of `operand` */
    SIM_OP_BARRIER,    /* workgroup barrier */
    SIM_OP_EXIT
};

enum sim_atomic_kind { SIM_ATOMIC_ADD, SIM_ATOMIC_OR, SIM_ATOMIC_CAS };

typedef struct sim_op {
    enum sim_op_kind kind;
    enum sim_atomic_kind atomic;
    int instructions;                  /* ALU; shared ops: ALU issued just before */
    int buffer;                        /* global buffer id (GATOMIC, GSTORE) */
    int result_used;                   /* the warp waits for the reply */
    int uniform_address;               /* the address is a compile-time constant */
    int last;                          /* the warp exits right after this op */
    /* Shared ops only: a loop of `repeat` instances (0: not a loop, one op;
     * 1 and more: a loop's remaining iterations, each paying its back-edge
     * branch, smem.loop_branch_cycles) issued
     * back to back by this warp, instance k on index[l] + k * repeat_stride,
     * lanes at or past index_limit dropped.  SLOAD with until_nonzero stops
     * after the first instance that loads a non-zero word.  The engine
     * reports the instances run in w->burst_done and leaves the last
     * instance's words in w->ret.  One event for a whole loop. */
    uint32_t repeat, repeat_stride, index_limit;
    int until_nonzero;
    uint64_t mask;                     /* lanes taking part */
    uint32_t index[SIM_MAX_LANES];     /* word index within the buffer / shared array */
    uint32_t operand[SIM_MAX_LANES];   /* value to add/or/store; CAS: new value */
    uint32_t compare[SIM_MAX_LANES];   /* CAS: expected value */
} sim_op;

/* Per-warp state owned by the pattern's step function. */
typedef struct sim_warp {
    uint64_t first_thread;             /* global invocation id of lane 0 */
    uint32_t wg;                       /* workgroup index */
    uint32_t warp_in_wg;
    uint64_t valid;                    /* lanes with id < n */
    uint64_t active;                   /* pattern-defined lane mask */
    uint32_t pc;                       /* pattern-defined program counter */
    uint32_t iter;
    uint32_t v[SIM_MAX_LANES];         /* pattern scratch, e.g. keys */
    uint32_t u[SIM_MAX_LANES];         /* pattern scratch, e.g. bins or old values */
    uint32_t ret[SIM_MAX_LANES];       /* results of the last memory op */
    uint32_t burst_done;               /* instances the last repeated shared op ran */
} sim_warp;

/* What a pattern may read while stepping. */
typedef struct sim_ctx {
    const cfg_config *cfg;
    const pat_params *p;
    int lanes;                         /* subgroup size */
    int warps_per_wg;
    uint32_t sel_threshold;            /* round(S * 1e6) */
    uint32_t hot_threshold;            /* round(F * 1e6) */
    uint32_t smem_words;               /* the pattern's own shared words */
    uint32_t bins_mask;                /* bins - 1 when bins is a power of two, else 0 */
} sim_ctx;

/* Buffers a pattern declares at setup; the engine owns their storage. */
typedef struct sim_buffer_decl {
    uint64_t words;
    uint32_t stride_words;             /* index i lives at word i * stride */
    int atomic;                        /* tracks per-word RMW readiness */
} sim_buffer_decl;

typedef struct sim_layout {
    int count;
    sim_buffer_decl buf[SIM_MAX_BUFFERS];
    int cas;                           /* issues compare-and-swaps (sizes the slices' waiting rooms) */
} sim_layout;

/* Read-only view of global memory after the run, for checks. */
typedef struct sim_memview {
    const uint32_t *words[SIM_MAX_BUFFERS];
    const uint8_t *stores[SIM_MAX_BUFFERS]; /* per-word store count, saturating at 255 */
} sim_memview;

/* The same buffers, writable: a fast-forward completes skipped threads. */
typedef struct sim_memrw {
    uint32_t *words[SIM_MAX_BUFFERS];
    uint8_t *stores[SIM_MAX_BUFFERS];
} sim_memrw;

typedef struct sim_pattern {
    enum pat_id id;
    /* Declare buffers; return 0 or -1 with err set. */
    int (*setup)(const sim_ctx *c, sim_layout *lay, char err[CFG_ERR_MAX]);
    /* Prepare a warp that is about to start. */
    void (*start)(const sim_ctx *c, sim_warp *w);
    /* Write the warp's next operation into op. */
    void (*step)(const sim_ctx *c, sim_warp *w, sim_op *op);
    /* Verify the functional result; return 0 or -1 with err set. */
    int (*check)(const sim_ctx *c, const sim_memview *m, char err[CFG_ERR_MAX]);
    /* Fast-forward (sim/fastfwd.c), for the patterns whose retry loops can
     * outgrow the event budget; NULL elsewhere.  Completes `count` threads
     * from `first` that never ran, as their loops would have, and returns
     * their units (one lane's successful compare-and-swap each); with m
     * NULL it only counts them. */
    double (*ff_skip)(const sim_ctx *c, const sim_memrw *m, uint64_t first, uint64_t count);
} sim_pattern;

const sim_pattern *sim_pattern_get(enum pat_id id);

/* Helpers shared by patterns. */
static inline uint32_t sim_lane_key(const sim_warp *w, int lane)
{
    return pat_key((uint32_t)(w->first_thread + (uint64_t)lane));
}

static inline void sim_op_alu(sim_op *op, int instructions)
{
    op->kind = SIM_OP_ALU;
    op->instructions = instructions;
}

static inline void sim_op_exit(sim_op *op)
{
    op->kind = SIM_OP_EXIT;
}

#endif
