/* cmd_dispatch.c - `atomsim dispatch`: GPU or CPU for one operation, or for
 * every row of a CSV of queries, from a cost table that `atomsim export`
 * wrote (model/table.c).  It reads nothing but the table: this is what a
 * runtime dispatcher does. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../model/export.h"
#include "../model/table.h"
#include "args.h"
#include "commands.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim dispatch --table FILE --pattern NAME [--n N] [--wg W] [--smem-per-wg BYTES]\n"
               "                        [--selectivity S] [--bins K] [--hot F] [--addresses P]\n"
               "                        [--rule cost|seed] [--data-on gpu|host|both] [--extrapolate]\n"
               "                        [--format text|json|csv] [--repeat R]\n"
               "       atomsim dispatch --table FILE --batch QUERIES.csv [--rule ...] [--data-on ...] [--extrapolate]\n"
               "answers gpu or cpu with both sides' predicted costs, interpolating within the table's grid\n"
               "(n, workgroup size, shared memory per workgroup and the pattern's own axes).\n"
               "  --rule       cost: the faster side (the table's default); seed: seed 000's density\n"
               "               penalty and inhibition.  Both verdicts are always printed.\n"
               "  --data-on    where the input lives; the other side pays to move it (default: the table's)\n"
               "  --batch F    a CSV with a header naming some of pattern,n,wg,smem_per_wg,selectivity,bins,\n"
               "               hot,addresses,rule,data_on (pattern required); writes one CSV answer a row\n"
               "  --repeat R   times R lookups and reports the time per lookup on stderr\n"
               "Outside the grid it fails (exit 2) unless --extrapolate, which marks the answer.\n");
}

enum { OPT_TABLE = 2000, OPT_EXTRAPOLATE, OPT_REPEAT, OPT_BATCH, OPT_RULE, OPT_DATA_ON };

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void query_of(const pat_params *p, tbl_query *q)
{
    tbl_query_init(q, p->pattern);
    q->n = (double)p->n;
    q->wg = p->wg;
    q->smem_per_wg = p->smem_per_wg;
    q->selectivity = p->selectivity;
    q->bins = p->bins;
    q->hot = p->hot;
    q->addresses = p->addresses;
}

static const char *band_text(const tbl_answer *a, char *buf, size_t len)
{
    if (!a->band_rows)
        snprintf(buf, len, "no band: no validation rows for this pattern and n");
    else
        snprintf(buf, len, "%.6g to %.6g (p10..p90 of measured/predicted, %d validation rows)", a->gpu_lo_us,
                 a->gpu_hi_us, a->band_rows);
    return buf;
}

static const char *source_name(char s)
{
    return s == 's' ? "simulator" : s == 'x' ? "simulator and model" : "model";
}

static void print_text(const tbl_table *t, const tbl_answer *a)
{
    char band[200];
    const dsp_policy *pol = tbl_policy(t);
    printf("decision: %s\nreason: %s\nrule: %s\n", dsp_target_name(a->d.target), dsp_reason_name(a->d.reason),
           dsp_rule_name(a->rule));
    printf("gpu_us: %.6g\ngpu_band_us: %s\ncpu_us: %.6g\n", a->gpu_us, band_text(a, band, sizeof band), a->cpu_us);
    printf("cost_decision: %s\nseed_decision: %s\nseed_reason: %s\n", dsp_target_name(a->d.cost_target),
           dsp_target_name(a->d.seed_target), dsp_reason_name(a->d.seed_reason));
    printf("density_fraction: %.6g\npenalty: %.6g\ninhibited: %s\nextrapolated: %s\n", a->density_fraction,
           a->d.penalty, a->d.inhibited ? "true" : "false", a->extrapolated ? "true" : "false");
    printf("assumptions:\n");
    printf("  data: on %s%s\n", dsp_data_on_name(a->data_on),
           a->data_on == DSP_DATA_ON_GPU    ? " (the CPU tier fetches the input over PCIe)"
           : a->data_on == DSP_DATA_ON_HOST ? " (the GPU fetches the input and returns its result over PCIe)"
                                            : " (resident on each side: nothing moves)");
    printf("  gpu: %s (config %s, hash %s); kernel %.6g us from the %s, host launch %.6g us, PCIe %.6g GB/s\n",
           tbl_gpu_name(t), tbl_gpu_config_path(t), tbl_config_hash(t), a->gpu_kernel_us, source_name(a->source),
           pol->host_launch_us, pol->pcie_bandwidth_gbps);
    printf("  trust: %s\n", tbl_gpu_trust(t));
    printf("  cpu: %s; compute %.6g us\n", tbl_cpu_name(t), a->cpu_compute_us);
    /* The bands are the model's residuals even where the simulator made the
     * time: say so rather than let a simulator cell borrow their authority. */
    printf("  calibration: %s\n", a->band_rows ? "the band comes from the model's residuals on the GPU config's "
                                                 "validation rows"
                                               : "none recorded in this table for this pattern and n");
}

