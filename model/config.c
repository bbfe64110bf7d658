/* config.c - reads INI files and `-p` overrides into a cfg_config through
 * the option table, with strict value parsing and range checks, and formats
 * values back so that a dumped config reads back to the same struct. */
#include "config.h"
#include "../util/num.h"

#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void *field(cfg_config *cfg, const cfg_option *o)
{
    return (char *)cfg + o->offset;
}

static const void *cfield(const cfg_config *cfg, const cfg_option *o)
{
    return (const char *)cfg + o->offset;
}

int cfg_parse_number(const char *section, const char *key, const char *unit, const char *value, int integer, double min,
                     double max, double *out, char err[CFG_ERR_MAX])
{
    /* inih trims the value; -p's text is trimmed here the same way */
    char buf[128];
    size_t len = strlen(value);
    while (len && (value[len - 1] == ' ' || value[len - 1] == '\t'))
        len--;
    if (len >= sizeof buf) {
        snprintf(err, CFG_ERR_MAX, "%s.%s: '%.40s...' is not a number", section, key, value);
        return -1;
    }
    memcpy(buf, value, len);
    buf[len] = 0;
    double v;
    int rc = num_parse_range(buf, min, max, 0, &v);
    if (rc == -1) {
        snprintf(err, CFG_ERR_MAX, "%s.%s: '%s' is not a number", section, key, buf);
        return -1;
    }
    if (integer && v != floor(v)) {
        snprintf(err, CFG_ERR_MAX, "%s.%s: '%s' is not an integer", section, key, buf);
        return -1;
    }
    if (rc == -2) {
        snprintf(err, CFG_ERR_MAX, "%s.%s: %s is out of range [%g, %g] %s", section, key, buf, min, max, unit);
        return -1;
    }
    *out = v;
    return 0;
}

int cfg_set(cfg_config *cfg, const cfg_option *o, const char *value, char err[CFG_ERR_MAX])
{
    while (*value == ' ' || *value == '\t')
        value++;
    switch (o->type) {
    case CFG_STRING:
        if (strlen(value) >= CFG_NAME_MAX) {
            snprintf(err, CFG_ERR_MAX, "%s.%s: value longer than %d characters", o->section, o->key, CFG_NAME_MAX - 1);
            return -1;
        }
        /* an INI file cannot carry a line break or a control character back:
         * config --dump would write a different config */
        for (const char *c = value; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f) {
                snprintf(err, CFG_ERR_MAX, "%s.%s: a control character (byte %d) in the value", o->section, o->key,
                         (unsigned char)*c);
                return -1;
            }
        strcpy(field(cfg, o), value);
        return 0;
    case CFG_BOOL:
        if (!strcmp(value, "1") || !strcmp(value, "true") || !strcmp(value, "on") || !strcmp(value, "yes"))
            *(int *)field(cfg, o) = 1;
        else if (!strcmp(value, "0") || !strcmp(value, "false") || !strcmp(value, "off") || !strcmp(value, "no"))
            *(int *)field(cfg, o) = 0;
        else {
            snprintf(err, CFG_ERR_MAX, "%s.%s: '%s' is not a boolean (0/1, true/false, on/off)", o->section, o->key, value);
            return -1;
        }
        return 0;
    case CFG_ENUM:
        for (int i = 0; o->enum_names[i]; i++)
            if (!strcmp(value, o->enum_names[i])) {
                *(int *)field(cfg, o) = i;
                return 0;
            }
        snprintf(err, CFG_ERR_MAX, "%s.%s: '%s' is not one of the allowed names", o->section, o->key, value);
        return -1;
    case CFG_INT:
    case CFG_DOUBLE: {
        double v;
        if (cfg_parse_number(o->section, o->key, o->unit, value, o->type == CFG_INT, o->min, o->max, &v, err))
            return -1;
        if (o->type == CFG_INT)
            *(int *)field(cfg, o) = (int)v;
        else
            *(double *)field(cfg, o) = v;
        return 0;
    }
    }
    return -1;
}

void cfg_format_double(char *buf, size_t len, double v)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

void cfg_format_exact(char *buf, size_t len, double v)
{
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, len, "%.0f", v);
    else
        cfg_format_double(buf, len, v);
}

