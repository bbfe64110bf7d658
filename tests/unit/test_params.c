/* test_params.c - the contract's shared definitions (model/params.[ch]):
 * the lowbias32 key hash against values computed independently (Python,
 * 32-bit arithmetic as in docs/patterns.md), the selection threshold's rounding,
 * bins and the hot bin, pattern names and flags, shared-memory needs and
 * pat_check's ranges; plus the CLI's strict number parsing (app/args.c),
 * which feeds pat_params. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "../../model/params.h"
#include "../../app/args.h"

/* lowbias32(x) from docs/patterns.md, computed in Python:
 *   x ^= x >> 16; x = x * 0x7feb352d & M; x ^= x >> 15;
 *   x = x * 0x846ca68b & M; x ^= x >> 16                    (M = 2^32 - 1) */
static void key_known_values(void **state)
{
    (void)state;
    assert_int_equal(pat_key(0), 0u); /* 0 is a fixed point of every step */
    assert_int_equal(pat_key(1), 0x688990c0u);
    assert_int_equal(pat_key(2), 0xd1132181u);
    assert_int_equal(pat_key(3), 0x53f1e9ddu);
    assert_int_equal(pat_key(31), 0x42023635u);
    assert_int_equal(pat_key(32), 0x14fd6ad2u);
    assert_int_equal(pat_key(1000), 0x53df6d52u);
    assert_int_equal(pat_key(123456789u), 0xa8f1db88u);
    assert_int_equal(pat_key(0xffffffffu), 0x6768824au);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Every step of lowbias32 is invertible, so keys of distinct ids differ:
 * compaction's check relies on it (each selected key exactly once). */
static void key_is_injective_on_a_range(void **state)
{
    (void)state;
    enum { N = 1 << 16 };
    uint32_t *k = malloc(N * sizeof *k);
    assert_non_null(k);
    for (uint32_t i = 0; i < N; i++)
        k[i] = pat_key(i);
    qsort(k, N, sizeof *k, cmp_u32);
    for (uint32_t i = 1; i < N; i++)
        assert_true(k[i] != k[i - 1]);
    free(k);
}

/* round(S * 1e6), halves away from zero; the products below are exact
 * halves in binary (checked in Python: 0.0000015 * 1e6 == 1.5). */
static void threshold_rounding(void **state)
{
    (void)state;
    assert_int_equal(pat_threshold(0.0), 0u);
    assert_int_equal(pat_threshold(1.0), 1000000u);
    assert_int_equal(pat_threshold(0.5), 500000u);
    assert_int_equal(pat_threshold(0.7), 700000u);          /* 0.7 * 1e6 == 700000.0 */
    assert_int_equal(pat_threshold(0.0000005), 1u);         /* 0.5 -> 1 */
    assert_int_equal(pat_threshold(0.0000015), 2u);         /* 1.5 -> 2 */
    assert_int_equal(pat_threshold(0.0000004), 0u);         /* 0.4 -> 0 */
    assert_int_equal(pat_threshold(0.1234565), 123457u);    /* 123456.5 -> 123457 */
    assert_int_equal(pat_threshold(0.1234564), 123456u);
}

/* key % 1e6 < threshold: S = 1 selects all, S = 0 none; the boundary. */
static void selection_rule(void **state)
{
    (void)state;
    assert_true(pat_selected(999999u, 1000000u));
    assert_false(pat_selected(999999u, 999999u));
    assert_true(pat_selected(999998u, 999999u));
    assert_false(pat_selected(0u, 0u));
    assert_true(pat_selected(1000000u, 1u));                 /* 1000000 % 1e6 = 0 */
    /* 17 of ids 0..31 have key % 1e6 < 500000 (counted in Python) */
    int sel = 0;
    for (uint32_t i = 0; i < 32; i++)
        sel += pat_selected(pat_key(i), pat_threshold(0.5));
    assert_int_equal(sel, 17);
    /* key(1) = 1753845952: key % 1e6 = 845952 */
    assert_true(pat_selected(pat_key(1), 845953u));
    assert_false(pat_selected(pat_key(1), 845952u));
}

/* bin = (key >> 3) % K, or 0 for the hot fraction (key % 1e6 < hot). */
static void bins_and_hot_bin(void **state)
{
    (void)state;
    assert_int_equal(pat_bin(pat_key(1), 256, 0), 24u);  /* (1753845952 >> 3) % 256 */
    assert_int_equal(pat_bin(pat_key(2), 256, 0), 48u);
    assert_int_equal(pat_bin(pat_key(3), 256, 0), 59u);
    assert_int_equal(pat_bin(pat_key(32), 256, 0), 90u);
    assert_int_equal(pat_bin(pat_key(1), 1, 0), 0u);
    assert_int_equal(pat_bin(pat_key(1), 7, 0), (1753845952u >> 3) % 7u);
    /* key(1) % 1e6 = 845952: hot iff threshold > 845952 */
    assert_int_equal(pat_bin(pat_key(1), 256, 845953u), 0u);
    assert_int_equal(pat_bin(pat_key(1), 256, 845952u), 24u);
    assert_int_equal(pat_bin(pat_key(1), 256, 1000000u), 0u); /* F = 1: everything hot */
}

static void names_round_trip(void **state)
{
    (void)state;
    static const char *const want[PAT_COUNT] = {
        "store", "counter", "counter-aggregated", "compaction", "histogram", "histogram-shared",
        "histogram-u8-cas", "histogram-u16-cas", "cas-append", "bitmask", "reduce", "distinct-lines",
    };
    for (int i = 0; i < PAT_COUNT; i++) {
        enum pat_id id;
        assert_string_equal(pat_name((enum pat_id)i), want[i]);
        assert_int_equal(pat_from_name(want[i], &id), 0);
        assert_int_equal(id, i);
    }
    enum pat_id id;
    assert_int_equal(pat_from_name("nope", &id), -1);
    assert_int_equal(pat_from_name("", &id), -1);
    assert_int_equal(pat_from_name("Counter", &id), -1);
    assert_int_equal(pat_from_name("counter ", &id), -1);
    assert_string_equal(pat_name(PAT_COUNT), "?");
}

/* The flags each pattern reads, as the docs/patterns.md table lists them. */
static void flags_and_cas(void **state)
{
    (void)state;
    assert_int_equal(pat_flags(PAT_STORE), PF_SELECTIVITY);
    assert_int_equal(pat_flags(PAT_COUNTER), PF_SELECTIVITY);
    assert_int_equal(pat_flags(PAT_COUNTER_AGGREGATED), PF_SELECTIVITY);
    assert_int_equal(pat_flags(PAT_COMPACTION), PF_SELECTIVITY);
    assert_int_equal(pat_flags(PAT_HISTOGRAM), PF_BINS | PF_HOT);
    assert_int_equal(pat_flags(PAT_HISTOGRAM_SHARED), PF_BINS);
    assert_int_equal(pat_flags(PAT_HISTOGRAM_U8_CAS), PF_BINS);
    assert_int_equal(pat_flags(PAT_HISTOGRAM_U16_CAS), PF_BINS);
    assert_int_equal(pat_flags(PAT_CAS_APPEND), PF_SELECTIVITY);
    assert_int_equal(pat_flags(PAT_BITMASK), PF_SELECTIVITY);
    assert_int_equal(pat_flags(PAT_REDUCE), PF_WG);
    assert_int_equal(pat_flags(PAT_DISTINCT_LINES), PF_ADDRESSES);
    for (int i = 0; i < PAT_COUNT; i++) {
        int cas = i == PAT_HISTOGRAM_U8_CAS || i == PAT_HISTOGRAM_U16_CAS || i == PAT_CAS_APPEND;
        assert_int_equal(pat_uses_cas((enum pat_id)i), cas);
    }
}

/* docs/patterns.md: --n 1048576 --wg 256 --selectivity 1 --bins 256 --hot 0
 * --addresses 1 --seed 1, smem 0 = the pattern's own. */
static void defaults_match_contract(void **state)
{
    (void)state;
    pat_params p;
    char err[256];
    memset(&p, 0xab, sizeof p);
    pat_defaults(&p);
    assert_int_equal(p.n, 1048576u);
    assert_int_equal(p.wg, 256);
    assert_true(p.selectivity == 1.0);
    assert_int_equal(p.bins, 256u);
    assert_true(p.hot == 0.0);
    assert_int_equal(p.addresses, 1u);
    assert_int_equal(p.smem_per_wg, 0u);
    assert_int_equal(p.seed, 1u);
    assert_int_equal(pat_check(&p, err, sizeof err), 0);
}

static void check_ranges(void **state)
{
    (void)state;
    pat_params p;
    char err[256];
#define BAD(field, value, word)                              \
    do {                                                     \
        pat_defaults(&p);                                    \
        p.field = value;                                     \
        err[0] = 0;                                          \
        assert_int_equal(pat_check(&p, err, sizeof err), -1); \
        assert_non_null(strstr(err, word));                  \
    } while (0)
#define GOOD(field, value)                                  \
    do {                                                    \
        pat_defaults(&p);                                   \
        p.field = value;                                    \
        assert_int_equal(pat_check(&p, err, sizeof err), 0); \
    } while (0)
    BAD(n, 0, "--n");
    BAD(n, PAT_MAX_N + 1, "--n");
    GOOD(n, 1);
    GOOD(n, PAT_MAX_N);
    BAD(selectivity, 1.5, "--selectivity");
    BAD(selectivity, -0.1, "--selectivity");
    BAD(selectivity, 0.0 / 0.0, "--selectivity"); /* NaN is outside [0, 1] */
    GOOD(selectivity, 0.0);
    GOOD(selectivity, 1.0);
    BAD(hot, 1.0000001, "--hot");
    BAD(hot, -1e-9, "--hot");
    GOOD(hot, 1.0);
    BAD(bins, 0, "--bins");
    BAD(bins, PAT_MAX_BINS + 1, "--bins");
    GOOD(bins, 1);
    GOOD(bins, PAT_MAX_BINS);
    BAD(addresses, 0, "--addresses");
    BAD(addresses, PAT_MAX_ADDRESSES + 1, "--addresses");
    GOOD(addresses, PAT_MAX_ADDRESSES);
    BAD(wg, 0, "--wg");
    BAD(wg, -32, "--wg");
#undef BAD
#undef GOOD
}

/* histogram-shared allocates 4 bytes per bin, reduce one word; --smem-per-wg
 * only ever raises the allocation. */
static void shared_memory_needs(void **state)
{
    (void)state;
    pat_params p;
    pat_defaults(&p);
    p.bins = 1000;
    for (int i = 0; i < PAT_COUNT; i++) {
        p.pattern = (enum pat_id)i;
        uint32_t own = i == PAT_HISTOGRAM_SHARED ? 4000u : i == PAT_REDUCE ? 4u : 0u;
        p.smem_per_wg = 0;
        assert_int_equal(pat_own_smem_bytes(&p), own);
        assert_int_equal(pat_smem_bytes(&p), own);
        p.smem_per_wg = 2;
        assert_int_equal(pat_smem_bytes(&p), own > 2 ? own : 2u);
        p.smem_per_wg = 8192;
        assert_int_equal(pat_smem_bytes(&p), 8192u);
        assert_int_equal(pat_own_smem_bytes(&p), own);
    }
}

/* Flags accept whole numbers only, in the forms the contract's sweeps use
 * (1048576, 2^20, 1e6, 0x100), and refuse trailing garbage or signs. */
static void cli_number_parsing(void **state)
{
    (void)state;
    unsigned long long v;
    double d;
    assert_int_equal(cli_parse_u64("1048576", &v), 0);
    assert_int_equal(v, 1048576u);
    assert_int_equal(cli_parse_u64("2^20", &v), 0);
    assert_int_equal(v, 1048576u);
    assert_int_equal(cli_parse_u64("1e6", &v), 0);
    assert_int_equal(v, 1000000u);
    assert_int_equal(cli_parse_u64("0x100", &v), 0);
    assert_int_equal(v, 256u);
    assert_int_equal(cli_parse_u64("12abc", &v), -1);
    assert_int_equal(cli_parse_u64("-1", &v), -1);
    assert_int_equal(cli_parse_u64("1.5", &v), -1);
    assert_int_equal(cli_parse_u64("", &v), -1);
    assert_int_equal(cli_parse_u64("2^64", &v), -1);
    assert_int_equal(cli_parse_u64("2^", &v), -1);
    assert_int_equal(cli_parse_u64("1e30", &v), -1);
    assert_int_equal(cli_parse_double("0.25", &d), 0);
    assert_true(d == 0.25);
    assert_int_equal(cli_parse_double("0.5x", &d), -1);
    assert_int_equal(cli_parse_double("nan", &d), -1);
    assert_int_equal(cli_parse_double("inf", &d), -1);
    assert_int_equal(cli_parse_double("", &d), -1);
    assert_int_equal(cli_parse_double("1e999", &d), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(key_known_values),
        cmocka_unit_test(key_is_injective_on_a_range),
        cmocka_unit_test(threshold_rounding),
        cmocka_unit_test(selection_rule),
        cmocka_unit_test(bins_and_hot_bin),
        cmocka_unit_test(names_round_trip),
        cmocka_unit_test(flags_and_cas),
        cmocka_unit_test(defaults_match_contract),
        cmocka_unit_test(check_ranges),
        cmocka_unit_test(shared_memory_needs),
        cmocka_unit_test(cli_number_parsing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
