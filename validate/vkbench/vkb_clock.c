/* The clock guard of vkb_clock.h: probe and heater pipeline, their
 * command buffers and timestamps, calibration and warming. */
#include "vkb_clock.h"

#include <stdlib.h>

#include "../../util/clock.h"
#include "vkb_common.h"
#include "vkb_guard.h"
#include "vkb_spirv.h"
#include "vkb_submit.h"

#define PROBE_TARGET_US 25.0 /* long enough that launch jitter is small */
#define HEAT_TARGET_US 10000.0
#define CALIBRATE_HEAT_S 0.3
#define WARM_LIMIT_S 5.0

typedef struct push {
    uint32_t iters, touch;
} push;

struct vkb_clock {
    vkb_gpu *g;
    VkBuffer sink;
    VkDeviceMemory sink_mem;
    VkDescriptorSetLayout dsl;
    VkPipelineLayout layout;
    VkDescriptorPool dpool;
    VkDescriptorSet ds;
    VkShaderModule mod;
    VkPipeline pipe;
    VkCommandPool cpool;
    VkCommandBuffer cb_heat;
    VkQueryPool qp; /* 0,1: probe; 2,3: heater */
    VkFence fence;
    uint32_t probe_iters, heat_groups;
    vkb_guard guard;
    double tol_pct; /* 0: the guard's own tolerance from the probes' spread */
    double last_us, warm_s;
    int warms;
};

#define VKCHECK(call)                                                        \
    do {                                                                     \
        VkResult r_ = (call);                                                \
        if (r_ != VK_SUCCESS)                                                \
            return vkb_errf(err, VKB_EFAIL, "clock guard: %s: %s", #call,    \
                            vkb_vk_result(r_));                              \
    } while (0)

static int make_sink(vkb_clock *c, char *err)
{
    VkDevice dev = c->g->dev;
    VkMemoryRequirements req;
    VkBufferCreateInfo bci = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = 256,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VKCHECK(vkCreateBuffer(dev, &bci, NULL, &c->sink));
    vkGetBufferMemoryRequirements(dev, c->sink, &req);
    int type = vkb_gpu_memtype(c->g, req.memoryTypeBits, 0, NULL);
    if (type < 0)
        return vkb_errf(err, VKB_EFAIL, "clock guard: no memory type");
    VkMemoryAllocateInfo mai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = (uint32_t)type,
    };
    VKCHECK(vkAllocateMemory(dev, &mai, NULL, &c->sink_mem));
    VKCHECK(vkBindBufferMemory(dev, c->sink, c->sink_mem, 0));
    return VKB_OK;
}

static int make_pipeline(vkb_clock *c, char *err)
{
    VkDevice dev = c->g->dev;
    const uint32_t *code;
    size_t bytes;
    VkDescriptorSetLayoutBinding bind = {
        0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
        NULL};
    VkDescriptorSetLayoutCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 1,
        .pBindings = &bind,
    };
    VKCHECK(vkCreateDescriptorSetLayout(dev, &dci, NULL, &c->dsl));
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push)};
    VkPipelineLayoutCreateInfo plci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &c->dsl,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &pcr,
    };
    VKCHECK(vkCreatePipelineLayout(dev, &plci, NULL, &c->layout));
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    VkDescriptorPoolCreateInfo dpci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = 1,
        .pPoolSizes = &ps,
    };
    VKCHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &c->dpool));
    VkDescriptorSetAllocateInfo dsai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = c->dpool,
        .descriptorSetCount = 1,
        .pSetLayouts = &c->dsl,
    };
    VKCHECK(vkAllocateDescriptorSets(dev, &dsai, &c->ds));
    VkDescriptorBufferInfo bi = {c->sink, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet w = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = c->ds,
        .dstBinding = 0,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .pBufferInfo = &bi,
    };
    vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);
    if (vkb_spirv_clock(&code, &bytes))
        return vkb_errf(err, VKB_EFAIL, "clock guard: no SPIR-V");
    VkShaderModuleCreateInfo smci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = bytes,
        .pCode = code,
    };
    VKCHECK(vkCreateShaderModule(dev, &smci, NULL, &c->mod));
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = c->mod,
            .pName = "main",
        },
        .layout = c->layout,
    };
    VKCHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL,
                                     &c->pipe));
    return VKB_OK;
}