void cfg_format(const cfg_config *cfg, const cfg_option *o, char *buf, size_t len)
{
    switch (o->type) {
    case CFG_STRING:
        snprintf(buf, len, "%s", (const char *)cfield(cfg, o));
        break;
    case CFG_BOOL:
    case CFG_INT:
        snprintf(buf, len, "%d", *(const int *)cfield(cfg, o));
        break;
    case CFG_ENUM:
        snprintf(buf, len, "%s", o->enum_names[*(const int *)cfield(cfg, o)]);
        break;
    case CFG_DOUBLE:
        cfg_format_double(buf, len, *(const double *)cfield(cfg, o));
        break;
    }
}

void cfg_defaults(cfg_config *cfg)
{
    size_t n;
    const cfg_option *opts = cfg_options(&n);
    char err[CFG_ERR_MAX];
    memset(cfg, 0, sizeof *cfg);
    for (size_t i = 0; i < n; i++)
        if (cfg_set(cfg, &opts[i], opts[i].def, err))
            abort(); /* a bad default is a programming error caught by the unit tests */
}

struct load_ctx {
    cfg_config *cfg;
    const char *path;
    char *err;
    int depth;
    int failed;
    FILE *f;
    int line;       /* the line libinih is reading, counted by our reader */
    int err_line;   /* the line our handler's message is about */
    const char *skip; /* an include of this file is left out (or NULL) */
};

static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Reader for ini_parse_stream that counts lines, so that the message we
 * keep is the one about the line libinih reports as the first error. */
static char *read_line(char *str, int num, void *stream)
{
    struct load_ctx *ctx = stream;
    char *r = fgets(str, num, ctx->f);
    if (r) {
        ctx->line++;
        size_t len = strlen(r);
        if (len && r[len - 1] != '\n' && !feof(ctx->f) && !ctx->err_line) {
            snprintf(ctx->err, CFG_ERR_MAX, "line longer than %d characters", num - 1);
            ctx->err_line = ctx->line;
        }
    }
    return r;
}

static int load_file(struct load_ctx *ctx, const char *path);

static int on_entry(void *user, const char *section, const char *key, const char *value)
{
    struct load_ctx *ctx = user;
    char msg[CFG_ERR_MAX];
    if (ctx->failed || ctx->err_line)
        return 0; /* libinih goes on after an error: keep the first message
                   * (an include would reuse the buffer that holds it) */
    if (!section[0] && !strcmp(key, "include")) {
        /* relative to the including file: calibration overlays sit beside it */
        char inc[1024];
        const char *slash = strrchr(ctx->path, '/');
        if (value[0] != '/' && slash)
            snprintf(inc, sizeof inc, "%.*s/%s", (int)(slash - ctx->path), ctx->path, value);
        else
            snprintf(inc, sizeof inc, "%s", value);
        if (ctx->skip && same_file(inc, ctx->skip))
            return 1;
        struct load_ctx sub = { ctx->cfg, inc, ctx->err, ctx->depth + 1, 0, NULL, 0, 0, ctx->skip };
        if (sub.depth > 4) {
            snprintf(ctx->err, CFG_ERR_MAX, "%s: includes nested too deeply", inc);
            ctx->failed = 1;
            return 0;
        }
        if (load_file(&sub, inc)) {
            ctx->failed = 1;
            return 0;
        }
        return 1;
    }
    const cfg_option *o = cfg_find(section, key);
    if (!o) {
        snprintf(ctx->err, CFG_ERR_MAX, "unknown key '%s' in section [%s]", key, section);
        ctx->err_line = ctx->line;
        return 0;
    }
    if (cfg_set(ctx->cfg, o, value, msg)) {
        snprintf(ctx->err, CFG_ERR_MAX, "%s", msg);
        ctx->err_line = ctx->line;
        return 0;
    }
    return 1;
}

