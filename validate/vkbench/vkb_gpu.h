/* The Vulkan device: instance, physical-device choice, one compute queue,
 * and the limits and identity that configurations are checked against and
 * that the dataset's provenance lines record. */
#ifndef VKB_GPU_H
#define VKB_GPU_H

#include <stdint.h>
#include <stdio.h>
#include <vulkan/vulkan.h>

typedef struct vkb_gpu_info {
    char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
    char driver[2 * VK_MAX_DRIVER_INFO_SIZE];
    char api[32];
    const char *type;
    uint32_t vendor_id, device_id;
    uint32_t subgroup_size;
    VkSubgroupFeatureFlags subgroup_ops;
    VkShaderStageFlags subgroup_stages;
    uint32_t max_smem;          /* maxComputeSharedMemorySize, bytes */
    uint32_t max_invocations;   /* maxComputeWorkGroupInvocations */
    uint32_t max_wg_size_x;     /* maxComputeWorkGroupSize[0] */
    uint32_t max_wg_count_x;    /* maxComputeWorkGroupCount[0] */
    uint32_t max_storage_range; /* maxStorageBufferRange, bytes */
    float ts_period_ns;
    uint32_t ts_valid_bits;
    uint32_t queue_family;
    VkQueueFlags queue_flags;
    uint64_t device_local_bytes;
} vkb_gpu_info;

typedef struct vkb_gpu {
    VkInstance inst;
    VkPhysicalDevice pd;
    VkDevice dev;
    VkQueue queue;
    VkPhysicalDeviceMemoryProperties mem;
    vkb_gpu_info info;
} vkb_gpu;

/* select: NULL for the first discrete GPU (else device 0), a decimal index,
 * or a case-insensitive part of the device name. trace = 1 also enables
 * what vkbench --trace's shaders need (VK_KHR_shader_clock with the device
 * clock, VK_NV_shader_sm_builtins). VKB_EFAIL when there is no usable
 * driver or device, or the device lacks what trace asks for; VKB_EUSAGE
 * when select matches none. */
int vkb_gpu_open(const char *select, int trace, vkb_gpu **out, char *err);
void vkb_gpu_close(vkb_gpu *g);

/* Writes each device's identity and compute limits, vulkaninfo-like. */
int vkb_gpu_list(FILE *f, char *err);

/* Memory type index for the given buffer's type bits: device-local (not
 * host-visible where the device has such) or host-visible readback (cached
 * where possible, since the host reads it word by word). -1 if none. */
int vkb_gpu_memtype(const vkb_gpu *g, uint32_t bits, int readback,
                    int *coherent);

/* Writes "basic,vote,ballot,..." for a subgroup feature mask. */
const char *vkb_gpu_subgroup_ops(VkSubgroupFeatureFlags ops, char *buf,
                                 size_t len);

const char *vkb_vk_result(VkResult r);

#endif
