/* The legality of a move, as inline functions: movegen.c builds
 * fx_is_legal from them, and the BMI2 build of the training readers
 * (ply_bmi2.c) compiles them again with its slider tables. */
#ifndef FASTXFEN_LEGAL_H
#define FASTXFEN_LEGAL_H

#include "movegen.h"

/* Has each color exactly one king? */
static inline int fx_one_king_each(const fx_board *b)
{
    uint64_t w = b->pieces[FX_WHITE][FX_KING], k = b->pieces[FX_BLACK][FX_KING];
    return w && !(w & (w - 1)) && k && !(k & (k - 1));
}

/* Squares a pawn of the side to move on `from` can move to: captures of
 * the pieces in `targets`, the push, and the double push from its start. */
static inline uint64_t fx_pawn_moves(const fx_board *b, int from, uint64_t targets)
{
    int us = b->turn, up = us ? -8 : 8, start = us ? 6 : 1;
    uint64_t to = fx_pawn_attacks[us][from] & targets;
    int ahead = from + up;
    if (ahead >= 0 && ahead < 64 && !(b->occupied >> ahead & 1)) {
        to |= 1ull << ahead;
        if (from / 8 == start && !(b->occupied >> (ahead + up) & 1))
            to |= 1ull << (ahead + up);
    }
    return to;
}

/* fx_is_legal (movegen.h). */
static inline int fx_is_legal_inline(const fx_board *b, fx_move m)
{
    const uint64_t rank_1 = 0xFFull, rank_8 = 0xFF00000000000000ull;
    int from = FX_FROM(m), to = FX_TO(m), kind = FX_KIND(m), us = b->turn;
    uint8_t code = b->sq[from];
    if (kind > FX_MV_EP || from == to || !code || (code > 6) != us || !fx_one_king_each(b))
        return 0;
    int type = FX_TYPE_OF(code);
    if (kind == FX_MV_CASTLE) {
        for (int slot = 2 * us; slot < 2 * us + 2; slot++)
            if (b->rook[slot] == to)
                return type == FX_KING && fx_castle_legal(b, slot);
        return 0;
    }
    if (b->pieces[us][FX_ALL] >> to & 1)
        return 0;
    if (type == FX_PAWN) {
        int last = (int)((us ? rank_1 : rank_8) >> to & 1);
        int promotes = kind >= FX_MV_PROMO && kind < FX_MV_CASTLE;
        if (kind == FX_MV_EP) {
            if (to != b->ep || !(fx_pawn_attacks[us][from] >> to & 1)
                || (b->occupied >> to & 1) || b->sq[(from & 56) | (to & 7)] != FX_CODE(!us, FX_PAWN))
                return 0;
        } else if (promotes != last || !(fx_pawn_moves(b, from, b->pieces[!us][FX_ALL]) >> to & 1)) {
            return 0;
        }
    } else if (kind != FX_MV_NORMAL || !(fx_piece_attacks(type, us, from, b->occupied) >> to & 1)) {
        return 0;
    }
    return fx_keeps_king_safe(b, m);
}

#endif
