/* test_params.c - the contract's shared definitions (model/params.[ch]):
 * the lowbias32 key hash against values computed independently (Python,
 * 32-bit arithmetic as in docs/patterns.md), the selection threshold's rounding,
 * bins and the hot bin, pattern names and flags, shared-memory needs,
 * pat_check's ranges and the parameter table (lookups, parsing with its
 * error line, CSV formatting, the flags it gives the CLI), the one
 * pattern-list parser (pat_parse_list); plus the CLI's
 * strict number parsing (app/args.c), which feeds pat_params. */
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

/* The pattern lists of plan --patterns and check --only: order kept, all,
 * and the three errors with their lines. */
static void pattern_lists(void **state)
{
    (void)state;
    enum pat_id ids[PAT_COUNT];
    char err[128], big[PAT_LIST_MAX + 8];
    unsigned mask;
    int n;
    assert_int_equal(pat_parse_list("reduce,store", "--x", ids, &n, &mask, err, sizeof err), PAT_LIST_OK);
    assert_int_equal(n, 2);
    assert_int_equal(ids[0], PAT_REDUCE);
    assert_int_equal(ids[1], PAT_STORE);
    assert_int_equal(mask, (1u << PAT_REDUCE) | (1u << PAT_STORE));
    assert_int_equal(pat_parse_list("all", "--x", ids, &n, &mask, err, sizeof err), PAT_LIST_OK);
    assert_int_equal(n, PAT_COUNT);
    assert_int_equal(ids[PAT_COUNT - 1], PAT_COUNT - 1);
    assert_int_equal(mask, (1u << PAT_COUNT) - 1);
    /* outputs may be left out */
    assert_int_equal(pat_parse_list("counter", "--x", NULL, NULL, &mask, NULL, 0), PAT_LIST_OK);
    assert_int_equal(mask, 1u << PAT_COUNTER);
    assert_int_equal(pat_parse_list("counter,nope", "--only", ids, &n, NULL, err, sizeof err), PAT_LIST_UNKNOWN);
    assert_string_equal(err, "--only: unknown pattern 'nope' (see atomsim --help)");
    assert_int_equal(pat_parse_list("counter,store,counter", "--only", ids, &n, NULL, err, sizeof err), PAT_LIST_TWICE);
    assert_string_equal(err, "--only: 'counter' is listed twice");
    static const char *const syntax[] = { "", ",counter", "counter,", "counter,,store" };
    for (size_t i = 0; i < sizeof syntax / sizeof syntax[0]; i++)
        assert_int_equal(pat_parse_list(syntax[i], "--p", ids, &n, NULL, err, sizeof err), PAT_LIST_SYNTAX);
    assert_string_equal(err, "--p 'counter,,store' is not a comma list of pattern names");
    /* "all" only alone, and not as a name in a list */
    assert_int_equal(pat_parse_list("all,counter", "--p", ids, &n, NULL, NULL, 0), PAT_LIST_UNKNOWN);
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = 0;
    assert_int_equal(pat_parse_list(big, "--p", ids, &n, NULL, NULL, 0), PAT_LIST_SYNTAX);
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
 * (1048576, 2^20, 1e6), base 10 only (issue 24: 0x100 is refused, and so
 * is 010, which some read as eight), and refuse trailing garbage, signs or
 * a leading space. */
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
    assert_int_equal(cli_parse_u64("0x100", &v), -1);
    assert_int_equal(cli_parse_u64("010", &v), -1);
    assert_int_equal(cli_parse_u64("2^010", &v), -1);
    assert_int_equal(cli_parse_u64("0", &v), 0);
    assert_int_equal(v, 0u);
    assert_int_equal(cli_parse_double("0.25", &d), 0);
    assert_int_equal(cli_parse_double("00.25", &d), -1);
    assert_int_equal(cli_parse_u64(" 5", &v), -1);
    assert_int_equal(cli_parse_u64("+5", &v), -1);
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
    assert_int_equal(cli_parse_double("0x1p4", &d), -1);
    assert_int_equal(cli_parse_double(" 1", &d), -1);
    assert_int_equal(cli_parse_double("-0.5", &d), 0);
    assert_int_equal(cli_parse_double("nan", &d), -1);
    assert_int_equal(cli_parse_double("inf", &d), -1);
    assert_int_equal(cli_parse_double("", &d), -1);
    assert_int_equal(cli_parse_double("1e999", &d), -1);
}

