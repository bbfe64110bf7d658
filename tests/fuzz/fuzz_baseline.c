/* fuzz_baseline.c - a cost-table baseline as `check --baseline FILE` reads
 * it (validate/baseline_read.c: bl_load), then compared with itself, every
 * row labelled, and written back. */
#include "../../validate/baseline.h"
#include "fz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[CFG_ERR_MAX], label[640];
    bl_table b;
    bl_result r;
    if (bl_load(fz_file(data, size, ".baseline"), &b, err))
        return 0;
    if (bl_compare(&b, &b, b.tol, &r) == 0) {
        for (size_t i = 0; i < r.nmoves; i++)
            bl_cell_label(&b, r.moves[i].row, r.moves[i].j, label, sizeof label);
        bl_result_free(&r);
    }
    for (size_t i = 0; i < b.nrows; i++)
        bl_cell_label(&b, &b.rows[i], b.rows[i].count - 1, label, sizeof label);
    bl_write(&b, stdout);
    bl_free(&b);
    return 0;
}
