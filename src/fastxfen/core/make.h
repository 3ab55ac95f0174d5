/* Make-move on the board of movegen.h, as inline functions: movegen.c
 * builds fx_make from them, and the .binpack reader (plycode.h) inlines
 * them into its per-ply loop. */
#ifndef FASTXFEN_MAKE_H
#define FASTXFEN_MAKE_H

#include <string.h>

#include "movegen.h"

/* pieces[][] as one array: code c (1..12) is at c + (c > 6), the color's
 * FX_ALL at 7 * (c > 6). */
static inline void fx_flip(fx_board *b, int sq, uint8_t code)
{
    uint64_t bit = 1ull << sq, *flat = &b->pieces[0][0];
    int black = code > 6;
    flat[code + black] ^= bit;
    flat[7 * black] ^= bit;
    b->occupied ^= bit;
}

/* Put a piece (fx code 1..12) on an empty square. */
static inline void fx_place(fx_board *b, int sq, uint8_t code)
{
    b->sq[sq] = code;
    fx_flip(b, sq, code);
}

/* Empty sq, which holds a piece. */
static inline void fx_take(fx_board *b, int sq)
{
    fx_flip(b, sq, b->sq[sq]);
    b->sq[sq] = 0;
}

/* Castle: the king of the side to move and its rook to their squares. */
static inline void fx_castle_move(fx_board *b, int king, int rook)
{
    int us = b->turn, back = us ? 56 : 0, h_side = rook > king;
    fx_take(b, king);
    fx_take(b, rook);
    fx_place(b, back + (h_side ? 6 : 2), FX_CODE(us, FX_KING));
    fx_place(b, back + (h_side ? 5 : 3), FX_CODE(us, FX_ROOK));
}

/* Lift the piece on `from` (code, not empty) and put `placed` on `to`,
 * taking what stood there (taken, an opponent's piece or 0). */
static inline void fx_shift(fx_board *b, int from, int to, uint8_t code, uint8_t placed,
                            uint8_t taken)
{
    uint64_t *flat = &b->pieces[0][0], fb = 1ull << from, tb = 1ull << to;
    uint64_t gone = taken ? tb : 0;  /* no branch: captures come in no order */
    int black = code > 6;
    flat[taken + !black] ^= gone;
    flat[7 * !black] ^= gone;
    flat[code + black] ^= fb;
    flat[placed + black] ^= tb;
    flat[7 * black] ^= fb | tb;
    b->occupied = (b->occupied ^ fb) | tb;
    b->sq[from] = 0;
    b->sq[to] = placed;
}

/* fx_make (movegen.h). */
static FX_ALWAYS_INLINE void fx_make_inline(fx_board *b, fx_move m)
{
    int from = FX_FROM(m), to = FX_TO(m), kind = FX_KIND(m), us = b->turn;
    uint8_t code = b->sq[from], taken = b->sq[to];
    int type = FX_TYPE_OF(code);
    uint32_t rule50 = b->rule50 + 1, rights;
    uint8_t ep = FX_NONE;
    if (kind == FX_MV_CASTLE) {
        fx_castle_move(b, from, to);
    } else if (code) {
        int pushed = (from & 56) | (to & 7);  /* en passant: the pawn taken */
        if (kind == FX_MV_EP && b->sq[pushed])
            fx_take(b, pushed);
        int promotes = kind >= FX_MV_PROMO && kind < FX_MV_CASTLE;
        fx_shift(b, from, to, code, promotes ? FX_CODE(us, kind + 1) : code, taken);
        int pawn = type == FX_PAWN, twice = pawn & ((from ^ to) == 16);
        rule50 &= (uint32_t)-!(pawn | (taken != 0));  /* no branches on what moved */
        ep = twice ? (uint8_t)((from + to) / 2) : FX_NONE;
    }
    memcpy(&rights, b->rook, 4);
    if (rights != 0xFFFFFFFFu) {  /* a king's move, or a rook's square left or taken */
        if (type == FX_KING)
            b->rook[2 * us] = b->rook[2 * us + 1] = FX_NONE;
        for (int slot = 0; slot < 4; slot++)
            if (b->rook[slot] == from || b->rook[slot] == to)
                b->rook[slot] = FX_NONE;
    }
    b->rule50 = rule50;
    b->ply++;
    b->turn = (uint8_t)!us;
    b->ep = ep;
    if (ep != FX_NONE && !fx_ep_possible(b))
        b->ep = FX_NONE;
}

#endif
