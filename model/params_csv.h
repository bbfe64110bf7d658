/* params_csv.h - the parameter table's CSV columns (model/params.h) in the
 * orders the outputs use, written and read from the table, so that a new
 * parameter with a column reaches every CSV that lists the parameters
 * without touching its writer; and the harnesses' grid order, which
 * vkbench and cpubench share.  Uses nothing but the C library, so the
 * harnesses link it beside model/params.c. */
#ifndef ATOM_MODEL_PARAMS_CSV_H
#define ATOM_MODEL_PARAMS_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "params.h"

enum pat_csv_order {
    /* the table's: n,wg,selectivity,bins,hot,addresses,smem_per_wg (runs,
     * datasets, plans, the harnesses' CSVs, check's --rows-out) */
    PAT_CSV_TABLE,
    /* the parameters every pattern reads first, then the pattern's own, each
     * part in the table's order: n,wg,smem_per_wg,selectivity,bins,hot,
     * addresses (export's axes, its CSV and its shards' parts) */
    PAT_CSV_SHARED_FIRST
};

/* The parameters that have a CSV column, in order o; returns how many. */
size_t pat_csv_columns(enum pat_csv_order o, const pat_param_desc *out[PP_COUNT]);

/* "n,wg,...": the columns, comma separated, no newline. */
void pat_csv_header(enum pat_csv_order o, char *buf, size_t len);

/* One value as the CSVs write it: an integer in decimal, a double with
 * "%.*g" of prec, or (prec 0) as pat_param_format writes it, the shortest
 * text that reads back. */
void pat_csv_format(const pat_param_desc *d, const pat_params *p, int prec, char *buf, size_t len);
/* p's values so, comma separated, no newline. */
void pat_csv_write(FILE *f, enum pat_csv_order o, const pat_params *p, int prec);

/* "histogram n=1024 wg=256 selectivity=1 bins=256 hot=0 addresses=1
 * smem-per-wg=0": the pattern, then each column's flag without "--" and its
 * value (doubles as %g), in the table's order; the harnesses' one line for
 * a configuration in their messages. */
void pat_csv_describe(const pat_params *p, char *buf, size_t len);

/* Reads one field a column (field[0] the first column's) into p, as
 * num_parse_u64 and num_parse_double read, within the table's bounds
 * (min, max), checked before any cast so that nothing wraps (a reader then
 * compares what it read against what it expects).  0, or -1 when a field
 * does not parse or is out of bounds. */
int pat_csv_read(enum pat_csv_order o, char *const *field, pat_params *p);

/* Compares a and b column by column in order o (the pattern first): -1, 0
 * or 1, a total order for sorting and searching cells. */
int pat_csv_cmp(enum pat_csv_order o, const pat_params *a, const pat_params *b);

/* The order in which a plan line's lists vary in the harnesses (vkbench,
 * cpubench), inside the pattern, the last varying fastest: n, wg,
 * smem_per_wg, bins, hot, addresses, selectivity, then any other harness
 * parameter in the table's order.  The measured datasets' rows come in this
 * order, so it stays.  Returns how many ids it wrote. */
int pat_grid_order(enum pat_param_id order[PP_COUNT]);

#endif