static void print_json(const tbl_table *t, const tbl_answer *a)
{
    printf("{\n  \"decision\": \"%s\",\n  \"reason\": \"%s\",\n  \"rule\": \"%s\",\n", dsp_target_name(a->d.target),
           dsp_reason_name(a->d.reason), dsp_rule_name(a->rule));
    printf("  \"gpu_us\": %.6g,\n  \"gpu_lo_us\": %.6g,\n  \"gpu_hi_us\": %.6g,\n  \"band_rows\": %d,\n  \"cpu_us\": %.6g,\n",
           a->gpu_us, a->gpu_lo_us, a->gpu_hi_us, a->band_rows, a->cpu_us);
    printf("  \"gpu_kernel_us\": %.6g,\n  \"cpu_compute_us\": %.6g,\n", a->gpu_kernel_us, a->cpu_compute_us);
    printf("  \"cost_decision\": \"%s\",\n  \"seed_decision\": \"%s\",\n  \"seed_reason\": \"%s\",\n",
           dsp_target_name(a->d.cost_target), dsp_target_name(a->d.seed_target), dsp_reason_name(a->d.seed_reason));
    printf("  \"density_fraction\": %.6g,\n  \"penalty\": %.6g,\n  \"inhibited\": %s,\n  \"extrapolated\": %s,\n",
           a->density_fraction, a->d.penalty, a->d.inhibited ? "true" : "false", a->extrapolated ? "true" : "false");
    printf("  \"data_on\": \"%s\",\n  \"source\": \"%s\",\n  \"gpu\": \"%s\",\n  \"config_hash\": \"%s\",\n",
           dsp_data_on_name(a->data_on), source_name(a->source), tbl_gpu_name(t), tbl_config_hash(t));
    printf("  \"trust\": \"%s\",\n  \"cpu\": \"%s\"\n}\n", tbl_gpu_trust(t), tbl_cpu_name(t));
}

#define CSV_ANSWER_HEADER                                                                                       \
    "pattern,n,wg,smem_per_wg,selectivity,bins,hot,addresses,decision,reason,rule,gpu_us,gpu_lo_us,gpu_hi_us," \
    "cpu_us,cost_decision,seed_decision,seed_reason,data_on,source,extrapolated\n"

static void print_csv_row(const tbl_query *q, const tbl_answer *a)
{
    printf("%s,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%s,%s,%s,%.6g,%.6g,%.6g,%.6g,%s,%s,%s,%s,%s,%d\n",
           pat_name(q->pattern), q->n, q->wg, q->smem_per_wg, q->selectivity, q->bins, q->hot, q->addresses,
           dsp_target_name(a->d.target), dsp_reason_name(a->d.reason), dsp_rule_name(a->rule), a->gpu_us,
           a->gpu_lo_us, a->gpu_hi_us, a->cpu_us, dsp_target_name(a->d.cost_target), dsp_target_name(a->d.seed_target),
           dsp_reason_name(a->d.seed_reason), dsp_data_on_name(a->data_on), source_name(a->source), a->extrapolated);
}

/* ---- batch --------------------------------------------------------------- */

#define BATCH_MAX_COLS 16
#define BATCH_LINE_MAX 4096

