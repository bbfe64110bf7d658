/* Vulkan instance and device setup, device listing and memory-type choice
 * (see vkb_gpu.h). */
#include "vkb_gpu.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "vkb_common.h"
#include "../../util/num.h"

#define MAX_DEVICES 16

const char *vkb_vk_result(VkResult r)
{
    switch (r) {
#define C(x) case x: return #x;
        C(VK_SUCCESS) C(VK_NOT_READY) C(VK_TIMEOUT) C(VK_INCOMPLETE)
        C(VK_ERROR_OUT_OF_HOST_MEMORY) C(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        C(VK_ERROR_INITIALIZATION_FAILED) C(VK_ERROR_DEVICE_LOST)
        C(VK_ERROR_MEMORY_MAP_FAILED) C(VK_ERROR_LAYER_NOT_PRESENT)
        C(VK_ERROR_EXTENSION_NOT_PRESENT) C(VK_ERROR_FEATURE_NOT_PRESENT)
        C(VK_ERROR_INCOMPATIBLE_DRIVER) C(VK_ERROR_TOO_MANY_OBJECTS)
        C(VK_ERROR_FORMAT_NOT_SUPPORTED) C(VK_ERROR_UNKNOWN)
        C(VK_ERROR_INVALID_SHADER_NV)
#undef C
    default:
        return "VkResult error";
    }
}

const char *vkb_gpu_subgroup_ops(VkSubgroupFeatureFlags ops, char *buf,
                                 size_t len)
{
    static const struct { VkSubgroupFeatureFlags bit; const char *name; }
    names[] = {
        {VK_SUBGROUP_FEATURE_BASIC_BIT, "basic"},
        {VK_SUBGROUP_FEATURE_VOTE_BIT, "vote"},
        {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic"},
        {VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot"},
        {VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle"},
        {VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffle_relative"},
        {VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "clustered"},
        {VK_SUBGROUP_FEATURE_QUAD_BIT, "quad"},
    };
    size_t used = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if ((ops & names[k].bit) && used < len)
            used += snprintf(buf + used, len - used, "%s%s",
                             used ? "," : "", names[k].name);
    return buf;
}

static const char *type_name(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

static int make_instance(VkInstance *inst, char *err)
{
    uint32_t version = VK_API_VERSION_1_0;
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "vkbench",
        .apiVersion = VK_API_VERSION_1_2,
    };
    VkInstanceCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pApplicationInfo = &app,
    };
    VkResult r;

    vkEnumerateInstanceVersion(&version);
    if (version < VK_API_VERSION_1_1)
        return vkb_errf(err, VKB_EFAIL, "the Vulkan loader is %u.%u; "
                        "vkbench needs 1.1", VK_API_VERSION_MAJOR(version),
                        VK_API_VERSION_MINOR(version));
    r = vkCreateInstance(&ci, NULL, inst);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
        return vkb_errf(err, VKB_EFAIL, "no Vulkan driver found "
                        "(vkCreateInstance: %s); check VK_DRIVER_FILES",
                        vkb_vk_result(r));
    if (r != VK_SUCCESS)
        return vkb_errf(err, VKB_EFAIL, "vkCreateInstance failed: %s",
                        vkb_vk_result(r));
    return VKB_OK;
}

static int enum_devices(VkInstance inst, VkPhysicalDevice *pds,
                        uint32_t *count, char *err)
{
    VkResult r;
    *count = MAX_DEVICES;
    r = vkEnumeratePhysicalDevices(inst, count, pds);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE)
        return vkb_errf(err, VKB_EFAIL, "vkEnumeratePhysicalDevices: %s",
                        vkb_vk_result(r));
    if (*count == 0)
        return vkb_errf(err, VKB_EFAIL, "no Vulkan device found; check "
                        "VK_DRIVER_FILES and the driver installation");
    return VKB_OK;
}

static void format_driver(const VkPhysicalDeviceProperties *p,
                          const VkPhysicalDeviceDriverProperties *d,
                          int has_driver_props, char *buf, size_t len)
{
    uint32_t v = p->driverVersion;
    if (has_driver_props && d->driverInfo[0])
        snprintf(buf, len, "%s %s", d->driverName, d->driverInfo);
    else if (p->vendorID == 0x10de)
        snprintf(buf, len, "%u.%u.%u", v >> 22, (v >> 14) & 0xff,
                 (v >> 6) & 0xff);
    else
        snprintf(buf, len, "%u.%u.%u", VK_API_VERSION_MAJOR(v),
                 VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
}

/* Fills everything but the queue family from the physical device. */
static void read_info(VkPhysicalDevice pd, vkb_gpu_info *in,
                      VkPhysicalDeviceMemoryProperties *mem)
{
    VkPhysicalDeviceDriverProperties drv = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
    };
    VkPhysicalDeviceSubgroupProperties sg = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
    };
    VkPhysicalDeviceProperties2 p2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
        .pNext = &sg,
    };
    VkPhysicalDeviceProperties p;

    vkGetPhysicalDeviceProperties(pd, &p);
    int has_drv = p.apiVersion >= VK_API_VERSION_1_2;
    if (has_drv)
        sg.pNext = &drv;
    if (p.apiVersion >= VK_API_VERSION_1_1)
        vkGetPhysicalDeviceProperties2(pd, &p2);
    memset(in, 0, sizeof *in);
    snprintf(in->name, sizeof in->name, "%s", p.deviceName);
    format_driver(&p, &drv, has_drv, in->driver, sizeof in->driver);
    snprintf(in->api, sizeof in->api, "%u.%u.%u",
             VK_API_VERSION_MAJOR(p.apiVersion),
             VK_API_VERSION_MINOR(p.apiVersion),
             VK_API_VERSION_PATCH(p.apiVersion));
    in->type = type_name(p.deviceType);
    in->vendor_id = p.vendorID;
    in->device_id = p.deviceID;
    in->subgroup_size = sg.subgroupSize;
    in->subgroup_ops = sg.supportedOperations;
    in->subgroup_stages = sg.supportedStages;
    in->max_smem = p.limits.maxComputeSharedMemorySize;
    in->max_invocations = p.limits.maxComputeWorkGroupInvocations;
    in->max_wg_size_x = p.limits.maxComputeWorkGroupSize[0];
    in->max_wg_count_x = p.limits.maxComputeWorkGroupCount[0];
    in->max_storage_range = p.limits.maxStorageBufferRange;
    in->ts_period_ns = p.limits.timestampPeriod;
    vkGetPhysicalDeviceMemoryProperties(pd, mem);
    for (uint32_t h = 0; h < mem->memoryHeapCount; h++)
        if (mem->memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT &&
            mem->memoryHeaps[h].size > in->device_local_bytes)
            in->device_local_bytes = mem->memoryHeaps[h].size;
}

/* The first queue family that runs compute and writes timestamps. */
static int pick_queue(VkPhysicalDevice pd, vkb_gpu_info *in)
{
    VkQueueFamilyProperties q[32];
    uint32_t nq = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, q);
    for (uint32_t k = 0; k < nq; k++)
        if ((q[k].queueFlags & VK_QUEUE_COMPUTE_BIT) &&
            q[k].timestampValidBits > 0) {
            in->queue_family = k;
            in->queue_flags = q[k].queueFlags;
            in->ts_valid_bits = q[k].timestampValidBits;
            return 0;
        }
    return -1;
}

