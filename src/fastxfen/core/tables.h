/* Byte tables shared by the reader and the writer. */
#ifndef FASTXFEN_TABLES_H
#define FASTXFEN_TABLES_H

#include "bits.h"
#include "fx.h"

/* Piece letter -> piece code (0 for any other byte). */
extern const uint8_t fx_piece_code[256];
/* Piece code -> letter. */
extern const char fx_piece_letter[FX_CODE_LIMIT];

/* write.c: the text of an 8-square rank for each occupancy mask (bit f:
 * file f holds a piece): runs of empty squares as digits, each piece as
 * 0x80 | its file; and its length. */
extern uint8_t fx_rank_text[256][8];
extern uint8_t fx_rank_len[256];

/* parse.c: tables of the reader, and the choice of placement reader
 * (readers/readers.h); run by fx_init_tables. */
void fx_init_parse_tables(void);

/* Attack classes of a piece code, for the en-passant legality test. */
enum {
    FX_A_BLACK = 1,   /* the piece is black */
    FX_A_PAWN = 2,
    FX_A_KNIGHT = 4,  /* N, A, C */
    FX_A_KING = 8,
    FX_A_ORTHO = 16,  /* R, Q, C */
    FX_A_DIAG = 32    /* B, Q, A */
};
extern const uint8_t fx_attack_class[FX_CODE_LIMIT];

#define FX_COLOR_OF(code) (fx_attack_class[code] & FX_A_BLACK)
#define FX_KING_OF(color) ((color) ? FX_BK : FX_WK)
#define FX_ROOK_OF(color) ((color) ? FX_BR : FX_WR)
#define FX_PAWN_OF(color) ((color) ? FX_BP : FX_WP)

/* Files of the color's rooks on its back rank, as a bit set (castling
 * repair and the X-FEN writer). */
static inline uint32_t fx_back_rank_rooks(const fx_pos *pos, int color)
{
    const uint8_t *rank = pos->board + (color ? FX_HEIGHT - 1 : 0) * pos->width;
    uint8_t rook = FX_ROOK_OF(color);
    uint32_t files = fx_equal8(rank, rook);
    if (pos->width > 8)
        files |= (uint32_t)(rank[8] == rook) << 8 | (uint32_t)(rank[9] == rook) << 9;
    return files;
}

#endif
