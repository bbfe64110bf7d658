/* The SPIR-V of every pattern, compiled from validate/shaders at build time
 * and embedded, so that the binary alone is enough on the GPU machine. */
#ifndef VKB_SPIRV_H
#define VKB_SPIRV_H

#include <stddef.h>
#include <stdint.h>

/* Code and size in bytes of a pattern's module; 0 if it has none. */
int vkb_spirv_get(int pattern, const uint32_t **code, size_t *bytes);

/* The same pattern compiled with -DPROBES: the module any probe option
 * (--select-unit, --tail, --spin, --cas-first, --count-cas) runs. */
int vkb_spirv_get_probe(int pattern, const uint32_t **code, size_t *bytes);

/* The --trace module of cas-append or bitmask (compiled with -DTRACE); 0
 * if the pattern has none. */
int vkb_spirv_get_trace(int pattern, const uint32_t **code, size_t *bytes);

/* The clock guard's probe and heater (validate/shaders/clock.comp). */
int vkb_spirv_clock(const uint32_t **code, size_t *bytes);

#endif
