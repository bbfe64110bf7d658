# tables.mk - `make tables`: the shipped cost tables, one per calibrated GPU,
# against the GPU host's 16-core CPU tier, with the GPU column's error bands
# from the GPU's contract datasets and spent truth sets, and the CPU
# column's from those sets' cpubench runs (docs/dispatch.md).
#
# A table's GPU column is made by the engine TABLE_ENGINE_GPU names. With
# sim, the simulator fills its default scope (docs/dispatch.md, section 6:
# every pattern at n <= 2^22, wg 64/256/1024, 0 and 32 KiB of shared
# memory) and the model the rest; with model, the model fills every cell.
# The simulator's cells cost core-hours, so they are committed as parts in
# tables/sim/GPU/ (part-K-of-N.csv, shard K of an N-way split):
#   make tables          makes each table with its engine, merging the
#                        committed parts when it is sim (seconds);
#                        tests/tables_fresh.sh fails when a committed table
#                        differs from what this makes;
#   make tables-sim-GPU  discards GPU's parts and re-simulates them all
#                        (hours), needed after any change to its config or
#                        to the simulator; tests/tables_sim_cells.sh
#                        re-simulates a sample of committed cells and fails
#                        when they moved or were made from another config.
# The H200's table prices the CPU side with the H200 hosts' own tier: its
# hosts ran the spent sets' CPU plans a median 0.926 of
# the ten-host tier and their cost runs agree (key_ns 0.613 against 0.656
# over the hosts of sets 3-13), so the H200 takes the median of its hosts'
# configs (docs/findings.md 46; held out on truth set 14's five hosts the
# tier's first 14 configs tied the ten-host tier). The H100 keeps the
# ten-host tier: only in-sample evidence would back an H100 one.
TABLE_CPU_h100 := configs/cpu-gpuhost-16core.ini
TABLE_CPU_h200 := configs/cpu-h200host-16core.ini
# The H200 host configs: a cost run that timed distinct-lines' stepped
# increment (lines_ns, docs/findings.md 51), one a truth set's host (sets
# 3-21 and set 10's repeat), the more hosts that ran sets 14's and 15's CPU
# sides, and two cost runs a minute apart that timed bitmask (perhaps one
# machine); the first holds every key.
# `make cpu-tier-h200` rewrites the tier from them; tests/host_tier.sh fails
# when the committed tier is not what they give.
tier_raw = validate/truth/raw
TIER_HOSTS_h200 := $(tier_raw)/cpu-config-lines-1-h200host/cpu-h200host-16core.ini \
                   $(tier_raw)/routing-14-cpu-config-h200host/cpu-h200host-16core.ini \
                   $(foreach k,3 4 5 6 7 8 9 10 11 12 13 15 16 17 18 19 20 21,$(tier_raw)/routing-$(k)-cpu-config-h200host/cpu-h200host-16core.ini) \
                   $(tier_raw)/routing-10-repeat/cpu-config/cpu-h200host-16core.ini \
                   $(foreach k,2 3 4 5,$(tier_raw)/routing-14-hosts/host-$(k)/cc/cpu-h200host-16core.ini) \
                   $(foreach k,2 3 4,$(tier_raw)/routing-15-hosts/host-$(k)/cc/cpu-h200host-16core.ini) \
                   $(tier_raw)/cpu-config-bitmask-1-h200host/cpu-h200host-16core.ini \
                   $(tier_raw)/cpu-config-bitmask-2-h200host/cpu-h200host-16core.ini
# lines_ns is shared from update_l1_ns, the price it stands in for (an L1
# update) and the key a host's speed moves most like it: lines_ns is a
# whole element's price and update_l1_ns an increment beyond key_ns, so
# the share is a ratio of the two, not an extra cost.
TIER_ARGS_h200 := --name cpu-h200host-16core --share bitmask_ns=key_ns --share write_fixed_us=scan_fixed_us \
                  --share lines_ns=update_l1_ns \
                  $(TIER_HOSTS_h200)
