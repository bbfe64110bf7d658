/* dispatch_print.h - how `atomsim dispatch` writes an answer of a cost
 * table (model/table.h): text (the decision, both costs and the
 * assumptions behind them), JSON, or a CSV row, the format of --batch's
 * answers too. */
#ifndef ATOM_APP_DISPATCH_PRINT_H
#define ATOM_APP_DISPATCH_PRINT_H

#include <stdio.h>

#include "../model/table.h"

void dpr_text(FILE *f, const tbl_table *t, const tbl_answer *a);
void dpr_json(FILE *f, const tbl_table *t, const tbl_answer *a);
/* The CSV header, then one row a query: the query's parameters, then the answer. */
void dpr_csv_header(FILE *f);
void dpr_csv_row(FILE *f, const tbl_query *q, const tbl_answer *a);
/* `dispatch --batch`: every query of the CSV at path answered (rule and
 * data_on -1: the table's) and written as CSV rows on stdout.  0, 1 (out
 * of memory) or 2 (a bad row, named on stderr, and nothing written). */
int dpr_batch(const tbl_table *t, const char *path, int rule, int data_on, int extrapolate);

#endif
