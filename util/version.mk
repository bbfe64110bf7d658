# util/version.mk - the version string compiled into util/version.c:
# `git describe --tags --always --dirty` in a checkout, else the VERSION
# file of a release tarball, else "unknown".  The stamp changes only when
# the string does, so version.o (and what links it) rebuilds then alone.
ATOM_VERSION := $(shell v=$$(git describe --tags --always --dirty 2>/dev/null) && [ -n "$$v" ] && echo "$$v" || \
                  { [ -r VERSION ] && head -1 VERSION; } || echo unknown)

$(B)/gen/atom_version.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(ATOM_VERSION) $(CC) $(CFLAGS)' | cmp -s - $@ || echo '$(ATOM_VERSION) $(CC) $(CFLAGS)' > $@

$(B)/obj/util/version.o: util/version.c util/version.h $(B)/gen/atom_version.stamp | $(B)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DATOM_VERSION='"$(ATOM_VERSION)"' -DATOM_CFLAGS='"$(strip $(CFLAGS))"' -c $< -o $@

.PHONY: FORCE
FORCE:
