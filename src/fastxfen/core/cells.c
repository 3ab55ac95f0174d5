/* Rows into fixed-width cells (cells.h).  A FEN row fills most of its cell,
 * so a cell is written whole, 16 characters at a time, the bytes past the
 * row zeroed by a compare against the row's length: no call per row and
 * no separate pass for the padding. */
#include "cells.h"

#include <string.h>

#include "bits.h"

/* One cell, byte by byte, nothing written past it. */
static void cell_exact(const uint8_t *row, size_t len, size_t chars, int ucs4, uint8_t *cell)
{
    if (ucs4) {
        for (size_t k = 0; k < len; k++) {
            uint32_t code = row[k];
            memcpy(cell + 4 * k, &code, 4);
        }
        memset(cell + 4 * len, 0, 4 * (chars - len));
        return;
    }
    if (len)
        memcpy(cell, row, len);
    memset(cell + len, 0, chars - len);
}

#if defined(FX_SSE2) || defined(FX_NEON)
#define HAS_PIECES 1
static const uint8_t IOTA16[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

/* One cell in 16-character pieces: reads the row's bytes up to chars
 * rounded up to 16, writes as many characters. */
static void cell_pieces(const uint8_t *row, size_t len, size_t chars, int ucs4, uint8_t *cell)
{
    for (size_t c = 0; c < chars; c += 16) {
        size_t left = len > c ? len - c : 0;
        uint8_t keep_n = (uint8_t)(left < 16 ? left : 16);
#ifdef FX_SSE2
        const __m128i zero = _mm_setzero_si128();
        __m128i keep = _mm_cmplt_epi8(_mm_loadu_si128((const __m128i *)IOTA16),
                                      _mm_set1_epi8((char)keep_n));
        __m128i v = _mm_and_si128(_mm_loadu_si128((const __m128i *)(row + c)), keep);
        if (ucs4) {
            __m128i lo = _mm_unpacklo_epi8(v, zero), hi = _mm_unpackhi_epi8(v, zero);
            _mm_storeu_si128((__m128i *)(cell + 4 * c), _mm_unpacklo_epi16(lo, zero));
            _mm_storeu_si128((__m128i *)(cell + 4 * c + 16), _mm_unpackhi_epi16(lo, zero));
            _mm_storeu_si128((__m128i *)(cell + 4 * c + 32), _mm_unpacklo_epi16(hi, zero));
            _mm_storeu_si128((__m128i *)(cell + 4 * c + 48), _mm_unpackhi_epi16(hi, zero));
        } else {
            _mm_storeu_si128((__m128i *)(cell + c), v);
        }
#else
        uint8x16_t keep = vcltq_u8(vld1q_u8(IOTA16), vdupq_n_u8(keep_n));
        uint8x16_t v = vandq_u8(vld1q_u8(row + c), keep);
        if (ucs4) {
            uint16x8_t lo = vmovl_u8(vget_low_u8(v)), hi = vmovl_u8(vget_high_u8(v));
            vst1q_u8(cell + 4 * c, vreinterpretq_u8_u32(vmovl_u16(vget_low_u16(lo))));
            vst1q_u8(cell + 4 * c + 16, vreinterpretq_u8_u32(vmovl_u16(vget_high_u16(lo))));
            vst1q_u8(cell + 4 * c + 32, vreinterpretq_u8_u32(vmovl_u16(vget_low_u16(hi))));
            vst1q_u8(cell + 4 * c + 48, vreinterpretq_u8_u32(vmovl_u16(vget_high_u16(hi))));
        } else {
            vst1q_u8(cell + c, v);
        }
#endif
    }
}
#endif

void fx_rows_to_cells(const uint8_t *text, size_t size, const int64_t *ends, size_t lo,
                      size_t hi, size_t chars, int ucs4, uint8_t *dst)
{
    size_t width = ucs4 ? 4 * chars : chars;
    int64_t start = lo ? ends[lo - 1] : 0;
#ifdef HAS_PIECES
    /* what a cell's pieces read of the text and write from the cell on */
    size_t reach = (chars + 15) & ~(size_t)15, spans = ucs4 ? 4 * reach : reach;
    /* a cell's pieces stay within the cells of these rows: a spill is
     * overwritten by the next cell, written after it */
    size_t bound = hi * width;
#endif
    for (size_t k = lo; k < hi; k++) {
        int64_t end = ends[k];
        size_t len = end > start ? (size_t)(end - start) : 0;
        len = len < chars ? len : chars;
        const uint8_t *row = text ? text + start : text;
        uint8_t *cell = dst + k * width;
#ifdef HAS_PIECES
        if (k * width + spans <= bound && (size_t)start + reach <= size)
            cell_pieces(row, len, chars, ucs4, cell);
        else
#endif
            cell_exact(row, len, chars, ucs4, cell);
        start = end;
    }
}
