/* The measurement loop of vkb_bench.h and the Vulkan objects it needs. */
#include "vkb_bench.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "vkb_buf.h"
#include "vkb_clock.h"
#include "vkb_common.h"
#include "vkb_hash.h"
#include "vkb_ref.h"
#include "vkb_spirv.h"
#include "vkb_submit.h"

typedef struct push {
    uint32_t n, sel_thr, bins, hot_thr, addresses, touch, count_cas;
    uint32_t sel_unit, tail, spin, cas_first, flush_all;
} push;

struct vkb_bench {
    vkb_gpu *g;
    VkShaderModule mods[VKB_NPATTERNS][3]; /* by module_kind */
    VkDescriptorSetLayout dsl;
    VkPipelineLayout layout;
    VkDescriptorPool dpool;
    VkDescriptorSet ds;
    VkPipeline pipe; /* the last one built, reused while its key holds */
    int pipe_pattern, pipe_kind;
    uint32_t pipe_wg, pipe_words;
    vkb_buf target, out, rb_target, rb_out;
    VkCommandPool cpool;
    VkCommandBuffer cb_clear, cb_timed;
    VkQueryPool qp;
    VkFence fence;
    vkb_clock *clock; /* NULL: no clock guard */
    int count_cas;    /* vkb_bench_count_cas */
    FILE *win_order;  /* vkb_bench_win_order; NULL: off */
    int cas_first;    /* vkb_bench_cas_first */
    int flush_all;    /* vkb_bench_flush_all */
    FILE *trace;      /* vkb_bench_trace; NULL: off */
};

/* Nonzero when this configuration's threads store their CAS counts in o[]:
 * VKB_OUT_COUNTS, with VKB_OUT_READS when cas-append's threads also store
 * their first reads. */
static int counting(const vkb_bench *b, const vkb_cfg *c)
{
    if (!b->count_cas || !vkb_pattern_counts_cas(c->pattern))
        return 0;
    return VKB_OUT_COUNTS | (b->win_order ? VKB_OUT_READS : 0);
}

/* 1 when this configuration runs its --trace module. */
static int tracing(const vkb_bench *b, const vkb_cfg *c)
{
    return b->trace && vkb_pattern_traced(c->pattern);
}

/* Which module a configuration runs: the contract's, which holds no probe
 * code; the probes' (-DPROBES), when any probe option is set; or --trace's. */
enum { MOD_CONTRACT, MOD_PROBES, MOD_TRACE };

static int module_kind(const vkb_bench *b, const vkb_cfg *c)
{
    if (tracing(b, c))
        return MOD_TRACE;
    if (c->sel_unit || c->tail || c->spin || b->cas_first || counting(b, c) ||
        (b->flush_all && c->pattern == VKB_HISTOGRAM_SHARED))
        return MOD_PROBES;
    return MOD_CONTRACT;
}

/* What the output buffer holds besides keys (vkb_pattern_out_words). */
static int out_mode(const vkb_bench *b, const vkb_cfg *c)
{
    return counting(b, c) | (tracing(b, c) ? VKB_OUT_TRACE : 0);
}

#define VKCHECK(call)                                                        \
    do {                                                                     \
        VkResult r_ = (call);                                                \
        if (r_ != VK_SUCCESS)                                                \
            return vkb_errf(err, VKB_EFAIL, "%s: %s", #call,                 \
                            vkb_vk_result(r_));                              \
    } while (0)