# The error bands' rows: the contract datasets, and the routing truth sets
# already scored (spent), whose random shapes are the kind of query a user
# asks.  A truth set joins here only after its held-out scoring: a band
# must not be built from the rows that will test it (docs/dispatch.md,
# "Error bands").
TABLE_SPENT_h100 := 1 2 3 4 5 6 7 8
TABLE_SPENT_h200 := 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21
TABLE_RESIDUALS_h100 := validate/data/h100.csv validate/data/probes/h100-wg-sizes-2.csv \
                        validate/data/probes/h100-split-exit-2.csv validate/data/probes/h100-occupancy-probe.csv \
                        $(foreach k,$(TABLE_SPENT_h100),validate/truth/routing-$(k)-h100.csv)
TABLE_RESIDUALS_h200 := validate/data/h200.csv validate/data/probes/h200-occupancy-probe.csv \
                        $(foreach k,$(TABLE_SPENT_h200),validate/truth/routing-$(k)-h200.csv)
# The CPU column's bands: the cpubench rows of the same spent sets, each
# measured on the host of that set's GPU run (sets 1 and 2 on the H100's
# host measured outside the project, "gpuhost"), one host a set, so that a
# band holds the spread between hosts of one kind as well as the tier's
# own error (docs/findings.md 44).
truth_cpu = $(firstword $(wildcard validate/truth/routing-$(1)-cpu-$(2)host-16core.csv) \
                        validate/truth/routing-$(1)-cpu-gpuhost-16core.csv)
TABLE_CPU_RESIDUALS_h100 := $(foreach k,$(TABLE_SPENT_h100),$(call truth_cpu,$(k),h100))
TABLE_CPU_RESIDUALS_h200 := $(foreach k,$(TABLE_SPENT_h200),$(call truth_cpu,$(k),h200))
# Event budget of a simulator cell: a cell that needs more takes the model's
# time (its source says `m`). A cell over 2e7 events costs 2.7 to 8.3
# CPU-seconds before the model fills it; the config's own 2e8 would cost
# several times the core-hours, nearly all of it in compare-and-swap races
# that end with the model's time anyway.
TABLE_SIM_EVENTS := 2e7
# Shards of tables-sim: parts are committed one file a shard.
TABLE_SIM_SHARDS := 16
TABLE_SIM_JOBS ?= $(shell nproc 2>/dev/null || echo 1)

# Which engine makes each shipped table's GPU column: sim (the committed
# parts, merged) or model (the model alone, for every cell). `make -s
# table-engine-h100` prints it (tests/tables_fresh.sh follows it). A GPU
# stays model until tables/sim/GPU/ holds every cell's part
# (docs/dispatch.md, section 6, says where each stands).
# Both are sim: after the launch-floor change (docs/findings.md 47) every
# cell of both tables was re-simulated (the H100's last 6,638 cells on 16
# cores of a GPU machine, as fine shards coalesced into its 16 parts).
TABLE_ENGINE_h100 := sim
TABLE_ENGINE_h200 := sim

# The export's arguments for GPU $(1); `make -s table-args-h100` prints them
# (tests/tables_fresh.sh and tests/tables_sim_cells.sh use them).
model_args = --config configs/$(1).ini --cpu $(TABLE_CPU_$(1)) $(foreach f,$(TABLE_RESIDUALS_$(1)),--residuals $(f)) \
             $(foreach f,$(TABLE_CPU_RESIDUALS_$(1)),--cpu-residuals $(f))
sim_args = --engine sim --max-events $(TABLE_SIM_EVENTS) $(call model_args,$(1))
table_args = $(if $(filter sim,$(TABLE_ENGINE_$(1))),$(call sim_args,$(1)),$(call model_args,$(1)))
table_parts = $(sort $(wildcard tables/sim/$(1)/part-*.csv))
table_merge = $(if $(filter sim,$(TABLE_ENGINE_$(1))),--merge $(call table_parts,$(1)))

.PHONY: tables tables-sim tables-sim-h100 tables-sim-h200 cpu-tier-h200
cpu-tier-h200:
	bash validate/cpubench/host_tier.sh $(TIER_ARGS_h200) > configs/cpu-h200host-16core.ini.tmp
	mv configs/cpu-h200host-16core.ini.tmp configs/cpu-h200host-16core.ini

