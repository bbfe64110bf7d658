/* export_part.c - writes one shard's simulator cells as a part and merges
 * parts back into a plan (format in export_part.h).  Every check a merge
 * makes is against the plan this export computes from its own arguments,
 * so a part from another config, scope or split cannot slip in. */
#include "export_part.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../model/params_csv.h"
#include "../util/csv.h"
#include "../util/lines.h"
#include "../util/num.h"
#include "args.h"

/* The parameters' columns come in export's order (its axes': those every
 * pattern reads, then the pattern's own), from the parameter table. */
#define XS_PART_ORDER PAT_CSV_SHARED_FIRST
/* index and pattern before the parameters; source, gpu_us, cpu_s after */
#define XS_PART_LEAD 2
#define XS_PART_TAIL 3
#define XS_PART_MAX_COLUMNS (XS_PART_LEAD + PP_COUNT + XS_PART_TAIL)

/* "index,pattern,n,wg,...,addresses": a part's header, less its results'
 * columns. */
static void part_header(char *buf, size_t len)
{
    char params[256];
    pat_csv_header(XS_PART_ORDER, params, sizeof params);
    snprintf(buf, len, "index,pattern,%s", params);
}

int xs_part_write(const xs_plan *p, size_t begin, size_t end, unsigned long long k, unsigned long long n, int run,
                  FILE *f)
{
    char scope[1024], header[320];
    xs_scope_text(&p->scope, scope, sizeof scope);
    part_header(header, sizeof header);
    /* a part's provenance is what a merge checks; a points file (--list) is
     * for sweep --points and any CSV reader, so it starts at its header */
    if (run)
        fprintf(f, "%s\n# config_hash %016llx\n# scope %s\n# cells %zu shard %llu/%llu\n", XS_PART_MAGIC,
                (unsigned long long)cfg_sim_hash(&p->gpu), scope, p->count, k, n);
    fprintf(f, "%s%s\n", header, run ? ",source,gpu_us,cpu_s" : "");
    for (size_t i = begin; i < end; i++) {
        const xs_cell *c = &p->cells[i];
        char us[48] = "";
        fprintf(f, "%zu,%s,", i, pat_name(c->p.pattern));
        pat_csv_write(f, XS_PART_ORDER, &c->p, 0); /* doubles exact: a merge compares them */
        if (run) {
            if (c->status == XS_SIM)
                cfg_format_double(us, sizeof us, c->gpu_us); /* exact: the merge rounds as export does */
            fprintf(f, ",%c,%s,%.6f", c->status == XS_SIM ? 's' : 'm', us, c->cpu_s);
        }
        fputc('\n', f);
    }
    return fflush(f) || ferror(f) ? -1 : 0;
}

/* ---- merging ----------------------------------------------------------------- */

/* A time: finite and not negative, never nan or a wrapped value. */
static int number(const char *s, double *out)
{
    return num_parse_range(s, 0, HUGE_VAL, 0, out) ? -1 : 0;
}

/* One data row into q, its index and its result.  0 or -1. */
static int parse_row(char *line, size_t *index, pat_params *q, char *source, double *us, double *cpu_s)
{
    const pat_param_desc *cols[PP_COUNT];
    size_t np = pat_csv_columns(XS_PART_ORDER, cols), columns = XS_PART_LEAD + np + XS_PART_TAIL;
    char *f[XS_PART_MAX_COLUMNS + 1], **tail;
    unsigned long long i;
    if ((size_t)csv_split(line, f, (int)columns + 1) != columns)
        return -1;
    tail = f + XS_PART_LEAD + np; /* source, gpu_us, cpu_s */
    if (cli_parse_u64(f[0], &i) || pat_from_name(f[1], &q->pattern) || pat_csv_read(XS_PART_ORDER, f + XS_PART_LEAD, q) ||
        strlen(tail[0]) != 1 || number(tail[2], cpu_s))
        return -1;
    *source = tail[0][0];
    if (*source == 's' ? number(tail[1], us) : *source == 'm' ? tail[1][0] != 0 : 1)
        return -1;
    *index = (size_t)i;
    return 0;
}

/* The columns a part carries (pattern and parameters) are the cell's
 * coordinates. */
static int coords_cmp(const pat_params *a, const pat_params *b)
{
    return pat_csv_cmp(XS_PART_ORDER, a, b);
}

static int same_coords(const pat_params *a, const pat_params *b)
{
    return !coords_cmp(a, b);
}