/* The parameter table: one row per pat_params field, found by name, by
 * flag (with or without "--" as the lookup says) and by CSV column; the
 * CSV columns in the order of the run CSV's header; the harnesses' ranges
 * inside atomsim's. */
static void param_table_rows(void **state)
{
    (void)state;
    size_t n;
    const pat_param_desc *t = pat_param_table(&n);
    char cols[256] = "";
    assert_int_equal(n, PP_COUNT);
    for (size_t i = 0; i < n; i++) {
        assert_ptr_equal(pat_param_get((enum pat_param_id)i), &t[i]);
        assert_int_equal(pat_param_id(&t[i]), i);
        assert_ptr_equal(pat_param_find(t[i].name), &t[i]);
        assert_ptr_equal(pat_param_find(t[i].flag + 2), &t[i]);
        assert_ptr_equal(pat_param_find_flag(t[i].flag, strlen(t[i].flag)), &t[i]);
        if (t[i].csv) {
            assert_ptr_equal(pat_param_find_csv(t[i].csv), &t[i]);
            strcat(cols, ",");
            strcat(cols, t[i].csv);
        }
        assert_true(t[i].min <= t[i].max);
        if (t[i].hmax > 0)
            assert_true(t[i].min <= t[i].hmin && t[i].hmin <= t[i].hmax && t[i].hmax <= t[i].max);
        assert_true(t[i].reads == 0 || (t[i].reads & (t[i].reads - 1)) == 0); /* one pat_flag bit */
    }
    assert_string_equal(cols, ",n,wg,selectivity,bins,hot,addresses,smem_per_wg");
    assert_ptr_equal(pat_param_find("smem-per-wg"), pat_param_get(PP_SMEM_PER_WG));
    assert_ptr_equal(pat_param_find("smem_per_wg"), pat_param_get(PP_SMEM_PER_WG));
    assert_null(pat_param_find("--bins"));
    assert_null(pat_param_find("pattern"));
    assert_null(pat_param_find_csv("seed")); /* the run CSV has no seed column */
    assert_null(pat_param_find_flag("--bin", 5));
    assert_true(pat_param_get(PP_N)->max == (double)PAT_MAX_N);
    assert_true(pat_param_get(PP_BINS)->max == PAT_MAX_BINS);
    assert_true(pat_param_get(PP_ADDRESSES)->max == PAT_MAX_ADDRESSES);
}

/* Parsing: the flags' number forms, the bounds inclusive, one error line
 * naming the flag, the text and the bounds; the field untouched on error. */
static void param_parse_and_format(void **state)
{
    (void)state;
    pat_params p;
    char err[256], buf[64];
    const pat_param_desc *bins = pat_param_get(PP_BINS), *sel = pat_param_get(PP_SELECTIVITY);
    pat_defaults(&p);
    assert_int_equal(pat_param_parse(bins, &p, "2^24", err, sizeof err), 0);
    assert_int_equal(p.bins, 1u << 24);
    assert_int_equal(pat_param_parse(bins, &p, "64", err, sizeof err), 0);
    assert_int_equal(p.bins, 64u);
    assert_int_equal(pat_param_parse(bins, &p, "0x40", err, sizeof err), -1); /* base 10 only */
    assert_string_equal(err, "--bins '0x40' is not an integer in [1, 16777216]");
    assert_int_equal(pat_param_parse(bins, &p, "0", err, sizeof err), -1);
    assert_string_equal(err, "--bins '0' is not an integer in [1, 16777216]");
    assert_int_equal(pat_param_parse(bins, &p, "16777217", err, sizeof err), -1);
    assert_int_equal(pat_param_parse(bins, &p, "12abc", err, sizeof err), -1);
    assert_int_equal(p.bins, 64u);
    assert_int_equal(pat_param_parse(sel, &p, "0.25", err, sizeof err), 0);
    assert_true(p.selectivity == 0.25);
    assert_int_equal(pat_param_parse(sel, &p, "1.5", err, sizeof err), -1);
    assert_string_equal(err, "--selectivity '1.5' is not a number in [0, 1]");
    assert_int_equal(pat_param_parse(pat_param_get(PP_SEED), &p, "18446744073709551615", err, sizeof err), 0);
    assert_true(p.seed == UINT64_MAX);
    assert_int_equal(pat_param_parse(pat_param_get(PP_SEED), &p, "x", err, sizeof err), -1);
    assert_string_equal(err, "--seed 'x' is not an integer in [0, 18446744073709551615]");
    assert_int_equal(pat_param_parse(pat_param_get(PP_WG), &p, "65537", err, sizeof err), -1);
    /* the CSV's forms: integers in decimal, doubles shortest round-trip */
    p.selectivity = 0.1;
    pat_param_format(sel, &p, buf, sizeof buf);
    assert_string_equal(buf, "0.1");
    p.selectivity = 1.0 / 3.0;
    pat_param_format(sel, &p, buf, sizeof buf);
    assert_true(strtod(buf, NULL) == 1.0 / 3.0);
    p.selectivity = 1;
    pat_param_format(sel, &p, buf, sizeof buf);
    assert_string_equal(buf, "1");
    p.n = 1ull << 30;
    pat_param_format(pat_param_get(PP_N), &p, buf, sizeof buf);
    assert_string_equal(buf, "1073741824");
}

