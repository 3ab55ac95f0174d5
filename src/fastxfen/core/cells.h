/* Rows of a text buffer into the fixed-width cells of a numpy S or U array. */
#ifndef FASTXFEN_CELLS_H
#define FASTXFEN_CELLS_H

#include <stddef.h>
#include <stdint.h>

/* Rows lo to hi - 1 of text (row k is text[ends[k - 1], ends[k]), row 0
 * starting at 0; the text is `size` bytes) into cells of `chars`
 * characters at dst (cell k at dst + k * chars bytes, or 4 * k * chars
 * with ucs4: one code point per byte), each cut to chars and padded with
 * zeros to its end.  Nothing is written outside cells lo to hi - 1 (a cell
 * written in 16-character pieces spills only into the next ones, written
 * after it), and nothing is read outside the text. */
void fx_rows_to_cells(const uint8_t *text, size_t size, const int64_t *ends, size_t lo,
                      size_t hi, size_t chars, int ucs4, uint8_t *dst);

#endif
