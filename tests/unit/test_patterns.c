/* test_patterns.c - the twelve patterns' programs and functional checks
 * (sim/patterns/).  Every pattern runs to a passing check (sim_run
 * returns 0 only when the engine's own check of the final memory passes)
 * at several sizes, with n not a multiple of the workgroup or warp, and
 * with the flags it reads.  Then each check is fed memory built here from
 * docs/patterns.md's definitions: it must accept the right result and reject
 * each kind of corruption (a wrong count, a moved count, a duplicated or
 * missing compaction slot, a stray bit...). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "../../sim/pattern.h"
#include "sim_helpers.h"

/* ---- whole runs ---------------------------------------------------------- */

static const uint64_t sizes[] = { 1, 31, 33, 100, 1000, 4097 };
static const int wgs[] = { 32, 96, 256 };

static void run_grid(enum pat_id id, uint64_t max_n, void (*vary)(pat_params *p, int k), int variants)
{
    cfg_config c;
    th_config(&c, "gpu.sm_count=4", NULL);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (sizes[i] > max_n)
            continue;
        for (size_t j = 0; j < sizeof wgs / sizeof wgs[0]; j++)
            for (int k = 0; k < variants; k++) {
                pat_params p;
                th_params(&p, id, sizes[i], wgs[j]);
                if (vary)
                    vary(&p, k);
                atom_stats st = th_run(&c, &p); /* fails the test unless the check passed */
                assert_true(st.cycles > 0);
                assert_true(st.workgroups == (double)((sizes[i] + (uint64_t)wgs[j] - 1) / (uint64_t)wgs[j]));
            }
    }
}

static void vary_selectivity(pat_params *p, int k)
{
    static const double s[] = { 1.0, 0.3, 0.0 };
    p->selectivity = s[k];
}

static void vary_bins(pat_params *p, int k)
{
    static const uint32_t b[] = { 256, 1, 3, 1000 };
    p->bins = b[k];
}

static void vary_bins_hot(pat_params *p, int k)
{
    static const uint32_t b[] = { 256, 1, 3, 1000 };
    p->bins = b[k % 4];
    p->hot = k >= 4 ? 0.5 : 0.0;
}

static void vary_addresses(pat_params *p, int k)
{
    static const uint32_t a[] = { 1, 7, 64, 5000 };
    p->addresses = a[k];
}

static void vary_smem(pat_params *p, int k)
{
    p->smem_per_wg = k ? 20000 : 0;
}

static void runs_store(void **s) { (void)s; run_grid(PAT_STORE, 1u << 20, vary_selectivity, 3); }
static void runs_counter(void **s) { (void)s; run_grid(PAT_COUNTER, 1u << 20, vary_selectivity, 3); }
static void runs_counter_aggregated(void **s) { (void)s; run_grid(PAT_COUNTER_AGGREGATED, 1u << 20, vary_selectivity, 3); }
static void runs_compaction(void **s) { (void)s; run_grid(PAT_COMPACTION, 1u << 20, vary_selectivity, 3); }
static void runs_histogram(void **s) { (void)s; run_grid(PAT_HISTOGRAM, 1u << 20, vary_bins_hot, 8); }
static void runs_histogram_shared(void **s) { (void)s; run_grid(PAT_HISTOGRAM_SHARED, 1u << 20, vary_bins, 4); }
static void runs_bitmask(void **s) { (void)s; run_grid(PAT_BITMASK, 1u << 20, vary_selectivity, 3); }
static void runs_reduce(void **s) { (void)s; run_grid(PAT_REDUCE, 1u << 20, vary_smem, 2); }
static void runs_distinct_lines(void **s) { (void)s; run_grid(PAT_DISTINCT_LINES, 1u << 20, vary_addresses, 4); }
/* CAS loops cost ~k^2/2 attempts for k contenders: keep their n small */
static void runs_cas_append(void **s) { (void)s; run_grid(PAT_CAS_APPEND, 1000, vary_selectivity, 3); }
static void runs_histogram_u8_cas(void **s) { (void)s; run_grid(PAT_HISTOGRAM_U8_CAS, 1000, vary_bins, 4); }
static void runs_histogram_u16_cas(void **s) { (void)s; run_grid(PAT_HISTOGRAM_U16_CAS, 1000, vary_bins, 4); }

/* Sub-word bins wrap: 1000 increments of one 8-bit bin leave 1000 % 256;
 * the check compares modulo 256 and the run passes. */
