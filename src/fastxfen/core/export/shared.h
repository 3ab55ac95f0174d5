/* What the export formats share (internal to the core): bit and board
 * helpers, records and defaults, and the packed board of the lichess and
 * Stockfish formats (packed.c).  A file per format: bitboards.c, planes.c,
 * lichess.c, stockfish.c; the interface is export.h. */
#ifndef FASTXFEN_EXPORT_SHARED_H
#define FASTXFEN_EXPORT_SHARED_H

#include <string.h>

/* SSE2 kernels (FX_SSE2, bits.h), each with a portable scalar twin. */
#include "bits.h"
#include "export.h"
#include "tables.h"

#define SQUARES8 64

static inline int lowest(uint64_t b) { return fx_ctz64(b); }

static inline int count(uint64_t b)
{
    b -= (b >> 1) & 0x5555555555555555ull;
    b = (b & 0x3333333333333333ull) + ((b >> 2) & 0x3333333333333333ull);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((b * 0x0101010101010101ull) >> 56);
}

/* shared.c: err filled in; returns -1. */
int fx_x_fail(fx_error *err, uint32_t code, uint32_t field, uint64_t column, uint32_t a,
              uint32_t b);

static inline void clear_pos(fx_pos *pos, int width)
{
    memset(pos, 0, sizeof *pos);
    pos->width = (uint8_t)width;
    pos->ep = FX_NONE;
    memset(pos->castling, FX_NONE, sizeof pos->castling);
    pos->fullmove = 1;
}

/* ------------------------------------------------------------ board words */

#define ONES8 0x0101010101010101ull

static inline uint64_t word_at(const uint8_t *at)
{
    uint64_t w;
    memcpy(&w, at, sizeof w);
    return w;
}

/* Bit k set when byte k of the (little-endian) word w is nonzero. */
static inline uint64_t nonzero_bytes(uint64_t w)
{
    w |= w >> 4;
    w |= w >> 2;
    w |= w >> 1;
    return ((w & ONES8) * 0x0102040810204080ull) >> 56;
}

/* Bit b of every square's code, as four bitboards (bit = square index). */
static inline void code_bits8(const uint8_t *board, uint64_t bits[4])
{
#ifdef FX_SSE2
    for (int b = 0; b < 4; b++)
        bits[b] = 0;
    for (int q = 0; q < 4; q++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(board + 16 * q));
        /* Shifting 16-bit lanes left by 7 - b puts bit b of each byte in
         * that byte's top bit, which movemask collects. */
        bits[0] |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_slli_epi16(v, 7)) << (16 * q);
        bits[1] |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_slli_epi16(v, 6)) << (16 * q);
        bits[2] |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_slli_epi16(v, 5)) << (16 * q);
        bits[3] |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_slli_epi16(v, 4)) << (16 * q);
    }
#else
    for (int b = 0; b < 4; b++) {
        bits[b] = 0;
        for (int sq = 0; sq < SQUARES8; sq++)
            bits[b] |= (uint64_t)((board[sq] >> b) & 1) << sq;
    }
#endif
}

/* The 12 piece bitboards of an 8x8 board whose codes are all 0..12
 * (index code - 1). */
static inline void board_bitboards8(const uint8_t *board, uint64_t bb[12])
{
    uint64_t b[4];
    code_bits8(board, b);
    /* Squares by the low two bits of the code, and by the high two. */
    const uint64_t low[4] = {~b[0] & ~b[1], b[0] & ~b[1], ~b[0] & b[1], b[0] & b[1]};
    const uint64_t high[4] = {~b[2] & ~b[3], b[2] & ~b[3], ~b[2] & b[3], b[2] & b[3]};
    for (int code = 1; code <= 12; code++)
        bb[code - 1] = low[code & 3] & high[code >> 2];
}

/* A bitboard seen from the other side: rank r becomes rank 7 - r. */
static inline uint64_t mirror(uint64_t b)
{
    b = ((b >> 8) & 0x00FF00FF00FF00FFull) | ((b & 0x00FF00FF00FF00FFull) << 8);
    b = ((b >> 16) & 0x0000FFFF0000FFFFull) | ((b & 0x0000FFFF0000FFFFull) << 16);
    return (b >> 32) | (b << 32);
}

/* Does the position hold any castling right? */
static inline int any_right(const fx_pos *pos)
{
    uint32_t slots;
    memcpy(&slots, pos->castling, sizeof slots);
    return slots != 0xFFFFFFFFu;
}

/* Bitboard of the squares of the rooks that hold castling rights. */
static inline uint64_t castling_rook_bits8(const fx_pos *pos)
{
    uint64_t marks = 0;
    for (int slot = 0; slot < 4; slot++)
        if (pos->castling[slot] != FX_NONE)
            marks |= 1ull << ((slot >= FX_BLACK_H ? 56 : 0) + pos->castling[slot]);
    return marks;
}

/* ------------------------------------------------------------ records */

static inline void store(const fx_pos *pos, uint8_t *dest, int wide)
{
    if (wide)
        memcpy(dest, pos, sizeof *pos);
    else
        fx_pos_to_rec8(pos, dest);
}

static inline int need_width(const fx_pos *pos, int width, fx_error *err)
{
    if (pos->width == width)
        return 0;
    return fx_x_fail(err, FX_X_E_WIDTH, FX_F_RECORD_WIDTH, 0, pos->width, (uint32_t)width);
}

