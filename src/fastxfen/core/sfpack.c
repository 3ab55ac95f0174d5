/* Stockfish's codes for one entry: the 24-byte position, the 16-bit move of
 * a .binpack chain head, and the en-passant rule both share. */
#include <string.h>

#include "training.h"

#define BIT(sq) (1ull << (sq))

/* Nibble codes 0..11: color in bit 0, piece type (pawn .. king) above. */
static uint8_t nibble_code(uint8_t nibble)
{
    return FX_CODE(nibble & 1, nibble / 2 + 1);
}

static int fail(fx_t_error *err, uint32_t code, uint32_t a, uint32_t b)
{
    err->code = code;
    err->field = FX_T_F_POSITION;
    err->a = a;
    err->b = b;
    return -1;
}

/* Place nibble `v` on sq: 12 a pawn that just advanced two squares, 13/14
 * a rook in a corner with its right, 15 the black king with black to move. */
static int place(fx_board *b, int sq, uint8_t v, int *ep_pawn, fx_t_error *err)
{
    int rank = sq / 8, file = sq % 8;
    if (v < 12) {
        fx_board_put(b, sq, nibble_code(v));
    } else if (v == 12) {
        if ((rank != 3 && rank != 4) || *ep_pawn >= 0)
            return fail(err, FX_T_E_NIBBLE, v, (uint32_t)sq);
        *ep_pawn = sq;
        fx_board_put(b, sq, FX_CODE(rank == 4, FX_PAWN));
    } else if (v == 13 || v == 14) {
        int black = v == 14;
        if (rank != (black ? 7 : 0) || (file != 0 && file != 7))
            return fail(err, FX_T_E_NIBBLE, v, (uint32_t)sq);
        fx_board_put(b, sq, FX_CODE(black, FX_ROOK));
        b->rook[2 * black + (file == 0)] = (uint8_t)sq;
    } else {
        fx_board_put(b, sq, FX_BK);
        b->turn = FX_BLACK;
    }
    return 0;
}

static int kings_ok(const fx_board *b, fx_t_error *err)
{
    int w = fx_popcount64(b->pieces[FX_WHITE][FX_KING]);
    int k = fx_popcount64(b->pieces[FX_BLACK][FX_KING]);
    return w == 1 && k == 1 ? 0 : fail(err, FX_T_E_KINGS, (uint32_t)w, (uint32_t)k);
}

int fx_sf_unpack_position(const uint8_t in[24], fx_board *b, fx_t_error *err)
{
    uint64_t occupied;
    memcpy(&occupied, in, 8);
    occupied = fx_bswap64(occupied);
    fx_board_clear(b);
    int n = fx_popcount64(occupied), ep_pawn = -1;
    if (n > 32)
        return fail(err, FX_T_E_PIECES, (uint32_t)n, 32);
    for (int k = 0; occupied; occupied &= occupied - 1, k++) {
        uint8_t v = (uint8_t)(in[8 + k / 2] >> (4 * (k & 1)) & 15);
        if (place(b, fx_ctz64(occupied), v, &ep_pawn, err))
            return -1;
    }
    if (ep_pawn >= 0) {  /* the pushed pawn belongs to the side not to move */
        if ((ep_pawn / 8 == 4) != (b->turn == FX_WHITE))
            return fail(err, FX_T_E_NIBBLE, 12, (uint32_t)ep_pawn);
        b->ep = (uint8_t)(ep_pawn + (b->turn == FX_WHITE ? 8 : -8));
    }
    return kings_ok(b, err);
}

int fx_sf_storable(const fx_board *b)
{
    static const uint8_t corner[4] = {7, 0, 63, 56};
    if (fx_popcount64(b->occupied) > 32)
        return FX_T_S_PIECES;
    if (fx_popcount64(b->pieces[FX_WHITE][FX_KING]) != 1
        || fx_popcount64(b->pieces[FX_BLACK][FX_KING]) != 1)
        return FX_T_S_KINGS;
    for (int slot = 0; slot < 4; slot++)
        if (b->rook[slot] != FX_NONE && b->rook[slot] != corner[slot])
            return FX_T_S_CASTLING;
    return 0;
}

