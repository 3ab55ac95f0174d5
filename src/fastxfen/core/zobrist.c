/* Zobrist keys of positions: polyglot's for 8x8 boards, fastxfen's
 * documented extension for 10x8 boards (docs/keys.md). */
#include <string.h>

#include "zobrist.h"

/* Key of each piece code on each square: polyglot's kinds for an 8-wide
 * board, the extension's for a 10-wide one; code 0 (empty) gives 0. */
static uint64_t piece8[FX_CODE_LIMIT][64];
static uint64_t piece10[FX_CODE_LIMIT][FX_MAX_SQUARES];

void fx_zobrist_init(void)
{
    for (int code = FX_WP; code <= FX_BK; code++) {
        /* polyglot kind: (type - 1) * 2, + 1 for white */
        int white = code <= FX_WK, type = white ? code : code - FX_BP + 1;
        int kind = (type - 1) * 2 + white;
        for (int sq = 0; sq < 64; sq++)
            piece8[code][sq] = fx_polyglot_keys[64 * kind + sq];
    }
    for (int code = FX_WP; code < FX_CODE_LIMIT; code++)
        for (int sq = 0; sq < FX_MAX_SQUARES; sq++)
            piece10[code][sq] = fx_wide_keys[FX_WK_PIECES + 80 * (code - 1) + sq];
}

/* XOR of the piece-square keys of the first `squares` squares (a multiple
 * of 8); a rank of empty squares costs one test. */
#define PIECES(table, board, squares, h)                         \
    for (int rank = 0; rank < (squares); rank += 8) {            \
        uint64_t word;                                           \
        memcpy(&word, (board) + rank, 8);                        \
        if (!word)                                               \
            continue;                                            \
        for (int sq = rank; sq < rank + 8; sq++)                 \
            (h) ^= (table)[(board)[sq]][sq];                     \
    }

static uint64_t key8(const fx_pos *pos)
{
    uint64_t h = 0;
    PIECES(piece8, pos->board, 64, h);
    for (int slot = 0; slot < 4; slot++)  /* slots are in polyglot's order */
        if (pos->castling[slot] != FX_NONE)
            h ^= fx_polyglot_keys[768 + slot];
    if (fx_ep_keep(pos, FX_EP_XFEN))
        h ^= fx_polyglot_keys[772 + pos->ep % 8];
    if (pos->turn == FX_WHITE)
        h ^= fx_polyglot_keys[780];
    return h;
}

static uint64_t key10(const fx_pos *pos)
{
    uint64_t h = 0;
    PIECES(piece10, pos->board, FX_MAX_SQUARES, h);
    for (int slot = 0; slot < 4; slot++)
        if (pos->castling[slot] != FX_NONE)
            h ^= fx_wide_keys[FX_WK_CASTLING + 10 * (slot / 2) + pos->castling[slot]];
    if (fx_ep_keep(pos, FX_EP_XFEN))
        h ^= fx_wide_keys[FX_WK_EP + pos->ep % 10];
    if (pos->turn == FX_WHITE)
        h ^= fx_wide_keys[FX_WK_WHITE];
    if (pos->prefix != FX_PREFIX_NONE)
        h ^= fx_wide_keys[FX_WK_PREFIX + pos->prefix - 1];
    return h;
}

uint64_t fx_zobrist(const fx_pos *pos)
{
    if (pos->width == 8)
        return key8(pos);
    return pos->width == 10 ? key10(pos) : 0;
}

/* Whether every byte of a record is 0: the null record.  A record of width
 * 0 with any other byte set is corrupt, refused by fx_check_record. */
static int is_null_record(const uint8_t *rec, int wide)
{
    size_t size = wide ? sizeof(fx_pos) : sizeof(fx_rec8);
    for (size_t i = 0; i < size; i++)
        if (rec[i])
            return 0;
    return 1;
}

int fx_load_any(const fx_key_records *recs, size_t i, fx_pos *pos, fx_error *err)
{
    const uint8_t *rec = recs->base + i * recs->stride;
    int wide = recs->wide, trusted = recs->trusted;
    if (rec[wide ? FX_MAX_SQUARES : 64] == 0 && (trusted || is_null_record(rec, wide)))
        return 0;  /* the width byte: the reader writes width 0 only in null records */
    if (!trusted)
        return fx_load_record(rec, wide, pos, err) == 0 ? 1 : -1;
    if (wide)
        memcpy(pos, rec, sizeof *pos);
    else
        fx_rec8_to_pos(rec, pos);
    return 1;
}

int64_t fx_zobrist_batch(const fx_key_records *recs, size_t n, uint64_t *out, fx_error *err)
{
    fx_pos pos;
    for (size_t i = 0; i < n; i++) {
        int got = fx_load_any(recs, i, &pos, err);
        out[i] = got > 0 ? fx_zobrist(&pos) : 0;
        if (got < 0 && !recs->coerce)
            return (int64_t)i;
    }
    return -1;
}
