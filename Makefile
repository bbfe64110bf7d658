# atomsim - top-level build.  `make run` and `make test` install what is
# missing (Debian packages), build, then run the default study / every test.

CC      ?= cc
CSTD    := -std=c11 -D_GNU_SOURCE
WARN    := -Wall -Wextra -Wshadow -Wno-unused-parameter -Wno-format-truncation
OPT     ?= -O2 -g
# No fused multiply-add: the C header `export --format c-header` generates
# answers bit for bit like the library only if neither side contracts.
FPFLAGS := -ffp-contract=off
CFLAGS  += $(CSTD) $(WARN) $(OPT) $(FPFLAGS)
LDLIBS  := -lgsl -lgslcblas -linih -lcjson -lm -lpthread

PACKAGES := build-essential pkg-config python3 libgsl-dev libcmocka-dev libinih-dev libcjson-dev \
            libvulkan-dev glslc mesa-vulkan-drivers gnuplot-nox spirv-tools parallel valgrind \
            clang libclang-rt-14-dev mandoc

MODEL_SRC := $(sort $(wildcard model/*.c))
ENGINE_SRC := $(sort $(wildcard sim/*.c sim/patterns/*.c))
VALIDATE_SRC := $(sort $(wildcard validate/*.c))
# What several layers share and none owns: the worker pool, the CSV line
# splitter and the monotonic clock (util/clock.h, header only).
UTIL_SRC := $(sort $(wildcard util/*.c))
CLI_SRC := $(sort $(wildcard app/*.c))
# The public C API (include/atomsim/dispatch.h) over the model's tables.
API_SRC := $(sort $(wildcard api/*.c))

B := build
MODEL_OBJ := $(MODEL_SRC:%.c=$(B)/obj/%.o)
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(B)/obj/%.o)
VALIDATE_OBJ := $(VALIDATE_SRC:%.c=$(B)/obj/%.o)
UTIL_OBJ := $(UTIL_SRC:%.c=$(B)/obj/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(B)/obj/%.o)
API_OBJ := $(API_SRC:%.c=$(B)/obj/%.o)
LIB_OBJ := $(MODEL_OBJ) $(ENGINE_OBJ) $(VALIDATE_OBJ) $(UTIL_OBJ) $(API_OBJ)

.PHONY: all deps run test bench clean asan validate-full calibrate-check examples lib golden-update accuracy docs-keys
all: $(B)/atomsim $(B)/vkbench

# Installs the Debian packages the project needs, once per machine, and
# again when this file (PACKAGES) changes: a package added later (mandoc)
# reaches checkouts whose stamp predates it.
deps: $(B)/.deps
$(B)/.deps: Makefile
	@mkdir -p $(B)
	@missing=""; for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null \
	    || { echo "error: could not install:$$missing" >&2; exit 1; }; \
	fi
	@touch $@

$(B)/obj/%.o: %.c | $(B)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/libatomsim.a: $(LIB_OBJ)
	ar rcs $@ $^

$(B)/atomsim: $(CLI_OBJ) $(B)/libatomsim.a
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(B)/libatomsim.a $(LDLIBS)

lib: $(B)/libatomsim.a

# The C lookup's speed, built as a user's code would be (make bench).
$(B)/bench/lookup_bench: bench/lookup_bench.c include/atomsim/dispatch.h $(B)/libatomsim.a | $(B)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Iinclude -o $@ $< $(B)/libatomsim.a $(API_LDLIBS)

# The examples build as a user's code would: the public header through -I,
# the library and its own dependencies only.
EXAMPLE_SRC := $(sort $(wildcard examples/*.c))
EXAMPLE_BIN := $(EXAMPLE_SRC:examples/%.c=$(B)/examples/%)
# inih because the table loader's object pulls the config parser in with it.
API_LDLIBS := -lcjson -linih -lm
examples: $(EXAMPLE_BIN)
$(B)/examples/%: examples/%.c include/atomsim/dispatch.h $(B)/libatomsim.a | $(B)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Iinclude -o $@ $< $(B)/libatomsim.a $(API_LDLIBS)

-include util/version.mk
-include install.mk
-include app/man.mk
-include validate/vkbench.mk
-include validate/cpubench.mk
-include plots/plots.mk
-include tables/tables.mk
-include tests/tests.mk
-include tests/long/model_vs_sim.mk
-include tests/fuzz/fuzz.mk

run: $(B)/atomsim
	@bash app/default_study.sh $(B)/atomsim configs/h100.ini

# Speed and memory figures: the simulator (bench/sim_bench.sh) and the model.
bench: $(B)/atomsim $(B)/bench/lookup_bench
	@$(B)/atomsim export --config configs/h100.ini --output $(B)/bench/h100.json && $(B)/bench/lookup_bench $(B)/bench/h100.json
	@bash bench/sim_bench.sh $(B)/atomsim
	@bash bench/sim_limits_bench.sh $(B)/atomsim
	@ATOMSIM=$(B)/atomsim bash bench/model_bench.sh
	@ATOMSIM=$(B)/atomsim bash bench/sweep_bench.sh
	@bash bench/sim_cas_bench.sh $(B)/atomsim

# Every measured row against the simulator (about 10 minutes on 2 cores).
validate-full: $(B)/atomsim
	$(B)/atomsim validate --config configs/h100.ini --data validate/data/h100.csv --max-events 2e7
	$(B)/atomsim validate --config configs/h200.ini --data validate/data/h200.csv --max-events 2e7

# Both engines against every measured set, in-sample and frozen apart
# (validate/accuracy.sh): docs/accuracy/*.csv and the block of
# docs/accuracy.md made from them.  About 50 minutes on 2 cores, 11.5 on 16; ACCURACY_JOBS
# workers (default: the online CPUs).
accuracy: $(B)/atomsim
	bash validate/accuracy.sh collect $(B)/atomsim $(ACCURACY_JOBS)
	bash validate/accuracy.sh splice

# Reruns the calibration on the stored data and checks that it reproduces
# the committed overlay (configs/h100.calibrated.ini); about 20 minutes on 2 cores.
calibrate-check: $(B)/atomsim
	bash tests/long/calibrate_reproduce.sh $(B)/atomsim

# Rewrites tests/golden/expected/ from today's binary: for a change meant to
# move outputs; `git diff tests/golden` then shows what moved.
golden-update: $(B)/atomsim
	@ATOMSIM=$(B)/atomsim GOLDEN_UPDATE=1 bash tests/golden.sh

# The config key reference, written from the option table: after a key is
# added or changed there, so tests/config_keys_fresh.sh passes again.
docs-keys: $(B)/atomsim
	$(B)/atomsim config --format markdown >docs/config-keys.md.tmp && mv docs/config-keys.md.tmp docs/config-keys.md

clean:
	rm -rf $(B) plots/out

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)
