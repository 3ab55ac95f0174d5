/* The packed board shared by the lichess binary FEN (lichess.c) and
 * Stockfish's 24-byte position (stockfish.c): occupancy and a nibble per
 * piece.  Inline, so that each format's row loop is compiled whole; the
 * tables are packed.c's. */
#ifndef FASTXFEN_EXPORT_PACKED_H
#define FASTXFEN_EXPORT_PACKED_H

#include "shared.h"

/* The bytes of one rank (byte j = square j of the rank) whose occupied
 * squares are the bits of m are compressed (the occupied bytes moved down to
 * bytes 0, 1, ...) in three steps that move bytes by 1, 2 and 4 places: the
 * byte of the j-th occupied square moves by its distance j - (occupied
 * squares below it), one binary digit per step, lowest first, which never
 * lands on a byte that stays (Hacker's Delight, 7-4).  step[i] has 0xFF on
 * the bytes that move in step i, where they stand before it.  Running the
 * steps backwards expands a compressed rank again.  Filled by fx_x_init
 * (packed.c). */
typedef struct {
    uint64_t step[3];
    uint64_t bytes;     /* 0xFF on the occupied squares */
} rank_moves;
extern rank_moves fx_x_rank_moves[256];
extern uint8_t fx_x_rank_count[256];

/* While a packed board is read, a square whose nibble v is 12, 13 or 14 (a
 * pushed pawn or a castling rook, which need checks) holds MARK(v) until
 * read_marks settles it.  Marks are above every piece code. */
#define MARK(v) ((v) + 4)

#ifndef FX_SSE2
/* Nibble of a piece code by side to move, before the special values 12..14
 * (the scalar twins of square_nibbles and nibble_codes). */
static const uint8_t NIBBLE[2][13] = {
    {0, 0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11},   /* white to move */
    {0, 0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 15},   /* black to move: k is 15 */
};
/* Piece code of each nibble: 15 is the black king, 12..14 are marks. */
static const uint8_t NIBBLE_CODE[16] = {
    FX_WP, FX_BP, FX_WN, FX_BN, FX_WB, FX_BB, FX_WR, FX_BR,
    FX_WQ, FX_BQ, FX_WK, FX_BK, MARK(12), MARK(13), MARK(14), FX_BK};
#endif

static inline void put_be64(uint8_t *out, uint64_t v)
{
    v = byte_swap64(v);
    memcpy(out, &v, sizeof v);
}

/* Square of the pawn that made the stored en-passant target, or -1. */
static inline int pushed_pawn(const fx_pos *pos, fx_ep_mode mode)
{
    if (pos->ep == FX_NONE || !fx_ep_keep(pos, mode))
        return -1;
    return pos->turn == FX_WHITE ? pos->ep - 8 : pos->ep + 8;
}

/* The occupied bytes of x (the others zero) moved down to bytes 0, 1, ... */
static inline uint64_t compress_rank(uint64_t x, const rank_moves *mv)
{
    uint64_t t;
    t = x & mv->step[0];
    x = (x ^ t) | (t >> 8);
    t = x & mv->step[1];
    x = (x ^ t) | (t >> 16);
    t = x & mv->step[2];
    return (x ^ t) | (t >> 32);
}

/* The inverse: bytes 0, 1, ... of x (the rest anything) moved up to the
 * occupied squares, the other bytes zero. */
static inline uint64_t expand_rank(uint64_t x, const rank_moves *mv)
{
    x = (x & ~mv->step[2]) | ((x << 32) & mv->step[2]);
    x = (x & ~mv->step[1]) | ((x << 16) & mv->step[1]);
    x = (x & ~mv->step[0]) | ((x << 8) & mv->step[0]);
    return x & mv->bytes;
}

/* Occupied squares of an 8x8 board, bit = square index. */
static inline uint64_t occupancy8(const uint8_t *board)
{
    uint64_t occ = 0;
    for (int r = 0; r < FX_HEIGHT; r++)
        occ |= nonzero_bytes(word_at(board + 8 * r)) << (8 * r);
    return occ;
}

