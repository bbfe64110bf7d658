/* Maps pattern ids to the generated SPIR-V arrays (build/gen). */
#include "vkb_spirv.h"

#include "vkb_common.h"
#include "vkb_pattern.h"
#include "vkb_spirv_gen.h"

#define E(id, arr) [id] = {arr, sizeof arr}

static const struct {
    const uint32_t *code;
    size_t bytes;
} modules[VKB_NPATTERNS] = {
    E(VKB_STORE, vkb_spv_store),
    E(VKB_COUNTER, vkb_spv_counter),
    E(VKB_COUNTER_AGGREGATED, vkb_spv_counter_aggregated),
    E(VKB_COMPACTION, vkb_spv_compaction),
    E(VKB_HISTOGRAM, vkb_spv_histogram),
    E(VKB_HISTOGRAM_SHARED, vkb_spv_histogram_shared),
    E(VKB_HISTOGRAM_U8_CAS, vkb_spv_histogram_u8_cas),
    E(VKB_HISTOGRAM_U16_CAS, vkb_spv_histogram_u16_cas),
    E(VKB_CAS_APPEND, vkb_spv_cas_append),
    E(VKB_BITMASK, vkb_spv_bitmask),
    E(VKB_REDUCE, vkb_spv_reduce),
    E(VKB_DISTINCT_LINES, vkb_spv_distinct_lines),
};

static const struct {
    const uint32_t *code;
    size_t bytes;
} probe_modules[VKB_NPATTERNS] = {
    E(VKB_STORE, vkb_spv_probe_store),
    E(VKB_COUNTER, vkb_spv_probe_counter),
    E(VKB_COUNTER_AGGREGATED, vkb_spv_probe_counter_aggregated),
    E(VKB_COMPACTION, vkb_spv_probe_compaction),
    E(VKB_HISTOGRAM, vkb_spv_probe_histogram),
    E(VKB_HISTOGRAM_SHARED, vkb_spv_probe_histogram_shared),
    E(VKB_HISTOGRAM_U8_CAS, vkb_spv_probe_histogram_u8_cas),
    E(VKB_HISTOGRAM_U16_CAS, vkb_spv_probe_histogram_u16_cas),
    E(VKB_CAS_APPEND, vkb_spv_probe_cas_append),
    E(VKB_BITMASK, vkb_spv_probe_bitmask),
    E(VKB_REDUCE, vkb_spv_probe_reduce),
    E(VKB_DISTINCT_LINES, vkb_spv_probe_distinct_lines),
};

int vkb_spirv_get(int pattern, const uint32_t **code, size_t *bytes)
{
    if (pattern < 0 || pattern >= VKB_NPATTERNS || !modules[pattern].code)
        return VKB_EFAIL;
    *code = modules[pattern].code;
    *bytes = modules[pattern].bytes;
    return VKB_OK;
}

int vkb_spirv_get_probe(int pattern, const uint32_t **code, size_t *bytes)
{
    if (pattern < 0 || pattern >= VKB_NPATTERNS || !probe_modules[pattern].code)
        return VKB_EFAIL;
    *code = probe_modules[pattern].code;
    *bytes = probe_modules[pattern].bytes;
    return VKB_OK;
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
