/* fastxfen core: 8x8 chess on bitboards.  The board the move generator
 * works on, moves, make-move, legality and perft, standard and Chess960
 * castling.  Pure C; every function works on the board it is given and
 * the arrays whose sizes this header fixes. */
#ifndef FASTXFEN_MOVEGEN_H
#define FASTXFEN_MOVEGEN_H

#include <stddef.h>
#include <stdint.h>

#include "attacks.h"
#include "fx.h"

/* Piece types, the index into fx_board.pieces[color]; index 0 holds every
 * piece of the color.  The fx piece code of (color, type) is
 * type + 6 * color. */
enum { FX_ALL = 0, FX_PAWN = 1, FX_KNIGHT, FX_BISHOP, FX_ROOK, FX_QUEEN, FX_KING };
#define FX_CODE(color, type) ((uint8_t)((type) + 6 * (color)))
#define FX_TYPE_OF(code) ((code) - 6 * ((code) > 6))

typedef struct {
    uint64_t pieces[2][7];  /* [color][type]; [color][FX_ALL] every piece */
    uint64_t occupied;
    uint8_t sq[64];         /* fx piece code per square */
    uint8_t turn;           /* FX_WHITE / FX_BLACK */
    uint8_t ep;             /* en-passant target, FX_NONE if none */
    uint8_t rook[4];        /* castling rook square per slot (fx.h), FX_NONE */
    uint8_t pad[2];
    uint32_t rule50;        /* halfmove clock */
    uint32_t ply;           /* plies since the game's start */
} fx_board;

/* A move: from | to << 6 | kind << 12.  Castling is the king taking its
 * own rook (to = the rook's square), in standard chess and Chess960 alike.
 * 0 is the null move. */
typedef uint16_t fx_move;
enum {
    FX_MV_NORMAL = 0,
    FX_MV_PROMO = 1,        /* kinds 1..4: promotion to knight .. queen */
    FX_MV_CASTLE = 5,
    FX_MV_EP = 6
};
#define FX_MOVE(from, to, kind) ((fx_move)((from) | (to) << 6 | (kind) << 12))
#define FX_FROM(m) ((m) & 63)
#define FX_TO(m) (((m) >> 6) & 63)
#define FX_KIND(m) ((m) >> 12)
/* Enough room for the moves of any position (the most known is 218). */
#define FX_MAX_MOVES 256

/* ------------------------------------------------------------ board */

void fx_board_clear(fx_board *b);
/* Put a piece (fx code 1..12) on an empty square. */
void fx_board_put(fx_board *b, int sq, uint8_t code);
/* The square of the color's king: the highest if it has several, -1 if
 * none. */
static inline int fx_king_square(const fx_board *b, int color)
{
    uint64_t k = b->pieces[color][FX_KING];
    return k ? 63 - fx_clz64(k) : -1;
}
/* An 8-wide position as a board: its rights (rook files) become rook
 * squares, its target and counters are kept (ply from the fullmove
 * number).  Returns -1 for a 10-wide position or a piece code above 12. */
int fx_board_from_pos(const fx_pos *pos, fx_board *b);
/* The board as a position, rights and target as they are (no repair). */
void fx_board_to_pos(const fx_board *b, fx_pos *pos);

/* ------------------------------------------------------------ attacks */

/* Pieces of color `by` that attack sq, with the given occupancy. */
static inline uint64_t fx_attackers(const fx_board *b, int sq, int by, uint64_t occupied)
{
    const uint64_t *p = b->pieces[by];
    return (fx_knight_attacks[sq] & p[FX_KNIGHT]) | (fx_king_attacks[sq] & p[FX_KING])
           | (fx_pawn_attacks[!by][sq] & p[FX_PAWN])
           | (fx_rook_attacks(sq, occupied) & (p[FX_ROOK] | p[FX_QUEEN]))
           | (fx_bishop_attacks(sq, occupied) & (p[FX_BISHOP] | p[FX_QUEEN]));
}
/* Squares a piece of the given type and color on sq attacks.  Conditional
 * branches, not a jump table: the types come in no order a predictor
 * follows. */