void fx_sf_pack_position(const fx_board *b, uint8_t out[24])
{
    uint64_t occupied = b->occupied, big = fx_bswap64(occupied);
    memcpy(out, &big, 8);
    memset(out + 8, 0, 16);
    int pushed = b->ep == FX_NONE ? -1 : b->ep + (b->turn == FX_WHITE ? -8 : 8);
    for (int k = 0; occupied && k < 32; occupied &= occupied - 1, k++) {
        int sq = fx_ctz64(occupied);
        uint8_t code = b->sq[sq], color = code > 6, type = FX_TYPE_OF(code);
        uint8_t v = (uint8_t)(2 * (type - 1) + color);
        if (sq == pushed && type == FX_PAWN)
            v = 12;
        else if (type == FX_ROOK && (b->rook[2 * color] == sq || b->rook[2 * color + 1] == sq))
            v = (uint8_t)(13 + color);
        else if (type == FX_KING && color && b->turn == FX_BLACK)
            v = 15;
        out[8 + k / 2] |= (uint8_t)(v << (4 * (k & 1)));
    }
}

uint16_t fx_sf_pack_move(fx_move m)
{
    static const uint8_t type_of_kind[7] = {0, 1, 1, 1, 1, 2, 3};
    int kind = FX_KIND(m);
    if (!m)
        return 0;
    unsigned promotion = kind >= FX_MV_PROMO && kind < FX_MV_CASTLE ? (unsigned)(kind - 1) : 0;
    return (uint16_t)(type_of_kind[kind] << 14 | FX_FROM(m) << 8 | FX_TO(m) << 2 | promotion);
}

int fx_sf_unpack_move(uint16_t v, fx_move *m)
{
    static const uint8_t kind_of_type[4] = {FX_MV_NORMAL, FX_MV_PROMO, FX_MV_CASTLE, FX_MV_EP};
    int type = v >> 14, from = (v >> 8) & 63, to = (v >> 2) & 63, promotion = v & 3;
    if (!v) {
        *m = 0;
        return 0;
    }
    if (from == to || (promotion && type != 1))
        return -1;
    *m = FX_MOVE(from, to, kind_of_type[type] + (type == 1 ? promotion : 0));
    return 0;
}

void fx_sf_settle_ep(fx_board *b)
{
    if (b->ep != FX_NONE && !fx_ep_possible(b))
        b->ep = FX_NONE;
}

/* ------------------------------------------------------------ move text */

/* The squares the .binpack move text numbers for the piece on `from`, and
 * how many codes the piece has: a pawn's captures (the en-passant target
 * included) and pushes, four codes each on the last step; a king's steps
 * onto squares without its own pieces, then one code per castling right;
 * any other piece's attacks onto squares without its own pieces. */
static uint64_t targets(const fx_board *b, int from, int type, unsigned *count)
{
    int us = b->turn;
    uint64_t own = b->pieces[us][FX_ALL], to;
    if (type == FX_PAWN) {
        int up = us ? -8 : 8, ahead = from + up, seventh = us ? 1 : 6;
        uint64_t prey = b->pieces[!us][FX_ALL] | (b->ep < 64 ? BIT(b->ep) : 0);
        to = fx_pawn_attacks[us][from] & prey;
        if (ahead >= 0 && ahead < 64 && !(b->occupied >> ahead & 1)) {
            to |= BIT(ahead);
            if (from / 8 == 7 - seventh && !(b->occupied >> (ahead + up) & 1))
                to |= BIT(ahead + up);
        }
        *count = (unsigned)fx_popcount64(to) * (from / 8 == seventh ? 4 : 1);
        return to;
    }
    to = fx_piece_attacks(type, us, from, b->occupied) & ~own;
    *count = (unsigned)fx_popcount64(to);
    if (type == FX_KING)
        *count += (b->rook[2 * us] != FX_NONE) + (b->rook[2 * us + 1] != FX_NONE);
    return to;
}

static int bad(fx_t_error *err, uint32_t code, uint32_t a, uint32_t b)
{
    err->code = code;
    err->field = code == FX_T_E_SCORE_CODE ? FX_T_F_SCORE : FX_T_F_MOVE;
    err->a = a;
    err->b = b;
    return -1;
}

/* The move coded by the bits at the top of `word` (piece index, then
 * destination index); *used gets the bits read. */
