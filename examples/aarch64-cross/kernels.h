/* Small deterministic workloads whose results are easy to compare across builds. */
#ifndef KERNELS_H
#define KERNELS_H

#include <stddef.h>
#include <stdint.h>

uint32_t rng_next(uint32_t *state);
uint32_t crc32(const void *data, size_t n);
void sort_u32(uint32_t *v, size_t n);
/* c = a * b for n x n matrices, row major, wrapping 32-bit arithmetic. */
void matmul(const int32_t *a, const int32_t *b, int32_t *c, size_t n);

#endif
