/* fastxfen core: what is wrong with a position, as the flags of
 * python-chess's Board.status() name it (same bits). */
#ifndef FASTXFEN_STATUS_H
#define FASTXFEN_STATUS_H

#include <stddef.h>
#include <stdint.h>

#include "movegen.h"

enum {
    FX_STATUS_NO_WHITE_KING = 1 << 0,
    FX_STATUS_NO_BLACK_KING = 1 << 1,
    FX_STATUS_TOO_MANY_KINGS = 1 << 2,
    FX_STATUS_TOO_MANY_WHITE_PAWNS = 1 << 3,
    FX_STATUS_TOO_MANY_BLACK_PAWNS = 1 << 4,
    FX_STATUS_PAWNS_ON_BACKRANK = 1 << 5,
    FX_STATUS_TOO_MANY_WHITE_PIECES = 1 << 6,
    FX_STATUS_TOO_MANY_BLACK_PIECES = 1 << 7,
    FX_STATUS_BAD_CASTLING_RIGHTS = 1 << 8,
    FX_STATUS_INVALID_EP_SQUARE = 1 << 9,
    FX_STATUS_OPPOSITE_CHECK = 1 << 10,
    FX_STATUS_EMPTY = 1 << 11,
    FX_STATUS_TOO_MANY_CHECKERS = 1 << 15,
    FX_STATUS_IMPOSSIBLE_CHECK = 1 << 16
};

/* The status of board b (its en-passant target the one fx_parse kept, the
 * valid one or none), given the castling flags and the en-passant square
 * its text named (-1 for none).  chess960: rights as Chess960 allows them
 * (else only corner rooks with the king on e1 / e8). */
uint32_t fx_status(const fx_board *b, const uint8_t *flags, size_t n_flags, int given_ep,
                   int chess960);
/* The same from a row of FEN text (EPD with `epd`): 0 with *status, or -1
 * with *err when the row cannot be read (or is 10 wide: FX_E_WIDE_ROW). */
int fx_status_text(const uint8_t *text, size_t len, int chess960, int epd, uint32_t *status,
                   fx_error *err);

#endif
