/* Maps pattern ids to the generated SPIR-V arrays (build/gen). */
#include "vkb_spirv.h"

#include "vkb_common.h"
#include "vkb_pattern.h"
#include "vkb_spirv_gen.h"

typedef struct {
    const uint32_t *code;
    size_t bytes;
} module;

/* Each pattern's contract module and its -DPROBES twin, named by one stem. */
#define E(id, stem)                                                          \
    [id] = {{vkb_spv_##stem, sizeof vkb_spv_##stem},                         \
            {vkb_spv_probe_##stem, sizeof vkb_spv_probe_##stem}}

static const module modules[VKB_NPATTERNS][2] = {
    E(VKB_STORE, store),
    E(VKB_COUNTER, counter),
    E(VKB_COUNTER_AGGREGATED, counter_aggregated),
    E(VKB_COMPACTION, compaction),
    E(VKB_HISTOGRAM, histogram),
    E(VKB_HISTOGRAM_SHARED, histogram_shared),
    E(VKB_HISTOGRAM_U8_CAS, histogram_u8_cas),
    E(VKB_HISTOGRAM_U16_CAS, histogram_u16_cas),
    E(VKB_CAS_APPEND, cas_append),
    E(VKB_BITMASK, bitmask),
    E(VKB_REDUCE, reduce),
    E(VKB_DISTINCT_LINES, distinct_lines),
};

static int get(int pattern, int probes, const uint32_t **code, size_t *bytes)
{
    if (pattern < 0 || pattern >= VKB_NPATTERNS || !modules[pattern][probes].code)
        return VKB_EFAIL;
    *code = modules[pattern][probes].code;
    *bytes = modules[pattern][probes].bytes;
    return VKB_OK;
}

int vkb_spirv_get(int pattern, const uint32_t **code, size_t *bytes)
{
    return get(pattern, 0, code, bytes);
}

int vkb_spirv_get_probe(int pattern, const uint32_t **code, size_t *bytes)
{
    return get(pattern, 1, code, bytes);
}

int vkb_spirv_get_trace(int pattern, const uint32_t **code, size_t *bytes)
{
    if (pattern == VKB_CAS_APPEND) {
        *code = vkb_spv_trace_cas_append;
        *bytes = sizeof vkb_spv_trace_cas_append;
    } else if (pattern == VKB_BITMASK) {
        *code = vkb_spv_trace_bitmask;
        *bytes = sizeof vkb_spv_trace_bitmask;
    } else {
        return VKB_EFAIL;
    }
    return VKB_OK;
}

int vkb_spirv_clock(const uint32_t **code, size_t *bytes)
{
    *code = vkb_spv_clock;
    *bytes = sizeof vkb_spv_clock;
    return VKB_OK;
}
