/* The AVX2 placement reader and writer, used when the CPU has AVX2 but
 * not the AVX-512 reader's instructions (chosen at run time; the build
 * itself assumes no more than SSE2). */
#ifndef FASTXFEN_AVX2_H
#define FASTXFEN_AVX2_H

#include <stddef.h>
#include <stdint.h>

#if !defined(FASTXFEN_NO_SIMD) && defined(__x86_64__) && defined(__GNUC__)
#define FX_AVX2 1

/* Whether this CPU runs the reader.  FASTXFEN_NO_AVX2 set in the
 * environment answers no, so tests can run the other readers. */
int fx_avx2_init(void);

/* An 8-wide placement of at most 64 bytes from s[i] (s readable below end)
 * into board as fx_pos holds it (a1 first; the 16 bytes past the 64 squares
 * zeroed).  Returns the index just past the field, or (size_t)-1 when the
 * field is not such a valid placement: the other readers then decide (and
 * name any error); board is only written on success. */
size_t fx_placement_avx2(const uint8_t *s, size_t i, size_t end, uint8_t board[80]);

/* The placement text of an 8-wide board (fx_pos's board, a1 first) at
 * out, which must have 100 bytes of room; returns its length, or 0 (out
 * untouched) when a square holds a code above FX_BK (no 8-wide board
 * does: the other writer then writes it). */
size_t fx_write_placement_avx2(const uint8_t board[64], uint8_t *out);
#endif

#endif