/* The '#' lines of a part against this export's.  0 or -1 with err. */
static int check_head(const xs_plan *p, const cfg_config *made_from, int same_plan, const char *path, lin_reader *in,
                      char err[CFG_ERR_MAX])
{
    char scope[1024], want[1100], header[320], again[128];
    unsigned long long hash, cells, k, n;
    xs_scope_text(&p->scope, scope, sizeof scope);
    part_header(header, sizeof header);
    for (int i = 0; i < 5; i++) {
        int got = lin_next(in, err, CFG_ERR_MAX);
        if (got < 0)
            return -1;
        if (!got) {
            snprintf(err, CFG_ERR_MAX, "%s: not a part of atomsim export --shard (it ends at line %lu)", path,
                     in->lineno + 1);
            return -1;
        }
        char *const *line = &in->line;
        switch (i) {
        case 0:
            if (strcmp(*line, XS_PART_MAGIC)) {
                snprintf(err, CFG_ERR_MAX, "%s: not a part of atomsim export --shard (line 1 is not '%s')", path,
                         XS_PART_MAGIC);
                return -1;
            }
            break;
        case 1:
            /* written back and compared: the one spelling export writes */
            if (sscanf(*line, "# config_hash %16llx", &hash) == 1)
                snprintf(again, sizeof again, "# config_hash %016llx", hash);
            if (sscanf(*line, "# config_hash %16llx", &hash) != 1 || strcmp(again, *line) || hash != cfg_sim_hash(made_from)) {
                snprintf(err, CFG_ERR_MAX, "%s: made from config hash %.16s, %s is %016llx (another --config, -p or --max-events)",
                         path, strlen(*line) > 14 ? *line + 14 : "?", same_plan ? "this export's" : "--reuse-config's",
                         (unsigned long long)cfg_sim_hash(made_from));
                return -1;
            }
            break;
        case 2:
            snprintf(want, sizeof want, "# scope %s", scope);
            if (strcmp(*line, want)) {
                snprintf(err, CFG_ERR_MAX, "%s: made for the scope '%s', this export's is '%s'", path,
                         strncmp(*line, "# scope ", 8) ? *line : *line + 8, scope);
                return -1;
            }
            break;
        case 3:
            if (sscanf(*line, "# cells %llu shard %llu/%llu", &cells, &k, &n) == 3)
                snprintf(again, sizeof again, "# cells %llu shard %llu/%llu", cells, k, n);
            if (sscanf(*line, "# cells %llu shard %llu/%llu", &cells, &k, &n) != 3 || strcmp(again, *line) ||
                (same_plan && cells != p->count)) {
                snprintf(err, CFG_ERR_MAX, "%s: made for %s simulator cells, this export has %zu", path,
                         strncmp(*line, "# cells ", 8) ? "?" : *line + 8, p->count);
                return -1;
            }
            break;
        default:
            if (strncmp(*line, header, strlen(header)) || strcmp(*line + strlen(header), ",source,gpu_us,cpu_s")) {
                snprintf(err, CFG_ERR_MAX, "%s line %lu: not a part's header (a --list output has no results)", path,
                         in->lineno);
                return -1;
            }
        }
    }
    return 0;
}

/* One data row of a part, parsed. */
typedef struct part_row {
    size_t index;
    pat_params q;
    char source;
    double gpu_us, cpu_s;
} part_row;

/* Reads a part made from `made_from` (same_plan: and for this plan's cell
 * count) and hands each row to `fn`, which returns 0 to go on or -1 with
 * err set.  The '#' lines, rows cut short and malformed rows are refused
 * here, once for the merge and the reuse alike.  0 or -1 with err. */
static int scan_part(const xs_plan *p, const cfg_config *made_from, int same_plan, const char *path,
                     int (*fn)(void *ctx, const char *path, long lno, const part_row *r, char err[CFG_ERR_MAX]),
                     void *ctx, char err[CFG_ERR_MAX])
{
    /* bounded: a directory or /dev/zero is refused, a NUL byte or a line
     * past LIN_MAX_LINE named by its line */
    lin_reader in;
    if (lin_open_as(&in, path, "part", LIN_MAX_LINE, err, CFG_ERR_MAX))
        return -1;
    int rc = check_head(p, made_from, same_plan, path, &in, err), got = 0;
    while (!rc && (got = lin_next(&in, err, CFG_ERR_MAX)) > 0) {
        long lno = (long)in.lineno;
        /* a line that met the end of the file had no end of line: a part
         * cut short (a shard still writing, a full disk) */
        if (feof(in.f)) {
            snprintf(err, CFG_ERR_MAX, "%s line %ld: the row is cut short (no end of line)", path, lno);
            rc = -1;
            break;
        }
        part_row r = { 0 };
        pat_defaults(&r.q);
        if (parse_row(in.line, &r.index, &r.q, &r.source, &r.gpu_us, &r.cpu_s) || (same_plan && r.index >= p->count)) {
            snprintf(err, CFG_ERR_MAX, "%s line %ld: not a cell of this export (malformed, or index out of range)", path,
                     lno);
            rc = -1;
            break;
        }
        rc = fn(ctx, path, lno, &r, err);
    }
    if (!rc && got < 0)
        rc = -1;
    lin_close(&in);
    return rc;
}

