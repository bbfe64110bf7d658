/* The dataset CSV of docs/patterns.md: "# key: value" provenance lines, then the
 * header, then one row per configuration, flushed as it is written so that
 * a run cut short keeps what it measured. */
#ifndef VKB_CSV_H
#define VKB_CSV_H

#include <stdio.h>

#include "vkb_bench.h"
#include "vkb_cfg.h"
#include "vkb_gpu.h"

void vkb_csv_provenance(FILE *f, const vkb_gpu_info *in);
/* cas = 1 (vkbench --count-cas) adds a last column, cas_attempts: the
 * compare-and-swaps of a dispatch summed over its threads, empty for the
 * patterns that do not count them. Such a file is a probe of its own, not
 * a dataset that atomsim validate reads. */
/* clock = 1 (the clock guard on) adds the row's clock evidence after
 * those: clock_ratio_max, the slowest accepted probe of its timed
 * repetitions over the guard's reference, and clock_rewarms, the times the
 * guard heated the GPU during the row. */
void vkb_csv_header(FILE *f, int cas, int clock);

/* ok = 0 writes check=FAIL with the times left empty: not a measurement. */
void vkb_csv_row(FILE *f, const vkb_cfg *c, const vkb_result *r, int ok,
                 int cas, int clock);

/* The row's configuration columns alone, for --dry-run. */
void vkb_csv_config(FILE *f, const vkb_cfg *c);

#endif