/* The nibble of every square of an 8x8 board whose codes are 0..12 (empty
 * squares get 0), before the special values 12..14.  Returns the
 * occupancy; *black_king is set when a black king is on the board. */
static inline uint64_t square_nibbles(const uint8_t *board, int black_to_move,
                                      uint8_t nib[SQUARES8],
                                      int *black_king)
{
#ifdef FX_SSE2
    /* White codes 1..6 give 2 * code - 2, black codes 7..12 give
     * 2 * code - 13; the black king to move gets 11 | 4 = 15. */
    const __m128i zero = _mm_setzero_si128(), six = _mm_set1_epi8(6);
    const __m128i two = _mm_set1_epi8(2), eleven = _mm_set1_epi8(11);
    const __m128i bk = _mm_set1_epi8(FX_BK), to_move = _mm_set1_epi8(black_to_move ? 4 : 0);
    uint64_t empty = 0;
    int kings = 0;
    for (int q = 0; q < 4; q++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(board + 16 * q));
        __m128i black = _mm_cmpgt_epi8(v, six), king = _mm_cmpeq_epi8(v, bk);
        __m128i n = _mm_sub_epi8(_mm_add_epi8(v, v),
                                 _mm_add_epi8(two, _mm_and_si128(black, eleven)));
        __m128i none = _mm_cmpeq_epi8(v, zero);
        n = _mm_andnot_si128(none, _mm_or_si128(n, _mm_and_si128(king, to_move)));
        _mm_storeu_si128((__m128i *)(void *)(nib + 16 * q), n);
        empty |= (uint64_t)(uint16_t)_mm_movemask_epi8(none) << (16 * q);
        kings |= _mm_movemask_epi8(king);
    }
    *black_king = kings != 0;
    return ~empty;
#else
    const uint8_t *nibble = NIBBLE[black_to_move];
    int kings = 0;
    for (int sq = 0; sq < SQUARES8; sq++) {
        nib[sq] = nibble[board[sq]];
        kings |= board[sq] == FX_BK;
    }
    *black_king = kings;
    return occupancy8(board);
#endif
}

/* Two codes (0..15) per byte, the first in the low half: the (k + 1) / 2
 * bytes of codes[0..k) at out.  codes has 16 bytes of room after k; the
 * vector version writes whole 8-byte words, so up to out + 8 * ceil(k / 16)
 * (the bytes past the codes are zero). */
static inline void pack_nibbles(uint8_t *codes, int k, uint8_t *out)
{
#ifdef FX_SSE2
    const __m128i low = _mm_set1_epi16(0x00FF);
    _mm_storeu_si128((__m128i *)(void *)(codes + k), _mm_setzero_si128());
    for (int at = 0; at < k; at += 16) {
        /* 16-bit lane c0 | c1 << 8 -> low byte c0 | c1 << 4 */
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(codes + at));
        v = _mm_and_si128(_mm_or_si128(v, _mm_srli_epi16(v, 4)), low);
        _mm_storel_epi64((__m128i *)(void *)(out + at / 2), _mm_packus_epi16(v, v));
    }
#else
    codes[k] = 0;
    for (int at = 0; at < k; at += 2)
        out[at / 2] = (uint8_t)(codes[at] | codes[at + 1] << 4);
#endif
}

/* Occupancy (8 bytes, big-endian) and then one nibble per piece in square
 * order, low nibble first.  Returns the number of pieces; writes the nibbles
 * only when there are at most max_pieces (the caller has room for whole
 * words up to out + 8 + max_pieces / 2). */