static int make_objects(vkb_clock *c, char *err)
{
    VkDevice dev = c->g->dev;
    int rc = make_sink(c, err);
    if (rc || (rc = make_pipeline(c, err)))
        return rc;
    VkCommandPoolCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = c->g->info.queue_family,
    };
    VKCHECK(vkCreateCommandPool(dev, &cpci, NULL, &c->cpool));
    VkCommandBufferAllocateInfo cbai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = c->cpool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VKCHECK(vkAllocateCommandBuffers(dev, &cbai, &c->cb_heat));
    VkQueryPoolCreateInfo qpci = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP,
        .queryCount = 4,
    };
    VKCHECK(vkCreateQueryPool(dev, &qpci, NULL, &c->qp));
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VKCHECK(vkCreateFence(dev, &fci, NULL, &c->fence));
    return VKB_OK;
}

static void dispatch_timed(vkb_clock *c, VkCommandBuffer cb, uint32_t groups,
                           uint32_t first_query)
{
    push pc = {c->probe_iters, 0};
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->pipe);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0,
                            1, &c->ds, 0, NULL);
    vkCmdPushConstants(cb, c->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       sizeof pc, &pc);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, c->qp,
                        first_query);
    vkCmdDispatch(cb, groups, 1, 1);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->qp,
                        first_query + 1);
}

void vkb_clock_record_probe(vkb_clock *c, VkCommandBuffer cb)
{
    vkCmdResetQueryPool(cb, c->qp, 0, 2);
    dispatch_timed(c, cb, 1, 0);
}

/* One heater dispatch, then a probe behind a barrier so it measures the
 * clock the heater left; the heater's own time resizes the next one. */
static int heat_once(vkb_clock *c, char *err)
{
    VkCommandBuffer cb = c->cb_heat;
    VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
    };
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    double heat_us;
    int rc;

    VKCHECK(vkResetCommandBuffer(cb, 0));
    VKCHECK(vkBeginCommandBuffer(cb, &bi));
    vkCmdResetQueryPool(cb, c->qp, 0, 4);
    dispatch_timed(c, cb, c->heat_groups, 2);
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT |
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         0, 1, &mb, 0, NULL, 0, NULL);
    dispatch_timed(c, cb, 1, 0);
    VKCHECK(vkEndCommandBuffer(cb));
    if ((rc = vkb_submit_wait(c->g, cb, c->fence, "clock heater", err)) ||
        (rc = vkb_timestamp_us(c->g, c->qp, 2, &heat_us, err)) ||
        (rc = vkb_timestamp_us(c->g, c->qp, 0, &c->last_us, err)))
        return rc;
    double scale = heat_us > 0 ? HEAT_TARGET_US / heat_us : 8;
    scale = scale > 8 ? 8 : scale < 0.125 ? 0.125 : scale;
    double groups = c->heat_groups * scale;
    c->heat_groups = groups < 1 ? 1 : groups > 1048576 ? 1048576
                                                       : (uint32_t)groups;
    return VKB_OK;
}

/* A probe alone in its submission, as the run's probes are (they ride
 * with a buffer clear after the host has checked a result): its time then
 * carries the same wake-up jitter. */
static int probe_once(vkb_clock *c, char *err)
{
    VkCommandBuffer cb = c->cb_heat;
    VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
    };
    int rc;

    VKCHECK(vkResetCommandBuffer(cb, 0));
    VKCHECK(vkBeginCommandBuffer(cb, &bi));
    vkb_clock_record_probe(c, cb);
    VKCHECK(vkEndCommandBuffer(cb));
    if ((rc = vkb_submit_wait(c->g, cb, c->fence, "clock probe", err)))
        return rc;
    return vkb_timestamp_us(c->g, c->qp, 0, &c->last_us, err);
}

/* Heats, sizes the probe, then takes the reference: VKB_GUARD_PROBES
 * probes, each alone in its submission right after a heater, so the clock
 * is at its top and the probe's jitter is the run's. */
