/* plan_draw.h - random harness plans (`atomsim plan --random`): a
 * reproducible sample of configurations over every pattern, each inside the
 * harness range of its parameters (model/params.c), so that every row runs
 * on vkbench, cpubench and atomsim alike.  The hand-made plans in
 * validate/plans sweep one axis at a time around the contract's defaults; a
 * random sample tests the model where nobody thought to look.
 *
 *   pln_spec s;
 *   pln_spec_defaults(&s);                  then the ranges, seed, rows, patterns
 *   pln_check(&s, err);                     ranges that leave a pattern nothing to draw
 *   pln_drawer_new(&s, &d);
 *   for (i < s.rows) pln_draw(d, &row);     rows in the plan's order
 *   pln_repeats(d); pln_drawer_free(d);
 *
 * The rows are written by plan_write.h.  Fractions are kept as integers on
 * their grid (selectivity in millionths, as the contract's round(S*1e6)
 * threshold; hot in thousandths), so that a plan prints exactly the value
 * that was drawn. */
#ifndef ATOM_VALIDATE_PLAN_DRAW_H
#define ATOM_VALIDATE_PLAN_DRAW_H

#include <stddef.h>
#include <stdint.h>

#include "../model/config.h"
#include "../model/params.h"

#define PLN_MAX_ROWS 1000000ull
/* A configuration drawn before is drawn again at most this often: vkbench
 * runs a repeated configuration once, so repeats only shrink the dataset,
 * but ranges too narrow for the rows asked must not loop forever. */
#define PLN_MAX_REDRAWS 64
/* The grids of the fractions: selectivity in millionths, hot in thousandths. */
#define PLN_SEL_SCALE 1e6
#define PLN_HOT_SCALE 1e3

/* The integer axes.  Each domain is the parameter's harness range. */
enum pln_axis { PLN_AX_N, PLN_AX_WG, PLN_AX_SMEM, PLN_AX_BINS, PLN_AX_CAS_BINS, PLN_AX_ADDRESSES, PLN_AX_COUNT };

typedef struct pln_range {
    uint64_t lo, hi;                  /* both ends included */
} pln_range;

typedef struct pln_spec {
    uint64_t seed;                    /* [1, 2^32 - 1]: mt19937 keeps 32 bits */
    uint64_t rows;
    pln_range ax[PLN_AX_COUNT];
    pln_range sel;                    /* millionths */
    pln_range hot;                    /* thousandths */
    enum pat_id pats[PAT_COUNT];      /* dealt in rounds, each once a round */
    int npat;
    double max_cas;                   /* a CAS row whose hottest word more threads race on is drawn again */
} pln_spec;

/* One configuration: every parameter set, the ones its pattern ignores to
 * the contract's defaults. */
typedef struct pln_row {
    enum pat_id pattern;
    uint32_t n, wg, sel, bins, hot, addresses, smem; /* sel in millionths, hot in thousandths */
} pln_row;

/* The axis's flag without its dashes ("n-range") and its domain. */
const char *pln_axis_flag(enum pln_axis ax);
void pln_axis_domain(enum pln_axis ax, double *lo, double *hi);

/* Every pattern, the default ranges, max_cas 2^17; seed and rows 0 (unset). */
void pln_spec_defaults(pln_spec *s);

/* The plan's numbers: decimal, 2^E or 1eE integers, never octal or hex (a
 * range typed as 010 almost surely meant ten), nor a sign or space that
 * strtoull would skip.  0 or -1. */
int pln_parse_int(const char *text, uint64_t *out);

/* LO..HI of an integer axis, inside pln_axis_domain, LO <= HI: 0, or -1
 * with err the line to print, naming the axis's flag. */
int pln_parse_int_range(enum pln_axis ax, const char *text, pln_range *r, char err[CFG_ERR_MAX]);
/* LO..HI of decimal fractions in [0, 1] on a grid of `scale` steps, kept in
 * steps: 0, or -1 with err naming --flag. */
int pln_parse_fraction_range(const char *flag, const char *text, double scale, pln_range *r, char err[CFG_ERR_MAX]);
/* The patterns' list is pat_parse_list's (model/params.h), as every
 * command's is. */

/* Ranges that leave some listed pattern nothing to draw: 0, or -1 with one
 * line in err naming the flags. */
int pln_check(const pln_spec *s, char err[CFG_ERR_MAX]);

typedef struct pln_drawer pln_drawer;

/* A drawer of s's rows (GSL's mt19937 seeded with s->seed), or -1 out of
 * memory.  The same spec gives the same rows on the same build. */
int pln_drawer_new(const pln_spec *s, pln_drawer **out);
/* The next row of the plan. */
void pln_draw(pln_drawer *d, pln_row *out);
/* Rows so far that repeat an earlier one after PLN_MAX_REDRAWS redraws. */
uint64_t pln_repeats(const pln_drawer *d);
void pln_drawer_free(pln_drawer *d);

/* A drawn row as the contract's parameters (defaults, then every column;
 * the fractions' grid steps divided exactly), as plan's CSV and
 * check --against sim read it. */
void pln_row_params(const pln_row *w, pat_params *p);

#endif