enum { COL_RULE = -2, COL_DATA_ON = -3 };
/* parse_batch's bit per column code: the common codes below 20 */
_Static_assert(CLI_OPT_PARAM + PP_COUNT - CLI_OPT_CONFIG < 20, "column bits overlap");

/* 1 when the cost table has an axis for the parameter (the seed, for one,
 * has none: a query cannot name it). */
static int table_axis(const pat_param_desc *d)
{
    enum exp_axis_kind k;
    return d->csv && exp_axis_from_name(d->csv, &k) == 0;
}

/* A batch column: pattern, a parameter's CSV column where the table has an
 * axis for it, rule or data_on; 0 when none. */
static int column_code(const char *name)
{
    const pat_param_desc *d = pat_param_find_csv(name);
    if (d && table_axis(d))
        return cli_param_opt(d);
    if (!strcmp(name, "pattern"))
        return CLI_OPT_PATTERN;
    if (!strcmp(name, "rule"))
        return COL_RULE;
    if (!strcmp(name, "data_on"))
        return COL_DATA_ON;
    return 0;
}

/* Splits a CSV line (no quoting: every field is a name or a number). */
static int split_fields(char *line, char **fields, int max)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = 0;
    for (char *p = line;; p++) {
        if (n == max)
            return -1;
        fields[n++] = p;
        p += strcspn(p, ",");
        if (!*p)
            break;
        *p = 0;
    }
    return n;
}

typedef struct batch_query {
    tbl_query q;
    int line;                         /* in the batch file, for messages */
} batch_query;

static int parse_batch(const char *path, int rule, int data_on, int extrapolate, batch_query **out, size_t *count)
{
    struct stat sb;
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_error("dispatch", "%s: cannot open batch: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fileno(f), &sb) || !S_ISREG(sb.st_mode)) {
        cli_error("dispatch", "%s: the batch is not a regular file", path);
        fclose(f);
        return -1;
    }
    char line[BATCH_LINE_MAX + 2], *fields[BATCH_MAX_COLS];
    int codes[BATCH_MAX_COLS], ncol = -1, lineno = 0, rc = 0;
    size_t cap = 0, n = 0;
    batch_query *rows = NULL;
    char err[CFG_ERR_MAX];
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        if (len > BATCH_LINE_MAX || (len == sizeof line - 1 && line[len - 1] != '\n')) {
            cli_error("dispatch", "%s:%d: line longer than %d characters", path, lineno, BATCH_LINE_MAX);
            rc = -1;
            break;
        }
        if (line[0] == '#' || line[strspn(line, " \t\r\n")] == 0)
            continue;
        int nf = split_fields(line, fields, BATCH_MAX_COLS);
        if (ncol < 0) { /* the header */
            unsigned seen = 0;
            int has_pattern = 0;
            ncol = nf;
            for (int i = 0; rc == 0 && i < nf; i++) {
                codes[i] = column_code(fields[i]);
                int bit = codes[i] > 0 ? codes[i] - CLI_OPT_CONFIG : 20 - codes[i];
                if (!codes[i] || (seen & (1u << bit))) {
                    cli_error("dispatch", "%s:%d: column '%s' is %s", path, lineno, fields[i],
                              codes[i] ? "named twice" : "not a query field");
                    rc = -1;
                }
                seen |= 1u << bit;
                has_pattern |= codes[i] == CLI_OPT_PATTERN;
            }
            if (nf < 0 || (rc == 0 && !has_pattern)) {
                cli_error("dispatch", "%s:%d: the header must name a pattern column (and at most %d)", path, lineno,
                          BATCH_MAX_COLS);
                rc = -1;
            }
            continue;
        }
        if (nf != ncol) {
            cli_error("dispatch", "%s:%d: %d fields, the header has %d", path, lineno, nf, ncol);
            rc = -1;
            break;
        }
        cli_args a;
        cli_args_init(&a);
        batch_query bq;
        int row_rule = rule, row_on = data_on;
        for (int i = 0; rc == 0 && i < nf; i++) {
            if (codes[i] == COL_RULE || codes[i] == COL_DATA_ON) {
                enum dsp_rule r;
                enum dsp_data_on d;
                if (codes[i] == COL_RULE ? dsp_rule_from_name(fields[i], &r) : dsp_data_on_from_name(fields[i], &d)) {
                    cli_error("dispatch", "%s:%d: %s '%s': expected %s", path, lineno,
                              codes[i] == COL_RULE ? "rule" : "data_on", fields[i],
                              codes[i] == COL_RULE ? "cost or seed" : "gpu, host or both");
                    rc = -1;
                } else if (codes[i] == COL_RULE)
                    row_rule = (int)r;
                else
                    row_on = (int)d;
            } else if (cli_common_opt(&a, codes[i], fields[i], err)) {
                cli_error("dispatch", "%s:%d: %s", path, lineno, err);
                rc = -1;
            }
        }
        if (rc)
            break;
        query_of(&a.params, &bq.q);
        bq.q.rule = row_rule;
        bq.q.data_on = row_on;
        bq.q.extrapolate = extrapolate;
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : 256;
            batch_query *grown = realloc(rows, ncap * sizeof *rows);
            if (!grown) {
                cli_error("dispatch", "out of memory at %s:%d", path, lineno);
                rc = -1;
                break;
            }
            rows = grown;
            cap = ncap;
        }
        bq.q.pattern = a.params.pattern;
        bq.line = lineno;
        rows[n++] = bq;
    }
    if (rc == 0 && ferror(f)) {
        cli_error("dispatch", "%s: read error", path);
        rc = -1;
    }
    if (rc == 0 && ncol < 0) {
        cli_error("dispatch", "%s: no header line", path);
        rc = -1;
    }
    fclose(f);
    if (rc) {
        free(rows);
        return -1;
    }
    *out = rows;
    *count = n;
    return 0;
}