/* How many squares of an 8x8 board hold `code`. */
static inline int count_code8(const uint8_t *board, uint8_t code)
{
    int n = 0;
    for (int sq = 0; sq < SQUARES8; sq++)
        n += board[sq] == code;
    return n;
}

/* Every byte of the 8x8 board is a piece code of 8x8 chess (0..12)? */
static inline int codes_ok8(const uint8_t *board)
{
    uint64_t bad = 0;
    for (int r = 0; r < FX_HEIGHT; r++) {
        uint64_t w = word_at(board + 8 * r);
        bad |= (w | (w + 0x7373737373737373ull)) & 0x8080808080808080ull;
    }
    return bad == 0;
}

/* Would fx_repair_castling leave these rights as they are?  Each right's
 * rook stands on its back rank on the right side of the color's only king,
 * which stands on that rank too. */
static inline int castling_canonical8(const fx_pos *pos)
{
    for (int color = 0; color < 2; color++) {
        uint8_t h = pos->castling[2 * color], a = pos->castling[2 * color + 1];
        if (h == FX_NONE && a == FX_NONE)
            continue;
        const uint8_t *rank = pos->board + (color ? 56 : 0);
        uint8_t king = FX_KING_OF(color), rook = FX_ROOK_OF(color);
        int kf = 0;
        while (kf < 8 && rank[kf] != king)
            kf++;
        if (kf == 8 || count_code8(pos->board, king) != 1)
            return 0;
        if (h != FX_NONE && (h >= 8 || h <= kf || rank[h] != rook))
            return 0;
        if (a != FX_NONE && (a >= 8 || a >= kf || rank[a] != rook))
            return 0;
    }
    return 1;
}

/* Load record i: 0, or -1 with err set (an invalid or null record). */
static inline int load_record(const fx_x_records *recs, size_t i, fx_pos *pos, fx_error *err)
{
    const uint8_t *src = recs->base + i * recs->stride;
    if (recs->wide) {
        memcpy(pos, src, sizeof *pos);
    } else {    /* fx_rec8_to_pos, inlined: this runs once per row */
        memcpy(pos->board, src, SQUARES8);
        memset(pos->board + SQUARES8, 0, FX_MAX_SQUARES - SQUARES8);
        memcpy(&pos->width, src + SQUARES8, sizeof(fx_rec8) - SQUARES8);
    }
    if (pos->width == 0)
        return fx_check_record(pos, recs->wide ? FX_MAX_WIDTH : 8, err);
    if (recs->trusted)
        return 0;
    /* The common case, an 8-wide record already in the state the reader
     * leaves: checked here without the full repair.  Anything else takes
     * fx_check_record, which reports or repairs it. */
    if (pos->width == 8 && codes_ok8(pos->board)
        && (!recs->wide || (word_at(pos->board + 64) | word_at(pos->board + 72)) == 0)
        && pos->turn <= 1 && pos->fullmove != 0
        && (pos->prefix == FX_PREFIX_NONE || (pos->prefix <= FX_PREFIX_M && any_right(pos)))
        && (pos->ep == FX_NONE || (pos->ep < SQUARES8 && fx_ep_valid(pos)))
        && castling_canonical8(pos))
        return 0;
    return fx_check_record(pos, recs->wide ? FX_MAX_WIDTH : 8, err);
}

/* ------------------------------------------------------------ defaults */

static inline void defaults_before(fx_pos *pos, const fx_x_defaults *d, size_t i)
{
    if (d->turn)
        pos->turn = d->turn[i * d->turn_step];
    if (d->ep)
        pos->ep = d->ep[i * d->ep_step];
    if (d->halfmove)
        pos->halfmove = d->halfmove[i * d->halfmove_step];
    if (d->fullmove)
        pos->fullmove = d->fullmove[i * d->fullmove_step];
}

static inline void default_castling(fx_pos *pos, const fx_x_defaults *d, size_t i)
{
    if (d->files)
        memcpy(pos->castling, d->files + 4 * i * d->files_step, 4);
    else
        fx_castling_from_flags(pos, d->flags, d->flags ? d->n_flags : 0);
}

/* ------------------------------------------------------------ packed boards */

static inline uint64_t byte_swap64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_bswap64(v);
#else
    v = ((v & 0x00FF00FF00FF00FFull) << 8) | ((v >> 8) & 0x00FF00FF00FF00FFull);
    v = ((v & 0x0000FFFF0000FFFFull) << 16) | ((v >> 16) & 0x0000FFFF0000FFFFull);
    return (v << 32) | (v >> 32);
#endif
}

static inline uint64_t get_be64(const uint8_t *in)
{
    return byte_swap64(word_at(in));
}

/* ------------------------------------------------------------ batches */

/* Row i failed (its output is already that of a failed row): note it, and
 * stop when the row loop's conventions say so (batch.h). */
#define FAILED(i)                                                        \
    do {                                                                 \
        int why_ = fx_batch_fail(opts, res, (int64_t)(i), 0, 0, &err);   \
        if (why_ != FX_STOP_DONE)                                        \
            return fx_batch_stop(res, why_, (i));                        \
    } while (0)

#endif
