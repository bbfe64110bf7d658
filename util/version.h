/* version.h - which build this is, for --version and every JSON output:
 * the version (`git describe` when the build ran in a git checkout, else
 * the VERSION file a release tarball carries), and the compiler and flags
 * that built it.  The strings are fixed at build time (util/version.mk). */
#ifndef ATOM_UTIL_VERSION_H
#define ATOM_UTIL_VERSION_H

#include <stdio.h>

/* "b04123b", "v1.2-3-gb04123b-dirty", or "unknown" */
const char *atom_version(void);
/* the compiler's own version string (__VERSION__) */
const char *atom_build_compiler(void);
/* the CFLAGS the library was compiled with */
const char *atom_build_flags(void);
/* The three lines every tool's --version starts with: "TOOL VERSION",
 * "compiler: ..." (with the family where __VERSION__ names none, as gcc's
 * "12.2.0" does) and "flags: ...".  Returns 0, or 1 when stdout failed. */
int atom_print_version(FILE *f, const char *tool);

#endif
