# install.mk - `make install` and `make uninstall` (docs/install.md).
# Included by the top-level Makefile.  PREFIX (default /usr/local) is where
# the files end up; DESTDIR stages them elsewhere for a package.  Installs
# the CLI (and the harnesses vkbench and cpubench when they build), the
# static library, the public header, a pkg-config file, the shipped configs,
# studies and tables under share/atomsim, and the man pages `make man` wrote.
#
# Nothing half-installed: every destination folder is created and checked
# writable first, every file is copied beside its destination under a
# temporary name, and only when all copies succeeded are they renamed into
# place.  A destination that cannot be written is one line
# "atomsim install: ..." and make's exit status 2.
#
# INSTALL_PREBUILT=1 installs what $(B) already holds and builds nothing
# (tests/install.sh, which must not rebuild with other flags).

PREFIX ?= /usr/local
DESTDIR ?=
INSTALL_PREBUILT ?=

INS_ROOT := $(DESTDIR)$(PREFIX)
# The library's own version (include/atomsim/dispatch.h), for pkg-config's
# --atleast-version: the compatibility policy is stated in its terms.
INS_API_VERSION = $(shell sed -n 's/^\#define ATOMSIM_VERSION_MAJOR \([0-9]*\).*/\1/p' include/atomsim/dispatch.h).$(shell \
                    sed -n 's/^\#define ATOMSIM_VERSION_MINOR \([0-9]*\).*/\1/p' include/atomsim/dispatch.h)

