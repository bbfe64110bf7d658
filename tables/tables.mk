# tables.mk - `make tables`: the shipped cost tables, one per calibrated GPU,
# exported by the analytical model against the GPU host's 16-core CPU tier,
# with error bands from the GPU's contract datasets (docs/dispatch.md).
# A model-made table takes under a second on one core; tests/tables_fresh.sh
# fails when a committed table differs from what this rule makes.
TABLE_CPU := configs/cpu-gpuhost-16core.ini
TABLE_RESIDUALS_h100 := validate/data/h100.csv validate/data/h100-wg-sizes-2.csv \
                        validate/data/h100-split-exit-2.csv validate/data/h100-occupancy-probe.csv
TABLE_RESIDUALS_h200 := validate/data/h200.csv validate/data/h200-occupancy-probe.csv

# The export's arguments for GPU $(1); `make -s table-args-h100` prints them
# (tests/tables_fresh.sh remakes a table with them).
table_args = --config configs/$(1).ini --cpu $(TABLE_CPU) $(foreach f,$(TABLE_RESIDUALS_$(1)),--residuals $(f))

.PHONY: tables
tables: tables/h100.json tables/h200.json

table-args-%:
	@echo $(call table_args,$*)

tables/%.json: $(B)/atomsim configs/%.ini $(wildcard configs/*.ini) $(TABLE_CPU) $(TABLE_RESIDUALS_h100) $(TABLE_RESIDUALS_h200)
	@start=$$(date +%s.%N); \
	$(B)/atomsim export $(call table_args,$*) --output $@.tmp && mv $@.tmp $@; \
	end=$$(date +%s.%N); \
	echo "$@: atomsim export $(call table_args,$*)"; \
	awk -v s=$$start -v e=$$end -v b=$$(stat -c %s $@) -v t=$@ \
	  'BEGIN { printf "%s: %d bytes, %.2f s on one core (%.6f core-hours)\n", t, b, e - s, (e - s) / 3600 }'