static void subword_bins_wrap(void **state)
{
    (void)state;
    cfg_config c;
    pat_params p;
    th_config(&c, "gpu.sm_count=2", NULL);
    th_params(&p, PAT_HISTOGRAM_U8_CAS, 1000, 256);
    p.bins = 1;
    atom_stats st = th_run(&c, &p);
    assert_true(st.cas_attempts >= 1000);
    /* larger n with few contenders per word: still correct */
    th_params(&p, PAT_HISTOGRAM_U16_CAS, 20000, 256);
    p.bins = 4096;
    th_run(&c, &p);
    th_params(&p, PAT_CAS_APPEND, 20000, 256);
    p.selectivity = 0.01;
    th_run(&c, &p);
}

/* Subgroups of 16 and 64 lanes (64: the full-mask path of the lane masks):
 * every pattern still passes its check, and the per-warp counts follow the
 * subgroup: distinct-lines with P >= n sends one request per lane, and a
 * merged counter one op per subgroup. */
static void other_subgroup_sizes(void **state)
{
    (void)state;
    for (int sg = 16; sg <= 64; sg *= 4) {
        char a[64];
        snprintf(a, sizeof a, "gpu.subgroup_size=%d", sg);
        cfg_config c;
        th_config(&c, "gpu.sm_count=2", a, NULL);
        for (int id = 0; id < PAT_COUNT; id++) {
            pat_params p;
            th_params(&p, (enum pat_id)id, 1000, 128);
            p.addresses = 40;
            p.selectivity = 0.6;
            p.bins = 50;
            th_run(&c, &p);
        }
        pat_params p;
        th_params(&p, PAT_DISTINCT_LINES, 1000, 128);
        p.addresses = 4096;
        atom_stats st = th_run(&c, &p);
        assert_int_equal((int)st.atomic_instructions, (1000 + sg - 1) / sg);
        assert_int_equal((int)st.l2_requests, 1000);
        th_merge(&c, 1);
        th_params(&p, PAT_COUNTER, 1000, 128);
        st = th_run(&c, &p);
        assert_int_equal((int)st.atomic_instructions, (1000 + sg - 1) / sg);
        assert_int_equal((int)st.l2_atomic_ops, (1000 + sg - 1) / sg);
    }
}

/* ---- the checks themselves ---------------------------------------------- */

typedef struct mem {
    sim_ctx ctx;
    cfg_config cfg;
    pat_params p;
    sim_layout lay;
    uint32_t *words[SIM_MAX_BUFFERS];
    uint8_t *stores[SIM_MAX_BUFFERS];
    sim_memview view;
} mem;

/* Buffers as the pattern declares them, zeroed. */
static void mem_init(mem *m, enum pat_id id, uint64_t n, double s, uint32_t bins, double hot, uint32_t addresses)
{
    char err[CFG_ERR_MAX];
    memset(m, 0, sizeof *m);
    cfg_defaults(&m->cfg);
    th_params(&m->p, id, n, 256);
    m->p.selectivity = s;
    m->p.bins = bins;
    m->p.hot = hot;
    m->p.addresses = addresses;
    m->ctx.cfg = &m->cfg;
    m->ctx.p = &m->p;
    m->ctx.lanes = 32;
    m->ctx.warps_per_wg = 8;
    m->ctx.sel_threshold = pat_threshold(s);
    m->ctx.hot_threshold = pat_threshold(hot);
    m->ctx.smem_words = pat_own_smem_bytes(&m->p) / 4;
    const sim_pattern *pat = sim_pattern_get(id);
    assert_non_null(pat);
    assert_int_equal(pat->id, id);
    assert_int_equal(pat->setup(&m->ctx, &m->lay, err), 0);
    for (int b = 0; b < m->lay.count; b++) {
        uint64_t w = m->lay.buf[b].words ? m->lay.buf[b].words : 1;
        m->words[b] = calloc(w, sizeof(uint32_t));
        m->stores[b] = calloc(w, 1);
        assert_non_null(m->words[b]);
        assert_non_null(m->stores[b]);
        m->view.words[b] = m->words[b];
        m->view.stores[b] = m->stores[b];
    }
}

static void mem_free(mem *m)
{
    for (int b = 0; b < m->lay.count; b++) {
        free(m->words[b]);
        free(m->stores[b]);
    }
}

static int check(mem *m)
{
    char err[CFG_ERR_MAX];
    err[0] = 0;
    int rc = sim_pattern_get(m->p.pattern)->check(&m->ctx, &m->view, err);
    if (rc)
        assert_true(err[0] != 0); /* a rejection says why */
    return rc;
}

static int sel(const mem *m, uint64_t i)
{
    return pat_key((uint32_t)i) % 1000000u < m->ctx.sel_threshold;
}

/* docs/patterns.md: bin (key >> 3) % K, or 0 when key % 1e6 < round(F * 1e6). */
static uint32_t bin_of(const mem *m, uint64_t i, int use_hot)
{
    uint32_t k = pat_key((uint32_t)i);
    if (use_hot && k % 1000000u < m->ctx.hot_threshold)
        return 0;
    return (k >> 3) % m->p.bins;
}

