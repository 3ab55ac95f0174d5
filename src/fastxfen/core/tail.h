/* The fields after the placement (side, castling, en passant, counters),
 * read from the end of the row with no branch on their bytes: fx_parse's
 * fast path (tail.c).  The tail is read without the placement, and joined
 * by fx_tail_apply once the placement reader has found where the
 * placement ends. */
#ifndef FASTXFEN_TAIL_H
#define FASTXFEN_TAIL_H

#include <stddef.h>
#include <stdint.h>

#include "fx.h"

typedef struct {
    size_t cut;          /* where the placement ends if the row is one fx_tail_read takes */
    uint32_t ok;         /* the fields are valid and of the common forms */
    uint32_t sets[2];    /* castling flags of each color (fx_flag_bit) */
    uint32_t ep;         /* 1: an en-passant square, ep_file and ep_rank */
    uint32_t ep_file, ep_rank;
    uint32_t turn, prefix, halfmove, fullmove;
    int fields;          /* 4, 5 or 6 */
    uint32_t canonical;  /* 1: written as fx_write writes it (X-FEN, no en-passant
                            square), if the rights stand as given */
} fx_tail;

/* The fields of the row s[start, end) (no blanks around it) after its
 * first field, for rows whose last 16 or 32 bytes hold the tail (at most
 * 31 bytes) and whose fields take the common forms: one blank apart,
 * castling '-' or one to four distinct flags (at most two a color, an
 * X-FEN prefix allowed), en passant '-' or a square, counters of one to
 * four digits in the row's last 8 bytes.  t->ok is 0 for any other row
 * (fx_parse then reads the fields one by one and names any error). */
void fx_tail_read(const uint8_t *s, size_t start, size_t end, fx_tail *t);

/* The tail's fields into *pos, whose board and width are read: castling
 * rights repaired, the en-passant target tested.  0 when a flag or the
 * en-passant file lies beyond the board's width (then nothing is
 * usable: fx_parse reads the fields one by one).  *kept: 1 when the tail
 * is canonical and every right stands as given, on its edge file (so
 * fx_write in X-FEN would write the same text), else 0. */
int fx_tail_apply(const fx_tail *t, fx_pos *pos, int *kept);

/* Whether the tail's files fit a board of this width (fx_tail_apply's
 * check, for a reader that needs no position: validate). */
int fx_tail_fits(const fx_tail *t, unsigned width);

/* The table fx_tail_read uses; run by fx_init_parse_tables. */
void fx_init_tail_tables(void);

#endif