static int load_file(struct load_ctx *ctx, const char *path)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        snprintf(ctx->err, CFG_ERR_MAX, "%s: not a regular file", path);
        return -1;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(ctx->err, CFG_ERR_MAX, "%s: cannot open config: %s", path, strerror(errno));
        return -1;
    }
    ctx->err[0] = 0;
    ctx->f = f;
    int line = ini_parse_stream(read_line, ctx, on_entry, ctx);
    fclose(f);
    if (ctx->failed)
        return -1; /* an include already wrote its own message */
    if (line != 0) {
        char msg[CFG_ERR_MAX];
        if (ctx->err_line && ctx->err_line < line)
            line = ctx->err_line; /* a long line splits: report where it began */
        snprintf(msg, sizeof msg, "%s", ctx->err_line == line ? ctx->err : "malformed line (expected [section] or key = value)");
        snprintf(ctx->err, CFG_ERR_MAX, "%s:%d: %s", path, line, msg);
        return -1;
    }
    return 0;
}

int cfg_load(cfg_config *cfg, const char *path, char err[CFG_ERR_MAX])
{
    return cfg_load_except(cfg, path, NULL, err);
}

int cfg_load_except(cfg_config *cfg, const char *path, const char *skip, char err[CFG_ERR_MAX])
{
    struct load_ctx ctx = { cfg, path, err, 0, 0, NULL, 0, 0, skip };
    if (load_file(&ctx, path))
        return -1;
    snprintf(cfg->path, sizeof cfg->path, "%s", path);
    return cfg_validate(cfg, err);
}

int cfg_override(cfg_config *cfg, const char *assignment, char err[CFG_ERR_MAX])
{
    char sec[64], key[96];
    const char *dot = strchr(assignment, '.');
    const char *eq = strchr(assignment, '=');
    if (!dot || !eq || dot > eq || (size_t)(dot - assignment) >= sizeof sec || (size_t)(eq - dot - 1) >= sizeof key) {
        snprintf(err, CFG_ERR_MAX, "-p '%s': expected section.key=value", assignment);
        return -1;
    }
    memcpy(sec, assignment, (size_t)(dot - assignment));
    sec[dot - assignment] = 0;
    memcpy(key, dot + 1, (size_t)(eq - dot - 1));
    key[eq - dot - 1] = 0;
    const cfg_option *o = cfg_find(sec, key);
    if (!o) {
        snprintf(err, CFG_ERR_MAX, "-p '%s': unknown key '%s.%s' (see atomsim config --dump)", assignment, sec, key);
        return -1;
    }
    if (cfg_set(cfg, o, eq + 1, err))
        return -1;
    return cfg_validate(cfg, err);
}

int cfg_validate(const cfg_config *c, char err[CFG_ERR_MAX])
{
    if (c->gpu.max_wg_size % c->gpu.subgroup_size) {
        snprintf(err, CFG_ERR_MAX, "gpu.max_wg_size %d is not a multiple of gpu.subgroup_size %d", c->gpu.max_wg_size, c->gpu.subgroup_size);
        return -1;
    }
    if (c->gpu.max_wg_size > c->gpu.max_threads_per_sm) {
        snprintf(err, CFG_ERR_MAX, "gpu.max_wg_size %d exceeds gpu.max_threads_per_sm %d", c->gpu.max_wg_size, c->gpu.max_threads_per_sm);
        return -1;
    }
    if (c->gpu.max_smem_per_wg_bytes > c->gpu.smem_per_sm_bytes) {
        snprintf(err, CFG_ERR_MAX, "gpu.max_smem_per_wg_bytes %d exceeds gpu.smem_per_sm_bytes %d", c->gpu.max_smem_per_wg_bytes, c->gpu.smem_per_sm_bytes);
        return -1;
    }
    if (c->gpu.subgroup_size > 64) {
        snprintf(err, CFG_ERR_MAX, "gpu.subgroup_size %d: the simulator supports at most 64 lanes", c->gpu.subgroup_size);
        return -1;
    }
    if (c->l2.partition_block_lines & (c->l2.partition_block_lines - 1)) {
        snprintf(err, CFG_ERR_MAX, "l2.partition_block_lines %d is not a power of two", c->l2.partition_block_lines);
        return -1;
    }
    if (c->coalesce.line_bytes & (c->coalesce.line_bytes - 1)) {
        snprintf(err, CFG_ERR_MAX, "coalesce.line_bytes %d is not a power of two", c->coalesce.line_bytes);
        return -1;
    }
    if (c->launch.dispatch_lead_cycles > c->launch.kernel_overhead_cycles) {
        snprintf(err, CFG_ERR_MAX, "launch.dispatch_lead_cycles %g exceeds launch.kernel_overhead_cycles %g (work cannot start before the launch)",
                 c->launch.dispatch_lead_cycles, c->launch.kernel_overhead_cycles);
        return -1;
    }
    if (c->l2.cas_sources > c->gpu.sm_count) {
        snprintf(err, CFG_ERR_MAX, "l2.cas_sources %d exceeds gpu.sm_count %d (at most one input queue per SM)", c->l2.cas_sources, c->gpu.sm_count);
        return -1;
    }
    if (c->dispatch.density_penalty_start > c->dispatch.density_inhibit) {
        snprintf(err, CFG_ERR_MAX, "dispatch.density_penalty_start %g exceeds dispatch.density_inhibit %g", c->dispatch.density_penalty_start, c->dispatch.density_inhibit);
        return -1;
    }
    return 0;
}