static int make_objects(vkb_bench *b, char *err)
{
    VkDevice dev = b->g->dev;
    VkDescriptorSetLayoutBinding binds[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
         VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
         VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    };
    VkDescriptorSetLayoutCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 2,
        .pBindings = binds,
    };
    VKCHECK(vkCreateDescriptorSetLayout(dev, &dci, NULL, &b->dsl));
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push)};
    VkPipelineLayoutCreateInfo plci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &b->dsl,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &pcr,
    };
    VKCHECK(vkCreatePipelineLayout(dev, &plci, NULL, &b->layout));
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo dpci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = 1,
        .pPoolSizes = &ps,
    };
    VKCHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &b->dpool));
    VkDescriptorSetAllocateInfo dsai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = b->dpool,
        .descriptorSetCount = 1,
        .pSetLayouts = &b->dsl,
    };
    VKCHECK(vkAllocateDescriptorSets(dev, &dsai, &b->ds));
    VkCommandPoolCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = b->g->info.queue_family,
    };
    VKCHECK(vkCreateCommandPool(dev, &cpci, NULL, &b->cpool));
    VkCommandBuffer cbs[2];
    VkCommandBufferAllocateInfo cbai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = b->cpool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 2,
    };
    VKCHECK(vkAllocateCommandBuffers(dev, &cbai, cbs));
    b->cb_clear = cbs[0];
    b->cb_timed = cbs[1];
    VkQueryPoolCreateInfo qpci = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP,
        .queryCount = 2,
    };
    VKCHECK(vkCreateQueryPool(dev, &qpci, NULL, &b->qp));
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VKCHECK(vkCreateFence(dev, &fci, NULL, &b->fence));
    b->rb_target.readback = b->rb_out.readback = 1;
    b->pipe_pattern = -1;
    return VKB_OK;
}

int vkb_bench_open(vkb_gpu *g, double clock_tol_pct, vkb_bench **out,
                   char *err)
{
    vkb_bench *b = calloc(1, sizeof *b);
    if (!b)
        return vkb_errf(err, VKB_EFAIL, "out of memory");
    b->g = g;
    int rc = make_objects(b, err);
    if (rc == VKB_OK && clock_tol_pct >= 0)
        rc = vkb_clock_open(g, clock_tol_pct, &b->clock, err);
    if (rc) {
        vkb_bench_close(b);
        return rc;
    }
    *out = b;
    return VKB_OK;
}

void vkb_bench_close(vkb_bench *b)
{
    if (!b)
        return;
    VkDevice dev = b->g->dev;
    vkDeviceWaitIdle(dev);
    vkb_clock_close(b->clock);
    vkb_buf_free(b->g, &b->target);
    vkb_buf_free(b->g, &b->out);
    vkb_buf_free(b->g, &b->rb_target);
    vkb_buf_free(b->g, &b->rb_out);
    if (b->pipe)
        vkDestroyPipeline(dev, b->pipe, NULL);
    for (int k = 0; k < VKB_NPATTERNS; k++)
        for (int v = 0; v < 3; v++)
            if (b->mods[k][v])
                vkDestroyShaderModule(dev, b->mods[k][v], NULL);
    if (b->fence)
        vkDestroyFence(dev, b->fence, NULL);
    if (b->qp)
        vkDestroyQueryPool(dev, b->qp, NULL);
    if (b->cpool)
        vkDestroyCommandPool(dev, b->cpool, NULL);
    if (b->dpool)
        vkDestroyDescriptorPool(dev, b->dpool, NULL);
    if (b->layout)
        vkDestroyPipelineLayout(dev, b->layout, NULL);
    if (b->dsl)
        vkDestroyDescriptorSetLayout(dev, b->dsl, NULL);
    free(b);
}

/* Shared-array length: the pattern's own need or the requested padding,
 * whichever is larger, and at least one word (GLSL arrays are not empty). */
static uint32_t smem_words(const vkb_cfg *c)
{
    uint32_t w = (c->smem_per_wg + 3) / 4;
    return w ? w : 1;
}

