/* test_vkb_guard.c - the clock guard's decision against a simulated probe:
 * on a quiet and on a noisy board it rejects no probe of a steady clock,
 * and it rejects every probe of a clock dip. The decision is pure C; the
 * Vulkan side of the guard cannot run here, so the file is built in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../validate/vkbench/vkb_guard.c"

#define PROBE_US 25.0
#define STEADY_PROBES 20000

/* A deterministic uniform in [0, 1): the same jitter on every run. */
static double uniform(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* A probe at the top clock: the board's jitter only makes it slower, by up
 * to `jitter` (a fraction), with a rarer tail to twice that. */
static double steady_probe(uint64_t *s, double jitter)
{
    double u = uniform(s), slow = jitter * uniform(s);
    return PROBE_US * (1 + (u < 0.02 ? 2 * slow : slow));
}

static void calibrate(vkb_guard *g, uint64_t *s, double jitter, double tol_pct)
{
    double probes[VKB_GUARD_PROBES];
    for (int i = 0; i < VKB_GUARD_PROBES; i++)
        probes[i] = steady_probe(s, jitter);
    assert_int_equal(vkb_guard_set(g, probes, VKB_GUARD_PROBES, tol_pct), 0);
}

static int rejected_steady(vkb_guard *g, uint64_t *s, double jitter)
{
    int rejected = 0;
    for (int i = 0; i < STEADY_PROBES; i++)
        rejected += !vkb_guard_accept(g, steady_probe(s, jitter));
    return rejected;
}

/* A dip of the SM clock to 1/slowdown of its top: every probe is that much
 * slower, jitter on top. */
static int accepted_dip(vkb_guard *g, uint64_t *s, double jitter, double slowdown)
{
    int accepted = 0;
    for (int i = 0; i < 1000; i++)
        accepted += vkb_guard_accept(g, slowdown * steady_probe(s, jitter));
    return accepted;
}

static void quiet_board(void **state)
{
    (void)state;
    uint64_t s = 1;
    vkb_guard g;
    calibrate(&g, &s, 0.005, 0);
    assert_true(g.automatic && !g.too_noisy);
    assert_true(g.tol >= VKB_GUARD_MIN_TOL && g.tol < 0.05);
    assert_int_equal(rejected_steady(&g, &s, 0.005), 0);
    assert_int_equal(accepted_dip(&g, &s, 0.005, 1.10), 0);
    assert_int_equal(accepted_dip(&g, &s, 0.005, 2.0), 0);
}

/* The fresh H100 that the fixed 5% guard refused row after row: probes
 * that jitter by about 8% at a steady top clock. */
static void noisy_board(void **state)
{
    (void)state;
    uint64_t s = 2;
    vkb_guard g;
    calibrate(&g, &s, 0.08, 0);
    assert_true(g.tol > 0.12 && g.tol <= VKB_GUARD_MAX_TOL);
    assert_int_equal(rejected_steady(&g, &s, 0.08), 0);
    /* rows came out 3-5x slow in real dips; half the clock is caught too */
    assert_int_equal(accepted_dip(&g, &s, 0.08, 1.5), 0);
    assert_int_equal(accepted_dip(&g, &s, 0.08, 3.0), 0);
}

/* One lucky fast probe must not move the reference: the old guard's
 * baseline only ever fell, and every probe after such a one failed. */
static void fast_probe_keeps_reference(void **state)
{
    (void)state;
    uint64_t s = 3;
    vkb_guard g;
    calibrate(&g, &s, 0.02, 0);
    double ref = g.ref_us;
    assert_true(vkb_guard_accept(&g, 0.8 * PROBE_US));
    assert_true(g.ref_us == ref);
    assert_true(g.fastest_us == 0.8 * PROBE_US);
    assert_int_equal(rejected_steady(&g, &s, 0.02), 0);
}

static void too_noisy_is_capped(void **state)
{
    (void)state;
    uint64_t s = 4;
    vkb_guard g;
    calibrate(&g, &s, 0.30, 0);
    assert_true(g.too_noisy);
    assert_true(g.tol == VKB_GUARD_MAX_TOL);
    assert_int_equal(accepted_dip(&g, &s, 0.30, 2.0), 0);
}

static void fixed_tolerance_and_bad_input(void **state)
{
    (void)state;
    double p[VKB_GUARD_PROBES];
    for (int i = 0; i < VKB_GUARD_PROBES; i++)
        p[i] = PROBE_US + i;
    vkb_guard g;
    assert_int_equal(vkb_guard_set(&g, p, VKB_GUARD_PROBES, 5), 0);
    assert_true(!g.automatic && g.tol == 0.05);
    assert_true(g.ref_us == PROBE_US + VKB_GUARD_PROBES / 2);
    assert_true(vkb_guard_ratio(&g, g.ref_us * 1.5) == 1.5);
    assert_int_equal(vkb_guard_set(&g, p, 2, 0), -1);
    p[3] = 0;
    assert_int_equal(vkb_guard_set(&g, p, VKB_GUARD_PROBES, 0), -1);
    assert_false(vkb_guard_accept(&g, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(quiet_board),
        cmocka_unit_test(noisy_board),
        cmocka_unit_test(fast_probe_keeps_reference),
        cmocka_unit_test(too_noisy_is_capped),
        cmocka_unit_test(fixed_tolerance_and_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
