/* export_fields.h - what the cost table's writers share (export_write.c:
 * JSON and CSV; export_header.c: the C header), so that every format
 * prints the same letters and numbers for a cell and a band.  Internal to
 * model/: not part of any public header. */
#ifndef ATOM_MODEL_EXPORT_FIELDS_H
#define ATOM_MODEL_EXPORT_FIELDS_H

#include <stddef.h>
#include <stdio.h>

#include "export.h"

/* A cell's one-letter codes (source m/s/a, decisions g/c, seed reasons
 * g/c/d/x), by field, and the names the formats give them. */
enum exp_code_field { EXP_CODE_SOURCE, EXP_CODE_DECISION, EXP_CODE_SEED_DECISION, EXP_CODE_SEED_REASON, EXP_CODE_COUNT };
extern const char *const exp_code_names[EXP_CODE_COUNT];
char exp_cell_code(const exp_cell *c, enum exp_code_field f);

/* A host cell's numbers, by field. */
enum exp_host_field { EXP_HOST_CPU, EXP_HOST_DENSITY, EXP_HOST_FRACTION, EXP_HOST_COUNT };
extern const char *const exp_host_names[EXP_HOST_COUNT];

/* Getters over cell arrays for the writers' number loops (field: a
 * host_field; the GPU's takes none). */
double exp_get_gpu(const void *base, size_t i, int field);
double exp_get_host(const void *base, size_t i, int field);

/* A band's numbers as every format writes them: n_lo, n_hi exact, then
 * p10, p50, p90 at six digits. */
#define EXP_BAND_VALUES 5
void exp_band_values(const exp_band *eb, char v[EXP_BAND_VALUES][48]);

/* The C header (--format c-header). */
void exp_write_c_header(const exp_table *t, FILE *f);

#endif
