/* The AVX-512 placement reader, used when the CPU has it (chosen at run
 * time; the build itself assumes no more than SSE2). */
#ifndef FASTXFEN_AVX512_H
#define FASTXFEN_AVX512_H

#include <stddef.h>
#include <stdint.h>

#if !defined(FASTXFEN_NO_SIMD) && defined(__x86_64__) && defined(__GNUC__)
#define FX_AVX512 1

/* Prepare the reader's tables and tell whether this CPU (and its OS) runs
 * it.  FASTXFEN_NO_AVX512 set in the environment answers no, so tests can
 * run the other readers. */
int fx_avx512_init(void);

/* An 8-wide placement of at most 64 bytes from s[i] (s readable below end)
 * into board as fx_pos holds it (a1 first; the 16 bytes past the 64 squares
 * zeroed).  Returns the index just past the field, or (size_t)-1 when the
 * field is not such a valid placement: the other readers then decide (and
 * name any error), and board may have been written. */
size_t fx_placement512(const uint8_t *s, size_t i, size_t end, uint8_t board[80]);

/* The placement text of an 8-wide board (fx_pos's board, a1 first), written
 * at out, which must have 100 bytes of room; returns its length. */
size_t fx_write_placement512(const uint8_t board[64], uint8_t *out);
#endif

#endif
