/* test_export_smem.c - shared memory in the cost tables: export reuses a
 * cell's GPU time along the smem axis where the workgroups an SM holds do
 * not change, and that reuse must equal running the engine at every cell;
 * a lookup at shared memory between grid points that holds as many
 * workgroups as a grid point answers that point's time exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../model/export.h"
#include "../../model/table.h"
#include "table_helpers.h"

static const unsigned patterns = 0; /* every pattern */

static void load_h100(cfg_config *c, cpu_config *cpu)
{
    char err[CFG_ERR_MAX];
    cfg_defaults(c);
    cpu_defaults(cpu);
    /* the shipped H100 config when the tests run from the repo, where a
     * Vulkan SM holds 65 KiB of shared memory: many smem steps matter */
    if (access("configs/h100.ini", R_OK) == 0)
        assert_int_equal(cfg_load(c, "configs/h100.ini", err), 0);
}

static void test_reuse_equals_every_cell(void **state)
{
    (void)state;
    cfg_config c;
    cpu_config cpu;
    char err[CFG_ERR_MAX];
    exp_table *fast, *full;
    load_h100(&c, &cpu);
    exp_options o = { patterns, NULL, NULL, 0, 0 };
    assert_int_equal(exp_build(&c, &cpu, &o, &fast, err), 0);
    o.every_cell = 1;
    assert_int_equal(exp_build(&c, &cpu, &o, &full, err), 0);
    assert_int_equal(fast->pattern_count, full->pattern_count);
    size_t reused = 0;
    for (int p = 0; p < fast->pattern_count; p++) {
        const exp_pattern *a = &fast->patterns[p], *b = &full->patterns[p];
        assert_int_equal(a->cell_count, b->cell_count);
        for (size_t i = 0; i < a->cell_count; i++) {
            assert_true(a->cells[i].gpu_us == b->cells[i].gpu_us);
            assert_int_equal(a->cells[i].decision, b->cells[i].decision);
            reused += i > 0 && a->cells[i].gpu_us == a->cells[i - 1].gpu_us;
        }
    }
    assert_true(reused > 0);
    exp_free(fast);
    exp_free(full);
}

static void test_smem_between_points_is_exact_at_equal_occupancy(void **state)
{
    (void)state;
    cfg_config c;
    cpu_config cpu;
    char err[CFG_ERR_MAX];
    exp_table *t;
    load_h100(&c, &cpu);
    exp_options o = { 1u << PAT_COUNTER, NULL, NULL, 0, 0 };
    assert_int_equal(exp_build(&c, &cpu, &o, &t, err), 0);
    tbl_table *tt = th_table_round_trip(t);
    /* every smem value from 0 to the limit, in 512-byte steps: where it
     * holds as many workgroups as some grid point, the answer is that
     * point's (looked up at the point itself) */
    const exp_axis *sm = &t->patterns[0].axes[2];
    assert_int_equal(sm->kind, EXP_AXIS_SMEM);
    int matched = 0;
    for (double s = 0; s <= sm->values[sm->count - 1]; s += 512) {
        pat_params p;
        pat_defaults(&p);
        p.pattern = PAT_COUNTER;
        p.smem_per_wg = (uint32_t)s;
        int want = exp_wgs_per_sm(&c, &p);
        for (int k = 0; k < sm->count; k++) {
            pat_params g = p;
            g.smem_per_wg = (uint32_t)sm->values[k];
            if (exp_wgs_per_sm(&c, &g) != want)
                continue;
            tbl_query q;
            tbl_answer a, b;
            tbl_query_init(&q, PAT_COUNTER);
            q.n = 1 << 20;
            q.smem_per_wg = s;
            assert_int_equal(tbl_lookup(tt, &q, &a, err), 0);
            q.smem_per_wg = sm->values[k];
            assert_int_equal(tbl_lookup(tt, &q, &b, err), 0);
            assert_true(a.gpu_kernel_us == b.gpu_kernel_us);
            matched++;
            break;
        }
    }
    assert_true(matched > 10);
    tbl_free(tt);
    exp_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reuse_equals_every_cell),
        cmocka_unit_test(test_smem_between_points_is_exact_at_equal_occupancy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