static inline int pack_board(const fx_pos *pos, int pushed, uint64_t rooks, int max_pieces,
                             uint8_t *out, int *black_king)
{
    uint8_t nib[SQUARES8], codes[SQUARES8 + 16];
    const uint64_t occupied = square_nibbles(pos->board, pos->turn == FX_BLACK, nib, black_king);
    /* (empty squares keep nibble 0: compress_rank needs it) */
    for (uint64_t b = rooks & occupied; b; b &= b - 1) {
        int sq = lowest(b);
        nib[sq] = pos->board[sq] == FX_WR ? 13 : 14;
    }
    if (pushed >= 0 && ((occupied >> pushed) & 1))
        nib[pushed] = 12;
    int k = 0;
    for (int r = 0; r < FX_HEIGHT; r++) {
        unsigned m = (unsigned)(occupied >> (8 * r)) & 0xFF;
        uint64_t x = compress_rank(word_at(nib + 8 * r), &fx_x_rank_moves[m]);
        memcpy(codes + k, &x, sizeof x);
        k += fx_x_rank_count[m];
    }
    put_be64(out, occupied);
    if (k <= max_pieces)
        pack_nibbles(codes, k, out + 8);
    return k;
}

static inline int check_prefix(const fx_pos *pos, fx_error *err)
{
    if (pos->prefix != FX_PREFIX_NONE && any_right(pos))
        return fx_x_fail(err, FX_X_E_PREFIX, FX_F_RECORD_PREFIX, 0, pos->prefix, 0);
    return 0;
}

/* The piece codes (NIBBLE_CODE) of the n nibbles at `in` into codes (room
 * for n rounded up to 32).  Returns the pieces (bit k: piece k) whose nibble
 * is 12..14; *fifteen gets those whose nibble is 15.  The vector version
 * reads 16 bytes per 32 nibbles. */
static inline uint64_t nibble_codes(const uint8_t *in, int n, uint8_t *codes, uint64_t *fifteen)
{
    uint64_t marks = 0, kings = 0;
#ifdef FX_SSE2
    /* Nibble v < 12: code (v >> 1) + 1, plus 6 when v is odd (black). */
    const __m128i low = _mm_set1_epi8(15), one = _mm_set1_epi8(1), two = _mm_set1_epi8(2);
    const __m128i four = _mm_set1_epi8(4), six = _mm_set1_epi8(6), seven = _mm_set1_epi8(7);
    const __m128i eleven = _mm_set1_epi8(11);
    for (int k = 0; k < n; k += 32) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(in + k / 2));
        __m128i lo = _mm_and_si128(v, low), hi = _mm_and_si128(_mm_srli_epi16(v, 4), low);
        for (int h = 0; h < 2; h++) {
            __m128i x = h ? _mm_unpackhi_epi8(lo, hi) : _mm_unpacklo_epi8(lo, hi);
            __m128i odd = _mm_cmpeq_epi8(_mm_and_si128(x, one), one);
            __m128i code = _mm_add_epi8(_mm_and_si128(_mm_srli_epi16(x, 1), seven), one);
            code = _mm_add_epi8(code, _mm_and_si128(odd, six));
            __m128i king = _mm_cmpeq_epi8(x, low);     /* 15: 14 - 2 = FX_BK */
            code = _mm_sub_epi8(code, _mm_and_si128(king, two));
            __m128i mark = _mm_andnot_si128(king, _mm_cmpgt_epi8(x, eleven));
            code = _mm_or_si128(_mm_andnot_si128(mark, code),
                                _mm_and_si128(mark, _mm_add_epi8(x, four)));
            _mm_storeu_si128((__m128i *)(void *)(codes + k + 16 * h), code);
            marks |= (uint64_t)(uint16_t)_mm_movemask_epi8(mark) << (k + 16 * h);
            kings |= (uint64_t)(uint16_t)_mm_movemask_epi8(king) << (k + 16 * h);
        }
    }
    if (n < 64) {
        marks &= (1ull << n) - 1;
        kings &= (1ull << n) - 1;
    }
#else
    for (int k = 0; k < n; k++) {
        uint8_t v = (in[k >> 1] >> (4 * (k & 1))) & 15;
        codes[k] = NIBBLE_CODE[v];
        marks |= (uint64_t)(v >= 12 && v < 15) << k;
        kings |= (uint64_t)(v == 15) << k;
    }
#endif
    *fifteen = kings;
    return marks;
}

