# plots.mk - `make plots`: renders PNG and SVG into plots/out/ from the
# measured datasets (validate/data/*.csv), the shipped studies
# (configs/studies/*.ini, run here) and the dispatcher's cost tables
# (`atomsim export`), installing gnuplot-nox first when gnuplot is missing.
# The expensive steps are files that make keeps while their inputs are
# unchanged (study CSVs, cost tables; prep_validation.sh keeps its sweep).
#   plots/out/contention-GPU             time against contention per pattern
#   plots/out/predicted-vs-measured-GPU  every measured configuration
#   (titles name each config's gpu.trust)
#   plots/out/decision-map-CONFIG        the faster side per cell (cost rule), where
#                                        the seed rule departs from it, its 10% line
#   plots/out/study-*, whatif-l2         the studies; answers.md: their answers
# PLOT_MAX_EVENTS (default 1e6) bounds the simulator per measured row, so
# that the whole target stays within a few minutes on two cores; rows above
# it are skipped and counted (make plots PLOT_MAX_EVENTS=2e9 runs them all,
# slowly).  On a terminal each step says on stderr which it is, "plots:
# step K/N: ...", as atomsim's own progress line does while a study runs;
# piped, or with --no-progress's ATOMSIM_PROGRESS=off, nothing is said.
PLOTS_SAY = { [ -t 2 ] && [ "$${ATOMSIM_PROGRESS:-}" != off ] || [ "$${ATOMSIM_PROGRESS:-}" = force ]; }