static int get_pipeline(vkb_bench *b, const vkb_cfg *c, char *err)
{
    VkDevice dev = b->g->dev;
    uint32_t words = smem_words(c);

    int kind = module_kind(b, c);
    if (b->pipe && b->pipe_pattern == c->pattern && b->pipe_kind == kind &&
        b->pipe_wg == c->wg && b->pipe_words == words)
        return VKB_OK;
    VkShaderModule *mod = &b->mods[c->pattern][kind];
    if (!*mod) {
        const uint32_t *code;
        size_t bytes;
        int (*get)(int, const uint32_t **, size_t *) =
            kind == MOD_TRACE    ? vkb_spirv_get_trace
            : kind == MOD_PROBES ? vkb_spirv_get_probe
                                 : vkb_spirv_get;
        if (get(c->pattern, &code, &bytes))
            return vkb_errf(err, VKB_EFAIL, "no SPIR-V for pattern %s",
                            vkb_pattern_get(c->pattern)->name);
        VkShaderModuleCreateInfo smci = {
            .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
            .codeSize = bytes,
            .pCode = code,
        };
        VKCHECK(vkCreateShaderModule(dev, &smci, NULL, mod));
    }
    if (b->pipe) {
        vkDestroyPipeline(dev, b->pipe, NULL);
        b->pipe = VK_NULL_HANDLE;
    }
    uint32_t spec[2] = {c->wg, words};
    VkSpecializationMapEntry ent[2] = {
        {0, 0, sizeof(uint32_t)},
        {1, sizeof(uint32_t), sizeof(uint32_t)},
    };
    VkSpecializationInfo si = {2, ent, sizeof spec, spec};
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = *mod,
            .pName = "main",
            .pSpecializationInfo = &si,
        },
        .layout = b->layout,
    };
    VKCHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL,
                                     &b->pipe));
    b->pipe_pattern = c->pattern;
    b->pipe_kind = kind;
    b->pipe_wg = c->wg;
    b->pipe_words = words;
    return VKB_OK;
}

static void bind_buffers(vkb_bench *b, VkDeviceSize tbytes,
                         VkDeviceSize obytes)
{
    VkDescriptorBufferInfo bi[2] = {
        {b->target.buf, 0, tbytes},
        {b->out.buf, 0, obytes},
    };
    VkWriteDescriptorSet w[2];
    for (int k = 0; k < 2; k++)
        w[k] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = b->ds,
            .dstBinding = (uint32_t)k,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .pBufferInfo = &bi[k],
        };
    vkUpdateDescriptorSets(b->g->dev, 2, w, 0, NULL);
}

static void barrier(VkCommandBuffer cb, VkPipelineStageFlags src,
                    VkAccessFlags src_access, VkPipelineStageFlags dst,
                    VkAccessFlags dst_access)
{
    VkMemoryBarrier mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = src_access,
        .dstAccessMask = dst_access,
    };
    vkCmdPipelineBarrier(cb, src, dst, 0, 1, &mb, 0, NULL, 0, NULL);
}

/* The clear runs in a submission of its own, waited for on the host, so
 * the start timestamp never includes it; its barrier still makes the fill
 * visible to the shader, as submission order alone does not. The clock
 * probe rides along, so it measures the clock just before the dispatch. */
static int record_clear(vkb_bench *b, VkDeviceSize tbytes,
                        VkDeviceSize obytes, char *err)
{
    VkCommandBuffer cb = b->cb_clear;
    VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
    };
    VKCHECK(vkResetCommandBuffer(cb, 0));
    VKCHECK(vkBeginCommandBuffer(cb, &bi));
    if (b->clock)
        vkb_clock_record_probe(b->clock, cb);
    vkCmdFillBuffer(cb, b->target.buf, 0, tbytes, 0);
    vkCmdFillBuffer(cb, b->out.buf, 0, obytes, vkb_ref_fill());
    barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    VKCHECK(vkEndCommandBuffer(cb));
    return VKB_OK;
}