static int icontains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t k = 0;
        while (k < n && hay[k] &&
               tolower((unsigned char)hay[k]) ==
                   tolower((unsigned char)needle[k]))
            k++;
        if (k == n)
            return 1;
    }
    return n == 0;
}

static int choose(VkPhysicalDevice *pds, uint32_t count, const char *select,
                  uint32_t *which, char *err)
{
    VkPhysicalDeviceProperties p;

    if (!select) {
        *which = 0;
        for (uint32_t k = 0; k < count; k++) {
            vkGetPhysicalDeviceProperties(pds[k], &p);
            if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU) {
                *which = k;
                break;
            }
        }
        return VKB_OK;
    }
    unsigned long long idx;
    if (!num_parse_u64(select, &idx)) {
        if (idx >= count)
            return vkb_errf(err, VKB_EUSAGE, "--device %s: there are %u "
                            "devices (see --list-devices)", select, count);
        *which = (uint32_t)idx;
        return VKB_OK;
    }
    for (uint32_t k = 0; k < count; k++) {
        vkGetPhysicalDeviceProperties(pds[k], &p);
        if (icontains(p.deviceName, select)) {
            *which = k;
            return VKB_OK;
        }
    }
    return vkb_errf(err, VKB_EUSAGE, "--device %s: no device by that name "
                    "(see --list-devices)", select);
}

