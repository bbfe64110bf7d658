/* cpb_merge.h - the merge after a private-bins scan: out[b] = the sum of
 * every worker's bin b, for the bins [blo, bhi) one worker owns, so the
 * merge is split across the workers like the scan. */
#ifndef CPB_MERGE_H
#define CPB_MERGE_H

#include <stdint.h>

void cpb_merge32(uint32_t *out, uint32_t *const *priv, int workers, uint32_t blo, uint32_t bhi);
void cpb_merge16(uint16_t *out, uint16_t *const *priv, int workers, uint32_t blo, uint32_t bhi);
void cpb_merge8(uint8_t *out, uint8_t *const *priv, int workers, uint32_t blo, uint32_t bhi);

#endif