static int record_timed(vkb_bench *b, const vkb_cfg *c, VkDeviceSize tbytes,
                        VkDeviceSize obytes, char *err)
{
    VkCommandBuffer cb = b->cb_timed;
    VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
    };
    push pc = {
        .n = c->n,
        .sel_thr = vkb_threshold(c->selectivity),
        .bins = c->bins,
        .hot_thr = vkb_threshold(c->hot),
        .addresses = c->addresses,
        .touch = 0,
        .count_cas = (uint32_t)counting(b, c),
        .sel_unit = (uint32_t)c->sel_unit,
        .tail = (uint32_t)c->tail,
        .spin = c->spin,
        .cas_first = (uint32_t)b->cas_first,
        .flush_all = (uint32_t)b->flush_all,
    };
    uint32_t groups = (uint32_t)(((uint64_t)c->n + c->wg - 1) / c->wg);

    VKCHECK(vkResetCommandBuffer(cb, 0));
    VKCHECK(vkBeginCommandBuffer(cb, &bi));
    vkCmdResetQueryPool(cb, b->qp, 0, 2);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, b->pipe);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, b->layout, 0,
                            1, &b->ds, 0, NULL);
    vkCmdPushConstants(cb, b->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       sizeof pc, &pc);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, b->qp, 0);
    vkCmdDispatch(cb, groups, 1, 1);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, b->qp, 1);
    barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_TRANSFER_READ_BIT);
    VkBufferCopy tc = {0, 0, tbytes}, oc = {0, 0, obytes};
    vkCmdCopyBuffer(cb, b->target.buf, b->rb_target.buf, 1, &tc);
    if (vkb_pattern_get(c->pattern)->has_out || out_mode(b, c))
        vkCmdCopyBuffer(cb, b->out.buf, b->rb_out.buf, 1, &oc);
    barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    VKCHECK(vkEndCommandBuffer(cb));
    return VKB_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v in place and returns its median. */
static double median_of(double *v, int count)
{
    qsort(v, (size_t)count, sizeof *v, cmp_double);
    return count % 2 ? v[count / 2] : (v[count / 2 - 1] + v[count / 2]) / 2;
}

static void summarize(double *t, int count, vkb_result *res)
{
    res->reps = count;
    res->median_us = median_of(t, count);
    res->min_us = t[0];
    res->max_us = t[count - 1];
}

static int prepare(vkb_bench *b, const vkb_cfg *c, char *err)
{
    VkDeviceSize tbytes = 4 * vkb_pattern_target_words(c->pattern, c->n,
                                                       c->bins, c->addresses);
    VkDeviceSize obytes = 4 * vkb_pattern_out_words(c->pattern, c->n,
                                                    out_mode(b, c));
    int rc;

    if ((rc = vkb_buf_ensure(b->g, &b->target, tbytes, err)) ||
        (rc = vkb_buf_ensure(b->g, &b->out, obytes, err)) ||
        (rc = vkb_buf_ensure(b->g, &b->rb_target, tbytes, err)) ||
        (rc = vkb_buf_ensure(b->g, &b->rb_out, obytes, err)) ||
        (rc = get_pipeline(b, c, err)))
        return rc;
    bind_buffers(b, tbytes, obytes);
    if ((rc = record_clear(b, tbytes, obytes, err)) ||
        (rc = record_timed(b, c, tbytes, obytes, err)))
        return rc;
    return VKB_OK;
}

/* Clears the buffers; with the clock guard, also until the probe that
 * runs with the clear finds the clock at its top, heating in between.
 * *ratio: the accepted probe over the guard's reference; *warms: heatings. */
static int clear_at_top_clock(vkb_bench *b, double *ratio, int *warms,
                              char *err)
{
    int rc, ok = 0;
    for (int tries = 0;; tries++) {
        rc = vkb_submit_wait(b->g, b->cb_clear, b->fence, "buffer clear",
                             err);
        if (rc || !b->clock)
            return rc;
        if ((rc = vkb_clock_probe_ok(b->clock, &ok, ratio, err)) || ok)
            return rc;
        if (tries == 3)
            return vkb_errf(err, VKB_ECLOCK, "the SM clock fell again "
                            "after each of 3 warm-ups");
        if ((rc = vkb_clock_warm(b->clock, err)))
            return rc;
        ++*warms;
    }
}

