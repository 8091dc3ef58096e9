/* The 32-bit mixing function the test programs derive their data from (p2p_util.h,
 * coll_util.h). Standard C only. */
#ifndef SHMPI_TESTS_HASH_UTIL_H
#define SHMPI_TESTS_HASH_UTIL_H

#include <stdint.h>

static inline uint32_t mix32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

#endif
