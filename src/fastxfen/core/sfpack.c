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

#define PLY(name) name##_generic
#define POPCOUNT(x) fx_popcount64(x)
#define SELECT(x, n) fx_select64(x, n)
#include "plycode.h"

fx_bp_read_fn fx_bp_read = fx_bp_read_generic;
fx_bp_encode_fn fx_bp_encode_ply = fx_bp_encode_ply_generic;
fx_legal_fn fx_t_is_legal = fx_t_is_legal_generic;

void fx_t_init(void)
{
    if (fx_ply_bmi2_usable()) {
        fx_pext_sliders_init();
        fx_bp_read = fx_bp_read_bmi2;
        fx_bp_encode_ply = fx_bp_encode_ply_bmi2;
        fx_t_is_legal = fx_t_is_legal_bmi2;
    }
}
