# tests.mk - `make test`: cmocka unit tests (tests/unit/test_*.c, one binary
# each) and end-to-end scripts (tests/*.sh, run with ATOMSIM and VKBENCH set).
# Each script exits non-zero on failure; the runner prints "N passed, M failed".

UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
UNIT_HDR := $(wildcard tests/unit/*.h)
# The unit tests may call into the CLI's helpers too (all but its main).
UNIT_LINK_OBJ := $(filter-out $(B)/obj/sim/cli/atomsim.o,$(CLI_OBJ))
# run_all.sh is the runner itself, not a test.
E2E_SCRIPTS := $(filter-out tests/run_all.sh,$(sort $(wildcard tests/*.sh)))

$(B)/tests/%: tests/unit/%.c $(UNIT_HDR) $(UNIT_LINK_OBJ) $(B)/libatomsim.a | $(B)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(UNIT_LINK_OBJ) $(B)/libatomsim.a $(LDLIBS) -lcmocka

test: $(B)/.deps all $(UNIT_BIN)
	@ATOMSIM=$(B)/atomsim VKBENCH=$(B)/vkbench bash tests/run_all.sh $(UNIT_BIN) -- $(E2E_SCRIPTS)

# Sanitizer build: the same tests against an ASan/UBSan build in build-asan/.
# Any sanitizer report fails the test that triggered it (halt_on_error, and
# UBSan does not recover), leaks included.
asan:
	ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:exitcode=86 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(MAKE) B=build-asan OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" test
