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
void vkb_csv_header(FILE *f, int cas);

/* ok = 0 writes check=FAIL with the times left empty: not a measurement. */
void vkb_csv_row(FILE *f, const vkb_cfg *c, const vkb_result *r, int ok,
                 int cas);

/* The row's configuration columns alone, for --dry-run. */
void vkb_csv_config(FILE *f, const vkb_cfg *c);

#endif
