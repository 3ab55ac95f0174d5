/* The move generator: legal moves, make-move, perft, and the notations of
 * moves (UCI text, Stockfish's 16 bits). */
#include <string.h>

#include "legal.h"
#include "make.h"

#define BIT(sq) (1ull << (sq))
#define RANK_1 0xFFull
#define RANK_8 0xFF00000000000000ull

void fx_board_clear(fx_board *b)
{
    memset(b, 0, sizeof *b);
    b->ep = FX_NONE;
    memset(b->rook, FX_NONE, sizeof b->rook);
}

void fx_board_put(fx_board *b, int sq, uint8_t code)
{
    fx_place(b, sq, code);
}

/* Bit k of the 64 piece codes of a board, as four bit sets (square s =
 * bit s): each code's squares are then an AND of four of them, with no
 * loop over the pieces. */
static void code_planes(const uint8_t *sq, uint64_t plane[4])
{
#ifdef FX_SSE2
    __m128i v[4];
    for (int q = 0; q < 4; q++)
        v[q] = _mm_loadu_si128((const __m128i *)(sq + 16 * q));
    for (int k = 0; k < 4; k++) {
        uint64_t m = 0;
        for (int q = 0; q < 4; q++)  /* bit k to the top of its byte */
            m |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_slli_epi16(v[q], 7 - k)) << 16 * q;
        plane[k] = m;
    }
#elif defined(FX_NEON)
    uint8x16_t v[4];
    for (int q = 0; q < 4; q++)
        v[q] = vld1q_u8(sq + 16 * q);
    for (int k = 0; k < 4; k++) {
        uint8x16_t bit = vdupq_n_u8((uint8_t)(1u << k));
        plane[k] = fx_neon_mask64(vtstq_u8(v[0], bit), vtstq_u8(v[1], bit), vtstq_u8(v[2], bit),
                                  vtstq_u8(v[3], bit));
    }
#else
    for (int k = 0; k < 4; k++) {
        uint64_t m = 0;
        for (int q = 0; q < 8; q++) {
            uint64_t x;
            memcpy(&x, sq + 8 * q, 8);
            m |= ((x >> k & 0x0101010101010101ull) * 0x0102040810204080ull) >> 56 << 8 * q;
        }
        plane[k] = m;
    }
#endif
}

int fx_board_from_pos(const fx_pos *pos, fx_board *b)
{
    uint64_t p[4], *flat = &b->pieces[0][0];
    if (pos->width != 8)
        return -1;
    code_planes(pos->board, p);
    if (p[3] & p[2] & (p[1] | p[0]))  /* a code above 12 */
        return -1;
    /* code c's squares: lo[c & 3] & hi[c >> 2], at flat[c + (c > 6)] */
    const uint64_t lo[4] = {~p[0] & ~p[1], p[0] & ~p[1], ~p[0] & p[1], p[0] & p[1]};
    const uint64_t hi[4] = {~p[2] & ~p[3], p[2] & ~p[3], ~p[2] & p[3], p[2] & p[3]};
    flat[1] = lo[1] & hi[0], flat[2] = lo[2] & hi[0], flat[3] = lo[3] & hi[0];
    flat[4] = lo[0] & hi[1], flat[5] = lo[1] & hi[1], flat[6] = lo[2] & hi[1];
    flat[8] = lo[3] & hi[1], flat[9] = lo[0] & hi[2], flat[10] = lo[1] & hi[2];
    flat[11] = lo[2] & hi[2], flat[12] = lo[3] & hi[2], flat[13] = lo[0] & hi[3];
    flat[FX_ALL] = flat[1] | flat[2] | flat[3] | flat[4] | flat[5] | flat[6];
    flat[7 + FX_ALL] = flat[8] | flat[9] | flat[10] | flat[11] | flat[12] | flat[13];
    b->occupied = p[0] | p[1] | p[2] | p[3];
    memcpy(b->sq, pos->board, 64);
    b->turn = pos->turn & 1;
    b->ep = pos->ep < 64 ? pos->ep : FX_NONE;
    for (int slot = 0; slot < 4; slot++) {
        uint8_t file = pos->castling[slot];
        b->rook[slot] = file < 8 ? (uint8_t)(file + (slot >= FX_BLACK_H ? 56 : 0)) : FX_NONE;
    }
    b->pad[0] = b->pad[1] = 0;
    b->rule50 = pos->halfmove;
    uint64_t ply = 2 * ((uint64_t)(pos->fullmove ? pos->fullmove : 1) - 1) + b->turn;
    b->ply = ply > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)ply;
    return 0;
}

void fx_board_to_pos(const fx_board *b, fx_pos *pos)
{
    memset(pos, 0, sizeof *pos);
    memcpy(pos->board, b->sq, 64);
    pos->width = 8;
    pos->turn = b->turn;
    pos->ep = b->ep;
    for (int slot = 0; slot < 4; slot++)
        pos->castling[slot] = b->rook[slot] == FX_NONE ? FX_NONE : (uint8_t)(b->rook[slot] & 7);
    pos->halfmove = b->rule50;
    pos->fullmove = b->ply / 2 + 1;
}

/* ------------------------------------------------------------ legality */

