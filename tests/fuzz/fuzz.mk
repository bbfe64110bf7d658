# tests/fuzz/fuzz.mk - libFuzzer targets for the input readers (issue 24;
# docs/robustness.md).  Included by the top-level Makefile.
#
#   make fuzz FUZZ_SECONDS=N   build every target into build-fuzz/, fuzz each
#                              for N seconds (default 60), print the report;
#                              crashing inputs land in tests/fuzz/regress/<target>/
#   make fuzz-smoke            a few seconds of each, then every committed
#                              regression and corpus file replayed: fails on
#                              any crash, hang or sanitizer report
#   make fuzz-build            the targets alone
#
# The readers compile again with clang under -fsanitize=fuzzer-no-link (so
# libFuzzer sees their branches) plus ASan and UBSan, UBSan not recovering;
# each target links them with -fsanitize=fuzzer.  FUZZ_TARGETS picks some.

FZ_B       := build-fuzz
FZ_CC      := clang
FZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FZ_CFLAGS  := -std=c11 -D_GNU_SOURCE -O1 -g -Wall -Wno-unused-parameter -ffp-contract=off $(FZ_SAN) \
              -fsanitize=fuzzer-no-link
# The harnesses' own flags: vkbench and cpubench build as POSIX programs.
FZ_HARNESS_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -O1 -g -Wall -Wno-unused-parameter \
              $(FZ_SAN) -fsanitize=fuzzer-no-link
FZ_LDLIBS  := -lgsl -lgslcblas -linih -lcjson -lm -lpthread
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 3

# The library and the CLI's helpers (all but its main), as the unit tests link them.
FZ_LIB_SRC := $(MODEL_SRC) $(ENGINE_SRC) $(VALIDATE_SRC) $(UTIL_SRC) $(API_SRC) \
              $(filter-out app/atomsim.c,$(CLI_SRC))
FZ_LIB_OBJ := $(FZ_LIB_SRC:%.c=$(FZ_B)/obj/%.o)
# vkbench's plan reader and what it calls, none of which touches Vulkan;
# cpubench's plan reader stands alone.
FZ_VKB_SRC := validate/vkbench/vkb_plan.c validate/vkbench/vkb_args.c validate/vkbench/vkb_cfg.c \
              validate/vkbench/vkb_common.c validate/vkbench/vkb_pattern.c
FZ_CPB_SRC := validate/cpubench/cpb_plan.c
FZ_TOOL_OBJ := $(FZ_VKB_SRC:%.c=$(FZ_B)/obj/%.o) $(FZ_CPB_SRC:%.c=$(FZ_B)/obj/%.o)

FZ_ALL_TARGETS := $(sort $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_TARGETS ?= $(FZ_ALL_TARGETS)
FZ_BIN     := $(FUZZ_TARGETS:%=$(FZ_B)/%)

.PHONY: fuzz fuzz-smoke fuzz-build
fuzz-build: $(FZ_BIN)

fuzz: $(FZ_BIN)
	@bash tests/fuzz/fuzz.sh fuzz $(FUZZ_SECONDS) $(FZ_B) $(FUZZ_TARGETS)

fuzz-smoke: $(FZ_BIN)
	@bash tests/fuzz/fuzz.sh smoke $(FUZZ_SMOKE_SECONDS) $(FZ_B) $(FUZZ_TARGETS)

$(FZ_B)/obj/validate/vkbench/%.o: validate/vkbench/%.c | $(B)/.deps
	@mkdir -p $(dir $@)
	$(FZ_CC) $(FZ_HARNESS_CFLAGS) -MMD -MP -c $< -o $@

$(FZ_B)/obj/validate/cpubench/%.o: validate/cpubench/%.c | $(B)/.deps
	@mkdir -p $(dir $@)
	$(FZ_CC) $(FZ_HARNESS_CFLAGS) -MMD -MP -c $< -o $@

$(FZ_B)/obj/%.o: %.c | $(B)/.deps
	@mkdir -p $(dir $@)
	$(FZ_CC) $(FZ_CFLAGS) -MMD -MP -c $< -o $@

$(FZ_B)/libfuzzlib.a: $(FZ_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(FZ_B)/libfuzztools.a: $(FZ_TOOL_OBJ)
	@rm -f $@
	ar rcs $@ $^

# Each target: its harness, the tools' plan readers (the archive keeps the
# unused ones out) and the library.
$(FZ_B)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fz.h $(FZ_B)/libfuzztools.a $(FZ_B)/libfuzzlib.a | $(B)/.deps
	$(FZ_CC) $(FZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FZ_B)/libfuzztools.a $(FZ_B)/libfuzzlib.a $(FZ_LDLIBS)

-include $(shell find $(FZ_B)/obj -name '*.d' 2>/dev/null)