static int has_extension(VkPhysicalDevice pd, const char *name)
{
    VkExtensionProperties ext[512];
    uint32_t count = 512;
    VkResult r = vkEnumerateDeviceExtensionProperties(pd, NULL, &count, ext);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE)
        return 0;
    for (uint32_t k = 0; k < count; k++)
        if (strcmp(ext[k].extensionName, name) == 0)
            return 1;
    return 0;
}

/* vkbench --trace: the two extensions and their features, chained onto
 * dci; VKB_EFAIL naming the first one missing. */
static const char *const trace_exts[] = {"VK_KHR_shader_clock",
                                         "VK_NV_shader_sm_builtins"};

typedef struct trace_features {
    VkPhysicalDeviceShaderClockFeaturesKHR clk;
    VkPhysicalDeviceShaderSMBuiltinsFeaturesNV sm;
} trace_features;

static int want_trace(vkb_gpu *g, trace_features *tf, VkDeviceCreateInfo *dci,
                      char *err)
{
    for (size_t k = 0; k < 2; k++)
        if (!has_extension(g->pd, trace_exts[k]))
            return vkb_errf(err, VKB_EFAIL, "%s lacks %s, which --trace "
                            "needs", g->info.name, trace_exts[k]);
    tf->clk = (VkPhysicalDeviceShaderClockFeaturesKHR){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR,
    };
    tf->sm = (VkPhysicalDeviceShaderSMBuiltinsFeaturesNV){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_FEATURES_NV,
        .pNext = &tf->clk,
    };
    VkPhysicalDeviceFeatures2 f2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = &tf->sm,
    };
    vkGetPhysicalDeviceFeatures2(g->pd, &f2);
    if (!tf->clk.shaderDeviceClock || !tf->clk.shaderSubgroupClock ||
        !tf->sm.shaderSMBuiltins)
        return vkb_errf(err, VKB_EFAIL, "%s has no device clock, SM clock or "
                        "SM builtins in shaders, which --trace needs",
                        g->info.name);
    dci->pNext = &tf->sm;
    dci->enabledExtensionCount = 2;
    dci->ppEnabledExtensionNames = trace_exts;
    return VKB_OK;
}

int vkb_gpu_open(const char *select, int trace, vkb_gpu **out, char *err)
{
    VkPhysicalDevice pds[MAX_DEVICES];
    uint32_t count = 0, which = 0;
    float prio = 1.0f;
    int rc;
    vkb_gpu *g = calloc(1, sizeof *g);

    if (!g)
        return vkb_errf(err, VKB_EFAIL, "out of memory");
    rc = make_instance(&g->inst, err);
    if (!rc)
        rc = enum_devices(g->inst, pds, &count, err);
    if (!rc)
        rc = choose(pds, count, select, &which, err);
    if (rc) {
        vkb_gpu_close(g);
        return rc;
    }
    g->pd = pds[which];
    read_info(g->pd, &g->info, &g->mem);
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(g->pd, &p);
    if (p.apiVersion < VK_API_VERSION_1_1)
        rc = vkb_errf(err, VKB_EFAIL, "%s supports Vulkan %s; vkbench "
                      "needs 1.1 (subgroups, SPIR-V 1.3)", g->info.name,
                      g->info.api);
    else if (pick_queue(g->pd, &g->info))
        rc = vkb_errf(err, VKB_EFAIL, "%s has no compute queue with "
                      "timestamps", g->info.name);
    if (rc) {
        vkb_gpu_close(g);
        return rc;
    }
    VkDeviceQueueCreateInfo qci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = g->info.queue_family,
        .queueCount = 1,
        .pQueuePriorities = &prio,
    };
    VkDeviceCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &qci,
    };
    trace_features tf;
    if (trace && (rc = want_trace(g, &tf, &dci, err))) {
        vkb_gpu_close(g);
        return rc;
    }
    VkResult r = vkCreateDevice(g->pd, &dci, NULL, &g->dev);
    if (r != VK_SUCCESS) {
        vkb_gpu_close(g);
        return vkb_errf(err, VKB_EFAIL, "vkCreateDevice: %s",
                        vkb_vk_result(r));
    }
    vkGetDeviceQueue(g->dev, g->info.queue_family, 0, &g->queue);
    *out = g;
    return VKB_OK;
}

