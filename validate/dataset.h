/* dataset.h - reads a measured dataset (validate/data/<gpu>.csv): the
 * provenance lines, then one row per configuration with its timings. */
#ifndef ATOM_VALIDATE_DATASET_H
#define ATOM_VALIDATE_DATASET_H

#include <stddef.h>

#include "../model/config.h"
#include "../model/params.h"

typedef struct val_row {
    pat_params params;
    double time_us_median, time_us_min, time_us_max;
    int line;                          /* in the file, for messages */
} val_row;

typedef struct val_dataset {
    val_row *rows;
    size_t count;
    char gpu[128];
    char driver[128];
} val_dataset;

/* Returns 0, or -1 with err naming the file, line and problem.  Rows whose
 * check column is not "ok" are refused: they are not measurements. */
int val_dataset_load(const char *path, val_dataset *d, char err[CFG_ERR_MAX]);
void val_dataset_free(val_dataset *d);

#endif
