/* The fields after the placement (side, castling, en passant, counters),
 * read from the end of the row with no branch on their bytes: fx_parse's
 * fast path (tail.c).  The tail is read without the placement, and joined
 * to it where the placement reader found the placement to end. */
#ifndef FASTXFEN_TAIL_H
#define FASTXFEN_TAIL_H

#include <stddef.h>
#include <stdint.h>

#include "fx.h"

/* The fields of the row s[start, end) (no blanks around it) after its
 * placement, which ends at cut and whose board and width are in *pos, for
 * rows whose last 16 or 32 bytes hold the tail (at most 31 bytes) and
 * whose fields take the common forms: one blank apart, castling '-' or one
 * to four distinct flags (at most two a color, an X-FEN prefix allowed),
 * en passant '-' or a square, counters of one to four digits in the row's
 * last 8 bytes, files within the board's width.  Returns 1 with the
 * fields in *pos (castling rights repaired, the en-passant target tested)
 * and their count in *fields; *kept is 1 when the tail is canonical and
 * every right stands as given, on its edge file (so fx_write in X-FEN
 * would write the same text).  Returns 0 for any other row, *pos's fields
 * untouched (fx_parse then reads the fields one by one and names any
 * error). */
int fx_tail_take(const uint8_t *s, size_t start, size_t end, size_t cut, fx_pos *pos,
                 int *fields, int *kept);

/* fx_tail_take's verdict alone, for a board of this width (a reader that
 * needs no position: validate). */
int fx_tail_check(const uint8_t *s, size_t start, size_t end, size_t cut, unsigned width,
                  int *fields);

/* The tables the tail readers use; run by fx_init_parse_tables. */
void fx_init_tail_tables(void);

#endif