static void check_store(void **state)
{
    (void)state;
    mem m;
    mem_init(&m, PAT_STORE, 1000, 0.5, 256, 0, 1);
    uint64_t a_sel = 0, a_unsel = 0;
    for (uint64_t i = 0; i < 1000; i++)
        if (sel(&m, i)) {
            m.words[0][i] = pat_key((uint32_t)i);
            m.stores[0][i] = 1;
            a_sel = i;
        } else
            a_unsel = i;
    assert_int_equal(check(&m), 0);
    m.words[0][a_sel] ^= 1; /* wrong value */
    assert_int_not_equal(check(&m), 0);
    m.words[0][a_sel] ^= 1;
    m.stores[0][a_sel] = 2; /* written twice */
    assert_int_not_equal(check(&m), 0);
    m.stores[0][a_sel] = 0; /* never written */
    assert_int_not_equal(check(&m), 0);
    m.stores[0][a_sel] = 1;
    m.stores[0][a_unsel] = 1; /* an unselected thread stored */
    m.words[0][a_unsel] = pat_key((uint32_t)a_unsel);
    assert_int_not_equal(check(&m), 0);
    mem_free(&m);
}

static void check_counters(void **state)
{
    (void)state;
    for (int id = PAT_COUNTER; id <= PAT_COUNTER_AGGREGATED; id++) {
        mem m;
        mem_init(&m, (enum pat_id)id, 1000, 0.3, 256, 0, 1);
        m.words[0][0] = (uint32_t)th_selected(1000, 0.3);
        assert_int_equal(check(&m), 0);
        m.words[0][0]++;
        assert_int_not_equal(check(&m), 0);
        m.words[0][0] -= 2;
        assert_int_not_equal(check(&m), 0);
        mem_free(&m);
    }
}

/* compaction and cas-append: head = selected count, out[0..head) holds each
 * selected key once, in any order; nothing written past head. */
static void check_compacted(void **state)
{
    (void)state;
    static const enum pat_id ids[] = { PAT_COMPACTION, PAT_CAS_APPEND };
    for (size_t t = 0; t < 2; t++) {
        mem m;
        const uint64_t n = 1000;
        mem_init(&m, ids[t], n, 0.5, 256, 0, 1);
        uint32_t count = 0;
        uint32_t unsel_key = 0;
        for (uint64_t i = n; i-- > 0;) /* reverse order: order must not matter */
            if (sel(&m, i)) {
                m.words[1][count] = pat_key((uint32_t)i);
                m.stores[1][count++] = 1;
            } else
                unsel_key = pat_key((uint32_t)i);
        m.words[0][0] = count;
        assert_int_equal(check(&m), 0);

        m.words[0][0] = count + 1; /* head too far */
        assert_int_not_equal(check(&m), 0);
        m.words[0][0] = count - 1; /* head short */
        assert_int_not_equal(check(&m), 0);
        m.words[0][0] = count;

        uint32_t keep = m.words[1][5];
        m.words[1][5] = m.words[1][6]; /* one key twice, one missing */
        assert_int_not_equal(check(&m), 0);
        m.words[1][5] = unsel_key; /* a key that was not selected */
        assert_int_not_equal(check(&m), 0);
        m.words[1][5] = keep;
        assert_int_equal(check(&m), 0);

        m.stores[1][5] = 2; /* a slot claimed twice */
        assert_int_not_equal(check(&m), 0);
        m.stores[1][5] = 1;
        m.stores[1][count] = 1; /* written past head */
        assert_int_not_equal(check(&m), 0);
        m.stores[1][count] = 0;
        assert_int_equal(check(&m), 0);
        mem_free(&m);
    }
}

static void check_histograms(void **state)
{
    (void)state;
    for (int hot = 0; hot <= 1; hot++) {
        mem m;
        const uint64_t n = 5000;
        mem_init(&m, PAT_HISTOGRAM, n, 1, 37, hot ? 0.25 : 0, 1);
        for (uint64_t i = 0; i < n; i++)
            m.words[0][bin_of(&m, i, 1)]++;
        assert_int_equal(check(&m), 0);
        m.words[0][0]--; /* move one count: the total is unchanged */
        m.words[0][1]++;
        assert_int_not_equal(check(&m), 0);
        mem_free(&m);
    }
    /* histogram-shared ignores --hot: bins by (key >> 3) % K only */
    mem m;
    const uint64_t n = 5000;
    mem_init(&m, PAT_HISTOGRAM_SHARED, n, 1, 300, 0.5, 1);
    for (uint64_t i = 0; i < n; i++)
        m.words[0][bin_of(&m, i, 0)]++;
    assert_int_equal(check(&m), 0);
    m.words[0][299]++;
    assert_int_not_equal(check(&m), 0);
    mem_free(&m);
}

