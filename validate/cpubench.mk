# cpubench.mk - builds build/cpubench, the CPU tier's pthreads benchmark
# (validate/cpubench/).  Static, so that the GPU host, which has no C
# toolchain, can run the binary built here.  Included by the top-level
# Makefile; also usable alone: make -f validate/cpubench.mk build/cpubench
B ?= build
CPB_SRC := $(sort $(wildcard validate/cpubench/*.c))
CPB_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Wall -Wextra -O3 -g

$(B)/cpubench: $(CPB_SRC) $(wildcard validate/cpubench/*.h) model/params.h
	@mkdir -p $(dir $@)
	$(CC) $(CPB_CFLAGS) -static -pthread -o $@ $(CPB_SRC) -lm
