/* dispatch_print.c - the answer of `atomsim dispatch` as text, JSON or a
 * CSV row (see dispatch_print.h). */
#include "dispatch_print.h"

#include <stdlib.h>

#include "../model/dispatch_query.h"
#include "../model/params.h"
#include "../util/esc.h"
#include "../util/version.h"
#include "args.h"

static const char *band_text(double lo_us, double hi_us, int rows, char *buf, size_t len)
{
    if (!rows)
        snprintf(buf, len, "no band: no measured rows for this pattern and n");
    else
        snprintf(buf, len, "%.6g to %.6g (p10..p90 of measured/answered, %d measured rows)", lo_us, hi_us, rows);
    return buf;
}

static const char *source_name(char s)
{
    /* one word each: the CSV and JSON answers carry it too; 'a' is the
     * model scaled to its simulator anchors, 'x' grid points around
     * the query of different sources (docs/dispatch.md) */
    return s == 's' ? "simulator" : s == 'a' ? "anchored" : s == 'x' ? "mixed" : "model";
}

/* The same in a sentence of the text answer. */
static const char *source_phrase(char s)
{
    return s == 's'   ? "the simulator"
           : s == 'a' ? "the model scaled to its simulator anchors"
           : s == 'x' ? "grid points of different sources"
                      : "the model";
}

void dpr_text(FILE *f, const tbl_table *t, const tbl_answer *a)
{
    char band[200], cpu_band[200];
    const dsp_policy *pol = tbl_policy(t);
    fprintf(f, "decision: %s\nreason: %s\nrule: %s\n", dsp_target_name(a->d.target), dsp_reason_name(a->d.reason),
           dsp_rule_name(a->rule));
    fprintf(f, "gpu_us: %.6g\ngpu_band_us: %s\ncpu_us: %.6g\ncpu_band_us: %s\n", a->gpu_us,
            band_text(a->gpu_lo_us, a->gpu_hi_us, a->band_rows, band, sizeof band), a->cpu_us,
            band_text(a->cpu_lo_us, a->cpu_hi_us, a->cpu_band_rows, cpu_band, sizeof cpu_band));
    fprintf(f, "close_call: %s\n", a->close_call                        ? "true (the p10..p90 bands overlap)"
                                   : !a->band_rows && !a->cpu_band_rows ? "false (neither side has a band; the times differ)"
                                   : !a->band_rows || !a->cpu_band_rows ? "false (one side has no band; its time lies outside the other's band)"
                                                                        : "false (the p10..p90 bands do not overlap)");
    fprintf(f, "cost_decision: %s\nseed_decision: %s\nseed_reason: %s\n", dsp_target_name(a->d.cost_target),
           dsp_target_name(a->d.seed_target), dsp_reason_name(a->d.seed_reason));
    fprintf(f, "density_fraction: %.6g\npenalty: %.6g\ninhibited: %s\nextrapolated: %s\n", a->density_fraction,
           a->d.penalty, a->d.inhibited ? "true" : "false", a->extrapolated ? "true" : "false");
    fprintf(f, "assumptions:\n");
    fprintf(f, "  data: on %s%s\n", dsp_data_on_name(a->data_on),
           a->data_on == DSP_DATA_ON_GPU    ? " (the CPU tier fetches the input over PCIe)"
           : a->data_on == DSP_DATA_ON_HOST ? " (the GPU fetches the input and returns its result over PCIe)"
                                            : " (resident on each side: nothing moves)");
    fprintf(f, "  gpu: %s (config %s, hash %s); kernel %.6g us from %s, host launch %.6g us, PCIe %.6g GB/s\n",
           tbl_gpu_name(t), tbl_gpu_config_path(t), tbl_config_hash(t), a->gpu_kernel_us, source_phrase(a->source),
           pol->host_launch_us, pol->pcie_bandwidth_gbps);
    fprintf(f, "  trust: %s\n", tbl_gpu_trust(t));
    fprintf(f, "  cpu: %s; compute %.6g us\n", tbl_cpu_name(t), a->cpu_compute_us);
    if (a->band_rows)
        fprintf(f, "  calibration: the band is p10..p90 of measured / this table's own answers over %d measured rows "
                   "of this pattern and region of n\n",
                a->band_rows);
    else
        fprintf(f, "  calibration: none recorded in this table for this pattern and n\n");
    if (a->cpu_band_rows)
        fprintf(f, "  cpu calibration: the band is p10..p90 of measured / this table's CPU tier over %d cpubench rows "
                   "of this pattern and region of n, from hosts of its kind\n",
                a->cpu_band_rows);
    else
        fprintf(f, "  cpu calibration: none recorded in this table for this pattern and n\n");
}

