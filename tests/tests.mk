# tests.mk - `make test`: cmocka unit tests (tests/unit/test_*.c, one binary
# each) and end-to-end scripts (tests/*.sh, run with ATOMSIM and VKBENCH set).
# Each script exits non-zero on failure; the runner prints "N passed, M failed".

UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
E2E_SCRIPTS := $(sort $(wildcard tests/*.sh))

$(B)/tests/%: tests/unit/%.c $(B)/libatomsim.a | $(B)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(filter-out $(B)/obj/sim/cli/atomsim.o,$(CLI_OBJ)) $(B)/libatomsim.a $(LDLIBS) -lcmocka

test: $(B)/.deps all $(UNIT_BIN)
	@ATOMSIM=$(B)/atomsim VKBENCH=$(B)/vkbench bash tests/run_all.sh $(UNIT_BIN) -- $(E2E_SCRIPTS)

# Sanitizer build: the same tests against an ASan/UBSan build in build-asan/.
asan:
	$(MAKE) B=build-asan OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" test
