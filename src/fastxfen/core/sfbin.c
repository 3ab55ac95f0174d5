/* The .bin format: 40-byte records of a 256-bit packed position (the side
 * to move, both king squares, a code per other square from rank 8 down,
 * castling flags, en-passant target, counters), then score, move, ply,
 * result and a padding byte, little-endian.  Bits fill each byte from its
 * lowest bit up. */
#include <string.h>

#include "training.h"

#define BIN_BITS 256

typedef struct {
    const uint8_t *data;   /* 32 bytes */
    unsigned bit;
} bin_reader;

/* n bits, lowest first; bits past the 256th read as 0 and are caught by
 * the caller's check of r->bit. */
static unsigned get(bin_reader *r, unsigned n)
{
    unsigned v = 0;
    for (unsigned i = 0; i < n; i++, r->bit++)
        if (r->bit < BIN_BITS)
            v |= (unsigned)(r->data[r->bit >> 3] >> (r->bit & 7) & 1) << i;
    return v;
}

static int bad(fx_t_error *err, uint32_t code, uint32_t field, uint32_t a, uint32_t b)
{
    err->code = code;
    err->field = field;
    err->a = a;
    err->b = b;
    return -1;
}

/* An empty square is a 0 bit; a piece is 1, three bits of its type (pawn
 * 0 .. queen 4), then its color. */
static int read_square(bin_reader *r, fx_board *b, int sq, fx_t_error *err)
{
    if (!get(r, 1))
        return 0;
    unsigned type = get(r, 3), color = get(r, 1);
    if (type > 4)
        return bad(err, FX_T_E_NIBBLE, FX_T_F_POSITION, 1 | type << 1, (uint32_t)sq);
    fx_board_put(b, sq, FX_CODE(color, type + 1));
    return 0;
}

static int read_position(const uint8_t *in, fx_board *b, fx_t_error *err)
{
    bin_reader r = {in, 0};
    fx_board_clear(b);
    b->turn = (uint8_t)get(&r, 1);
    unsigned kings[2];
    kings[0] = get(&r, 6);
    kings[1] = get(&r, 6);
    if (kings[0] == kings[1])
        return bad(err, FX_T_E_KINGS, FX_T_F_POSITION, 1, 1);
    fx_board_put(b, (int)kings[0], FX_WK);
    fx_board_put(b, (int)kings[1], FX_BK);
    for (int rank = 7; rank >= 0; rank--)
        for (int file = 0; file < 8; file++)
            if (!b->sq[rank * 8 + file] && read_square(&r, b, rank * 8 + file, err))
                return -1;
    uint32_t sets[2] = {0, 0};
    for (int slot = 0; slot < 4; slot++)  /* K, Q, k, q */
        sets[slot / 2] |= get(&r, 1) << (slot & 1 ? FX_FLAG_Q : FX_FLAG_K);
    if (get(&r, 1))
        b->ep = (uint8_t)get(&r, 6);
    uint32_t rule50 = get(&r, 6), fullmove = get(&r, 8);
    fullmove |= get(&r, 8) << 8;
    rule50 |= get(&r, 1) << 6;
    if (r.bit > BIN_BITS)
        return bad(err, FX_T_E_PACKED_BITS, FX_T_F_POSITION, r.bit, BIN_BITS);
    fx_pos pos;  /* the flags name rooks as X-FEN's K and Q do */
    fx_board_to_pos(b, &pos);
    fx_castling_from_sets(&pos, sets);
    for (int slot = 0; slot < 4; slot++)
        b->rook[slot] = pos.castling[slot] == FX_NONE
                            ? FX_NONE : (uint8_t)(pos.castling[slot] + (slot >= 2 ? 56 : 0));
    b->rule50 = rule50;
    b->ply = 2 * ((fullmove ? fullmove : 1) - 1) + b->turn;
    fx_sf_settle_ep(b);
    return 0;
}

int fx_bin_read(const uint8_t in[40], fx_t_entry *e, fx_t_error *err)
{
    if (read_position(in, &e->pos, err)) {
        err->field = FX_T_F_POSITION;
        return -1;
    }
    uint16_t move = (uint16_t)(in[34] | in[35] << 8);
    e->score = (int16_t)(in[32] | in[33] << 8);
    e->ply = (uint16_t)(in[36] | in[37] << 8);
    e->result = (int8_t)in[38];
    if (fx_move_from_sf(move, &e->move))
        return bad(err, FX_T_E_MOVE_BITS, FX_T_F_MOVE, move, 0);
    if (!e->move)
        return bad(err, FX_T_E_NULL_MOVE, FX_T_F_MOVE, 0, 0);
    if (!fx_t_is_legal(&e->pos, e->move))
        return bad(err, FX_T_E_ILLEGAL, FX_T_F_MOVE, e->move, 0);
    return 0;
}