static inline uint64_t fx_piece_attacks(int type, int color, int sq, uint64_t occupied)
{
    if (type == FX_PAWN)
        return fx_pawn_attacks[color][sq];
    if (type == FX_KNIGHT)
        return fx_knight_attacks[sq];
    if (type == FX_KING)
        return fx_king_attacks[sq];
    uint64_t a = type != FX_ROOK ? fx_bishop_attacks(sq, occupied) : 0;
    return type != FX_BISHOP ? a | fx_rook_attacks(sq, occupied) : a;
}

/* ------------------------------------------------------------ moves */

/* Legal moves of the side to move into moves (room for FX_MAX_MOVES);
 * returns how many.  A board without exactly one king per color has
 * none. */
int fx_legal_moves(const fx_board *b, fx_move *moves);
/* Is m a legal move of the side to move?  Any 16-bit value may be asked. */
int fx_is_legal(const fx_board *b, fx_move m);
/* Is the pseudo-legal move m (a move of the generator's kinds, castling
 * excepted) free of leaving its own king attacked? */
static inline int fx_keeps_king_safe(const fx_board *b, fx_move m)
{
    int from = FX_FROM(m), to = FX_TO(m), us = b->turn;
    uint64_t occupied = (b->occupied ^ (1ull << from)) | 1ull << to, gone = 1ull << to;
    if (FX_KIND(m) == FX_MV_EP) {
        gone = 1ull << ((from & 56) | (to & 7));  /* the pushed pawn, beside the mover */
        occupied ^= gone;
    }
    int home = fx_king_square(b, us), king = b->sq[from] == FX_CODE(us, FX_KING) ? to : home;
    return king < 0 || !(fx_attackers(b, king, !us, occupied) & ~gone);
}
/* Is castling with the rook of `slot` legal (rights, empty path, no
 * attacked square on the king's way)? */
int fx_castle_legal(const fx_board *b, int slot);
/* Is the pseudo-legal move m (castling included) legal?  Cheaper than
 * fx_is_legal, which takes any 16 bits. */
static inline int fx_pseudo_is_legal(const fx_board *b, fx_move m)
{
    if (FX_KIND(m) != FX_MV_CASTLE)
        return fx_keeps_king_safe(b, m);
    return fx_castle_legal(b, 2 * b->turn + (b->rook[2 * b->turn] != FX_TO(m)));
}
/* Play m, which fx_is_legal accepts (or which is pseudo-legal: the board
 * then holds what the move did), on b.  The en-passant target is set only
 * when a pawn can take it as Stockfish decides (fx_ep_possible). */
void fx_make(fx_board *b, fx_move m);
/* Leaf positions `depth` plies below b. */
uint64_t fx_perft(const fx_board *b, int depth);

/* Stockfish's test for keeping an en-passant target: a pawn of the side to
 * move attacks it, the target and the square the pushed pawn came from are
 * empty, the pushed pawn stands behind it, and taking it uncovers no
 * slider attack on the king. */
int fx_ep_possible(const fx_board *b);

/* ------------------------------------------------------------ notation */

/* UCI text of m (4 or 5 bytes, "0000" for the null move) into out;
 * castling from e1 or e8 with a corner rook as the king's two-square step
 * (e1g1), any other castling, and all with chess960, as the king taking
 * its rook (e1h1).  Returns the length. */
int fx_move_uci(fx_move m, int chess960, uint8_t *out);
/* Read UCI text for b: a king step of two or more files, or onto its own
 * castling rook, is castling; a pawn onto the en-passant target takes en
 * passant.  Returns 0 (with *m, possibly illegal) or -1 for text that is
 * not a UCI move. */
int fx_parse_uci(const fx_board *b, const uint8_t *text, size_t len, fx_move *m);
/* Stockfish's 16-bit move (to | from << 6 | promotion << 12 | type << 14;
 * type 1 promotion, 2 en passant, 3 castling as king takes rook). */
uint16_t fx_move_to_sf(fx_move m);
/* The inverse; -1 for bits no move has (promotion bits on another type). */
int fx_move_from_sf(uint16_t v, fx_move *m);

#endif
