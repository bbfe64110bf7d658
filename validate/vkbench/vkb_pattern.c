/* The pattern table of vkb_pattern.h. */
#include "vkb_pattern.h"

#include <string.h>

#define S VKB_USES_SELECTIVITY
#define K VKB_USES_BINS
#define F VKB_USES_HOT
#define P VKB_USES_ADDRESSES

static const vkb_pattern patterns[VKB_NPATTERNS] = {
    [VKB_STORE] = {"store", S, 0, 1},
    [VKB_COUNTER] = {"counter", S, 0, 0},
    [VKB_COUNTER_AGGREGATED] = {"counter-aggregated", S, 1, 0},
    [VKB_COMPACTION] = {"compaction", S, 0, 1},
    [VKB_HISTOGRAM] = {"histogram", K | F, 0, 0},
    [VKB_HISTOGRAM_SHARED] = {"histogram-shared", K, 0, 0},
    [VKB_HISTOGRAM_U8_CAS] = {"histogram-u8-cas", K, 0, 0},
    [VKB_HISTOGRAM_U16_CAS] = {"histogram-u16-cas", K, 0, 0},
    [VKB_CAS_APPEND] = {"cas-append", S, 0, 1},
    [VKB_BITMASK] = {"bitmask", S, 0, 0},
    [VKB_REDUCE] = {"reduce", 0, 0, 0},
    [VKB_DISTINCT_LINES] = {"distinct-lines", P, 0, 0},
};

const vkb_pattern *vkb_pattern_get(int id)
{
    if (id < 0 || id >= VKB_NPATTERNS)
        return NULL;
    return &patterns[id];
}

int vkb_pattern_find(const char *name)
{
    for (int id = 0; id < VKB_NPATTERNS; id++)
        if (strcmp(patterns[id].name, name) == 0)
            return id;
    return -1;
}

uint32_t vkb_pattern_smem_need(int id, uint32_t bins)
{
    switch (id) {
    case VKB_HISTOGRAM_SHARED:
        return bins > UINT32_MAX / 4 ? UINT32_MAX : bins * 4u;
    case VKB_REDUCE:
        return 4;
    default:
        return 0;
    }
}

uint64_t vkb_pattern_target_words(int id, uint32_t n, uint32_t bins,
                                  uint32_t addresses)
{
    switch (id) {
    case VKB_HISTOGRAM:
    case VKB_HISTOGRAM_SHARED:
        return bins;
    case VKB_HISTOGRAM_U8_CAS:
        return ((uint64_t)bins + 3) / 4;
    case VKB_HISTOGRAM_U16_CAS:
        return ((uint64_t)bins + 1) / 2;
    case VKB_BITMASK:
        return ((uint64_t)n + 31) / 32;
    case VKB_DISTINCT_LINES:
        return (uint64_t)addresses * 32;
    default:
        return 1;
    }
}

int vkb_pattern_counts_cas(int id)
{
    return id == VKB_HISTOGRAM_U8_CAS || id == VKB_HISTOGRAM_U16_CAS ||
           id == VKB_CAS_APPEND;
}

int vkb_pattern_traced(int id)
{
    return id == VKB_CAS_APPEND || id == VKB_BITMASK;
}

uint64_t vkb_pattern_out_words(int id, uint32_t n, int out_mode)
{
    if ((out_mode & VKB_OUT_TRACE) && vkb_pattern_traced(id))
        return 10 * (uint64_t)n; /* 3n as below at most, then 7 a unit */
    int counts = (out_mode & VKB_OUT_COUNTS) && vkb_pattern_counts_cas(id);
    if (patterns[id].has_out && counts) /* cas-append: keys, counts, reads */
        return (out_mode & VKB_OUT_READS ? 3 : 2) * (uint64_t)n;
    return patterns[id].has_out || counts ? n : 1;
}

uint32_t vkb_pattern_count_offset(int id, uint32_t n)
{
    return patterns[id].has_out ? n : 0;
}
