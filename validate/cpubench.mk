# cpubench.mk - builds build/cpubench, the CPU tier's pthreads benchmark
# (validate/cpubench/).  Static, so that the GPU host, which has no C
# toolchain, can run the binary built here.  Included by the top-level
# Makefile; also usable alone: make -f validate/cpubench.mk build/cpubench
B ?= build
# model/params.c: the contract's pattern names and flags, so that a plan
# means to cpubench what it means to vkbench and atomsim; params_csv.c: the
# table's CSV columns and the grid order vkbench expands a plan in; util/
# lines.c: the bounded line reader plans are read through.
CPB_SRC := $(sort $(wildcard validate/cpubench/*.c)) model/params.c model/params_csv.c util/num.c util/lines.c \
           util/version.c
# The commit, and the tree when the checkout differs from it, as vkbench.mk
# computes it (taken from there when the top-level Makefile included it):
# `git log --format='%h %t'` names the commit whose tree it is.
ifdef VKB_COMMIT
CPB_COMMIT := $(VKB_COMMIT)
else
CPB_COMMIT := $(shell h=$$(git rev-parse --short HEAD 2>/dev/null) || h=unknown; \
                if [ "$$h" != unknown ] && { ! git diff --quiet HEAD 2>/dev/null || \
                   [ -n "$$(git ls-files -o --exclude-standard | head -1)" ]; }; then \
                  i=$$(mktemp -u); \
                  t=$$(GIT_INDEX_FILE=$$i git add -A 2>/dev/null && GIT_INDEX_FILE=$$i git write-tree); \
                  rm -f $$i; h="$$h+tree:$$(echo $$t | cut -c1-7)"; \
                fi; echo $$h)
endif
# The version util/version.mk computes, or the same computation alone.
ifdef ATOM_VERSION
CPB_VERSION := $(ATOM_VERSION)
else
CPB_VERSION := $(shell v=$$(git describe --tags --always --dirty 2>/dev/null) && [ -n "$$v" ] && echo "$$v" || \
                 { [ -r VERSION ] && head -1 VERSION; } || echo unknown)
endif
# What `cpubench --version` reports as its flags: how it was compiled, not
# the defines that name the build.
CPB_BUILD_FLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Wall -Wextra -O3 -g -static -pthread
CPB_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Wall -Wextra -O3 -g \
              -DCPB_COMMIT='"$(CPB_COMMIT)"' -DATOM_VERSION='"$(CPB_VERSION)"' -DATOM_CFLAGS='"$(CPB_BUILD_FLAGS)"'

# Rewritten only when the version or the flags move, so cpubench relinks then.
$(B)/gen/cpb_version.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(CPB_VERSION) $(CC) $(CPB_BUILD_FLAGS)' | cmp -s - $@ || echo '$(CPB_VERSION) $(CC) $(CPB_BUILD_FLAGS)' > $@
.PHONY: FORCE
FORCE:

$(B)/cpubench: $(CPB_SRC) $(wildcard validate/cpubench/*.h) model/params.h model/params_csv.h model/cpu_copies.h util/clock.h util/num.h util/lines.h \
               util/version.h $(B)/gen/cpb_version.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CPB_CFLAGS) -static -pthread -o $@ $(CPB_SRC) -lm

# Measures this host's CPU tier into configs/cpu-$(HOST_NAME).ini, with the
# raw timings beside it in validate/cpubench/data/ (validate/README.md,
# "cpubench").  HOST_NAME names the machine and its worker count; each
# figure is the median of CPU_RUNS separate runs (validate/run_truth.sh).
CPU_RUNS ?= 9
HOST_NAME ?= $(shell hostname -s)-$(shell getconf _NPROCESSORS_ONLN)core
.PHONY: cpu-config
cpu-config: $(B)/cpubench
	CPUBENCH=$(B)/cpubench bash validate/run_truth.sh cpu-config validate/cpubench/data cpu-$(HOST_NAME) $(CPU_RUNS)
	cp validate/cpubench/data/cpu-$(HOST_NAME).ini configs/cpu-$(HOST_NAME).ini
	@echo "wrote configs/cpu-$(HOST_NAME).ini: atomsim export --config configs/GPU.ini --cpu configs/cpu-$(HOST_NAME).ini"