typedef struct {
    uint8_t *data;   /* 32 bytes, zeroed */
    unsigned bit;
} bin_writer;

static void put(bin_writer *w, unsigned v, unsigned n)
{
    for (unsigned i = 0; i < n; i++, w->bit++)
        if (w->bit < BIN_BITS && (v >> i & 1))
            w->data[w->bit >> 3] |= (uint8_t)(1u << (w->bit & 7));
}

/* The flags of the board's rights: each right's rook must be the outermost
 * one of its color on its side, the rook K or Q names. */
static int castling_flags(const fx_board *b, unsigned *flags)
{
    *flags = 0;
    for (int slot = 0; slot < 4; slot++) {
        int rook = b->rook[slot], color = slot / 2;
        if (rook == FX_NONE)
            continue;
        uint64_t rank = color ? 0xFF00000000000000ull : 0xFFull;
        uint64_t rooks = b->pieces[color][FX_ROOK] & rank;
        uint64_t beyond = slot & 1 ? rooks & ((1ull << rook) - 1) : rooks & ~((2ull << rook) - 1);
        if (beyond)
            return -1;
        *flags |= 1u << slot;
    }
    return 0;
}

int fx_bin_write(const fx_t_entry *e, uint8_t out[40], fx_t_error *err)
{
    const fx_board *b = &e->pos;
    unsigned flags, fullmove = b->ply / 2 + 1;
    int kings[2] = {fx_king_square(b, 0), fx_king_square(b, 1)};
    if (fx_popcount64(b->pieces[0][FX_KING]) != 1 || fx_popcount64(b->pieces[1][FX_KING]) != 1)
        return bad(err, FX_T_E_STORE, FX_T_F_POSITION, FX_T_S_KINGS, 0);
    if (castling_flags(b, &flags))
        return bad(err, FX_T_E_STORE, FX_T_F_POSITION, FX_T_S_CASTLING, 0);
    if (b->rule50 > 127 || fullmove > 0xFFFF) {
        err->value = b->rule50 > 127 ? b->rule50 : fullmove;
        return bad(err, FX_T_E_RANGE, b->rule50 > 127 ? FX_T_F_RULE50 : FX_T_F_FULLMOVE, 0, 0);
    }
    memset(out, 0, 40);
    bin_writer w = {out, 0};
    put(&w, b->turn, 1);
    put(&w, (unsigned)kings[0], 6);
    put(&w, (unsigned)kings[1], 6);
    for (int rank = 7; rank >= 0; rank--)
        for (int file = 0; file < 8; file++) {
            uint8_t code = b->sq[rank * 8 + file];
            int type = FX_TYPE_OF(code);
            if (type == FX_KING)
                continue;
            put(&w, code ? 1u | (unsigned)(type - 1) << 1 | (unsigned)(code > 6) << 4 : 0,
                code ? 5 : 1);
        }
    put(&w, flags, 4);
    put(&w, b->ep != FX_NONE, 1);
    if (b->ep != FX_NONE)
        put(&w, b->ep, 6);
    put(&w, b->rule50 & 63, 6);
    put(&w, fullmove & 0xFF, 8);
    put(&w, fullmove >> 8, 8);
    put(&w, b->rule50 >> 6, 1);
    if (w.bit > BIN_BITS)
        return bad(err, FX_T_E_STORE, FX_T_F_POSITION, FX_T_S_PIECES, 0);
    uint16_t move = fx_move_to_sf(e->move), score = (uint16_t)e->score;
    out[32] = (uint8_t)score;
    out[33] = (uint8_t)(score >> 8);
    out[34] = (uint8_t)move;
    out[35] = (uint8_t)(move >> 8);
    out[36] = (uint8_t)e->ply;
    out[37] = (uint8_t)(e->ply >> 8);
    out[38] = (uint8_t)e->result;
    out[39] = 0xFF;
    return 0;
}

size_t fx_bin_read_many(const uint8_t *data, size_t n, fx_t_columns *c, fx_t_chains *chains,
                        size_t row, fx_t_error *err)
{
    for (size_t i = 0; i < n; i++) {
        fx_t_entry e;
        if (fx_bin_read(data + FX_BIN_SIZE * i, &e, err)
            || fx_t_emit(c, row + i, &e, c->chain ? fx_t_chain_of(chains, &e) : 0, 0, err)) {
            err->offset = FX_BIN_SIZE * i;
            return i;
        }
    }
    return n;
}

size_t fx_bin_write_rows(const fx_t_table *t, size_t start, size_t n, uint8_t *out,
                         fx_t_error *err)
{
    for (size_t i = 0; i < n; i++) {
        fx_t_entry e;
        if (fx_t_table_entry(t, start + i, &e, err) || fx_bin_write(&e, out + FX_BIN_SIZE * i, err))
            return i;
    }
    return n;
}