/* 8-bit bins four to a word (bin b: word b / 4, byte b % 4), 16-bit bins
 * two to a word; counts modulo 256 / 65536. */
static void check_subword_histograms(void **state)
{
    (void)state;
    for (unsigned bits = 8; bits <= 16; bits += 8) {
        mem m;
        const uint64_t n = 3000;
        const uint32_t bins = 5; /* ~600 per bin: the 8-bit ones wrap */
        unsigned per = 32 / bits;
        uint32_t mask = (1u << bits) - 1;
        mem_init(&m, bits == 8 ? PAT_HISTOGRAM_U8_CAS : PAT_HISTOGRAM_U16_CAS, n, 1, bins, 0, 1);
        assert_int_equal((int)m.lay.buf[0].words, (int)((bins + per - 1) / per));
        uint32_t count[5] = { 0 };
        for (uint64_t i = 0; i < n; i++)
            count[bin_of(&m, i, 0)]++;
        for (uint32_t b = 0; b < bins; b++)
            m.words[0][b / per] |= (count[b] & mask) << ((b % per) * bits);
        assert_int_equal(check(&m), 0);
        m.words[0][4 / per] += 1u << ((4 % per) * bits); /* bin 4 one too many */
        assert_int_not_equal(check(&m), 0);
        mem_free(&m);
    }
}

static void check_bitmask(void **state)
{
    (void)state;
    mem m;
    const uint64_t n = 1000;
    mem_init(&m, PAT_BITMASK, n, 0.5, 256, 0, 1);
    uint64_t unsel = 0, selected = 0;
    for (uint64_t i = 0; i < n; i++)
        if (sel(&m, i)) {
            m.words[0][i >> 5] |= 1u << (i & 31);
            selected = i;
        } else
            unsel = i;
    assert_int_equal(check(&m), 0);
    m.words[0][unsel >> 5] |= 1u << (unsel & 31); /* a stray bit */
    assert_int_not_equal(check(&m), 0);
    m.words[0][unsel >> 5] &= ~(1u << (unsel & 31));
    m.words[0][selected >> 5] &= ~(1u << (selected & 31)); /* a missing bit */
    assert_int_not_equal(check(&m), 0);
    mem_free(&m);
}

static void check_reduce(void **state)
{
    (void)state;
    mem m;
    const uint64_t n = 4097;
    mem_init(&m, PAT_REDUCE, n, 1, 256, 0, 1);
    for (uint64_t i = 0; i < n; i++)
        m.words[0][0] += pat_key((uint32_t)i) & 255u;
    assert_int_equal(check(&m), 0);
    m.words[0][0] += 256;
    assert_int_not_equal(check(&m), 0);
    mem_free(&m);
}

/* distinct-lines: address j gets n / P adds, plus one when j < n % P. */
static void check_distinct_lines(void **state)
{
    (void)state;
    mem m;
    const uint64_t n = 1000;
    mem_init(&m, PAT_DISTINCT_LINES, n, 1, 256, 0, 7);
    assert_int_equal((int)m.lay.buf[0].stride_words, 32); /* one address per 128-byte line */
    for (uint64_t i = 0; i < n; i++)
        m.words[0][i % 7]++;
    assert_int_equal(m.words[0][0], 143u); /* 1000 = 7 x 142 + 6 */
    assert_int_equal(m.words[0][6], 142u);
    assert_int_equal(check(&m), 0);
    m.words[0][6]++;
    m.words[0][5]--;
    assert_int_not_equal(check(&m), 0);
    mem_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(runs_store),
        cmocka_unit_test(runs_counter),
        cmocka_unit_test(runs_counter_aggregated),
        cmocka_unit_test(runs_compaction),
        cmocka_unit_test(runs_histogram),
        cmocka_unit_test(runs_histogram_shared),
        cmocka_unit_test(runs_bitmask),
        cmocka_unit_test(runs_reduce),
        cmocka_unit_test(runs_distinct_lines),
        cmocka_unit_test(runs_cas_append),
        cmocka_unit_test(runs_histogram_u8_cas),
        cmocka_unit_test(runs_histogram_u16_cas),
        cmocka_unit_test(subword_bins_wrap),
        cmocka_unit_test(other_subgroup_sizes),
        cmocka_unit_test(check_store),
        cmocka_unit_test(check_counters),
        cmocka_unit_test(check_compacted),
        cmocka_unit_test(check_histograms),
        cmocka_unit_test(check_subword_histograms),
        cmocka_unit_test(check_bitmask),
        cmocka_unit_test(check_reduce),
        cmocka_unit_test(check_distinct_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
