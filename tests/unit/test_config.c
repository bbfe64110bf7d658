/* test_config.c - the option table and the config reader (model/options.c,
 * model/config.c): every default parses and lies within its bounds, every
 * key has a source (and calibrate's keys are the set its stages fit), every
 * value formats back to itself, a dumped config reloads to the same hash,
 * and each kind of bad input (unknown key or section, malformed line, value
 * out of range, not a number, missing or unreadable file, bad -p) fails
 * with a message that names the file, the line and the key or value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../model/config.h"

static char tmpdir[256];

static int make_tmpdir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/atomsim_test_config.XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Writes text to tmpdir/name; returns the path (static storage, 4 slots). */
static const char *write_file(const char *name, const char *text)
{
    static char paths[4][512];
    static int next;
    char *path = paths[next++ % 4];
    snprintf(path, 512, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void assert_contains(const char *hay, const char *needle)
{
    if (!strstr(hay, needle))
        fail_msg("message '%s' does not contain '%s'", hay, needle);
}

/* Loads text as a config file and expects failure; returns the message. */
static const char *load_fails(const char *name, const char *text)
{
    static char err[CFG_ERR_MAX];
    cfg_config cfg;
    cfg_defaults(&cfg);
    err[0] = 0;
    const char *path = write_file(name, text);
    if (cfg_load(&cfg, path, err) == 0)
        fail_msg("%s loaded, expected an error", name);
    assert_true(err[0] != 0);
    assert_null(strchr(err, '\n')); /* one line */
    return err;
}

/* ---- the option table ----------------------------------------------- */

static void defaults_parse_within_bounds(void **state)
{
    (void)state;
    size_t n;
    const cfg_option *o = cfg_options(&n);
    char err[CFG_ERR_MAX];
    cfg_config cfg;
    memset(&cfg, 0, sizeof cfg);
    assert_true(n >= 40);
    for (size_t i = 0; i < n; i++) {
        if (cfg_set(&cfg, &o[i], o[i].def, err))
            fail_msg("default of %s.%s ('%s') does not parse: %s", o[i].section, o[i].key, o[i].def, err);
        if (o[i].type == CFG_INT || o[i].type == CFG_DOUBLE) {
            double v = strtod(o[i].def, NULL);
            if (!(o[i].min <= o[i].max && v >= o[i].min && v <= o[i].max))
                fail_msg("default of %s.%s = %g outside [%g, %g]", o[i].section, o[i].key, v, o[i].min, o[i].max);
        }
        if (o[i].type == CFG_ENUM)
            assert_non_null(o[i].enum_names);
        assert_non_null(o[i].help);
        assert_true(o[i].help[0] != 0);
        assert_non_null(o[i].unit);
        /* one entry per section.key, and cfg_find finds it */
        assert_ptr_equal(cfg_find(o[i].section, o[i].key), &o[i]);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(o[i].section, o[j].section) && !strcmp(o[i].key, o[j].key))
                fail_msg("%s.%s listed twice", o[i].section, o[i].key);
    }
    cfg_defaults(&cfg);
    assert_int_equal(cfg_validate(&cfg, err), 0);
    assert_string_equal(cfg.path, "");
    assert_null(cfg_find("gpu", "nope"));
    assert_null(cfg_find("nope", "sm_count"));
}

/* Every key says where its H100 value comes from: zero is no source, so a
 * key added without one fails here.  The calibrate set is spelled out
 * because it is what `atomsim calibrate` may change: moving a key in or
 * out of it is a decision, not a relabelling. */
static void every_option_has_a_source(void **state)
{
    (void)state;
    static const char *const calibrated[] = {
        "launch.kernel_overhead_cycles", "launch.wg_dispatch_cycles", "launch.dispatch_lead_cycles",
        "launch.wg_retire_cycles", "launch.split_exit_cycles", "launch.split_exit_window_cycles",
        "launch.split_exit_share_wgs",
        "coalesce.merge_cas",
        "coalesce.lsu_cycles_per_request", "coalesce.lsu_return_cycles_per_request",
        "l2.atomic_issue_cycles", "l2.cas_issue_cycles", "l2.same_address_cycles",
        "l2.merged_lane_cycles", "l2.interleave_lines", "l2.hash_ignore_mask",
        "l2.partition_link_requests_per_cycle", "l2.partition_link_queue_requests", "l2.full_queue_holds",
        "l2.hol_blocking", "smem.atomic_issue_cycles",
        "smem.same_word_cycles", "model.cas_line_lane_cycles",
    };
    static const char *const names[] = { "unset", "spec", "microbenchmark", "calibrate", "hand", "estimate", "setting",
                                         "label" };
    assert_int_equal(CFG_SRC_UNSET, 0);
    assert_int_equal(sizeof names / sizeof names[0], CFG_SRC_COUNT);
    for (int s = 0; s < CFG_SRC_COUNT; s++) {
        assert_string_equal(cfg_source_name(s), names[s]);
        assert_non_null(cfg_source_help(s));
    }
    assert_string_equal(cfg_source_name(CFG_SRC_COUNT), "unset");
    assert_string_equal(cfg_source_name(-1), "unset");

    size_t n, ncal = 0;
    const cfg_option *o = cfg_options(&n);
    for (size_t i = 0; i < n; i++) {
        if (o[i].source <= CFG_SRC_UNSET || o[i].source >= CFG_SRC_COUNT)
            fail_msg("%s.%s has no source (%d)", o[i].section, o[i].key, (int)o[i].source);
        char key[128];
        snprintf(key, sizeof key, "%s.%s", o[i].section, o[i].key);
        int listed = 0;
        for (size_t k = 0; k < sizeof calibrated / sizeof calibrated[0]; k++)
            listed |= !strcmp(key, calibrated[k]);
        if (listed != cfg_is_calibratable(&o[i]))
            fail_msg("%s is %scalibratable, but the list says %s", key, listed ? "not " : "", listed ? "it is" : "not");
        assert_int_equal(cfg_is_calibratable(&o[i]), o[i].source == CFG_SRC_CALIBRATE);
        ncal += (size_t)cfg_is_calibratable(&o[i]);
    }
    assert_int_equal(ncal, sizeof calibrated / sizeof calibrated[0]);
}

/* A few defaults by hand, from the table's text (the generic Hopper). */
static void defaults_land_in_fields(void **state)
{
    (void)state;
    cfg_config c;
    cfg_defaults(&c);
    assert_string_equal(c.gpu.name, "generic");
    assert_int_equal(c.gpu.sm_count, 132);
    assert_true(c.gpu.sm_clock_mhz == 1755);
    assert_int_equal(c.gpu.subgroup_size, 32);
    assert_int_equal(c.l2.hol_blocking, 0);
    assert_int_equal(c.coalesce.merge_cas, 0);
    assert_int_equal(c.l2.slice_hash, CFG_HASH_XOR);
    assert_true(c.sim.max_events == 2e8);
    assert_true(c.dispatch.density_inhibit == 0.10);
    assert_true(cfg_threads_per_cycle(&c) == 132.0 * 128);
    assert_true(fabs(cfg_dram_bytes_per_cycle(&c) - 3350e9 / 1755e6) < 1e-9);
}

/* A different valid value for option o than the one in cfg. */
static void other_value(const cfg_config *cfg, const cfg_option *o, char *buf, size_t len)
{
    char cur[128];
    cfg_format(cfg, o, cur, sizeof cur);
    switch (o->type) {
    case CFG_STRING:
        snprintf(buf, len, "%s-x", cur);
        break;
    case CFG_BOOL:
        snprintf(buf, len, "%s", strcmp(cur, "0") ? "0" : "1");
        break;
    case CFG_ENUM:
        snprintf(buf, len, "%s", strcmp(cur, o->enum_names[0]) ? o->enum_names[0] : o->enum_names[1]);
        break;
    default: {
        double v = strtod(cur, NULL);
        double w = v == o->max ? o->min : o->max;
        if (o->type == CFG_DOUBLE && o->max - o->min > 1)
            w = o->min + (o->max - o->min) / 3.0; /* not short in decimal */
        if (w == v)
            w = o->min;
        snprintf(buf, len, "%.17g", w);
        break;
    }
    }
}

/* Formatting any value and parsing it back gives the same field, and the
 * hash sees every option. */
static void format_round_trips_and_hash_covers_every_option(void **state)
{
    (void)state;
    size_t n;
    const cfg_option *o = cfg_options(&n);
    char err[CFG_ERR_MAX], buf[128], text[128];
    cfg_config a, b;
    cfg_defaults(&a);
    uint64_t h0 = cfg_hash(&a);
    for (size_t i = 0; i < n; i++) {
        cfg_defaults(&a);
        other_value(&a, &o[i], text, sizeof text);
        if (cfg_set(&a, &o[i], text, err))
            fail_msg("%s.%s = %s: %s", o[i].section, o[i].key, text, err);
        /* a label (gpu.trust) describes the config and must not move its
         * hash, nor the memory budget, which changes no result (a run over
         * it fails); every other key must */
        int unhashed = o[i].source == CFG_SRC_LABEL || o[i].offset == offsetof(cfg_config, sim.max_memory_mb);
        if (unhashed && cfg_hash(&a) != h0)
            fail_msg("cfg_hash reads %s.%s", o[i].section, o[i].key);
        if (!unhashed && cfg_hash(&a) == h0)
            fail_msg("cfg_hash ignores %s.%s", o[i].section, o[i].key);
        cfg_format(&a, &o[i], buf, sizeof buf);
        cfg_defaults(&b);
        if (cfg_set(&b, &o[i], buf, err))
            fail_msg("%s.%s: formatted '%s' does not parse: %s", o[i].section, o[i].key, buf, err);
        if (memcmp((char *)&a + o[i].offset, (char *)&b + o[i].offset,
                   o[i].type == CFG_STRING ? CFG_NAME_MAX : o[i].type == CFG_DOUBLE ? sizeof(double) : sizeof(int)))
            fail_msg("%s.%s: '%s' formatted as '%s' reads back differently", o[i].section, o[i].key, text, buf);
        assert_true(cfg_hash(&a) == cfg_hash(&b));
    }
}

/* Writes the effective config as INI through the option table. */
static void dump(const cfg_config *cfg, FILE *f)
{
    size_t n;
    const cfg_option *o = cfg_options(&n);
    const char *cur = "";
    char buf[128];
    fprintf(f, "; dump\n");
    for (size_t i = 0; i < n; i++) {
        if (strcmp(cur, o[i].section)) {
            cur = o[i].section;
            fprintf(f, "\n[%s]\n", cur);
        }
        cfg_format(cfg, &o[i], buf, sizeof buf);
        fprintf(f, "%s = %s\n", o[i].key, buf);
    }
}

static void dump_reload_same_hash(void **state)
{
    (void)state;
    char err[CFG_ERR_MAX], path[512];
    cfg_config a, b;
    cfg_defaults(&a);
    /* values that are not short in decimal, and non-defaults everywhere */
    a.core.alu_latency_cycles = 1.0 + 1.0 / 3.0;
    a.l2.same_address_cycles = 0.1;
    a.xbar.latency_cycles = 123.456789012345678;
    a.launch.wg_dispatch_cycles = 1e-300;
    a.sim.max_events = 123456789012.0;
    a.gpu.sm_count = 7;
    a.l2.slice_hash = CFG_HASH_MOD;
    a.coalesce.merge_cas = 1;
    snprintf(a.gpu.name, sizeof a.gpu.name, "test gpu (rev 2)");
    assert_int_equal(cfg_validate(&a, err), 0);
    snprintf(path, sizeof path, "%s/dump.ini", tmpdir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    dump(&a, f);
    fclose(f);
    cfg_defaults(&b);
    if (cfg_load(&b, path, err))
        fail_msg("reloading the dump: %s", err);
    assert_true(cfg_hash(&a) == cfg_hash(&b));
    assert_string_equal(b.path, path);
    assert_true(b.core.alu_latency_cycles == a.core.alu_latency_cycles);
    assert_true(b.xbar.latency_cycles == a.xbar.latency_cycles);
    assert_true(b.launch.wg_dispatch_cycles == a.launch.wg_dispatch_cycles);
    assert_string_equal(b.gpu.name, a.gpu.name);
    /* the hash is of the values, not of the path */
    b.path[0] = 0;
    assert_true(cfg_hash(&a) == cfg_hash(&b));
    /* and one changed value changes it */
    b.l2.same_address_cycles = 0.1000000000000001;
    assert_true(cfg_hash(&a) != cfg_hash(&b));
}

/* ---- reading files ---------------------------------------------------- */

static void load_reads_values_and_comments(void **state)
{
    (void)state;
    char err[CFG_ERR_MAX];
    cfg_config c;
    cfg_defaults(&c);
    const char *path = write_file("ok.ini", "; a comment\n# another\n\n[gpu]\nname = tiny gpu\nsm_count = 4   ; inline\n"
                                            "[coalesce]\nmerge_cas = true\n[dispatch]\ninhibit_cas = off\n"
                                            "[l2]\nslice_hash = mod\nsame_address_cycles = 2.5e1\n");
    if (cfg_load(&c, path, err))
        fail_msg("%s", err);
    assert_string_equal(c.gpu.name, "tiny gpu");
    assert_int_equal(c.gpu.sm_count, 4);
    assert_int_equal(c.dispatch.inhibit_cas, 0);
    assert_int_equal(c.coalesce.merge_cas, 1);
    assert_int_equal(c.l2.slice_hash, CFG_HASH_MOD);
    assert_true(c.l2.same_address_cycles == 25.0);
    assert_int_equal(c.gpu.subgroup_size, 32); /* untouched keys keep defaults */
    assert_string_equal(c.path, path);

    cfg_defaults(&c);
    path = write_file("empty.ini", "");
    assert_int_equal(cfg_load(&c, path, err), 0);
    cfg_config d;
    cfg_defaults(&d);
    assert_true(cfg_hash(&c) == cfg_hash(&d));
}

static void unknown_key_names_file_line_key(void **state)
{
    (void)state;
    const char *e = load_fails("unknown_key.ini", "[gpu]\nsm_count = 4\nsm_cuont = 8\n");
    assert_contains(e, "unknown_key.ini:3:");
    assert_contains(e, "sm_cuont");
    assert_contains(e, "[gpu]");
}

static void unknown_section_names_file_line_section(void **state)
{
    (void)state;
    const char *e = load_fails("unknown_section.ini", "[gpu]\nsm_count = 4\n\n[gpux]\nsm_count = 8\n");
    assert_contains(e, "unknown_section.ini:5:");
    assert_contains(e, "gpux");
    e = load_fails("no_section.ini", "sm_count = 8\n");
    assert_contains(e, "no_section.ini:1:");
    assert_contains(e, "sm_count");
}

static void malformed_line_names_file_line(void **state)
{
    (void)state;
    const char *e = load_fails("malformed.ini", "[gpu]\nsm_count = 4\nthis line has no equals sign\n");
    assert_contains(e, "malformed.ini:3:");
    assert_contains(e, "malformed");
    e = load_fails("malformed_section.ini", "[gpu\nsm_count = 4\n");
    assert_contains(e, "malformed_section.ini:1:");
}

static void out_of_range_names_file_line_key_value(void **state)
{
    (void)state;
    const char *e = load_fails("range.ini", "[gpu]\nsm_count = 0\n");
    assert_contains(e, "range.ini:2:");
    assert_contains(e, "gpu.sm_count");
    assert_contains(e, "0");
    assert_contains(e, "range");
    e = load_fails("range2.ini", "[l2]\n\natomic_issue_cycles = 0.001\n");
    assert_contains(e, "range2.ini:3:");
    assert_contains(e, "l2.atomic_issue_cycles");
    assert_contains(e, "0.001");
    e = load_fails("range3.ini", "[dispatch]\ndensity_inhibit = 1.5\n");
    assert_contains(e, "range3.ini:2:");
    assert_contains(e, "dispatch.density_inhibit");
    e = load_fails("range4.ini", "[gpu]\nsm_count = -3\n");
    assert_contains(e, "range4.ini:2:");
    assert_contains(e, "-3");
}

static void not_a_number_names_file_line_key_value(void **state)
{
    (void)state;
    const char *e = load_fails("nan.ini", "[gpu]\nsm_count = 12abc\n");
    assert_contains(e, "nan.ini:2:");
    assert_contains(e, "gpu.sm_count");
    assert_contains(e, "12abc");
    e = load_fails("nan2.ini", "[l2]\nsame_address_cycles = two\n");
    assert_contains(e, "nan2.ini:2:");
    assert_contains(e, "'two'");
    e = load_fails("nan3.ini", "[l2]\nsame_address_cycles = nan\n");
    assert_contains(e, "nan3.ini:2:");
    e = load_fails("inf.ini", "[xbar]\nlatency_cycles = inf\n");
    assert_contains(e, "inf.ini:2:");
    e = load_fails("empty_value.ini", "[gpu]\nsm_count =\n");
    assert_contains(e, "empty_value.ini:2:");
    assert_contains(e, "gpu.sm_count");
    e = load_fails("int.ini", "[gpu]\nsm_count = 4.5\n");
    assert_contains(e, "int.ini:2:");
    assert_contains(e, "4.5");
    e = load_fails("bool.ini", "[coalesce]\nmerge_cas = maybe\n");
    assert_contains(e, "bool.ini:2:");
    assert_contains(e, "maybe");
    e = load_fails("enum.ini", "[l2]\nslice_hash = crc\n");
    assert_contains(e, "enum.ini:2:");
    assert_contains(e, "crc");
    char longname[200];
    snprintf(longname, sizeof longname, "[gpu]\nname = %0100d\n", 7);
    e = load_fails("long.ini", longname);
    assert_contains(e, "long.ini:2:");
    assert_contains(e, "gpu.name");
}

/* The message must describe the line it names: with two bad lines, the
 * first one's line number and the first one's key. */
static void first_error_line_matches_its_message(void **state)
{
    (void)state;
    const char *e = load_fails("two_errors.ini", "[gpu]\nsm_count = 4\nthis is not ini\nno_such_key = 1\n");
    assert_contains(e, "two_errors.ini:3:");
    assert_contains(e, "malformed");
    e = load_fails("two_errors2.ini", "[gpu]\nno_such_key = 1\nsm_count = abc\n");
    assert_contains(e, "two_errors2.ini:2:");
    assert_contains(e, "no_such_key");
}

static void cross_field_checks(void **state)
{
    (void)state;
    const char *e = load_fails("cross.ini", "[gpu]\nmax_wg_size = 1000\n");
    assert_contains(e, "gpu.max_wg_size");
    assert_contains(e, "subgroup_size");
    e = load_fails("cross2.ini", "[coalesce]\nline_bytes = 96\n");
    assert_contains(e, "coalesce.line_bytes");
    e = load_fails("cross3.ini", "[gpu]\nsmem_per_sm_bytes = 1024\n");
    assert_contains(e, "max_smem_per_wg_bytes");
    /* checked once the whole file is read: the order of keys is free */
    char err[CFG_ERR_MAX];
    cfg_config c;
    cfg_defaults(&c);
    const char *path = write_file("cross_ok.ini", "[gpu]\nsmem_per_sm_bytes = 1024\nmax_smem_per_wg_bytes = 512\n");
    if (cfg_load(&c, path, err))
        fail_msg("%s", err);
    assert_int_equal(c.gpu.max_smem_per_wg_bytes, 512);
}

static void missing_file_names_file(void **state)
{
    (void)state;
    char err[CFG_ERR_MAX], path[512];
    cfg_config c;
    cfg_defaults(&c);
    snprintf(path, sizeof path, "%s/does_not_exist.ini", tmpdir);
    assert_int_not_equal(cfg_load(&c, path, err), 0);
    assert_contains(err, path);
    assert_null(strchr(err, '\n'));
}

/* A directory opens for reading on Linux but is no config: reading it must
 * fail, not quietly give the defaults. */
static void directory_is_not_a_config(void **state)
{
    (void)state;
    char err[CFG_ERR_MAX];
    cfg_config c;
    cfg_defaults(&c);
    err[0] = 0;
    if (cfg_load(&c, tmpdir, err) == 0)
        fail_msg("cfg_load(\"%s\") of a directory returned 0 (read as an empty config)", tmpdir);
    assert_contains(err, tmpdir);
}

static void unreadable_file_fails(void **state)
{
    (void)state;
    if (geteuid() == 0)
        skip(); /* root reads a mode-000 file; directory_is_not_a_config covers unreadable input */
    char err[CFG_ERR_MAX];
    cfg_config c;
    cfg_defaults(&c);
    const char *path = write_file("unreadable.ini", "[gpu]\nsm_count = 4\n");
    chmod(path, 0);
    assert_int_not_equal(cfg_load(&c, path, err), 0);
    assert_contains(err, "unreadable.ini");
}

static void includes(void **state)
{
    (void)state;
    char err[CFG_ERR_MAX];
    cfg_config c;
    write_file("base.ini", "[gpu]\nsm_count = 4\nname = base\n");
    const char *path = write_file("top.ini", "include = base.ini\n[gpu]\nname = top\n");
    cfg_defaults(&c);
    if (cfg_load(&c, path, err))
        fail_msg("%s", err);
    assert_int_equal(c.gpu.sm_count, 4); /* from the included file, relative to the includer */
    assert_string_equal(c.gpu.name, "top");
    const char *e = load_fails("top_missing.ini", "include = nowhere.ini\n");
    assert_contains(e, "nowhere.ini");
    e = load_fails("loop.ini", "include = loop.ini\n");
    assert_contains(e, "loop.ini");
    write_file("bad_base.ini", "[gpu]\n\nsm_count = 0\n");
    e = load_fails("top_bad.ini", "include = bad_base.ini\n");
    assert_contains(e, "bad_base.ini:3:");
    assert_contains(e, "gpu.sm_count");
}

/* ---- -p overrides ------------------------------------------------------ */

static void overrides(void **state)
{
    (void)state;
    char err[CFG_ERR_MAX];
    cfg_config c;
    cfg_defaults(&c);
    assert_int_equal(cfg_override(&c, "gpu.sm_count=4", err), 0);
    assert_int_equal(c.gpu.sm_count, 4);
    assert_int_equal(cfg_override(&c, "l2.same_address_cycles= 7.5", err), 0);
    assert_true(c.l2.same_address_cycles == 7.5);
    assert_int_equal(cfg_override(&c, "gpu.name=a.b=c", err), 0); /* first '.' and first '=' split */
    assert_string_equal(c.gpu.name, "a.b=c");
    assert_int_equal(cfg_override(&c, "l2.slice_hash=mod", err), 0);
    assert_int_equal(c.l2.slice_hash, CFG_HASH_MOD);

#define PFAIL(text, word)                                           \
    do {                                                            \
        cfg_defaults(&c);                                           \
        err[0] = 0;                                                 \
        assert_int_not_equal(cfg_override(&c, text, err), 0);       \
        assert_contains(err, word);                                 \
        assert_null(strchr(err, '\n'));                             \
    } while (0)
    PFAIL("gpu.sm_count", "gpu.sm_count");            /* no '=' */
    PFAIL("sm_count=4", "sm_count=4");                /* no section */
    PFAIL("gpu=4.5", "gpu=4.5");                      /* '.' after '=' */
    PFAIL("gpu.sm_cuont=4", "gpu.sm_cuont");          /* unknown key */
    PFAIL("gpux.sm_count=4", "gpux.sm_count");        /* unknown section */
    PFAIL("gpu.sm_count=0", "gpu.sm_count");          /* out of range */
    PFAIL("gpu.sm_count=0", "range");
    PFAIL("gpu.sm_count=12abc", "12abc");             /* not a number */
    PFAIL("gpu.sm_count=", "gpu.sm_count");
    PFAIL("coalesce.merge_cas=2", "coalesce.merge_cas");
    PFAIL("gpu.subgroup_size=48", "subgroup_size");   /* cross-field: 1024 % 48 */
    PFAIL(".=", "unknown key");
    char longsec[300];
    memset(longsec, 's', sizeof longsec);
    memcpy(longsec + 200, ".key=1", 7);
    PFAIL(longsec, "expected");                        /* too long to be a section */
#undef PFAIL
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_parse_within_bounds),
        cmocka_unit_test(every_option_has_a_source),
        cmocka_unit_test(defaults_land_in_fields),
        cmocka_unit_test(format_round_trips_and_hash_covers_every_option),
        cmocka_unit_test(dump_reload_same_hash),
        cmocka_unit_test(load_reads_values_and_comments),
        cmocka_unit_test(unknown_key_names_file_line_key),
        cmocka_unit_test(unknown_section_names_file_line_section),
        cmocka_unit_test(malformed_line_names_file_line),
        cmocka_unit_test(out_of_range_names_file_line_key_value),
        cmocka_unit_test(not_a_number_names_file_line_key_value),
        cmocka_unit_test(first_error_line_matches_its_message),
        cmocka_unit_test(cross_field_checks),
        cmocka_unit_test(missing_file_names_file),
        cmocka_unit_test(directory_is_not_a_config),
        cmocka_unit_test(unreadable_file_fails),
        cmocka_unit_test(includes),
        cmocka_unit_test(overrides),
    };
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