/* Squares of an 8x8 board that hold a mark. */
static inline uint64_t marked_squares(const uint8_t *board)
{
    uint64_t marked = 0;
#ifdef FX_SSE2
    const __m128i top = _mm_set1_epi8(MARK(12) - 1);
    for (int q = 0; q < 4; q++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(board + 16 * q));
        marked |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpgt_epi8(v, top)) << (16 * q);
    }
#else
    for (int sq = 0; sq < SQUARES8; sq++)
        marked |= (uint64_t)(board[sq] >= MARK(12)) << sq;
#endif
    return marked;
}

/* Settle the marked squares in square order: a pushed pawn (12) gives the
 * en-passant target, a castling rook (13, 14) a castling flag.  Errors name
 * the byte of the nibble (occupied: the board's occupancy). */
static inline int read_marks(fx_pos *pos, uint64_t occupied, int stockfish, uint8_t *flags,
                             size_t *n_flags, fx_error *err)
{
    const uint32_t field = stockfish ? FX_X_F_STOCKFISH : FX_X_F_LICHESS;
    for (uint64_t b = marked_squares(pos->board); b; b &= b - 1) {
        int sq = lowest(b), rank = sq / 8;
        uint8_t v = (uint8_t)(pos->board[sq] - MARK(0));
        size_t at = 8 + (size_t)(count(occupied & ((1ull << sq) - 1)) >> 1);
        if (v == 12) {
            if (rank != 3 && rank != 4)
                return fx_x_fail(err, FX_X_E_NIBBLE, field, at, v, (uint32_t)sq);
            if (pos->ep != FX_NONE)
                return fx_x_fail(err, FX_X_E_EP_MARKS, field, at, (uint32_t)sq, 0);
            pos->board[sq] = rank == 3 ? FX_WP : FX_BP;
            pos->ep = (uint8_t)(rank == 3 ? sq - 8 : sq + 8);
            continue;
        }
        int black = v == 14;
        int ok = stockfish ? (sq == (black ? 56 : 0) || sq == (black ? 63 : 7))
                           : rank == (black ? FX_HEIGHT - 1 : 0);
        if (!ok)
            return fx_x_fail(err, FX_X_E_NIBBLE, field, at, v, (uint32_t)sq);
        pos->board[sq] = black ? FX_BR : FX_WR;
        flags[(*n_flags)++] = (uint8_t)((black ? 'a' : 'A') + sq % 8);
    }
    return 0;
}

/* Unpack the n pieces of the occupancy at `in` (both formats) into a cleared
 * pos (its board is written whole); castling rook files are collected as castling flags.  `in` is
 * readable up to in + 8 + 16 * ceil(n / 32). */
static inline int unpack_board(const uint8_t *in, uint64_t occupied, int n, fx_pos *pos,
                               int stockfish, uint8_t *flags, size_t *n_flags, fx_error *err)
{
    uint8_t codes[SQUARES8 + 32];
    uint64_t fifteen, none = 0;
    uint64_t marks = nibble_codes(in + 8, n, codes, &fifteen);
    memcpy(codes + n, &none, sizeof none);     /* expand_rank reads past n */
    int k = 0;
    for (int r = 0; r < FX_HEIGHT; r++) {
        unsigned m = (unsigned)(occupied >> (8 * r)) & 0xFF;
        uint64_t x = expand_rank(word_at(codes + k), &fx_x_rank_moves[m]);
        memcpy(pos->board + 8 * r, &x, sizeof x);
        k += fx_x_rank_count[m];
    }
    if (fifteen)
        pos->turn = FX_BLACK;
    *n_flags = 0;
    if (marks)
        return read_marks(pos, occupied, stockfish, flags, n_flags, err);
    return 0;
}

/* Bring an unpacked position to the state the text reader leaves: castling
 * flags settled against the board, an invalid en-passant target dropped.
 * Every other field is in range by construction, so this is what
 * fx_check_record would do. */
static inline void settle_unpacked(fx_pos *pos, const uint8_t *flags, size_t n_flags)
{
    if (n_flags)
        fx_castling_from_flags(pos, flags, n_flags);
    if (pos->ep != FX_NONE && !fx_ep_valid(pos))
        pos->ep = FX_NONE;
}

#endif