/* One repetition: clear, dispatch and time, read back, check; with
 * counting on, *tries is the dispatch's compare-and-swaps, summed over
 * its threads. */
static int one_rep(vkb_bench *b, const vkb_cfg *c, vkb_ref *ref, double *us,
                   double *tries, double *ratio, int *warms, char *err)
{
    int rc;
    if ((rc = clear_at_top_clock(b, ratio, warms, err)) ||
        (rc = vkb_submit_wait(b->g, b->cb_timed, b->fence, "dispatch",
                              err)) ||
        (rc = vkb_timestamp_us(b->g, b->qp, 0, us, err)) ||
        (rc = vkb_buf_invalidate(b->g, &b->rb_target, err)) ||
        (rc = vkb_buf_invalidate(b->g, &b->rb_out, err)))
        return rc;
    if (counting(b, c)) {
        /* A thread's CAS fails only after another's succeeded on its word,
         * so it takes 1 to n of them; an unwritten slot keeps the clear's
         * fill value (vkb_ref_fill, 1.7e9: more than any n admitted). */
        const uint32_t *o = (const uint32_t *)b->rb_out.map +
                            vkb_pattern_count_offset(c->pattern, c->n);
        int append = c->pattern == VKB_CAS_APPEND; /* only selected threads count */
        double sum = 0;
        for (uint32_t i = 0; i < c->n; i++) {
            if (append && o[i] == vkb_ref_fill())
                continue;
            if (o[i] == 0 || o[i] > c->n)
                return vkb_errf(err, VKB_ECHECK, "thread %u recorded %u "
                                "compare-and-swaps", i, o[i]);
            sum += o[i];
        }
        *tries = sum;
    }
    return vkb_ref_check(ref, b->rb_target.map, b->rb_out.map, err);
}

void vkb_bench_count_cas(vkb_bench *b, int on)
{
    b->count_cas = on;
}

void vkb_bench_win_order(vkb_bench *b, FILE *f)
{
    b->win_order = f;
    if (f)
        fprintf(f, "n,wg,selectivity,slot,thread,tries,first_read\n");
}

void vkb_bench_trace(vkb_bench *b, FILE *f)
{
    b->trace = f;
    if (f)
        fprintf(f, "pattern,n,wg,selectivity,unit,workgroup,sm,warp_slot,"
                "start_ns,end_ns,start_clk,end_clk,slot\n");
}

void vkb_bench_cas_first(vkb_bench *b, int guess)
{
    b->cas_first = guess;
}

void vkb_bench_flush_all(vkb_bench *b, int all)
{
    b->flush_all = all;
}

/* cas-append with counting on: the last repetition's winners in the order
 * they won. Slot s of the output holds the key of the s-th thread to win
 * the word, the key names the thread (vkb_lowbias32_inv), o[n + i] holds
 * that thread's compare-and-swaps and o[2n + i] what its first read saw. */
static void write_win_order(const vkb_bench *b, const vkb_cfg *c)
{
    const uint32_t *t = (const uint32_t *)b->rb_target.map;
    const uint32_t *o = (const uint32_t *)b->rb_out.map;
    for (uint32_t s = 0; s < t[0]; s++) {
        uint32_t i = vkb_lowbias32_inv(o[s]);
        fprintf(b->win_order, "%u,%u,%g,%u,%u,%u,%u\n", c->n, c->wg,
                c->selectivity, s, i,
                o[vkb_pattern_count_offset(c->pattern, c->n) + i],
                o[2 * (size_t)c->n + i]);
    }
}