static int calibrate(vkb_clock *c, char *err)
{
    int rc;
    double t0 = clk_now(), probes[VKB_GUARD_PROBES];

    c->probe_iters = 4096;
    c->heat_groups = 16;
    do {
        if ((rc = heat_once(c, err)))
            return rc;
    } while (clk_now() - t0 < CALIBRATE_HEAT_S);
    double it = c->probe_iters * PROBE_TARGET_US /
                (c->last_us > 0.1 ? c->last_us : 0.1);
    c->probe_iters = it < 1024 ? 1024 : it > 1048576 ? 1048576 : (uint32_t)it;
    for (int k = 0; k < VKB_GUARD_PROBES; k++) {
        if ((rc = heat_once(c, err)) || (rc = probe_once(c, err)))
            return rc;
        probes[k] = c->last_us;
    }
    if (vkb_guard_set(&c->guard, probes, VKB_GUARD_PROBES, c->tol_pct))
        return vkb_errf(err, VKB_EFAIL, "clock guard: the probe's "
                        "timestamps read no time");
    return VKB_OK;
}

int vkb_clock_open(vkb_gpu *g, double tol_pct, vkb_clock **out, char *err)
{
    vkb_clock *c = calloc(1, sizeof *c);
    int rc;

    if (!c)
        return vkb_errf(err, VKB_EFAIL, "out of memory");
    c->g = g;
    c->tol_pct = tol_pct;
    if ((rc = make_objects(c, err)) || (rc = calibrate(c, err))) {
        vkb_clock_close(c);
        return rc;
    }
    *out = c;
    return VKB_OK;
}

static int accept(vkb_clock *c)
{
    return vkb_guard_accept(&c->guard, c->last_us);
}

int vkb_clock_probe_ok(vkb_clock *c, int *ok, double *ratio, char *err)
{
    int rc = vkb_timestamp_us(c->g, c->qp, 0, &c->last_us, err);
    if (rc)
        return rc;
    *ok = accept(c);
    *ratio = vkb_guard_ratio(&c->guard, c->last_us);
    return VKB_OK;
}

int vkb_clock_warm(vkb_clock *c, char *err)
{
    double t0 = clk_now();
    int rc;

    c->warms++;
    do {
        if ((rc = heat_once(c, err)))
            return rc;
        if (accept(c)) {
            c->warm_s += clk_now() - t0;
            return VKB_OK;
        }
    } while (clk_now() - t0 < WARM_LIMIT_S);
    c->warm_s += clk_now() - t0;
    return vkb_errf(err, VKB_ECLOCK, "the SM clock stayed low: the clock "
                    "probe took %.2f us after %.0f s of heating, %.2f us at "
                    "the top clock", c->last_us, WARM_LIMIT_S, c->guard.ref_us);
}

void vkb_clock_get_stats(const vkb_clock *c, vkb_clock_stats *s)
{
    s->ref_us = c->guard.ref_us;
    s->fastest_us = c->guard.fastest_us;
    s->spread = c->guard.spread;
    s->automatic = c->guard.automatic;
    s->too_noisy = c->guard.too_noisy;
    s->probe_iters = c->probe_iters;
    s->tol = c->guard.tol;
    s->warms = c->warms;
    s->warm_s = c->warm_s;
}

void vkb_clock_close(vkb_clock *c)
{
    if (!c)
        return;
    VkDevice dev = c->g->dev;
    vkDeviceWaitIdle(dev);
    if (c->fence)
        vkDestroyFence(dev, c->fence, NULL);
    if (c->qp)
        vkDestroyQueryPool(dev, c->qp, NULL);
    if (c->cpool)
        vkDestroyCommandPool(dev, c->cpool, NULL);
    if (c->pipe)
        vkDestroyPipeline(dev, c->pipe, NULL);
    if (c->mod)
        vkDestroyShaderModule(dev, c->mod, NULL);
    if (c->dpool)
        vkDestroyDescriptorPool(dev, c->dpool, NULL);
    if (c->layout)
        vkDestroyPipelineLayout(dev, c->layout, NULL);
    if (c->dsl)
        vkDestroyDescriptorSetLayout(dev, c->dsl, NULL);
    if (c->sink)
        vkDestroyBuffer(dev, c->sink, NULL);
    if (c->sink_mem)
        vkFreeMemory(dev, c->sink_mem, NULL);
    free(c);
}
