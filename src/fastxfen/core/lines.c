/* Lines of a newline-separated buffer (lines.h).  Each 64-byte block gives
 * a bit set of its newlines, which is counted or walked bit by bit: about
 * one newline per block in FEN text, so no call per line. */
#include "lines.h"

#include <string.h>

#include "bits.h"

#define BLOCK 64

static uint64_t newlines(const uint8_t *p) { return fx_equal64(p, '\n'); }

/* Newlines of the block at p, of which only n < 64 bytes are read. */
static uint64_t newlines_short(const uint8_t *p, size_t n)
{
    uint8_t pad[BLOCK] = {0};
    memcpy(pad, p, n);
    return newlines(pad);
}

#ifdef FX_SSE2
/* Newlines of whole 64-byte blocks from data[i]; *i ends past them.  Each
 * byte lane counts its newlines, four bytes per block (so at most 63
 * blocks at a time, 252 < 256), and the lanes are summed with psadbw. */
static int64_t count_blocks(const uint8_t *data, size_t *i, size_t size)
{
    const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    int64_t n = 0;
    while (size - *i >= BLOCK) {
        __m128i lanes = zero;
        for (int k = 0; k < 63 && size - *i >= BLOCK; k++, *i += BLOCK)
            for (int q = 0; q < 4; q++)
                lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(
                    _mm_loadu_si128((const __m128i *)(data + *i + 16 * q)), nl));
        __m128i sums = _mm_sad_epu8(lanes, zero);
        n += _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(sums, sums));
    }
    return n;
}
#else
static int64_t count_blocks(const uint8_t *data, size_t *i, size_t size)
{
    int64_t n = 0;
    for (; size - *i >= BLOCK; *i += BLOCK)
        n += fx_popcount64(newlines(data + *i));
    return n;
}
#endif

int64_t fx_count_lines(const uint8_t *data, size_t at, size_t size)
{
    if (at >= size)
        return 0;
    size_t i = at;
    int64_t n = (data[size - 1] != '\n') + count_blocks(data, &i, size);
    if (i < size)
        n += fx_popcount64(newlines_short(data + i, size - i));
    return n;
}

int64_t fx_line_spans(const uint8_t *data, size_t *at, size_t size, int64_t *starts,
                      int64_t *ends, int64_t max_rows)
{
    int64_t n = 0;
    size_t block = *at;
    if (block >= size || max_rows <= 0)
        return 0;
    starts[0] = (int64_t)block;
    for (; block < size; block += BLOCK) {
        uint64_t m = size - block >= BLOCK ? newlines(data + block)
                                           : newlines_short(data + block, size - block);
        for (; m; m &= m - 1) {
            int64_t end = (int64_t)block + fx_ctz64(m) + 1;
            ends[n++] = end;
            if (n == max_rows) {
                *at = (size_t)end;
                return n;
            }
            starts[n] = end;
        }
    }
    if (data[size - 1] != '\n')
        ends[n++] = (int64_t)size;
    *at = size;
    return n;
}