# What goes where (relative to PREFIX), one "SOURCE DEST MODE" a line.
# include/atomsim/ holds the public headers only: every internal header
# lives beside its code.
INS_DATA = $(foreach f,$(sort $(wildcard include/atomsim/*.h)),$(f):include/atomsim:644) \
           $(foreach f,$(sort $(wildcard configs/*.ini)),$(f):share/atomsim/configs:644) \
           $(foreach f,$(sort $(wildcard configs/studies/*.ini)),$(f):share/atomsim/configs/studies:644) \
           $(foreach f,tables/h100.json tables/h200.json,$(f):share/atomsim/tables:644) \
           $(foreach f,$(sort $(wildcard $(B)/man/*.[1-9])),$(f):share/man/man$(subst .,,$(suffix $(f))):644)

# The shipped data directory compiled in, for a system where the binary
# cannot find its own path (app/datadir.c looks beside the binary first).
# Only this object carries it, and a later PREFIX does not rebuild it.
$(B)/obj/app/datadir.o: CFLAGS += -DATOM_DATADIR='"$(PREFIX)/share/atomsim"'

# The library is static only, so its dependencies are not private: a plain
# `pkg-config --libs atomsim` must link them.
$(B)/atomsim.pc: install.mk include/atomsim/dispatch.h FORCE
	@mkdir -p $(dir $@)
	@{ echo 'prefix=$(PREFIX)'; \
	   echo 'exec_prefix=$${prefix}'; \
	   echo 'libdir=$${exec_prefix}/lib'; \
	   echo 'includedir=$${prefix}/include'; \
	   echo ''; \
	   echo 'Name: atomsim'; \
	   echo 'Description: GPU-or-CPU dispatch from atomsim cost tables (atomsim/dispatch.h)'; \
	   echo 'Version: $(INS_API_VERSION)'; \
	   echo 'Cflags: -I$${includedir}'; \
	   echo 'Libs: -L$${libdir} -latomsim $(API_LDLIBS)'; } > $@.tmp && mv $@.tmp $@

.PHONY: install uninstall install-check
ifeq ($(INSTALL_PREBUILT),)
install: $(B)/atomsim $(B)/libatomsim.a man
endif

# The harnesses go in when they build here (vkbench needs glslc and the
# Vulkan headers; cpubench a static libc); a failed build skips them.
install: $(B)/atomsim.pc
	@set -u; \
	fail() { echo "atomsim install: $$*" >&2; exit 2; }; \
	for f in $(B)/atomsim $(B)/libatomsim.a; do [ -f "$$f" ] || fail "$$f is not built (make $$f first)"; done; \
	if [ -z "$(INSTALL_PREBUILT)" ]; then \
	  for h in vkbench cpubench; do \
	    $(MAKE) --no-print-directory -s $(B)/$$h >/dev/null 2>&1 || echo "atomsim install: $(B)/$$h does not build here: not installed"; \
	  done; \
	fi; \
	list="$(B)/atomsim:bin:755 $(B)/libatomsim.a:lib:644 $(B)/atomsim.pc:lib/pkgconfig:644 $(INS_DATA)"; \
	for h in vkbench cpubench; do [ -x "$(B)/$$h" ] && list="$$list $(B)/$$h:bin:755"; done; \
	root='$(INS_ROOT)'; \
	case "$$root" in /*) ;; *) fail "PREFIX '$(PREFIX)' is not an absolute path";; esac; \
	dirs=$$(for e in $$list; do d=$${e#*:}; echo "$${d%:*}"; done | sort -u); \
	made=""; \
	undo() { for f in $$made; do rmdir "$$f" 2>/dev/null; done; }; \
	for d in $$dirs share/atomsim; do \
	  p="$$root/$$d"; \
	  while [ ! -d "$$p" ]; do made="$$p $$made"; p=$$(dirname "$$p"); done; \
	  if ! mkdir -p "$$root/$$d" 2>/dev/null || ! probe=$$(mktemp "$$root/$$d/.atomsim-install.XXXXXX" 2>/dev/null); then \
	    undo; fail "cannot write to $$root/$$d (run as a user who may, or set PREFIX or DESTDIR)"; \
	  fi; \
	  rm -f "$$probe"; \
	done; \
	new=""; \
	for e in $$list; do \
	  src=$${e%%:*}; rest=$${e#*:}; d=$${rest%:*}; mode=$${rest##*:}; \
	  t="$$root/$$d/.$$(basename "$$src").atomsim-new"; new="$$new $$t"; \
	  if ! cp "$$src" "$$t" 2>/dev/null || ! chmod "$$mode" "$$t"; then \
	    rm -f $$new; undo; fail "cannot copy $$src to $$root/$$d"; \
	  fi; \
	done; \
	manifest="$$root/share/atomsim/install-manifest"; \
	for e in $$list; do \
	  src=$${e%%:*}; rest=$${e#*:}; d=$${rest%:*}; b=$$(basename "$$src"); \
	  mv -f "$$root/$$d/.$$b.atomsim-new" "$$root/$$d/$$b" || fail "cannot move $$b into $$root/$$d"; \
	  echo "$$d/$$b"; \
	done > "$$manifest.tmp" && echo share/atomsim/install-manifest >> "$$manifest.tmp" && mv -f "$$manifest.tmp" "$$manifest"; \
	echo "atomsim installed under $$root ($$(wc -l < "$$manifest") files; bin/atomsim --version: $$("$$root/bin/atomsim" --version | head -1))"

# Removes what the last install listed in its manifest, and every file
# this tree would install (an install without a manifest), then the
# folders of its own that are left empty.
uninstall:
	@set -u; root='$(INS_ROOT)'; \
	files=$$( { [ -r "$$root/share/atomsim/install-manifest" ] && cat "$$root/share/atomsim/install-manifest"; \
	            for e in $(B)/atomsim:bin $(B)/vkbench:bin $(B)/cpubench:bin $(B)/libatomsim.a:lib \
	                     $(B)/atomsim.pc:lib/pkgconfig $(INS_DATA); do \
	              src=$${e%%:*}; rest=$${e#*:}; echo "$${rest%%:*}/$$(basename "$$src")"; done; } | sort -u); \
	for f in $$files; do \
	  case "$$f" in /*|*..*) continue;; esac; \
	  if [ -e "$$root/$$f" ] || [ -L "$$root/$$f" ]; then \
	    rm -f "$$root/$$f" || { echo "atomsim uninstall: cannot remove $$root/$$f" >&2; exit 2; }; \
	  fi; \
	done; \
	for d in share/atomsim/configs/studies share/atomsim/configs share/atomsim/tables share/atomsim include/atomsim; do \
	  rmdir "$$root/$$d" 2>/dev/null || true; \
	done; \
	echo "atomsim removed from $$root"