void vkb_gpu_close(vkb_gpu *g)
{
    if (!g)
        return;
    if (g->dev)
        vkDestroyDevice(g->dev, NULL);
    if (g->inst)
        vkDestroyInstance(g->inst, NULL);
    free(g);
}

int vkb_gpu_list(FILE *f, char *err)
{
    VkInstance inst;
    VkPhysicalDevice pds[MAX_DEVICES];
    uint32_t count;
    int rc = make_instance(&inst, err);

    if (rc)
        return rc;
    rc = enum_devices(inst, pds, &count, err);
    for (uint32_t k = 0; !rc && k < count; k++) {
        vkb_gpu_info in;
        VkPhysicalDeviceMemoryProperties mem;
        char ops[256];
        read_info(pds[k], &in, &mem);
        int q = pick_queue(pds[k], &in);
        fprintf(f, "%u: %s\n", k, in.name);
        fprintf(f, "   type %s, vendor 0x%04x, device 0x%04x\n", in.type,
                in.vendor_id, in.device_id);
        fprintf(f, "   Vulkan %s, driver %s\n", in.api, in.driver);
        fprintf(f, "   subgroup size %u, operations %s%s\n",
                in.subgroup_size,
                vkb_gpu_subgroup_ops(in.subgroup_ops, ops, sizeof ops),
                in.subgroup_stages & VK_SHADER_STAGE_COMPUTE_BIT
                    ? "" : " (not in compute)");
        fprintf(f, "   maxComputeSharedMemorySize %u, "
                "maxComputeWorkGroupInvocations %u, "
                "maxComputeWorkGroupCount[0] %u, maxStorageBufferRange %u\n",
                in.max_smem, in.max_invocations, in.max_wg_count_x,
                in.max_storage_range);
        if (q)
            fprintf(f, "   no compute queue with timestamps\n");
        else
            fprintf(f, "   queue family %u, timestampValidBits %u, "
                    "timestampPeriod %g ns\n", in.queue_family,
                    in.ts_valid_bits, in.ts_period_ns);
        for (uint32_t h = 0; h < mem.memoryHeapCount; h++)
            fprintf(f, "   heap %u: %.1f GiB%s\n", h,
                    mem.memoryHeaps[h].size / 1073741824.0,
                    mem.memoryHeaps[h].flags &
                            VK_MEMORY_HEAP_DEVICE_LOCAL_BIT
                        ? " device-local" : "");
    }
    vkDestroyInstance(inst, NULL);
    return rc;
}

int vkb_gpu_memtype(const vkb_gpu *g, uint32_t bits, int readback,
                    int *coherent)
{
    /* In order of preference: the flags wanted, the flags to avoid. */
    static const struct {
        int readback;
        VkMemoryPropertyFlags want, avoid;
    } pref[] = {
        {0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT},
        {0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0},
        {1, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                VK_MEMORY_PROPERTY_HOST_CACHED_BIT, 0},
        {1, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0},
        {1, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, 0},
    };

    for (size_t k = 0; k < sizeof pref / sizeof pref[0]; k++) {
        if (pref[k].readback != readback)
            continue;
        for (uint32_t t = 0; t < g->mem.memoryTypeCount; t++) {
            VkMemoryPropertyFlags fl = g->mem.memoryTypes[t].propertyFlags;
            if ((bits & (1u << t)) && (fl & pref[k].want) == pref[k].want &&
                !(fl & pref[k].avoid)) {
                if (coherent)
                    *coherent =
                        (fl & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
                return (int)t;
            }
        }
    }
    return -1;
}
