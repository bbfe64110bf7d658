/* dataset.h - reads a measured dataset (validate/data/<gpu>.csv): the
 * provenance lines, then one row per configuration with its timings, and
 * in a file from `vkbench --count-cas` the GPU's compare-and-swap count. */
#ifndef ATOM_VALIDATE_DATASET_H
#define ATOM_VALIDATE_DATASET_H

#include <stddef.h>

#include "../model/config.h"
#include "../model/params.h"

typedef struct val_row {
    pat_params params;
    double time_us_median, time_us_min, time_us_max;
    double cas_attempts;               /* summed over threads; -1: not counted */
    double clock_ratio_max;            /* vkbench's clock evidence; -1: none */
    double clock_rewarms;              /* heatings during the row; -1: none */
    int line;                          /* in the file, for messages */
} val_row;

typedef struct val_dataset {
    val_row *rows;
    size_t count;
    char gpu[128];
    char driver[128];
    char harness[32];                  /* `# harness:`: vkbench, cpubench, or empty */
    int workers;                       /* cpubench's `# workers:`; 0: none */
    int has_cas;                       /* the file has the cas_attempts column */
    int has_clock;                     /* and the clock guard's two columns */
} val_dataset;

/* Returns 0, or -1 with err naming the file, line and problem.  Rows whose
 * check column is not "ok" are refused: they are not measurements, and so
 * is a `# workers:` line that is not a count (cpubench writes it).  The
 * header is the contract's, then optionally ",cas_attempts" (empty for
 * patterns that do not count), then optionally the clock guard's
 * ",clock_ratio_max,clock_rewarms" (validate/vkbench/vkb_csv.h). */
int val_dataset_load(const char *path, val_dataset *d, char err[CFG_ERR_MAX]);
void val_dataset_free(val_dataset *d);

#endif