static int run_batch(const tbl_table *t, const char *path, int rule, int data_on, int extrapolate)
{
    batch_query *rows;
    size_t n;
    char err[CFG_ERR_MAX];
    if (parse_batch(path, rule, data_on, extrapolate, &rows, &n))
        return 2;
    /* every row is answered before anything is written: a bad row names its
     * line and leaves no half-written answer behind */
    tbl_answer *ans = malloc((n ? n : 1) * sizeof *ans);
    if (!ans) {
        free(rows);
        cli_error("dispatch", "out of memory for %zu answers", n);
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        if (tbl_lookup(t, &rows[i].q, &ans[i], err)) {
            cli_error("dispatch", "%s:%d: %s", path, rows[i].line, err);
            free(rows);
            free(ans);
            return 2;
        }
    fputs(CSV_ANSWER_HEADER, stdout);
    for (size_t i = 0; i < n; i++)
        print_csv_row(&rows[i].q, &ans[i]);
    free(rows);
    free(ans);
    return 0;
}

int cmd_dispatch(int argc, char **argv)
{
    static const struct option extra[] = {
        { "table", required_argument, NULL, OPT_TABLE },
        { "extrapolate", no_argument, NULL, OPT_EXTRAPOLATE },
        { "repeat", required_argument, NULL, OPT_REPEAT },
        { "batch", required_argument, NULL, OPT_BATCH },
        { "rule", required_argument, NULL, OPT_RULE },
        { "data-on", required_argument, NULL, OPT_DATA_ON },
        { 0, 0, 0, 0 },
    };
    struct option longopts[CLI_MAX_LONGOPTS];
    cli_args a;
    char err[CFG_ERR_MAX];
    const char *table_path = NULL, *batch_path = NULL;
    int c, extrapolate = 0, rule = -1, data_on = -1, shape_given = 0;
    unsigned long long repeat = 0;
    cli_args_init(&a);
    cli_longopts(longopts, extra);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        /* a config, an engine or a parameter the table has no axis for (--seed) */
        const pat_param_desc *pd = cli_opt_param(c);
        if (c == CLI_OPT_CONFIG || c == CLI_OPT_ENGINE || (pd && !table_axis(pd))) {
            cli_error("dispatch", "%s: the table is the only input (see atomsim dispatch --help)", argv[optind - 1]);
            return 2;
        }
        switch (c) {
        case CLI_OPT_HELP:
            usage(stdout);
            return fflush(stdout) ? 1 : 0;
        case OPT_TABLE:
            table_path = optarg;
            continue;
        case OPT_BATCH:
            batch_path = optarg;
            continue;
        case OPT_EXTRAPOLATE:
            extrapolate = 1;
            continue;
        case OPT_RULE: {
            enum dsp_rule r;
            if (dsp_rule_from_name(optarg, &r)) {
                cli_error("dispatch", "--rule '%s': expected cost or seed", optarg);
                return 2;
            }
            rule = (int)r;
            continue;
        }
        case OPT_DATA_ON: {
            enum dsp_data_on d;
            if (dsp_data_on_from_name(optarg, &d)) {
                cli_error("dispatch", "--data-on '%s': expected gpu, host or both", optarg);
                return 2;
            }
            data_on = (int)d;
            continue;
        }
        case OPT_REPEAT:
            if (cli_parse_u64(optarg, &repeat) || repeat == 0) {
                cli_error("dispatch", "--repeat '%s' is not a positive integer", optarg);
                return 2;
            }
            continue;
        case '?':
        case ':':
            cli_error("dispatch", "bad option '%s' (see atomsim dispatch --help)", argv[optind - 1]);
            return 2;
        case CLI_OPT_FORMAT:
            break;
        default:
            shape_given = 1;
            break;
        }
        int rc = cli_common_opt(&a, c, optarg, err);
        if (rc) {
            cli_error("dispatch", "%s", rc < 0 ? err : "unexpected option");
            return 2;
        }
    }
    if (optind < argc) {
        cli_error("dispatch", "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (!table_path || (!a.pattern_given && !batch_path)) {
        cli_error("dispatch", "--table and --pattern (or --batch) are required (see atomsim dispatch --help)");
        return 2;
    }
    if (batch_path && (shape_given || repeat)) {
        cli_error("dispatch", "--batch takes its queries from the file: no pattern flags or --repeat beside it");
        return 2;
    }
    tbl_table *t;
    if (tbl_load(table_path, &t, err)) {
        cli_error("dispatch", "%s", err);
        return 2;
    }
    if (batch_path) {
        int rc = run_batch(t, batch_path, rule, data_on, extrapolate);
        tbl_free(t);
        if (rc == 0 && (fflush(stdout) || ferror(stdout))) {
            cli_error("dispatch", "cannot write the answers: %s", strerror(errno));
            return 1;
        }
        return rc;
    }
    tbl_query q;
    query_of(&a.params, &q);
    q.rule = rule;
    q.data_on = data_on;
    q.extrapolate = extrapolate;
    tbl_answer ans;
    if (tbl_lookup(t, &q, &ans, err)) {
        cli_error("dispatch", "%s", err);
        tbl_free(t);
        return 2;
    }
    if (repeat) {
        /* vary n a little so the compiler cannot hoist the lookup */
        double t0 = now_ns(), sink = 0;
        tbl_query r = q;
        r.extrapolate = 1;
        for (unsigned long long i = 0; i < repeat; i++) {
            tbl_answer x;
            r.n = q.n * (1 + (double)(i & 7) * 1e-9);
            if (tbl_lookup(t, &r, &x, err) == 0)
                sink += x.gpu_us;
        }
        double per = (now_ns() - t0) / (double)repeat;
        fprintf(stderr, "atomsim dispatch: %llu lookups, %.1f ns per lookup (checksum %.3g)\n", repeat, per, sink);
    }
    if (a.format == CLI_FORMAT_JSON)
        print_json(t, &ans);
    else if (a.format == CLI_FORMAT_CSV) {
        fputs(CSV_ANSWER_HEADER, stdout);
        print_csv_row(&q, &ans);
    } else
        print_text(t, &ans);
    tbl_free(t);
    if (fflush(stdout) || ferror(stdout)) {
        cli_error("dispatch", "cannot write the answer: %s", strerror(errno));
        return 1;
    }
    return 0;
}
