/* test_compare.c - the rank correlations of validate/compare.c: the plain
 * coefficient, and the one that counts times closer than a tolerance as
 * equal, which must neither hide a real inversion nor invent an order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "../../validate/compare.h"

static double rho(const double *x, const double *y, size_t n, double tie)
{
    double work[64];
    size_t idx[32];
    return val_spearman_tied(x, y, n, tie, work, idx);
}

/* The held-out counter-aggregated rows of validate/data/h100.csv: two
 * measured 0.6% apart, simulated alike. Plain: 0.866; within 1%: 1. */
static void near_ties_are_ties(void **state)
{
    (void)state;
    double meas[] = {99.968, 27.936, 28.096}, pred[] = {100.59, 28.6, 28.6};
    assert_true(fabs(rho(meas, pred, 3, 0) - sqrt(3) / 2) < 1e-9);
    assert_true(fabs(rho(meas, pred, 3, 0.01) - 1) < 1e-12);
}

/* The held-out counter rows of validate/data/h100.csv: two measured alike
 * (27.904 us), simulated 0.04% apart.  Their order is not scored. */
static void measured_ties_are_not_scored(void **state)
{
    (void)state;
    double meas[] = {99.968, 27.904, 27.904}, up[] = {100.6, 28.01, 28.0}, down[] = {100.6, 28.0, 28.01};
    assert_true(fabs(rho(meas, up, 3, 0.01) - 1) < 1e-12);
    assert_true(fabs(rho(meas, down, 3, 0.01) - 1) < 1e-12);
}

/* A prediction's near tie earns nothing where the measurement orders the
 * rows: 20.1 before 20 stays an inversion against 20 before 30. */
static void predicted_near_ties_are_scored(void **state)
{
    (void)state;
    double meas[] = {10, 20, 30}, pred[] = {10, 20.1, 20};
    assert_true(fabs(rho(meas, pred, 3, 0) - 0.5) < 1e-12);
    assert_true(fabs(rho(meas, pred, 3, 0.01) - 0.5) < 1e-12);
}

/* A real inversion stays one: a tolerance below the gaps changes nothing. */
static void real_order_survives(void **state)
{
    (void)state;
    double up[] = {1, 2, 3, 4, 5}, down[] = {50, 40, 30, 20, 10};
    assert_true(fabs(rho(up, down, 5, 0.01) + 1) < 1e-12);
    assert_true(fabs(rho(up, up, 5, 0.2) - 1) < 1e-12);
}

/* Only the measurement ties: a model that puts two rows 0.4% apart in the
 * order the GPU has them 5.5% apart keeps full agreement (held-out
 * histogram-shared), and one that orders them the wrong way loses it. */
static void model_near_ties_are_scored(void **state)
{
    (void)state;
    double meas[] = {25.056, 167.424, 26.432}, pred[] = {28.714, 171.64, 28.822}, swapped[] = {28.822, 171.64, 28.714};
    assert_true(fabs(rho(meas, pred, 3, 0.01) - 1) < 1e-12);
    assert_true(fabs(rho(meas, swapped, 3, 0.01) - 0.5) < 1e-12);
}

/* Runs are anchored at their first value, so a slow drift of steps each
 * under the tolerance does not collapse into one tie: 100..102.4 in steps
 * of 0.6% makes runs of two, two and one, inside which the prediction's
 * order is not scored; the runs' own order is. */
static void runs_do_not_chain(void **state)
{
    (void)state;
    double x[] = {100, 100.6, 101.2, 101.8, 102.4}, y[] = {2, 1, 4, 3, 5}, z[] = {4, 3, 2, 1, 5};
    assert_true(fabs(rho(x, y, 5, 0.01) - 1) < 1e-12);
    assert_true(rho(x, z, 5, 0.01) < 0.5);
    double same[] = {7, 7, 7};
    assert_true(isnan(rho(same, y, 3, 0)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(near_ties_are_ties),
        cmocka_unit_test(measured_ties_are_not_scored),
        cmocka_unit_test(predicted_near_ties_are_scored),
        cmocka_unit_test(real_order_survives),
        cmocka_unit_test(model_near_ties_are_scored),
        cmocka_unit_test(runs_do_not_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
