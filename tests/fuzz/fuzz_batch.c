/* fuzz_batch.c - a query batch as `dispatch --batch FILE` reads it
 * (model/dispatch_query.c: dq_batch_read), then every row answered from a
 * small cost table (the seed tests/fuzz/corpus/table/all.json, read once;
 * make runs the targets from the repository root), as dpr_batch does
 * before it prints. */
#include "../../model/dispatch_query.h"
#include "fz.h"

static tbl_table *fz_table;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char err[CFG_ERR_MAX];
    const char *path = getenv("FUZZ_BATCH_TABLE");
    if (!path)
        path = "tests/fuzz/corpus/table/all.json";
    if (tbl_load(path, &fz_table, err)) {
        fprintf(stderr, "fuzz_batch: %s (run from the repository root, or set FUZZ_BATCH_TABLE)\n", err);
        exit(2);
    }
    fz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[CFG_ERR_MAX];
    dq_batch b;
    dq_error e;
    size_t bad;
    const char *path = fz_file(data, size, ".csv");
    if (dq_batch_read(path, -1, -1, 0, &b, &e))
        return 0;
    tbl_answer *ans = calloc(b.count ? b.count : 1, sizeof *ans);
    if (!ans)
        abort();
    (void)dq_batch_answer(fz_table, &b, ans, &bad, err);
    free(ans);
    dq_batch_free(&b);
    return 0;
}
