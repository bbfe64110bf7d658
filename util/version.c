/* version.c - the build's identity (version.h); util/version.mk passes the
 * strings in, and rebuilds this file alone when the version moves. */
#include "version.h"

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