/* --trace: the last repetition's records (patterns.comp, trace_rec), one
 * line a recorded unit: a cas-append thread that won, or a bitmask warp
 * that sent. Device-clock times are made relative to the earliest start;
 * SM cycle counts stay raw (low 32 bits), comparable within one SM only. */
static void write_trace(const vkb_bench *b, const vkb_cfg *c)
{
    const uint32_t *o = (const uint32_t *)b->rb_out.map + 3 * (size_t)c->n;
    int append = c->pattern == VKB_CAS_APPEND;
    uint32_t units = append ? c->n : (c->n + 31) / 32;
    uint32_t fill = vkb_ref_fill(), ref = 0;
    int64_t t0 = INT64_MAX;
    int have = 0;

    for (uint32_t u = 0; u < units; u++) {
        const uint32_t *r = o + 7 * (size_t)u;
        if (r[0] == fill)
            continue;
        if (!have)
            ref = r[2], have = 1;
        int64_t d = (int32_t)(r[2] - ref);
        if (d < t0)
            t0 = d;
    }
    for (uint32_t u = 0; u < units; u++) {
        const uint32_t *r = o + 7 * (size_t)u;
        if (r[0] == fill)
            continue;
        uint64_t first = append ? u : 32 * (uint64_t)u;
        fprintf(b->trace, "%s,%u,%u,%g,%u,%" PRIu64 ",%u,%u,%" PRId64
                ",%" PRId64 ",%u,%u,%u\n", vkb_pattern_get(c->pattern)->name,
                c->n, c->wg, c->selectivity, u, first / c->wg, r[0], r[1],
                (int32_t)(r[2] - ref) - t0, (int32_t)(r[3] - ref) - t0, r[4],
                r[5], append ? r[6] : 0);
    }
}

int vkb_bench_run(vkb_bench *b, const vkb_cfg *c, double max_ms,
                  vkb_result *res, char *err)
{
    vkb_ref *ref = NULL;
    double *t = NULL;
    int rc;

    memset(res, 0, sizeof *res);
    res->cas_attempts = -1;
    res->clock_ratio_max = -1;
    if ((rc = prepare(b, c, err)) || (rc = vkb_ref_open(c, &ref, err)))
        return rc;
    t = malloc(sizeof *t * 2 * (size_t)c->reps);
    double *tr = t ? t + c->reps : NULL;
    if (!t) {
        vkb_ref_close(ref);
        return vkb_errf(err, VKB_EFAIL, "out of memory");
    }
    for (int k = 0; k < c->warmup + c->reps; k++) {
        double us = 0, tries = -1, ratio = -1;
        rc = one_rep(b, c, ref, &us, &tries, &ratio, &res->clock_rewarms,
                     err);
        if (rc)
            break;
        if (k == 0) {
            res->first_us = us;
            if (max_ms > 0 && us > max_ms * 1000.0) {
                rc = vkb_errf(err, VKB_ESKIP, "the first dispatch took "
                              "%.1f ms, over --max-dispatch-ms %g",
                              us / 1000.0, max_ms);
                break;
            }
        }
        if (k >= c->warmup) {
            if (ratio > res->clock_ratio_max)
                res->clock_ratio_max = ratio;
            tr[res->reps] = tries;
            t[res->reps++] = us;
        }
    }
    if (rc == VKB_OK) {
        if (b->win_order && counting(b, c) && c->pattern == VKB_CAS_APPEND)
            write_win_order(b, c); /* the check passed: every slot is a key */
        if (tracing(b, c))
            write_trace(b, c);
        summarize(t, res->reps, res);
        res->cas_attempts = median_of(tr, res->reps); /* -1 when not counted */
    }
    free(t);
    vkb_ref_close(ref);
    return rc;
}

int vkb_bench_clock(const vkb_bench *b, vkb_clock_stats *s)
{
    if (!b->clock)
        return 0;
    vkb_clock_get_stats(b->clock, s);
    return 1;
}
