/* bands.h - error bands for a cost table's two columns: the spread of
 * measured / answered over a measured dataset's rows, per pattern and per
 * region of n, so that each answer can say how far the hardware has been
 * from the table's own answers like it.
 *
 *   exp_band b[EXP_MAX_BANDS]; int count;
 *   rc = val_bands(table, &dataset, PAT_HISTOGRAM, EXP_SIDE_GPU, b, &count, err);
 *
 * The answer a row is held to is the table's at the row's shape
 * (tbl_lookup, no extrapolation): for the GPU its kernel time, whichever
 * engine made the cells around it (a simulator or anchored cell is judged
 * as such, not by the model's residuals); for the CPU its tier's compute
 * time, against cpubench rows of hosts like the table's.  Rows outside the
 * grid are left out.  Regions: n below 2^16, 2^16 to 2^20, 2^20 to 2^24,
 * 2^24 and above; a region with fewer than VAL_BAND_MIN_ROWS rows gets no
 * band (an answer there says it has none, rather than a band from two
 * rows). */
#ifndef ATOM_VALIDATE_BANDS_H
#define ATOM_VALIDATE_BANDS_H

#include "../model/export.h"
#include "../model/table.h"
#include "dataset.h"

#define VAL_BAND_MIN_ROWS 5

/* Returns 0, or -1 with err (out of memory). */
int val_bands(const tbl_table *t, const val_dataset *d, enum pat_id id, enum exp_side side, exp_band *bands,
              int *count, char err[CFG_ERR_MAX]);

#endif
