/* Rows into fixed-width cells (core/cells.c) against a character-by-character
 * reckoning: random rows (some longer than the cell), every cell width from
 * 1 to 90 characters, S and UCS-4 cells, random row ranges, with guard bytes
 * around and between the cells the call may not touch.  The text is copied
 * into a buffer of exactly its size, so that a sanitizer build catches a
 * read past it.
 *
 *     cc -O1 -std=c11 -I src/fastxfen/core tests/c/cells.c \
 *        src/fastxfen/core/cells.c -o cells
 *     ./cells
 *
 * Prints "checks N failed F" and exits 1 if any check failed. */
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "check.h"

static uint64_t state = 88172645463325252ull;

static unsigned below(unsigned n)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (unsigned)(state % n);
}

enum { ROWS = 32, GUARD = 128 };

static void trial(void)
{
    uint8_t text[ROWS * 100];
    int64_t ends[ROWS];
    size_t n = 1 + below(ROWS), size = 0, chars = 1 + below(90);
    int ucs4 = (int)below(2);
    for (size_t k = 0; k < n; k++) {
        for (size_t len = below(100), j = 0; j < len; j++)
            text[size++] = (uint8_t)(1 + below(255));
        ends[k] = (int64_t)size;
    }
    size_t width = ucs4 ? 4 * chars : chars, lo = below((unsigned)n);
    size_t hi = lo + below((unsigned)(n - lo + 1)), bytes = n * width + 2 * GUARD;
    uint8_t *got = malloc(bytes), *want = malloc(bytes), *exact = malloc(size ? size : 1);
    memset(got, 0xAB, bytes);
    memcpy(want, got, bytes);
    memcpy(exact, text, size);
    int64_t start = lo ? ends[lo - 1] : 0;
    for (size_t k = lo; k < hi; k++) {
        size_t len = (size_t)(ends[k] - start) < chars ? (size_t)(ends[k] - start) : chars;
        for (size_t j = 0; j < chars; j++) {
            uint32_t code = j < len ? text[start + j] : 0;
            if (ucs4)
                memcpy(want + GUARD + k * width + 4 * j, &code, 4);
            else
                want[GUARD + k * width + j] = (uint8_t)code;
        }
        start = ends[k];
    }
    fx_rows_to_cells(size ? exact : NULL, size, ends, lo, hi, chars, ucs4, got + GUARD);
    CHECK(memcmp(got, want, bytes) == 0);
    free(got);
    free(want);
    free(exact);
}

int main(void)
{
    for (int t = 0; t < 20000; t++)
        trial();
    printf("checks %d failed %d\n", checks, failed);
    return failed != 0;
}
