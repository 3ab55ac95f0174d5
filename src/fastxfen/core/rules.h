/* The rules the row reader applies to every row, inline so that they
 * become part of its code: castling rights from the flags of a castling
 * field and the back ranks, and the en-passant target test.  rules.c
 * builds the exported rules (fx.h) on them.  No branch on the board. */
#ifndef FASTXFEN_RULES_H
#define FASTXFEN_RULES_H

#include <string.h>

#include "bits.h"
#include "tables.h"

/* By a set of files (bit f: file f), its highest and its lowest file,
 * FX_NONE for none. */
#define FX_FILE_SETS (1u << FX_MAX_WIDTH)
extern const uint8_t fx_highest_file[FX_FILE_SETS];
extern const uint8_t fx_lowest_file[FX_FILE_SETS];

/* An 8-wide board's back ranks: for each color, its king as its file's bit
 * when it has exactly one king, standing on its back rank (else 0), and
 * the files of its rooks there.  Four 16-byte blocks of two ranks each. */
static FX_ALWAYS_INLINE void back_ranks8(const uint8_t *board, uint32_t kings[2],
                                         uint32_t rooks[2])
{
    uint32_t w_home, b_home;
    uint64_t w_away, b_away;  /* kings off their back rank (any bit) */
#ifdef FX_SSE2
    const __m128i wk = _mm_set1_epi8(FX_WK), bk = _mm_set1_epi8(FX_BK);
    __m128i r12 = _mm_loadu_si128((const __m128i *)board);
    __m128i r34 = _mm_loadu_si128((const __m128i *)(board + 16));
    __m128i r56 = _mm_loadu_si128((const __m128i *)(board + 32));
    __m128i r78 = _mm_loadu_si128((const __m128i *)(board + 48));
    w_home = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(r12, wk));
    b_home = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(r78, bk));
    w_away = (uint32_t)_mm_movemask_epi8(_mm_or_si128(
        _mm_cmpeq_epi8(r34, wk), _mm_or_si128(_mm_cmpeq_epi8(r56, wk), _mm_cmpeq_epi8(r78, wk))));
    b_away = (uint32_t)_mm_movemask_epi8(_mm_or_si128(
        _mm_cmpeq_epi8(r12, bk), _mm_or_si128(_mm_cmpeq_epi8(r34, bk), _mm_cmpeq_epi8(r56, bk))));
    rooks[0] = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(r12, _mm_set1_epi8(FX_WR))) & 0xFF;
    rooks[1] = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(r78, _mm_set1_epi8(FX_BR))) >> 8;
#else
    uint64_t white = fx_equal64(board, FX_WK), black = fx_equal64(board, FX_BK);
    w_home = (uint32_t)white & 0xFFFF;
    w_away = white >> 16;
    b_home = (uint32_t)(black >> 48);
    b_away = black & 0xFFFFFFFFFFFFull;
    rooks[0] = fx_equal8(board, FX_WR);
    rooks[1] = fx_equal8(board + 56, FX_BR);
#endif
    uint32_t w = w_home & 0xFF, b = b_home >> 8;
    /* w and b are 0 or more bits: one bit, and no king elsewhere */
    kings[0] = w & (0u - (((w & (w - 1)) | w_away | w_home >> 8) == 0));
    kings[1] = b & (0u - (((b & (b - 1)) | b_away | (b_home & 0xFF)) == 0));
}

/* back_ranks8 for a 10-wide board (rules.c; out of line, so that the
 * registers it needs are not saved for every 8-wide board). */
void fx_back_ranks10(const fx_pos *pos, uint32_t kings[2], uint32_t rooks[2]);

/* back_ranks8 for a board of either width. */
static FX_ALWAYS_INLINE void fx_back_ranks(const fx_pos *pos, uint32_t kings[2],
                                           uint32_t rooks[2])
{
    if (pos->width == 8)
        back_ranks8(pos->board, kings, rooks);
    else
        fx_back_ranks10(pos, kings, rooks);
}

/* A color's two slots (the h-side in the low byte) from its king (a
 * file's bit; 0 when it has no king to castle with), its back-rank rooks
 * and the rights asked for: flags K and Q, which name every rook on their
 * side of the king, and rook files.  Of the candidates, the outermost rook
 * on each side is kept.  The two files come from tables: a set's highest
 * and lowest bit, with none for an empty set, cost the row reader a tenth
 * of its time when computed. */
static FX_ALWAYS_INLINE uint32_t fx_settle(uint32_t king, uint32_t rooks, uint32_t set)
{
    /* the files beyond the king on each side (none without one) */
    uint32_t above = (0u - 2 * king) & (FX_FILE_SETS - 1);
    uint32_t below = (king - 1) & (0u - (king != 0));
    uint32_t rights = rooks & ((set >> FX_FLAG_FILES) | (above & (0u - (set >> FX_FLAG_K & 1)))
                               | (below & (0u - (set >> FX_FLAG_Q & 1))));
    return fx_highest_file[rights & above] | (uint32_t)fx_lowest_file[rights & below] << 8;
}

/* The four slots into the record at once (one store: a later read of them
 * takes it whole), and the s/m prefix, which qualifies rights, dropped
 * when none is left, so that equal text always gives equal records. */
static inline uint32_t fx_store_slots(fx_pos *pos, uint32_t slots)
{
    memcpy(pos->castling, &slots, 4);
    if (slots == 0xFFFFFFFFu)
        pos->prefix = FX_PREFIX_NONE;
    return slots;
}

/* fx_castling_from_sets (fx.h). */
static FX_ALWAYS_INLINE uint32_t fx_castling_sets(fx_pos *pos, const uint32_t sets[2])
{
    uint32_t kings[2], rooks[2];
    fx_back_ranks(pos, kings, rooks);
    return fx_store_slots(pos, fx_settle(kings[0], rooks[0], sets[0])
                                   | fx_settle(kings[1], rooks[1], sets[1]) << 16);
}

/* The square (file < width, rank < 8) if it is a valid en-passant target
 * of *pos (fx_ep_valid), else FX_NONE. */
static inline uint8_t fx_ep_target(const fx_pos *pos, unsigned file, unsigned rank)
{
    unsigned w = pos->width, black = pos->turn != FX_WHITE;
    unsigned sq = rank * w + file;
    unsigned on_rank = -(unsigned)(rank == 5 - 3 * black);  /* rank 6 for white, 3 for black */
    /* off its rank, a middle square stands in, so that no index leaves
     * the board (and no branch is taken) */
    unsigned square = (sq & on_rank) | (3 * w & ~on_rank);
    unsigned ahead = w - 2 * w * black;  /* the next rank the mover's way */
    unsigned valid = on_rank & -(unsigned)((pos->board[square] == FX_EMPTY)
                                           & (pos->board[square + ahead] == FX_EMPTY)
                                           & (pos->board[square - ahead] == FX_BP - 6 * black));
    return (uint8_t)((sq & valid) | (FX_NONE & ~valid));
}

#endif
