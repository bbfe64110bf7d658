# validate/vkbench.mk: builds build/vkbench, the Vulkan harness.
# Included by the top-level Makefile; also works alone:
#   make -f validate/vkbench.mk build/vkbench
# Shaders are compiled with glslc (one SPIR-V module per pattern from
# validate/shaders/patterns.comp, plus clock.comp for the clock guard) and
# embedded as C arrays, so the binary
# alone is enough on a GPU machine without Vulkan headers or glslc.
# Variables are VKB_-prefixed so they cannot clash with the includer's.
# Outputs go under $(B) when the includer sets it (make asan uses
# build-asan), else under build/.

VKB_B       := $(or $(B),build)

VKB_CC      := cc
VKB_GLSLC   := glslc
# The commit, and when the checkout differs from it (the GPU machine gets
# the session's first commit with the working tree laid over it) also the
# tree actually built: `git log --format='%h %t'` names its commit.
VKB_COMMIT  := $(shell h=$$(git rev-parse --short HEAD 2>/dev/null) || h=unknown; \
                 if [ "$$h" != unknown ] && { ! git diff --quiet HEAD 2>/dev/null || \
                    [ -n "$$(git ls-files -o --exclude-standard | head -1)" ]; }; then \
                   i=$$(mktemp -u); \
                   t=$$(GIT_INDEX_FILE=$$i git add -A 2>/dev/null && GIT_INDEX_FILE=$$i git write-tree); \
                   rm -f $$i; h="$$h+tree:$$(echo $$t | cut -c1-7)"; \
                 fi; echo $$h)
# The flags `vkbench --version` reports (the defines and paths after them
# name this build, not how it was compiled).
VKB_BUILD_FLAGS := -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L
VKB_CFLAGS  := $(VKB_BUILD_FLAGS) \
               -DVKB_COMMIT="\"$(VKB_COMMIT)\"" -I$(VKB_B)/gen -MMD -MP
# The version util/version.mk computes, or the same computation when this
# file is used alone.
ifdef ATOM_VERSION
VKB_VERSION := $(ATOM_VERSION)
else
VKB_VERSION := $(shell v=$$(git describe --tags --always --dirty 2>/dev/null) && [ -n "$$v" ] && echo "$$v" || \
                 { [ -r VERSION ] && head -1 VERSION; } || echo unknown)
endif
VKB_LDLIBS  := -lvulkan -lm

