/* version.c - the build's identity (version.h); util/version.mk passes the
 * strings in, and rebuilds this file alone when the version moves. */
#include "version.h"

#include <string.h>

#ifndef ATOM_VERSION
#define ATOM_VERSION "unknown"
#endif
#ifndef ATOM_CFLAGS
#define ATOM_CFLAGS ""
#endif

const char *atom_version(void)
{
    return ATOM_VERSION;
}

const char *atom_build_compiler(void)
{
#ifdef __VERSION__
    return __VERSION__;
#else
    return "unknown";
#endif
}

const char *atom_build_flags(void)
{
    return ATOM_CFLAGS;
}

static const char *compiler_family(void)
{
#if defined(__clang__)
    return strstr(atom_build_compiler(), "lang") ? "" : "clang ";
#elif defined(__GNUC__)
    return "gcc ";
#else
    return "";
#endif
}

int atom_print_version(FILE *f, const char *tool)
{
    fprintf(f, "%s %s\ncompiler: %s%s\nflags: %s\n", tool, atom_version(), compiler_family(), atom_build_compiler(),
            atom_build_flags());
    return ferror(f) || fflush(f) ? 1 : 0;
}