int fx_castle_legal(const fx_board *b, int slot)
{
    int us = b->turn, rook = b->rook[slot], king = fx_king_square(b, us);
    if (slot / 2 != us || rook >= 64 || king < 0 || b->sq[rook] != FX_CODE(us, FX_ROOK))
        return 0;
    int back = us ? 56 : 0, h_side = !(slot & 1);
    if (king / 8 != back / 8 || rook / 8 != back / 8 || (rook > king) != h_side)
        return 0;
    int king_to = back + (h_side ? 6 : 2), rook_to = back + (h_side ? 5 : 3);
    uint64_t others = b->occupied ^ BIT(king) ^ BIT(rook);
    uint64_t king_path = fx_between[king][king_to], rook_path = fx_between[rook][rook_to];
    if (others & (king_path | rook_path | BIT(king_to) | BIT(rook_to)))
        return 0;
    /* the king's square and way with the king lifted, its landing square
     * with both pieces moved (as python-chess decides) */
    uint64_t lifted = b->occupied ^ BIT(king);
    for (uint64_t way = king_path | BIT(king); way; way &= way - 1)
        if (fx_attackers(b, fx_ctz64(way), !us, lifted))
            return 0;
    uint64_t after = lifted ^ BIT(rook) ^ BIT(rook_to);
    return !fx_attackers(b, king_to, !us, after);
}

int fx_is_legal(const fx_board *b, fx_move m)
{
    return fx_is_legal_inline(b, m);
}

/* ------------------------------------------------------------ generation */

static int add_safe(const fx_board *b, fx_move m, fx_move *moves, int n)
{
    moves[n] = m;
    return n + fx_keeps_king_safe(b, m);
}

static int pawn_legal(const fx_board *b, fx_move *moves, int n)
{
    int us = b->turn;
    uint64_t last = us ? RANK_1 : RANK_8, targets = b->pieces[!us][FX_ALL];
    int ep = b->ep, behind = ep - (us ? -8 : 8);  /* the pushed pawn */
    if (ep >= 64 || behind < 0 || behind >= 64 || (b->occupied >> ep & 1)
        || b->sq[behind] != FX_CODE(!us, FX_PAWN))
        ep = -1;
    for (uint64_t pawns = b->pieces[us][FX_PAWN]; pawns; pawns &= pawns - 1) {
        int from = fx_ctz64(pawns);
        uint64_t to = fx_pawn_moves(b, from, targets | (ep >= 0 ? BIT(ep) : 0));
        for (; to; to &= to - 1) {
            int sq = fx_ctz64(to);
            if (last >> sq & 1)
                for (int kind = FX_MV_PROMO; kind < FX_MV_CASTLE; kind++)
                    n = add_safe(b, FX_MOVE(from, sq, kind), moves, n);
            else
                n = add_safe(b, FX_MOVE(from, sq, sq == ep ? FX_MV_EP : FX_MV_NORMAL), moves, n);
        }
    }
    return n;
}

int fx_legal_moves(const fx_board *b, fx_move *moves)
{
    if (!fx_one_king_each(b))
        return 0;
    int us = b->turn, n = pawn_legal(b, moves, 0);
    uint64_t own = b->pieces[us][FX_ALL];
    for (int type = FX_KNIGHT; type <= FX_KING; type++)
        for (uint64_t p = b->pieces[us][type]; p; p &= p - 1) {
            int from = fx_ctz64(p);
            uint64_t to = fx_piece_attacks(type, us, from, b->occupied) & ~own;
            for (; to; to &= to - 1)
                n = add_safe(b, FX_MOVE(from, fx_ctz64(to), FX_MV_NORMAL), moves, n);
        }
    int king = fx_king_square(b, us);
    for (int slot = 2 * us; slot < 2 * us + 2; slot++)
        if (fx_castle_legal(b, slot))
            moves[n++] = FX_MOVE(king, b->rook[slot], FX_MV_CASTLE);
    return n;
}

/* ------------------------------------------------------------ make */

int fx_ep_possible(const fx_board *b)
{
    int ep = b->ep, us = b->turn, up = us ? -8 : 8;
    if (ep >= 64 || ep + up < 0 || ep + up >= 64 || ep - up < 0 || ep - up >= 64)
        return 0;
    uint64_t pawns = fx_pawn_attacks[!us][ep] & b->pieces[us][FX_PAWN];
    if (!pawns || (b->occupied >> ep & 1) || (b->occupied >> (ep + up) & 1)
        || b->sq[ep - up] != FX_CODE(!us, FX_PAWN))
        return 0;
    int king = fx_king_square(b, us);
    const uint64_t *them = b->pieces[!us];
    uint64_t diagonal = them[FX_BISHOP] | them[FX_QUEEN], straight = them[FX_ROOK] | them[FX_QUEEN];
    if (king < 0 || !((diagonal | straight) & fx_queen_attacks(king, 0)))
        return 1;
    for (; pawns; pawns &= pawns - 1) {
        uint64_t occupied = ((b->occupied ^ (pawns & -pawns)) | BIT(ep)) ^ BIT(ep - up);
        if (!(fx_bishop_attacks(king, occupied) & diagonal)
            && !(fx_rook_attacks(king, occupied) & straight))
            return 1;
    }
    return 0;
}

void fx_make(fx_board *b, fx_move m)
{
    fx_make_inline(b, m);
}

uint64_t fx_perft(const fx_board *b, int depth)
{
    fx_move moves[FX_MAX_MOVES];
    if (depth <= 0)
        return 1;
    int n = fx_legal_moves(b, moves);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        fx_board next = *b;
        fx_make(&next, moves[i]);
        total += fx_perft(&next, depth - 1);
    }
    return total;
}
