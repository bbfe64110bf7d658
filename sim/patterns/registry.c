/* registry.c - maps a pattern id to its implementation. */
#include "../pattern.h"

extern const sim_pattern sim_pattern_store, sim_pattern_counter, sim_pattern_counter_aggregated, sim_pattern_compaction,
    sim_pattern_histogram, sim_pattern_histogram_shared, sim_pattern_histogram_u8_cas, sim_pattern_histogram_u16_cas,
    sim_pattern_cas_append, sim_pattern_bitmask, sim_pattern_reduce, sim_pattern_distinct_lines;

static const sim_pattern *const patterns[PAT_COUNT] = {
    [PAT_STORE] = &sim_pattern_store,
    [PAT_COUNTER] = &sim_pattern_counter,
    [PAT_COUNTER_AGGREGATED] = &sim_pattern_counter_aggregated,
    [PAT_COMPACTION] = &sim_pattern_compaction,
    [PAT_HISTOGRAM] = &sim_pattern_histogram,
    [PAT_HISTOGRAM_SHARED] = &sim_pattern_histogram_shared,
    [PAT_HISTOGRAM_U8_CAS] = &sim_pattern_histogram_u8_cas,
    [PAT_HISTOGRAM_U16_CAS] = &sim_pattern_histogram_u16_cas,
    [PAT_CAS_APPEND] = &sim_pattern_cas_append,
    [PAT_BITMASK] = &sim_pattern_bitmask,
    [PAT_REDUCE] = &sim_pattern_reduce,
    [PAT_DISTINCT_LINES] = &sim_pattern_distinct_lines,
};

const sim_pattern *sim_pattern_get(enum pat_id id)
{
    return patterns[id];
}