void dpr_json(FILE *f, const tbl_table *t, const tbl_answer *a)
{
    fputs("{\n  \"version\": ", f);
    esc_json(f, atom_version());
    fprintf(f, ",\n  \"decision\": \"%s\",\n  \"reason\": \"%s\",\n  \"rule\": \"%s\",\n", dsp_target_name(a->d.target),
           dsp_reason_name(a->d.reason), dsp_rule_name(a->rule));
    fprintf(f, "  \"gpu_us\": %.6g,\n  \"gpu_lo_us\": %.6g,\n  \"gpu_hi_us\": %.6g,\n  \"band_rows\": %d,\n  \"cpu_us\": %.6g,\n",
           a->gpu_us, a->gpu_lo_us, a->gpu_hi_us, a->band_rows, a->cpu_us);
    fprintf(f, "  \"cpu_lo_us\": %.6g,\n  \"cpu_hi_us\": %.6g,\n  \"cpu_band_rows\": %d,\n  \"close_call\": %s,\n",
            a->cpu_lo_us, a->cpu_hi_us, a->cpu_band_rows, a->close_call ? "true" : "false");
    fprintf(f, "  \"gpu_kernel_us\": %.6g,\n  \"cpu_compute_us\": %.6g,\n", a->gpu_kernel_us, a->cpu_compute_us);
    fprintf(f, "  \"cost_decision\": \"%s\",\n  \"seed_decision\": \"%s\",\n  \"seed_reason\": \"%s\",\n",
           dsp_target_name(a->d.cost_target), dsp_target_name(a->d.seed_target), dsp_reason_name(a->d.seed_reason));
    fprintf(f, "  \"density_fraction\": %.6g,\n  \"penalty\": %.6g,\n  \"inhibited\": %s,\n  \"extrapolated\": %s,\n",
           a->density_fraction, a->d.penalty, a->d.inhibited ? "true" : "false", a->extrapolated ? "true" : "false");
    fprintf(f, "  \"data_on\": \"%s\",\n  \"source\": \"%s\",\n", dsp_data_on_name(a->data_on), source_name(a->source));
    /* the table's strings are whatever its file held: escaped */
    static const char *const keys[4] = { "gpu", "config_hash", "trust", "cpu" };
    const char *const vals[4] = { tbl_gpu_name(t), tbl_config_hash(t), tbl_gpu_trust(t), tbl_cpu_name(t) };
    for (int k = 0; k < 4; k++) {
        fprintf(f, "  \"%s\": ", keys[k]);
        esc_json(f, vals[k]);
        fputs(k < 3 ? ",\n" : "\n}\n", f);
    }
}

void dpr_csv_header(FILE *f)
{
    fputs("pattern,n,wg,smem_per_wg,selectivity,bins,hot,addresses,decision,reason,rule,gpu_us,gpu_lo_us,gpu_hi_us,"
          "cpu_us,cost_decision,seed_decision,seed_reason,data_on,source,extrapolated,cpu_lo_us,cpu_hi_us,close_call\n",
          f);
}

void dpr_csv_row(FILE *f, const tbl_query *q, const tbl_answer *a)
{
    fprintf(f, "%s,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%s,%s,%s,%.6g,%.6g,%.6g,%.6g,%s,%s,%s,%s,%s,%d,%.6g,%.6g,%d\n",
           pat_name(q->pattern), q->n, q->wg, q->smem_per_wg, q->selectivity, q->bins, q->hot, q->addresses,
           dsp_target_name(a->d.target), dsp_reason_name(a->d.reason), dsp_rule_name(a->rule), a->gpu_us,
           a->gpu_lo_us, a->gpu_hi_us, a->cpu_us, dsp_target_name(a->d.cost_target), dsp_target_name(a->d.seed_target),
           dsp_reason_name(a->d.seed_reason), dsp_data_on_name(a->data_on), source_name(a->source), a->extrapolated,
           a->cpu_lo_us, a->cpu_hi_us, a->close_call);
}

/* Every row is answered before anything is written: a bad row names its
 * line and leaves no half-written answer behind. */
int dpr_batch(const tbl_table *t, const char *path, int rule, int data_on, int extrapolate)
{
    dq_batch b;
    dq_error e;
    size_t bad;
    char err[CFG_ERR_MAX];
    if (dq_batch_read(path, rule, data_on, extrapolate, &b, &e)) {
        if (e.nomem)
            cli_error("dispatch", "out of memory at %s:%d", path, e.line);
        else if (e.line)
            cli_error("dispatch", "%s:%d: %s", path, e.line, e.msg);
        else
            cli_error("dispatch", "%s: %s", path, e.msg);
        return 2;
    }
    tbl_answer *ans = malloc((b.count ? b.count : 1) * sizeof *ans);
    if (!ans) {
        cli_error("dispatch", "out of memory for %zu answers", b.count);
        dq_batch_free(&b);
        return 1;
    }
    int rc = 0;
    if (dq_batch_answer(t, &b, ans, &bad, err)) {
        cli_error("dispatch", "%s:%d: %s", path, b.rows[bad].line, err);
        rc = 2;
    } else {
        dpr_csv_header(stdout);
        for (size_t i = 0; i < b.count; i++)
            dpr_csv_row(stdout, &b.rows[i].q, &ans[i]);
    }
    dq_batch_free(&b);
    free(ans);
    return rc;
}
