/* cpb_simd.h - builds the per-element loops once per x86-64 level and picks
 * one at load time, so that the one static binary built here runs on any
 * host and still uses the vector units the host has.  The contract's key
 * hash and selection vectorize well: AVX-512 takes this 2-core VM's count
 * loop from 1.17 ns an element (SSE2) to 0.13. */
#ifndef CPB_SIMD_H
#define CPB_SIMD_H

/* GCC only: clang 14 takes the attribute but leaves the clones unresolved
 * at link time; a clang build gets the compiler's default code. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CPB_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define CPB_CLONES
#endif

/* The level the clones above resolve to on this host, for provenance
 * ("the compiler's default" without clones). */
const char *cpb_simd_level(void);
/* How many keys store's skip branch covers on this host (16, 8 or 1). */
int cpb_store_lanes(void);

#endif