static void take_result(xs_cell *c, const part_row *r)
{
    c->status = r->source == 's' ? XS_SIM : XS_BUDGET;
    c->gpu_us = r->gpu_us;
    c->cpu_s = r->cpu_s;
}

typedef struct merge_ctx {
    xs_plan *p;
    int part;
    int *owner;                        /* which part holds each cell: 0 none, else the part's number + 1 */
    const char *const *paths;
} merge_ctx;

static int merge_row(void *v, const char *path, long lno, const part_row *r, char err[CFG_ERR_MAX])
{
    merge_ctx *m = v;
    xs_cell *c = &m->p->cells[r->index];
    char d[512];
    xs_cell_describe(&c->p, d, sizeof d);
    if (!same_coords(&r->q, &c->p)) {
        snprintf(err, CFG_ERR_MAX, "%s line %ld: cell %zu is not this export's (%s)", path, lno, r->index, d);
        return -1;
    }
    if (m->owner[r->index]) {
        snprintf(err, CFG_ERR_MAX, "%s line %ld: cell %zu (%s) is also in %s: a part given twice, or parts of two splits",
                 path, lno, r->index, d, m->paths[m->owner[r->index] - 1]);
        return -1;
    }
    m->owner[r->index] = m->part + 1;
    take_result(c, r);
    return 0;
}

int xs_part_merge(xs_plan *p, const char *const *paths, int count, char err[CFG_ERR_MAX])
{
    int *owner = calloc(p->count ? p->count : 1, sizeof *owner);
    if (!owner) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    int rc = 0;
    merge_ctx m = { p, 0, owner, paths };
    for (int k = 0; k < count && !rc; k++) {
        m.part = k;
        rc = scan_part(p, &p->gpu, 1, paths[k], merge_row, &m, err);
    }
    size_t missing = 0, first = 0;
    for (size_t i = 0; !rc && i < p->count; i++)
        if (!owner[i] && !missing++)
            first = i;
    if (missing) {
        char d[512];
        xs_cell_describe(&p->cells[first].p, d, sizeof d);
        snprintf(err, CFG_ERR_MAX, "%zu of %zu simulator cells are in no part, the first cell %zu (%s): a part is missing",
                 missing, p->count, first, d);
        rc = -1;
    }
    free(owner);
    return rc;
}

/* ---- reusing the cells of another config's parts ---------------------------- */

/* The keys the simulator reads only through cfg_wg_per_sm (the occupancy
 * rule): a cell that holds as many workgroups an SM under both configs runs
 * the same events, so its time carries over.  tests/link_independence.sh
 * checks that no file of sim/ names these fields. */
static const char *const occupancy_only_keys[] = { "gpu.smem_per_sm_bytes", "gpu.smem_reserved_per_wg_bytes" };

static int occupancy_only(const char *section, const char *key)
{
    char name[128];
    snprintf(name, sizeof name, "%s.%s", section, key);
    for (size_t i = 0; i < sizeof occupancy_only_keys / sizeof *occupancy_only_keys; i++)
        if (!strcmp(name, occupancy_only_keys[i]))
            return 1;
    return 0;
}

/* The [smem] keys: the simulator reads them only for shared-memory ops,
 * which only the patterns with shared memory of their own issue
 * (pat_own_smem_bytes; tests/link_independence.sh checks both halves).
 * When one differs, those patterns' cells are simulated again and every
 * other cell still carries over. */
static int shared_only(const char *section) { return !strcmp(section, "smem"); }

/* The keys the simulator reads only for atomics whose old value the warp
 * uses, which only the patterns of pat_returns_old_value issue (checked by
 * tests/link_independence.sh): when one differs, those patterns' cells run
 * again. */