/* The text outputs' parameters: n and wg always, a pattern's own only for
 * it, smem_per_wg when set, never the seed. */
static void describe_and_canonical(void **state)
{
    (void)state;
    pat_params p;
    char buf[256];
    pat_defaults(&p);
    p.pattern = PAT_HISTOGRAM;
    p.n = 65536;
    p.bins = 64;
    p.selectivity = 0.5;
    pat_describe(&p, buf, sizeof buf);
    assert_string_equal(buf, " n=65536 wg=256 bins=64 hot=0");
    p.pattern = PAT_COUNTER;
    p.smem_per_wg = 1024;
    pat_describe(&p, buf, sizeof buf);
    assert_string_equal(buf, " n=65536 wg=256 selectivity=0.5 smem_per_wg=1024");
    pat_canonical(&p);
    assert_int_equal(p.bins, 256u); /* counter reads no bins */
    assert_true(p.selectivity == 0.5);
    assert_int_equal(p.smem_per_wg, 1024u);
}

/* The CLI's flags come from the table: one long option per row, named by
 * its flag, parsed by cli_common_opt through the table. */
static void cli_flags_from_table(void **state)
{
    (void)state;
    struct option opts[CLI_MAX_LONGOPTS];
    static const struct option extra[] = { { "extra", no_argument, NULL, 5000 }, { 0, 0, 0, 0 } };
    cli_args a;
    char err[CFG_ERR_MAX];
    int found = 0, n = 0;
    cli_longopts(opts, extra);
    for (; opts[n].name; n++)
        if (cli_opt_param(opts[n].val)) {
            assert_string_equal(opts[n].name, cli_opt_param(opts[n].val)->flag + 2);
            found++;
        }
    assert_int_equal(found, PP_COUNT);
    assert_string_equal(opts[n - 1].name, "extra");
    cli_args_init(&a);
    assert_int_equal(cli_common_opt(&a, CLI_OPT_OF(PP_ADDRESSES), "2^10", err), 0);
    assert_int_equal(a.params.addresses, 1024u);
    assert_int_equal(cli_common_opt(&a, CLI_OPT_OF(PP_ADDRESSES), "0", err), -1);
    assert_non_null(strstr(err, "--addresses"));
    assert_null(cli_opt_param(CLI_OPT_PATTERN));
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
        cmocka_unit_test(pattern_lists),
        cmocka_unit_test(flags_and_cas),
        cmocka_unit_test(defaults_match_contract),
        cmocka_unit_test(check_ranges),
        cmocka_unit_test(shared_memory_needs),
        cmocka_unit_test(cli_number_parsing),
        cmocka_unit_test(param_table_rows),
        cmocka_unit_test(param_parse_and_format),
        cmocka_unit_test(describe_and_canonical),
        cmocka_unit_test(cli_flags_from_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
