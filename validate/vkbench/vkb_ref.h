/* The host reference: what each pattern's buffers must hold after one
 * dispatch, computed with the same key function as the shader, and the
 * check of a read-back result against it. A timing of a wrong answer is not
 * a measurement, so every repetition goes through here. */
#ifndef VKB_REF_H
#define VKB_REF_H

#include <stdint.h>

#include "vkb_cfg.h"

typedef struct vkb_ref vkb_ref;

int vkb_ref_open(const vkb_cfg *c, vkb_ref **out, char *err);

/* target and out are the read-back atomic target and output buffers, of
 * vkb_pattern_target_words / vkb_pattern_out_words words. VKB_ECHECK with
 * the first disagreement described in why. */
int vkb_ref_check(vkb_ref *r, const uint32_t *target, const uint32_t *out,
                  char *why);

/* The value output buffers are cleared to before each dispatch. */
uint32_t vkb_ref_fill(void);

void vkb_ref_close(vkb_ref *r);

#endif