PLOTS_OUT := plots/out
PLOTS_DATA := $(PLOTS_OUT)/data
PLOTS_STUDIES := $(PLOTS_DATA)/studies
PLOTS_COSTS := $(PLOTS_DATA)/costs
PLOT_MAX_EVENTS ?= 1e6
STUDY_CSV := $(patsubst configs/studies/%.ini,$(PLOTS_STUDIES)/%.csv,$(sort $(wildcard configs/studies/*.ini)))
# datasets with a config of their own name (the probe runs, h100-mechanisms*,
# are read with configs/h100.ini by hand, not plotted)
PLOT_GPUS := $(foreach g,$(patsubst validate/data/%.csv,%,$(sort $(wildcard validate/data/*.csv))),$(if $(wildcard configs/$(g).ini),$(g)))
# GPU configs: every configs/*.ini but the CPU tiers (cpu-*.ini) and the
# calibration overlays (NAME.calibrated.ini)
PLOT_CONFIGS := $(filter-out cpu-% %.calibrated,$(patsubst configs/%.ini,%,$(sort $(wildcard configs/*.ini))))
PLOT_COSTS := $(PLOT_CONFIGS:%=$(PLOTS_COSTS)/%-costs.csv)
# the steps of the plots recipe: one per GPU dataset, one per config, the
# studies' plots and their answers (the study CSVs and cost tables before
# them count their own, "study K/N", "cost table K/N")
PLOT_STEPS := $(words $(PLOT_GPUS) $(PLOT_CONFIGS) studies answers)
# sim,model when the model answers, sim alone otherwise (decided when run)
PLOT_ENGINES = $$($(B)/atomsim run --engine model --pattern counter --n 1024 >/dev/null 2>&1 && echo sim,model || echo sim)

.PHONY: plots plots-gnuplot plots-studies
plots: plots-gnuplot $(B)/atomsim $(STUDY_CSV) $(PLOT_COSTS)
	@start=$$(date +%s); set -e; k=0; n=$(PLOT_STEPS); \
	step() { k=$$((k + 1)); ! $(PLOTS_SAY) || echo "plots: step $$k/$$n: $$*" >&2; }; \
	for g in $(PLOT_GPUS); do \
	  step "$$g: predicting its measured rows (PLOT_MAX_EVENTS=$(PLOT_MAX_EVENTS)), contention and predicted-vs-measured"; \
	  ATOMSIM=$(B)/atomsim PLOT_MAX_EVENTS=$(PLOT_MAX_EVENTS) bash plots/prep_validation.sh $$g $(PLOTS_DATA); \
	  tr=$$($(B)/atomsim config --dump --config configs/$$g.ini | sed -n 's/^trust = //p'); \
	  gnuplot -e "gpu='$$g'; trust=\"$$tr\"; datadir='$(PLOTS_DATA)'; out='$(PLOTS_OUT)/contention-$$g'" plots/contention.gp; \
	  gnuplot -e "gpu='$$g'; trust=\"$$tr\"; datadir='$(PLOTS_DATA)'; out='$(PLOTS_OUT)/predicted-vs-measured-$$g'" plots/predicted_vs_measured.gp; \
	done; \
	for c in $(PLOT_CONFIGS); do \
	  step "$$c: decision map"; \
	  t=$(PLOTS_COSTS)/$$c-costs.csv; d=$(PLOTS_DATA)/decisions-$$c; tr=$$($(B)/atomsim config --dump --config configs/$$c.ini | sed -n 's/^trust = //p'); \
	  if bash plots/prep_decisions.sh $$t $$d-compaction compaction selectivity wg=256 smem_per_wg=0 && \
	     bash plots/prep_decisions.sh $$t $$d-histogram histogram bins hot=0 wg=256 smem_per_wg=0; then \
	    gnuplot -e "out='$(PLOTS_OUT)/decision-map-$$c'; panels=2; title=\"$$c ($$tr): the faster side by predicted cost, and where the seed rule departs from it (atomsim export, wg = 256, no extra shared memory)\"; d1='$$d-compaction'; t1='compaction'; d2='$$d-histogram'; t2='histogram (hot = 0)'" plots/decision_map.gp; \
	  fi; \
	done; \
	step "the studies' plots"; \
	bash plots/studies.sh $(PLOTS_STUDIES) $(PLOTS_DATA)/series $(PLOTS_OUT) $(PLOTS_COSTS); \
	step "the studies' answers (answers.md)"; \
	bash plots/answers.sh $(PLOTS_STUDIES) $(PLOTS_COSTS) >$(PLOTS_OUT)/answers.md; \
	echo "plots: $$(ls $(PLOTS_OUT)/*.png | wc -l) PNG (and as many SVG) in $(PLOTS_OUT)/, answers in $(PLOTS_OUT)/answers.md ($$(( $$(date +%s) - start )) s to render)"

# gnuplot-nox when gnuplot is missing (Debian; sudo when not root)
plots-gnuplot:
	@command -v gnuplot >/dev/null 2>&1 || { \
	  echo "installing gnuplot-nox"; SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq gnuplot-nox >/dev/null \
	    || { echo "error: could not install gnuplot-nox" >&2; exit 1; }; }

plots-studies: $(STUDY_CSV)

# a study's CSV ([outputs] csv = NAME.csv), remade when the study, atomsim or
# a config the study lists changes; the model joins in when it answers
.SECONDEXPANSION:
$(PLOTS_STUDIES)/%.csv: configs/studies/%.ini $(B)/atomsim \
    $$(shell sed -n 's/^configs *= *//p' configs/studies/$$*.ini | tr ',' ' ')
	@! $(PLOTS_SAY) || echo "plots: study $$(printf '%s\n' $(STUDY_CSV) | grep -nxF '$@' | cut -d: -f1)/$(words $(STUDY_CSV)): $*" >&2
	@$(B)/atomsim study $< --out-dir $(PLOTS_STUDIES) --engine $(PLOT_ENGINES)

# the dispatcher's cost table of one config, its provenance (the seed rule's
# threshold, the decision's rule) in $@.meta.json beside it; a failing
# export leaves no file (its decision map is then skipped with a note)
$(PLOTS_COSTS)/%-costs.csv: configs/%.ini $(B)/atomsim
	@mkdir -p $(dir $@)
	@! $(PLOTS_SAY) || echo "plots: cost table $$(printf '%s\n' $(PLOT_COSTS) | grep -nxF '$@' | cut -d: -f1)/$(words $(PLOT_COSTS)): $*" >&2
	@$(B)/atomsim export --config $< --format csv --output $@ 2>$@.log \
	  || { echo "decision map $*: atomsim export failed ($$(head -1 $@.log)); map skipped"; }