tier-args-%:
	@echo $(TIER_ARGS_$*)

tables: tables/h100.json tables/h200.json

table-args-%:
	@echo $(call table_args,$*)

table-sim-args-%:
	@echo $(call sim_args,$*)

table-engine-%:
	@echo $(TABLE_ENGINE_$*)

tables/h100.json: $(if $(filter sim,$(TABLE_ENGINE_h100)),$(call table_parts,h100))
tables/h200.json: $(if $(filter sim,$(TABLE_ENGINE_h200)),$(call table_parts,h200))
tables/%.json: $(B)/atomsim tables/tables.mk configs/%.ini $(wildcard configs/*.ini) $(TABLE_CPU_h100) $(TABLE_CPU_h200) $(TABLE_RESIDUALS_h100) $(TABLE_RESIDUALS_h200) \
             $(TABLE_CPU_RESIDUALS_h100) $(TABLE_CPU_RESIDUALS_h200)
	@if [ "$(TABLE_ENGINE_$*)" = sim ] && [ -z "$(call table_parts,$*)" ]; then \
	    echo "make: tables/sim/$*/ holds no parts: run make tables-sim-$* (hours)" >&2; exit 2; fi
	@start=$$(date +%s.%N); \
	$(B)/atomsim export $(call table_args,$*) $(call table_merge,$*) --output $@.tmp 2>$@.err \
	  || { cat $@.err >&2; rm -f $@.err $@.tmp; \
	       echo "make: atomsim export failed for $@$(if $(filter sim,$(TABLE_ENGINE_$*)), (if tables/sim/$*/ was made from another config: make tables-sim-$*; hours))" >&2; exit 2; }; \
	mv $@.tmp $@; rm -f $@.err; \
	end=$$(date +%s.%N); \
	echo "$@: atomsim export $(call table_args,$*) $(if $(filter sim,$(TABLE_ENGINE_$*)),--merge tables/sim/$*/part-*.csv)"; \
	if [ "$(TABLE_ENGINE_$*)" = sim ]; then \
	awk -F, -v s=$$start -v e=$$end -v b=$$(stat -c %s $@) -v t=$@ \
	  '/^[0-9]/ { cpu += $$12; if ($$10 == "s") sim++; else mdl++ } \
	   END { printf "%s: %d bytes, merged in %.2f s; its %d simulator cells (%d more left to the model over the event budget) took %.2f core-hours (make tables-sim)\n", \
	         t, b, e - s, sim, mdl, cpu / 3600 }' $(call table_parts,$*); \
	else \
	awk -v s=$$start -v e=$$end -v b=$$(stat -c %s $@) -v t=$@ \
	  'BEGIN { printf "%s: %d bytes, model-made in %.2f s on one core (%.6f core-hours)\n", t, b, e - s, (e - s) / 3600 }'; \
	fi

tables-sim: tables-sim-h100 tables-sim-h200

# Discards GPU's parts and re-simulates every shard, $(TABLE_SIM_JOBS) at a
# time, one core each, then remakes its table with the engine
# TABLE_ENGINE_GPU names. A static pattern rule: phony targets take no
# implicit rule.
tables-sim-h100 tables-sim-h200: tables-sim-%: $(B)/atomsim
	@mkdir -p tables/sim/$*
	@rm -f tables/sim/$*/part-*.csv tables/sim/$*/part-*.tmp
	@start=$$(date +%s); \
	seq -w 1 $(TABLE_SIM_SHARDS) | xargs -P $(TABLE_SIM_JOBS) -I {} sh -c \
	  'p=tables/sim/$*/part-{}-of-$(TABLE_SIM_SHARDS).csv; \
	   $(B)/atomsim export $(call sim_args,$*) -j 1 --shard $$(expr {} + 0)/$(TABLE_SIM_SHARDS) --output $$p.tmp \
	     && mv $$p.tmp $$p' \
	  || { rm -f tables/sim/$*/part-*.tmp; exit 1; }; \
	echo "tables-sim-$*: $$(( $$(date +%s) - start )) s wall on $(TABLE_SIM_JOBS) workers"
	@$(MAKE) --no-print-directory tables/$*.json