VKB_SRC     := $(wildcard validate/vkbench/*.c)
# model/params.c: the contract's table of pattern parameters (flags, kinds,
# defaults, the harnesses' ranges), and model/params_csv.c: its CSV columns
# and the grid order, with util/num.c, the strict number parser they read
# through, and util/lines.c, the bounded line reader plans are read with,
# as validate/cpubench.mk links them; they need nothing but the C library.
VKB_OBJ     := $(patsubst validate/vkbench/%.c,$(VKB_B)/vkbench.obj/%.o,$(VKB_SRC)) \
               $(VKB_B)/vkbench.obj/model_params.o $(VKB_B)/vkbench.obj/model_params_csv.o \
               $(VKB_B)/vkbench.obj/util_num.o $(VKB_B)/vkbench.obj/util_lines.o \
               $(VKB_B)/vkbench.obj/util_version.o
VKB_PATTERNS := store counter counter_aggregated compaction histogram \
               histogram_shared histogram_u8_cas histogram_u16_cas \
               cas_append bitmask reduce distinct_lines
# vkbench --trace swaps these patterns for a module compiled with -DTRACE
VKB_TRACED  := cas_append bitmask
# and every probe option (--select-unit, --tail, --spin, --cas-first,
# --count-cas) for one compiled with -DPROBES: the contract's modules hold no
# probe code
VKB_MODULES := $(VKB_PATTERNS) clock $(VKB_TRACED:%=trace_%) $(VKB_PATTERNS:%=probe_%)
VKB_SPV     := $(VKB_MODULES:%=$(VKB_B)/gen/spv/%.spv)
VKB_SHADER  := validate/shaders/patterns.comp

$(VKB_B)/vkbench: $(VKB_OBJ)
	$(VKB_CC) -o $@ $(VKB_OBJ) $(VKB_LDLIBS)

$(VKB_B)/vkbench.obj/%.o: validate/vkbench/%.c $(VKB_B)/gen/vkb_commit.stamp | $(VKB_B)/vkbench.obj
	$(VKB_CC) $(VKB_CFLAGS) -c -o $@ $<

$(VKB_B)/vkbench.obj/model_params.o: model/params.c $(VKB_B)/gen/vkb_commit.stamp | $(VKB_B)/vkbench.obj
	$(VKB_CC) $(VKB_CFLAGS) -c -o $@ $<

$(VKB_B)/vkbench.obj/model_params_csv.o: model/params_csv.c $(VKB_B)/gen/vkb_commit.stamp | $(VKB_B)/vkbench.obj
	$(VKB_CC) $(VKB_CFLAGS) -c -o $@ $<

$(VKB_B)/vkbench.obj/util_num.o: util/num.c $(VKB_B)/gen/vkb_commit.stamp | $(VKB_B)/vkbench.obj
	$(VKB_CC) $(VKB_CFLAGS) -c -o $@ $<

$(VKB_B)/vkbench.obj/util_lines.o: util/lines.c $(VKB_B)/gen/vkb_commit.stamp | $(VKB_B)/vkbench.obj
	$(VKB_CC) $(VKB_CFLAGS) -c -o $@ $<

# util/version.c: --version.  Rebuilt when the version or the flags move
# (the stamp is rewritten only then).
$(VKB_B)/vkbench.obj/util_version.o: util/version.c util/version.h $(VKB_B)/gen/vkb_version.stamp | $(VKB_B)/vkbench.obj
	$(VKB_CC) $(VKB_CFLAGS) -DATOM_VERSION='"$(VKB_VERSION)"' -DATOM_CFLAGS='"$(VKB_BUILD_FLAGS)"' -c -o $@ $<

$(VKB_B)/gen/vkb_version.stamp: FORCE | $(VKB_B)/gen/spv
	@echo '$(VKB_VERSION) $(VKB_CC) $(VKB_BUILD_FLAGS)' | cmp -s - $@ || echo '$(VKB_VERSION) $(VKB_CC) $(VKB_BUILD_FLAGS)' > $@

# Only vkb_spirv.c includes the generated header; say so before the
# first build has written any dependency file.
$(VKB_B)/vkbench.obj/vkb_spirv.o: $(VKB_B)/gen/vkb_spirv_gen.h

# Under the top-level Makefile, wait for its package installer (glslc,
# the Vulkan headers): with -j, a fresh machine would otherwise race it.
VKB_DEPS    := $(if $(B),$(B)/.deps)
$(VKB_B)/vkbench.obj $(VKB_B)/gen/spv: | $(VKB_DEPS)
	mkdir -p $@

# Rewritten only when HEAD moves, so objects rebuild with the new commit
# and otherwise stay put.
$(VKB_B)/gen/vkb_commit.stamp: FORCE | $(VKB_B)/gen/spv
	@echo '$(VKB_COMMIT)' | cmp -s - $@ || echo '$(VKB_COMMIT)' > $@

$(VKB_B)/gen/spv/%.spv: $(VKB_SHADER) | $(VKB_B)/gen/spv
	$(VKB_GLSLC) --target-env=vulkan1.1 -O \
	    -DPAT_$(shell echo $* | tr a-z A-Z) -o $@ $<

# The --trace modules (the shorter stem wins over the rule above).
$(VKB_B)/gen/spv/trace_%.spv: $(VKB_SHADER) | $(VKB_B)/gen/spv
	$(VKB_GLSLC) --target-env=vulkan1.1 -O -DTRACE \
	    -DPAT_$(shell echo $* | tr a-z A-Z) -o $@ $<

# The probe modules (the shorter stem wins here too).
$(VKB_B)/gen/spv/probe_%.spv: $(VKB_SHADER) | $(VKB_B)/gen/spv
	$(VKB_GLSLC) --target-env=vulkan1.1 -O -DPROBES \
	    -DPAT_$(shell echo $* | tr a-z A-Z) -o $@ $<

# The clock guard's probe and heater has a source of its own.
$(VKB_B)/gen/spv/clock.spv: validate/shaders/clock.comp | $(VKB_B)/gen/spv
	$(VKB_GLSLC) --target-env=vulkan1.1 -O -o $@ $<

# od prints host-order 32-bit words: SPIR-V's own word order on the
# little-endian hosts that build and run this.
$(VKB_B)/gen/vkb_spirv_gen.h: $(VKB_SPV)
	@{ echo '/* Generated from validate/shaders by validate/vkbench.mk. */'; \
	   for p in $(VKB_MODULES); do \
	     echo "static const uint32_t vkb_spv_$$p[] = {"; \
	     od -An -v -tx4 $(VKB_B)/gen/spv/$$p.spv | \
	       sed -e 's/ *\([0-9a-f]\{8\}\)/0x\1u,/g'; \
	     echo '};'; \
	   done; } > $@.tmp && mv $@.tmp $@

.PHONY: FORCE
FORCE:

-include $(VKB_OBJ:.o=.d)