static int decode_move(const fx_board *b, uint64_t word, unsigned *used, fx_move *m,
                       fx_t_error *err)
{
    int us = b->turn;
    uint64_t own = b->pieces[us][FX_ALL];
    unsigned pieces = (unsigned)fx_popcount64(own), pb = fx_index_bits(pieces);
    unsigned piece = pb ? (unsigned)(word >> (64 - pb)) : 0, count;
    if (piece >= pieces)
        return bad(err, FX_T_E_PIECE_INDEX, piece, pieces);
    int from = fx_select64(own, piece), type = FX_TYPE_OF(b->sq[from]);
    uint64_t to = targets(b, from, type, &count);
    unsigned mb = fx_index_bits(count), index = mb ? (unsigned)(word << pb >> (64 - mb)) : 0;
    if (index >= count)
        return bad(err, FX_T_E_MOVE_INDEX, index, count);
    *used = pb + mb;
    unsigned steps = (unsigned)fx_popcount64(to);
    if (type == FX_PAWN && count != steps) {  /* a promotion: four codes a square */
        *m = FX_MOVE(from, fx_select64(to, index / 4), FX_MV_PROMO + index % 4);
    } else if (index < steps) {
        int sq = fx_select64(to, index);
        *m = FX_MOVE(from, sq, type == FX_PAWN && sq == b->ep ? FX_MV_EP : FX_MV_NORMAL);
    } else {  /* castling: the a-side right first, when the king has it */
        int a_side = index == steps && b->rook[2 * us + 1] != FX_NONE;
        *m = FX_MOVE(from, b->rook[2 * us + a_side], FX_MV_CASTLE);
    }
    return 0;
}

int fx_bp_decode_ply(const fx_board *b, const uint8_t *data, size_t len, uint64_t *bit,
                     int16_t *last_score, fx_move *m, int16_t *score, fx_t_error *err)
{
    uint64_t word = fx_peek_bits(data, len, *bit);
    unsigned used;
    if (decode_move(b, word, &used, m, err))
        return -1;
    uint32_t v = 0;
    for (unsigned k = 0;; k++) {  /* 4-bit groups, low first, each after a "more" bit */
        unsigned group = (unsigned)(word << used >> 59);
        used += 5;
        v |= (group & 15) << (4 * k);
        if (!(group & 16))
            break;
        if (k == 3)
            return bad(err, FX_T_E_SCORE_CODE, 0, 0);
    }
    if (*bit + used > (uint64_t)len * 8)
        return bad(err, FX_T_E_RUNS_OFF, 0, 0);
    *bit += used;
    *score = (int16_t)(*last_score + fx_unfold16((uint16_t)v));
    *last_score = (int16_t)-*score;
    return 0;
}

int fx_bp_encode_ply(const fx_board *b, fx_move m, int16_t score, int16_t *last_score,
                     fx_bit_writer *w)
{
    int us = b->turn, from = FX_FROM(m), to_sq = FX_TO(m), kind = FX_KIND(m);
    uint64_t own = b->pieces[us][FX_ALL];
    unsigned count, type = FX_TYPE_OF(b->sq[from]);
    uint64_t to = targets(b, from, (int)type, &count);
    unsigned steps = (unsigned)fx_popcount64(to), index;
    if (kind == FX_MV_CASTLE) {
        index = steps - 1 + (b->rook[2 * us + 1] != FX_NONE) + (to_sq > from);
    } else {
        if (!(to >> to_sq & 1))
            return -1;
        index = (unsigned)fx_popcount64(to & (BIT(to_sq) - 1));
        if (type == FX_PAWN && count != steps)
            index = 4 * index + (unsigned)(kind - FX_MV_PROMO);
    }
    unsigned piece = (unsigned)fx_popcount64(own & (BIT(from) - 1));
    if (fx_put_bits(w, piece, fx_index_bits((unsigned)fx_popcount64(own)))
        || fx_put_bits(w, index, fx_index_bits(count)))
        return -1;
    uint16_t v = fx_fold16((int16_t)(score - *last_score));
    do {  /* 4-bit groups, each after a "more" bit */
        if (fx_put_bits(w, (v & 15u) | (v > 15u) << 4, 5))
            return -1;
        v >>= 4;
    } while (v);
    *last_score = (int16_t)-score;
    return 0;
}
