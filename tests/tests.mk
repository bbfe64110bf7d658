# tests.mk - `make test`: cmocka unit tests (tests/unit/test_*.c, one binary
# each) and end-to-end scripts (tests/*.sh, run with ATOMSIM and VKBENCH set).
# Each script exits non-zero on failure; the runner prints "N passed, M failed".

UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
UNIT_HDR := $(wildcard tests/unit/*.h)
# The unit tests may call into the CLI's helpers too (all but its main).
UNIT_LINK_OBJ := $(filter-out $(B)/obj/app/atomsim.o,$(CLI_OBJ))
# run_all.sh is the runner itself, not a test.
E2E_SCRIPTS := $(filter-out tests/run_all.sh,$(sort $(wildcard tests/*.sh)))

$(B)/tests/%: tests/unit/%.c $(UNIT_HDR) $(UNIT_LINK_OBJ) $(B)/libatomsim.a | $(B)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(UNIT_LINK_OBJ) $(B)/libatomsim.a $(LDLIBS) -lcmocka

# The memory estimate's test counts every allocation the engine makes.
$(B)/tests/test_engine_memory: tests/unit/test_engine_memory.c $(UNIT_HDR) $(UNIT_LINK_OBJ) $(B)/libatomsim.a | $(B)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(UNIT_LINK_OBJ) $(B)/libatomsim.a $(LDLIBS) -lcmocka \
	  -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free

test: $(B)/.deps all $(UNIT_BIN) $(B)/cpubench
	@ATOMSIM=$(B)/atomsim VKBENCH=$(B)/vkbench CPUBENCH=$(B)/cpubench bash tests/run_all.sh $(UNIT_BIN) -- $(E2E_SCRIPTS)

# Sanitizer build: the same tests against an ASan/UBSan build in build-asan/.
# Any sanitizer report fails the test that triggered it (halt_on_error, and
# UBSan does not recover), leaks included.
asan:
	ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:exitcode=86 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(MAKE) B=build-asan OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" test

# The public C API (include/atomsim/dispatch.h): its tests read one export
# of configs/h100.ini, with both sides' error bands, as JSON and as the
# generated C header, and the example builds beside them.  The header
# compiles into its test (about 2 s).
CAPI_DIR := $(B)/tests/c_api
CAPI_CPU_ROWS := validate/truth/routing-3-cpu-h100host-16core.csv validate/truth/routing-4-cpu-h100host-16core.csv
CAPI_EXPORT := --config configs/h100.ini --residuals validate/data/h100.csv $(foreach f,$(CAPI_CPU_ROWS),--cpu-residuals $(f))
CAPI_INPUTS := $(B)/atomsim configs/h100.ini validate/data/h100.csv $(CAPI_CPU_ROWS)
$(CAPI_DIR)/h100.json: $(CAPI_INPUTS)
	@mkdir -p $(dir $@)
	$(B)/atomsim export $(CAPI_EXPORT) --output $@
$(CAPI_DIR)/h100.h: $(CAPI_INPUTS)
	@mkdir -p $(dir $@)
	$(B)/atomsim export $(CAPI_EXPORT) --format c-header --output $@

# Built as a user would: the public header through -I, the library and its
# own dependencies, no model header.
$(B)/tests/test_c_api: tests/unit/test_c_api.c include/atomsim/dispatch.h $(B)/libatomsim.a $(CAPI_DIR)/h100.json | $(B)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Iinclude -DCAPI_TABLE='"$(CAPI_DIR)/h100.json"' -o $@ $< $(B)/libatomsim.a $(API_LDLIBS) -lpthread -lcmocka \
	  -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
$(B)/tests/test_c_api_header: tests/unit/test_c_api_header.c include/atomsim/dispatch.h $(B)/libatomsim.a \
                              $(CAPI_DIR)/h100.json $(CAPI_DIR)/h100.h | $(B)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Iinclude -I$(CAPI_DIR) -DCAPI_TABLE='"$(CAPI_DIR)/h100.json"' -o $@ $< $(B)/libatomsim.a $(API_LDLIBS)

test: $(EXAMPLE_BIN)

# Cost-table baselines (tests/baselines/README.md): every cell of the model's
# table of each GPU whose table ships (tables/), held to the committed file.
# baseline-check fails when a cell moved past its tolerance, a decision
# flipped or the config changed; after a change meant to move them,
# baseline-update rewrites the files and `git diff tests/baselines` shows
# what moved.  tests/baseline_check.sh runs the check in `make test`.
BASELINE_GPUS := h100 h200
.PHONY: baseline-check baseline-update
baseline-check: $(B)/atomsim
	@rc=0; for g in $(BASELINE_GPUS); do \
	  $(B)/atomsim check --config configs/$$g.ini --baseline tests/baselines/$$g.baseline || rc=1; done; exit $$rc
baseline-update: $(B)/atomsim
	@for g in $(BASELINE_GPUS); do \
	  $(B)/atomsim check --config configs/$$g.ini --write-baseline tests/baselines/$$g.baseline || exit 1; \
	  echo "tests/baselines/$$g.baseline: written from configs/$$g.ini"; done