static const char *const returning_only_keys[] = { "coalesce.lsu_return_cycles_per_request",
                                                   "coalesce.reply_cycles_per_request" };

static int returning_only(const char *section, const char *key)
{
    char name[128];
    snprintf(name, sizeof name, "%s.%s", section, key);
    for (size_t i = 0; i < sizeof returning_only_keys / sizeof *returning_only_keys; i++)
        if (!strcmp(name, returning_only_keys[i]))
            return 1;
    return 0;
}

/* The [model] keys are the analytical model's own: the simulator never
 * reads them (tests/link_independence.sh), so no cell's time depends on
 * them and every cell carries over. */
static int model_only(const char *section) { return !strcmp(section, "model"); }

/* Every key where the two configs differ must be model-only,
 * occupancy-only, shared-only or returning-only; *smem_differs and *ret_differs say
 * whether a shared-only or a returning-only one does. */
static int reusable_config(const cfg_config *now, const cfg_config *old, int *smem_differs, int *ret_differs,
                           char err[CFG_ERR_MAX])
{
    size_t count;
    const cfg_option *o = cfg_options(&count);
    *smem_differs = *ret_differs = 0;
    for (size_t i = 0; i < count; i++) {
        char a[256], b[256];
        cfg_format(now, &o[i], a, sizeof a);
        cfg_format(old, &o[i], b, sizeof b);
        if (!strcmp(a, b) || occupancy_only(o[i].section, o[i].key) || model_only(o[i].section))
            continue;
        if (shared_only(o[i].section)) {
            *smem_differs = 1;
            continue;
        }
        if (returning_only(o[i].section, o[i].key)) {
            *ret_differs = 1;
            continue;
        }
        snprintf(err, CFG_ERR_MAX,
                 "--reuse-config differs in %s.%s (%s, here %s), which the simulator reads beyond occupancy, shared memory and returning atomics: its cells cannot carry over",
                 o[i].section, o[i].key, b, a);
        return -1;
    }
    return 0;
}

static int cell_ptr_cmp(const void *x, const void *y)
{
    return coords_cmp(&(*(xs_cell *const *)x)->p, &(*(xs_cell *const *)y)->p);
}

typedef struct reuse_ctx {
    const xs_plan *p;
    const cfg_config *old;
    xs_cell **sorted;                  /* this shard's cells by coordinates: the two plans' indices differ */
    size_t span, reused;
    int smem_differs;                  /* a shared-only key differs: shared-memory patterns run again */
    int ret_differs;                   /* a returning-only key differs: those patterns run again */
} reuse_ctx;

static int reuse_row(void *v, const char *path, long lno, const part_row *r, char err[CFG_ERR_MAX])
{
    (void)path, (void)lno, (void)err;
    reuse_ctx *u = v;
    size_t lo = 0, hi = u->span;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (coords_cmp(&u->sorted[mid]->p, &r->q) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == u->span || coords_cmp(&u->sorted[lo]->p, &r->q))
        return 0; /* not a cell of this shard, or of this plan */
    xs_cell *c = u->sorted[lo];
    uint32_t bytes = pat_smem_bytes(&c->p);
    if (c->status != XS_PENDING || (u->smem_differs && pat_own_smem_bytes(&c->p) > 0) ||
        (u->ret_differs && pat_returns_old_value(c->p.pattern)) ||
        cfg_wg_per_sm(&u->p->gpu, c->p.wg, bytes, NULL) != cfg_wg_per_sm(u->old, c->p.wg, bytes, NULL))
        return 0;
    take_result(c, r);
    u->reused++;
    return 0;
}

int xs_part_reuse(xs_plan *p, const cfg_config *old, const char *const *paths, int count, size_t begin, size_t end,
                  size_t *reused, char err[CFG_ERR_MAX])
{
    *reused = 0;
    int smem_differs, ret_differs;
    if (reusable_config(&p->gpu, old, &smem_differs, &ret_differs, err))
        return -1;
    reuse_ctx u = { p, old, malloc((end > begin ? end - begin : 1) * sizeof(xs_cell *)), end - begin, 0, smem_differs,
                    ret_differs };
    if (!u.sorted) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < u.span; i++)
        u.sorted[i] = &p->cells[begin + i];
    qsort(u.sorted, u.span, sizeof *u.sorted, cell_ptr_cmp);
    int rc = 0;
    for (int k = 0; k < count && !rc; k++)
        rc = scan_part(p, old, 0, paths[k], reuse_row, &u, err);
    free(u.sorted);
    *reused = u.reused;
    return rc;
}