static uint64_t hash_of(const cfg_config *cfg, int sim_only)
{
    size_t n;
    const cfg_option *opts = cfg_options(&n);
    uint64_t h = 1469598103934665603ull;
    char buf[128];
    for (size_t i = 0; i < n; i++) {
        if (sim_only && !strcmp(opts[i].section, "model"))
            continue;
        /* a label says what the config is, not what it computes: a table
         * made before the label was added keeps its hash */
        if (opts[i].source == CFG_SRC_LABEL)
            continue;
        /* the memory budget refuses a run before it starts and changes no
         * number of one that runs (export fails rather than fill a cell
         * from the model): the committed tables' parts keep their hash */
        if (opts[i].offset == offsetof(cfg_config, sim.max_memory_mb))
            continue;
        int len = snprintf(buf, sizeof buf, "%s.%s=", opts[i].section, opts[i].key);
        cfg_format(cfg, &opts[i], buf + len, sizeof buf - (size_t)len);
        for (const char *p = buf; *p; p++) {
            h ^= (unsigned char)*p;
            h *= 1099511628211ull;
        }
    }
    return h;
}

uint64_t cfg_hash(const cfg_config *cfg)
{
    return hash_of(cfg, 0);
}

uint64_t cfg_sim_hash(const cfg_config *cfg)
{
    return hash_of(cfg, 1);
}

double cfg_threads_per_cycle(const cfg_config *cfg)
{
    return (double)cfg->gpu.sm_count * cfg->gpu.fp32_lanes_per_sm;
}

int cfg_wg_per_sm(const cfg_config *cfg, int wg, uint32_t smem_bytes, enum cfg_occ_limit *limit)
{
    int warps_per_wg = (wg + cfg->gpu.subgroup_size - 1) / cfg->gpu.subgroup_size;
    int occ = cfg->gpu.max_wg_per_sm;
    enum cfg_occ_limit why = CFG_OCC_WG_SLOTS;
    /* a workgroup that declares no shared memory, on a GPU that reserves
     * none, is not limited by it (and must not divide by zero) */
    uint64_t bytes = (uint64_t)smem_bytes + (uint64_t)cfg->gpu.smem_reserved_per_wg_bytes;
    int by_smem = bytes ? (int)((uint64_t)cfg->gpu.smem_per_sm_bytes / bytes) : occ;
    if (cfg->gpu.max_threads_per_sm / wg < occ) {
        occ = cfg->gpu.max_threads_per_sm / wg;
        why = CFG_OCC_THREADS;
    }
    if (cfg->gpu.max_warps_per_sm / warps_per_wg < occ) {
        occ = cfg->gpu.max_warps_per_sm / warps_per_wg;
        why = CFG_OCC_WARPS;
    }
    if (by_smem < occ) {
        occ = by_smem;
        why = CFG_OCC_SMEM;
    }
    if (limit)
        *limit = why;
    return occ < 1 ? 0 : occ;
}

double cfg_dram_bytes_per_cycle(const cfg_config *cfg)
{
    return cfg->dram.bandwidth_gbps * 1e9 / (cfg->gpu.sm_clock_mhz * 1e6);
}
