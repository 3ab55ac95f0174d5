/* The reader: one row of text into an fx_pos. */
#include <string.h>

#include "avx512.h"
#include "avx2.h"
#include "bits.h"
#include "tables.h"

#define IS_BLANK(c) ((c) == ' ' || (c) == '\t')

static int fail(fx_error *err, fx_code code, fx_field field, size_t column,
                uint32_t a, uint32_t b, uint32_t c)
{
    err->code = code;
    err->field = field;
    err->column = column;
    err->a = a;
    err->b = b;
    err->c = c;
    return -1;
}

/* Close a rank of cnt squares.  The first rank sets the width. */
static int close_rank(int rank, int cnt, int *width, size_t wide_col,
                      size_t col, fx_error *err)
{
    if (rank == 0) {
        if (cnt != 8 && cnt != 10)
            return fail(err, FX_E_FIRST_WIDTH, FX_F_PLACEMENT, col, cnt, 0, 0);
        *width = cnt;
        if (cnt == 8 && wide_col != (size_t)-1)
            return fail(err, FX_E_WIDE_PIECE, FX_F_PLACEMENT, wide_col, 0, 0, 0);
        return 0;
    }
    if (cnt != *width)
        return fail(err, FX_E_RANK_SHORT, FX_F_PLACEMENT, col, 8 - rank, cnt, *width);
    return 0;
}

/* The exact reader: placement field from s[i]; squares go to grid[rank * 10 + file] with rank 0
 * = rank 8.  Returns the index just past the field, or (size_t)-1. */
static size_t read_placement(const uint8_t *s, size_t i, size_t end,
                             uint8_t grid[FX_MAX_SQUARES], int *width,
                             fx_error *err)
{
    int rank = 0, cnt = 0, limit = FX_MAX_WIDTH, prev_num = 0, prev_one = 0;
    size_t wide_col = (size_t)-1;

    for (; i < end; i++) {
        uint8_t c = s[i];
        uint8_t code = fx_piece_code[c];
        if (code) {
            if (cnt >= limit) {
                fail(err, FX_E_RANK_LONG, FX_F_PLACEMENT, i, 8 - rank, cnt + 1, *width);
                return (size_t)-1;
            }
            if (code >= FX_WA) {
                if (*width == 8) {
                    fail(err, FX_E_WIDE_PIECE, FX_F_PLACEMENT, i, 0, 0, 0);
                    return (size_t)-1;
                }
                if (wide_col == (size_t)-1)
                    wide_col = i;
            }
            grid[rank * FX_MAX_WIDTH + cnt++] = code;
            prev_num = prev_one = 0;
        } else if ((uint8_t)(c - '0') <= 9) {
            int n = c - '0';
            if (prev_num) {
                if (!(prev_one && n == 0)) {
                    fail(err, FX_E_ADJACENT_NUMBERS, FX_F_PLACEMENT, i, 0, 0, 0);
                    return (size_t)-1;
                }
                n = 9;  /* "1" then "0" is ten; the one is counted already */
                prev_one = 0;
            } else if (n == 0) {
                fail(err, FX_E_ZERO, FX_F_PLACEMENT, i, 0, 0, 0);
                return (size_t)-1;
            } else {
                prev_one = n == 1;
            }
            cnt += n;
            if (cnt > limit) {
                fail(err, FX_E_RANK_LONG, FX_F_PLACEMENT, i, 8 - rank, cnt, *width);
                return (size_t)-1;
            }
            prev_num = 1;
        } else if (c == '/') {
            if (close_rank(rank, cnt, width, wide_col, i, err))
                return (size_t)-1;
            limit = *width;
            if (++rank == FX_HEIGHT) {
                fail(err, FX_E_RANK_COUNT, FX_F_PLACEMENT, i, 9, 0, 0);
                return (size_t)-1;
            }
            cnt = prev_num = prev_one = 0;
        } else if (IS_BLANK(c)) {
            break;
        } else {
            fail(err, FX_E_CHAR, FX_F_PLACEMENT, i, c, 0, 0);
            return (size_t)-1;
        }
    }
    if (close_rank(rank, cnt, width, wide_col, i, err))
        return (size_t)-1;
    if (rank != FX_HEIGHT - 1) {
        fail(err, FX_E_RANK_COUNT, FX_F_PLACEMENT, i, rank + 1, 0, 0);
        return (size_t)-1;
    }
    return i;
}

/* Of the 16 bytes at p, the blanks, as a bit set (byte k = bit k). */
static uint64_t blanks16(const uint8_t *p)
{
#ifdef FX_SSE2
    __m128i c = _mm_loadu_si128((const __m128i *)p);
    return (uint16_t)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8(' ')),
                                                    _mm_cmpeq_epi8(c, _mm_set1_epi8('\t'))));
#else
    return (fx_equal8(p, ' ') | fx_equal8(p, '\t')
            | (fx_equal8(p + 8, ' ') | fx_equal8(p + 8, '\t')) << 8);
#endif
}

#define FAST_FAIL ((size_t)-1)
#define GRID_BYTES 256  /* the fast readers' squares, in text order (a8 first) */

#ifdef FX_SSE2
/* Per byte, for the vector reader: the piece code of a piece letter, 0x80
 * for any other letter, 0 for the rest. */
static uint8_t letter_code[256];
#endif

fx_placement_reader fx_vector_reader;
fx_placement_writer fx_vector_writer;

/* Per byte of a castling field, for quick_castling: a flag's bit in its
 * color's set (fx_flag_bit), white in bits 0-15 and black in bits 16-31;
 * '-' CASTLING_DASH; any other byte (a prefix, an error) CASTLING_OTHER. */
#define CASTLING_DASH (1ull << 32)
#define CASTLING_OTHER (1ull << 33)
static uint64_t castling_bits[256];

static void init_castling_bits(void)
{
    for (int c = 0; c < 256; c++) {
        int lower = c | 0x20;
        if (lower == 'k' || lower == 'q' || (lower >= 'a' && lower <= 'j'))
            castling_bits[c] = (uint64_t)fx_flag_bit((uint8_t)c) << (c >= 'a' ? 16 : 0);
        else
            castling_bits[c] = c == '-' ? CASTLING_DASH : CASTLING_OTHER;
    }
}

void fx_init_parse_tables(void)
{
    init_castling_bits();
    fx_vector_reader = NULL;
    fx_vector_writer = NULL;
#ifdef FX_AVX512
    if (fx_avx512_init()) {
        fx_vector_reader = fx_placement512;
        fx_vector_writer = fx_write_placement512;
    }
#endif
#ifdef FX_AVX2  /* where the AVX-512 reader runs it reads every row this one would */
    if (!fx_vector_reader && fx_avx2_init()) {
        fx_vector_reader = fx_placement_avx2;
        fx_vector_writer = fx_write_placement_avx2;
    }
#endif
#ifdef FX_SSE2
    for (int c = 0; c < 256; c++)
        letter_code[c] = fx_piece_code[c] ? fx_piece_code[c]
                         : ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ? 0x80 : 0;
#endif
}

#ifndef FX_SSE2
/* One entry per placement byte for the fast reader: the piece code in bits
 * 0-7, the squares it advances in bits 8-15, and flags.  A zero entry is a
 * byte the fast reader leaves to the exact one. */
#define T_DIGIT (1u << 16)
#define T_WIDE (1u << 17)
#define T_SLASH_SHIFT 18
#define T_SLASH (1u << T_SLASH_SHIFT)
#define PIECE(code) ((uint32_t)(code) | 1u << 8)
#define DIGIT(n) ((uint32_t)(n) << 8 | T_DIGIT)
static const uint32_t PLACEMENT[256] = {
    ['P'] = PIECE(FX_WP), ['N'] = PIECE(FX_WN), ['B'] = PIECE(FX_WB),
    ['R'] = PIECE(FX_WR), ['Q'] = PIECE(FX_WQ), ['K'] = PIECE(FX_WK),
    ['A'] = PIECE(FX_WA) | T_WIDE, ['C'] = PIECE(FX_WC) | T_WIDE,
    ['p'] = PIECE(FX_BP), ['n'] = PIECE(FX_BN), ['b'] = PIECE(FX_BB),
    ['r'] = PIECE(FX_BR), ['q'] = PIECE(FX_BQ), ['k'] = PIECE(FX_BK),
    ['a'] = PIECE(FX_BA) | T_WIDE, ['c'] = PIECE(FX_BC) | T_WIDE,
    ['1'] = DIGIT(1), ['2'] = DIGIT(2), ['3'] = DIGIT(3), ['4'] = DIGIT(4),
    ['5'] = DIGIT(5), ['6'] = DIGIT(6), ['7'] = DIGIT(7), ['8'] = DIGIT(8),
    ['/'] = T_SLASH,  /* '9' and "10" (10x8 only) take the slow branch */
};

/* The fast reader: the placement from s[i] into grid, in text order (a8
 * first).  When every rank is valid, a byte's square index is simply the
 * number of squares before it, so there is no per-rank state: pieces and
 * digits share one path, a slash advances nothing and only notes where its
 * rank ended.  Each byte stores eight bytes at its square: its piece code
 * (0 for a digit) then zeros, which empties a run of up to 8 squares; later
 * bytes overwrite the excess, so a valid placement leaves every square
 * written and the grid needs no clearing.  Rank widths, digit pairs and
 * A/C on 8-wide boards are checked once at the end.  It only decides valid
 * / not valid; FAST_FAIL sends the row to the exact reader for the error.
 * Indexes are masked, so no input writes outside the grid. */
static size_t fast_placement(const uint8_t *s, size_t i, size_t end,
                             uint8_t grid[GRID_BYTES], int *width)
{
    static const uint8_t zeros[16] = {0};
    size_t at = 0, slashes = 0, ends[16] = {0};
    uint32_t acc = 0, prev = 0;

    for (; i < end; i++) {
        uint8_t c = s[i];
        uint32_t e = PLACEMENT[c];
        if (!e) {
            /* '9' and the '0' of "10" only occur on 10-wide boards */
            if (c == '9') {
                memcpy(grid + (at & 127), zeros, 16);
                at += 9;
                ends[slashes & 15] = at;
                acc |= prev & T_DIGIT;
                prev = T_DIGIT;
                continue;
            }
            if (c == '0' && (prev & T_DIGIT) && s[i - 1] == '1') {
                memcpy(grid + (at & 127), zeros, 16);
                at += 9;  /* the one is counted already */
                ends[slashes & 15] = at;
                continue;
            }
            if (IS_BLANK(c))
                break;
            return FAST_FAIL;
        }
        uint64_t square = (uint8_t)e;
        memcpy(grid + (at & 127), &square, 8);
        at += (e >> 8) & 0xFF;
        ends[slashes & 15] = at;
        slashes += e >> T_SLASH_SHIFT;
        acc |= e & (prev | T_WIDE);  /* two digits in a row; A/C seen */
        prev = e;
    }
    size_t w = ends[0];
    if (slashes != FX_HEIGHT - 1 || (w != 8 && w != 10) || at != FX_HEIGHT * w
        || (acc & T_DIGIT) || ((acc & T_WIDE) && w == 8))
        return FAST_FAIL;
    for (size_t r = 1; r < FX_HEIGHT - 1; r++)
        if (ends[r] != (r + 1) * w)
            return FAST_FAIL;
    *width = (int)w;
    return i;
}


#else

#define BLOCK 16
#define MAX_BLOCKS 6  /* a valid placement has at most 87 bytes */
#define DUMP 255      /* grid slot for bytes that are not pieces */


/* Sum of the bytes at or before each lane (saturating). */
static __m128i lane_sums(__m128i v)
{
    v = _mm_adds_epu8(v, _mm_slli_si128(v, 1));
    v = _mm_adds_epu8(v, _mm_slli_si128(v, 2));
    v = _mm_adds_epu8(v, _mm_slli_si128(v, 4));
    return _mm_adds_epu8(v, _mm_slli_si128(v, 8));
}

static unsigned last_lane(__m128i v) { return (unsigned)_mm_extract_epi16(v, 7) >> 8; }

/* Are all bytes of the first n bytes of grid at most limit (< 128)? */
static int codes_at_most(const uint8_t *grid, size_t n, uint8_t limit)
{
    const uint64_t high = 0x8080808080808080ull;
    uint64_t add = 0x0101010101010101ull * (uint8_t)(0x7F - limit), over = 0;
    for (size_t k = 0; k < n; k += 8) {
        uint64_t x;
        memcpy(&x, grid + k, 8);
        over |= ((x & ~high) + add) | x;
    }
    return !(over & high);
}

/* The vector reader (SSE2, part of every x86-64 CPU), 16 placement bytes
 * at a time: the bytes are classified at once; the squares each byte
 * advances (a digit its value, the 0 of "10" nine, a piece one) are summed
 * across the lanes, so every byte learns the square it stands on; each
 * lane then stores its piece code at that square, or into a dump slot when
 * it holds no piece, without a branch.  Each slash must stand where its
 * rank count times the width puts it, which makes every rank exactly one
 * width long.  Like the scalar reader it only decides valid / not valid.
 * Bytes of s are read only below end: a last partial block is copied. */
static size_t fast_placement(const uint8_t *s, size_t i, size_t end,
                             uint8_t grid[GRID_BYTES], int *width)
{
    static const uint8_t lanes[2 * BLOCK] = {
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255};
    const __m128i zero_c = _mm_set1_epi8('0'), one = _mm_set1_epi8(1);
    uint8_t pad[BLOCK], at[BLOCK], index[BLOCK];
    unsigned carry = 0, rank_carry = 0, prev_digit = 0, prev_one = 0, bad = 0, w = 0;
    __m128i width_v = _mm_setzero_si128();

    memset(grid, 0, FX_MAX_SQUARES);
    for (int b = 0; b < MAX_BLOCKS; b++, i += BLOCK) {
        const uint8_t *src = s + i;
        if (end - i < BLOCK) {  /* i <= end: a block is only left behind full */
            memset(pad, ' ', BLOCK);
            memcpy(pad, s + i, end - i);
            src = pad;
        }
        __m128i c = _mm_loadu_si128((const __m128i *)src);
        unsigned blanks = (unsigned)blanks16(src);
        unsigned n = blanks ? (unsigned)fx_ctz64(blanks) : BLOCK;  /* lanes of the field */
        __m128i in = _mm_loadu_si128((const __m128i *)(lanes + BLOCK - n));
        __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(c, zero_c),
                                      _mm_cmplt_epi8(c, _mm_set1_epi8(':')));
        __m128i zero = _mm_cmpeq_epi8(c, zero_c);
        __m128i slash = _mm_and_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8('/')), in);
        __m128i lower = _mm_or_si128(c, _mm_set1_epi8(0x20));
        __m128i letter = _mm_and_si128(
            _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
                          _mm_cmplt_epi8(lower, _mm_set1_epi8('z' + 1))), in);
        unsigned valid = (1u << n) - 1;
        unsigned digits = (unsigned)_mm_movemask_epi8(_mm_or_si128(digit, zero)) & valid;
        unsigned zeros = (unsigned)_mm_movemask_epi8(zero) & valid;
        unsigned ones = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(c, _mm_set1_epi8('1')))
                        & valid;
        unsigned slashes = (unsigned)_mm_movemask_epi8(slash);
        bad |= valid & ~((unsigned)_mm_movemask_epi8(letter) | digits | slashes);
        /* a digit after a digit is only allowed as the 0 of "10" */
        bad |= digits & (digits << 1 | prev_digit) & ~zeros;
        bad |= zeros & ~(ones << 1 | prev_one);
        prev_digit = digits >> 15 & 1;
        prev_one = ones >> 15 & 1;

        __m128i adv = _mm_or_si128(_mm_and_si128(digit, _mm_sub_epi8(c, zero_c)),
                                   _mm_or_si128(_mm_and_si128(letter, one),
                                                _mm_and_si128(zero, _mm_set1_epi8(9))));
        __m128i sum = _mm_adds_epu8(lane_sums(adv), _mm_set1_epi8((char)carry));
        __m128i square = _mm_subs_epu8(sum, adv);  /* squares before the byte */
        _mm_storeu_si128((__m128i *)at, square);

        /* the k-th slash stands after k ranks: at square k * width */
        __m128i ranks = _mm_adds_epu8(lane_sums(_mm_and_si128(slash, one)),
                                      _mm_set1_epi8((char)rank_carry));
        if (b == 0) {
            if (!slashes)  /* a valid first rank ends within 11 bytes */
                return FAST_FAIL;
            w = at[fx_ctz64(slashes)];
            width_v = _mm_set1_epi16((short)w);
        }
        __m128i expected = _mm_mullo_epi16(ranks, width_v);  /* exact while ranks * w < 256 */
        bad |= slashes & ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(square, expected));

        _mm_storeu_si128((__m128i *)index, _mm_or_si128(square, _mm_andnot_si128(letter,
                                                            _mm_set1_epi8((char)DUMP))));
        for (int k = 0; k < BLOCK; k++)
            grid[index[k]] = letter_code[src[k]];

        if (n < BLOCK) {  /* the field ended in this block */
            unsigned total = at[n], rank_count = last_lane(ranks);
            if (bad || rank_count != FX_HEIGHT - 1 || (w != 8 && w != 10)
                || total != FX_HEIGHT * w
                || !codes_at_most(grid, FX_HEIGHT * w, w == 8 ? FX_BK : FX_BC))
                return FAST_FAIL;
            *width = (int)w;
            return i + n;
        }
        carry = last_lane(sum);
        rank_carry = last_lane(ranks);
    }
    return FAST_FAIL;  /* longer than any valid placement */
}
#endif

/* Next field: skip blanks, then [*start, *i) is the field.  0 if none. */
static int next_field(const uint8_t *s, size_t *i, size_t end, size_t *start)
{
    size_t j = *i;
    while (j < end && IS_BLANK(s[j]))
        j++;
    if (j == end) {
        *i = j;
        return 0;
    }
    *start = j;
    while (j < end && !IS_BLANK(s[j]))
        j++;
    *i = j;
    return 1;
}

static int read_castling(const uint8_t *s, size_t j, size_t e, fx_pos *pos,
                         fx_error *err)
{
    int count[2] = {0, 0};
    uint32_t seen[2] = {0, 0};
    int width = pos->width;

    if (s[j] == '-') {
        if (e - j != 1)
            return fail(err, FX_E_CASTLING_DASH, FX_F_CASTLING, j + 1, 0, 0, 0);
        return 0;
    }
    if (s[j] == 's' || s[j] == 'm') {
        pos->prefix = s[j] == 's' ? FX_PREFIX_S : FX_PREFIX_M;
        if (++j == e)
            return fail(err, FX_E_CASTLING_EMPTY_PREFIX, FX_F_CASTLING, j, s[j - 1], 0, 0);
    }
    for (; j < e; j++) {
        uint8_t c = s[j];
        uint8_t lower = c | 0x20;
        int color = c >= 'a';
        if (c == '-')
            return fail(err, FX_E_CASTLING_DASH, FX_F_CASTLING, j, 0, 0, 0);
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')))
            return fail(err, FX_E_CHAR, FX_F_CASTLING, j, c, 0, 0);
        if (lower != 'k' && lower != 'q') {
            if (lower > 'j')
                return fail(err, FX_E_CHAR, FX_F_CASTLING, j, c, 0, 0);
            if (lower - 'a' >= width)
                return fail(err, FX_E_FILE_OFF_BOARD, FX_F_CASTLING, j, c, width, 0);
        }
        if (count[color] == 2)
            return fail(err, FX_E_CASTLING_TOO_MANY, FX_F_CASTLING, j, color, 0, 0);
        uint32_t bit = fx_flag_bit(c);
        if (seen[color] & bit)
            return fail(err, FX_E_CASTLING_REPEAT, FX_F_CASTLING, j, c, 0, 0);
        seen[color] |= bit;
        count[color]++;
    }
    fx_castling_from_sets(pos, seen);
    return 0;
}

static inline int more_than_two(uint32_t x)
{
    x &= x - 1;
    return (x & (x - 1)) != 0;
}

/* The castling fields most rows have, '-' or one to four distinct flags
 * (at most two a color, files on the board, no prefix), read with no loop
 * and no branch on the bytes: each byte's bit, OR-ed, must give as many
 * bits as the field has bytes.  Returns 0 when it read the field, -1 to
 * leave it to read_castling (which names any error). */
static int quick_castling(const uint8_t *s, size_t j, size_t e, fx_pos *pos)
{
    size_t n = e - j;
    if (n - 1 > 3)
        return -1;
    /* byte k of the field, or again its last byte past the end (no bit more) */
    uint64_t seen = castling_bits[s[j]] | castling_bits[s[j + (n > 1)]]
                    | castling_bits[s[j + (n > 2) * 2]] | castling_bits[s[j + (n > 3) * 3]];
    /* files beyond the board: i and j (bits 10 and 11 of a color's set) on
     * an 8-wide one */
    uint64_t off = pos->width == 8 ? 0x0C000C00ull : 0;
    uint32_t sets[2] = {(uint32_t)seen & 0xFFFFu, (uint32_t)(seen >> 16) & 0xFFFFu};
    if ((size_t)fx_popcount64(seen) != n || (seen & (CASTLING_OTHER | off))
        || ((seen & CASTLING_DASH) && n != 1) || more_than_two(sets[0]) || more_than_two(sets[1]))
        return -1;
    fx_castling_from_sets(pos, sets);
    return 0;
}

static int read_ep(const uint8_t *s, size_t j, size_t e, fx_pos *pos,
                   fx_error *err)
{
    uint8_t f = s[j];
    if (f == '-') {
        if (e - j != 1)
            return fail(err, FX_E_EP_SQUARE, FX_F_EN_PASSANT, j + 1, 0, 0, 0);
        return 0;
    }
    if (f < 'a' || f > 'j')
        return fail(err, FX_E_EP_SQUARE, FX_F_EN_PASSANT, j, 0, 0, 0);
    if (f - 'a' >= pos->width)
        return fail(err, FX_E_FILE_OFF_BOARD, FX_F_EN_PASSANT, j, f, pos->width, 0);
    if (e - j < 2 || s[j + 1] < '1' || s[j + 1] > '8')
        return fail(err, FX_E_EP_SQUARE, FX_F_EN_PASSANT, j + 1, 0, 0, 0);
    if (e - j > 2)
        return fail(err, FX_E_EP_SQUARE, FX_F_EN_PASSANT, j + 2, 0, 0, 0);
    pos->ep = (uint8_t)((s[j + 1] - '1') * pos->width + (f - 'a'));
    if (!fx_ep_valid(pos))
        pos->ep = FX_NONE;
    return 0;
}

static int read_counter(const uint8_t *s, size_t j, size_t e, fx_field field,
                        uint32_t *out, fx_error *err)
{
    uint64_t v = 0;
    for (; j < e; j++) {
        unsigned d = (unsigned)s[j] - '0';
        if (d > 9)
            return fail(err, FX_E_DIGITS, field, j, 0, 0, 0);
        v = v * 10 + d;
        if (v > FX_MAX_COUNTER)
            return fail(err, FX_E_COUNTER_RANGE, field, j, 0, 0, 0);
    }
    *out = (uint32_t)v;
    return 0;
}

/* The placement field from s[*at] (blanks around the row already cut off
 * at end) into pos->board and pos->width; *at ends just past the field. */
static int read_board(const uint8_t *s, size_t *at, size_t end, fx_pos *pos,
                      fx_span *placement, fx_error *err)
{
    uint8_t grid[FX_MAX_SQUARES];
    size_t i = *at;
    int width = 0;

    if (i == end)
        return fail(err, FX_E_TOO_FEW_FIELDS, FX_F_FIELDS, end, 0, 0, 0);

    placement->start = i;
    uint8_t fast[GRID_BYTES];
    size_t j = FAST_FAIL;
    int in_place = 0;  /* the reader wrote pos->board itself */
    if (fx_vector_reader && (j = fx_vector_reader(s, i, end, pos->board)) != FAST_FAIL) {
        width = 8;
        in_place = 1;
    }
    if (!in_place)
        j = fast_placement(s, i, end, fast, &width);
    if (in_place) {
        /* nothing to copy */
    } else if (j != FAST_FAIL && width == 8) {
        for (int r = 0; r < FX_HEIGHT; r++)
            memcpy(pos->board + (FX_HEIGHT - 1 - r) * 8, fast + r * 8, 8);
        memset(pos->board + 64, 0, FX_MAX_SQUARES - 64);
    } else if (j != FAST_FAIL) {
        for (int r = 0; r < FX_HEIGHT; r++)
            memcpy(pos->board + (FX_HEIGHT - 1 - r) * 10, fast + r * 10, 10);
    } else {
        /* The exact reader names the error; should it accept the field
         * after all, its board is used. */
        memset(grid, 0, sizeof grid);
        width = 0;
        j = read_placement(s, i, end, grid, &width, err);
        if (j == (size_t)-1)
            return -1;
        memset(pos->board, 0, sizeof pos->board);
        for (int r = 0; r < FX_HEIGHT; r++)
            memcpy(pos->board + (FX_HEIGHT - 1 - r) * width, grid + r * FX_MAX_WIDTH,
                   (size_t)width);
    }
    placement->len = j - placement->start;
    pos->width = (uint8_t)width;
    *at = j;
    return 0;
}

/* The fields after the placement take these values when they are absent. */
static void clear_fields(fx_pos *pos)
{
    pos->turn = FX_WHITE;
    pos->prefix = FX_PREFIX_NONE;
    pos->ep = FX_NONE;
    memset(pos->castling, FX_NONE, sizeof pos->castling);
    pos->halfmove = 0;
    pos->fullmove = 1;
}

/* Side, castling and en passant from s[*at]; *at ends just past the
 * en-passant field. */
static int read_fields(const uint8_t *s, size_t *at, size_t end, fx_pos *pos,
                       fx_error *err)
{
    size_t i = *at, start;
    clear_fields(pos);
    if (!next_field(s, &i, end, &start))
        return fail(err, FX_E_TOO_FEW_FIELDS, FX_F_FIELDS, end, 1, 0, 0);
    if (s[start] != 'w' && s[start] != 'b')
        return fail(err, FX_E_SIDE, FX_F_SIDE, start, 0, 0, 0);
    if (i - start != 1)
        return fail(err, FX_E_SIDE, FX_F_SIDE, start + 1, 0, 0, 0);
    pos->turn = s[start] == 'b';

    if (!next_field(s, &i, end, &start))
        return fail(err, FX_E_TOO_FEW_FIELDS, FX_F_FIELDS, end, 2, 0, 0);
    if (read_castling(s, start, i, pos, err))
        return -1;

    if (!next_field(s, &i, end, &start))
        return fail(err, FX_E_TOO_FEW_FIELDS, FX_F_FIELDS, end, 3, 0, 0);
    if (read_ep(s, start, i, pos, err))
        return -1;
    *at = i;
    return 0;
}

/* Placement, side, castling and en passant; *at ends just past the
 * en-passant field. */
static int read_position(const uint8_t *s, size_t *at, size_t end, fx_pos *pos,
                         fx_span *placement, fx_error *err)
{
    return read_board(s, at, end, pos, placement, err) || read_fields(s, at, end, pos, err);
}

/* The counter whose n digits (1 to 8) end at p, with 8 readable bytes
 * before p, as its value, or -1 when a byte is not a digit: the bytes
 * before the digits become '0's, then all eight are checked at once and
 * combined pairwise. */
static int64_t counter8(const uint8_t *p, size_t n)
{
    const uint64_t zeros = 0x3030303030303030ull, low4 = 0x0F0F0F0F0F0F0F0Full;
    uint64_t x, before = n == 8 ? 0 : ~0ull >> 8 * n;
    memcpy(&x, p - 8, 8);
    x = (x & ~before) | (zeros & before);
    if (((x & ~low4) != zeros) || (((x + 0x0606060606060606ull) & ~low4) != zeros))
        return -1;
    x = ((x & low4) * 2561) >> 8;
    x = ((x & 0x00FF00FF00FF00FFull) * 6553601) >> 16;
    return (int64_t)(((x & 0x0000FFFF0000FFFFull) * 42949672960001ull) >> 32);
}

#define NO_FIELD 48  /* past every field of the at most 32 bytes fast_fields reads */

/* The fields after the placement s[row..i), for rows with at most 32
 * bytes after it: a bit mask of the blanks, from two 16-byte loads that
 * end at `end` at the latest (the placement, 15 bytes or more, lies
 * before), gives every field's bounds with no loop over bytes.  Returns 1
 * when the fields are valid and read into pos (*fields: how many the row
 * has); 0 leaves the row to read_fields and the counters' reader, which
 * name any error. */
static int fast_fields(const uint8_t *s, size_t i, size_t end, fx_pos *pos, int *fields)
{
    size_t n = end - i;
    if (n == 0 || n > 32 || i < 15)
        return 0;
    uint64_t blank = blanks16(s + end - 16) << 16 >> (32 - n);
    if (n > 16)
        blank |= blanks16(s + i);
    uint64_t text = ~blank & ((1ull << n) - 1);
    /* a stand-in bit at NO_FIELD or above for each of the five fields, so
     * that an absent field is found there and no mask runs empty */
    const uint64_t absent = 0x1Full << NO_FIELD;
    uint64_t starts = (text & ~(text << 1)) | absent;
    uint64_t ends = (text & ~(text >> 1)) | absent;
    size_t at[5], stop[5];
    for (int k = 0; k < 5; k++) {  /* fixed trip count */
        at[k] = i + (size_t)fx_ctz64(starts);
        stop[k] = i + (size_t)fx_ctz64(ends) + 1;
        starts &= starts - 1;
        ends &= ends - 1;
    }
    if ((starts & ~absent) || at[2] >= i + NO_FIELD || stop[0] != at[0] + 1
        || (s[at[0]] != 'w' && s[at[0]] != 'b'))
        return 0;
    clear_fields(pos);
    pos->turn = s[at[0]] == 'b';
    fx_error ignored;
    if ((quick_castling(s, at[1], stop[1], pos) && read_castling(s, at[1], stop[1], pos, &ignored))
        || read_ep(s, at[2], stop[2], pos, &ignored))
        return 0;
    if (at[3] < i + NO_FIELD) {
        int64_t half = stop[3] - at[3] <= 8 ? counter8(s + stop[3], stop[3] - at[3]) : -1;
        if (half < 0)
            return 0;
        pos->halfmove = (uint32_t)half;
    }
    if (at[4] < i + NO_FIELD) {
        int64_t full = stop[4] - at[4] <= 8 ? counter8(s + stop[4], stop[4] - at[4]) : -1;
        if (full < 0)
            return 0;
        pos->fullmove = full ? (uint32_t)full : 1;
    }
    *fields = 4 + (at[3] < i + NO_FIELD) + (at[4] < i + NO_FIELD);
    return 1;
}

/* The row without the blanks around it: [*start, *end). */
static void trim(const uint8_t *s, size_t len, size_t *start, size_t *end)
{
    size_t i = 0, e = len;
    while (i < e && IS_BLANK(s[i]))
        i++;
    while (e > i && IS_BLANK(s[e - 1]))
        e--;
    *start = i;
    *end = e;
}

int fx_parse(const uint8_t *s, size_t len, fx_pos *pos, fx_span *placement,
             int *fields, fx_error *err)
{
    size_t i, end, start;
    trim(s, len, &i, &end);
    if (read_board(s, &i, end, pos, placement, err))
        return -1;
    if (fast_fields(s, i, end, pos, fields))
        return 0;
    if (read_fields(s, &i, end, pos, err))
        return -1;

    *fields = 4;
    if (!next_field(s, &i, end, &start))
        return 0;
    if (read_counter(s, start, i, FX_F_HALFMOVE, &pos->halfmove, err))
        return -1;

    *fields = 5;
    if (!next_field(s, &i, end, &start))
        return 0;
    *fields = 6;
    if (read_counter(s, start, i, FX_F_FULLMOVE, &pos->fullmove, err))
        return -1;
    if (pos->fullmove == 0)
        pos->fullmove = 1;

    if (next_field(s, &i, end, &start))
        return fail(err, FX_E_TOO_MANY_FIELDS, FX_F_FIELDS, start, 0, 0, 0);
    return 0;
}

#define IS_LETTER(c) ((uint8_t)(((c) | 0x20) - 'a') < 26)
#define IS_OPCODE_CHAR(c) (IS_LETTER(c) || (uint8_t)((c) - '0') < 10 || (c) == '_')

/* EPD operations: `opcode {operand} ;` ... with operands that may be quoted
 * strings holding ';'.  An opcode is a letter, then letters, digits and
 * '_' (so counters written before the operations, `0 41 bm e4;`, are no
 * opcode).  The counters of hmvc / fmvn are read into pos. */
static int read_operations(const uint8_t *s, size_t i, size_t end, fx_pos *pos,
                           fx_error *err)
{
    while (i < end) {
        while (i < end && IS_BLANK(s[i]))
            i++;
        if (i == end)
            break;
        size_t op = i;
        while (i < end && !IS_BLANK(s[i]) && s[i] != ';')
            i++;
        size_t op_len = i - op;
        if (op_len == 0 || !IS_LETTER(s[op]))
            return fail(err, FX_E_EPD_OPCODE, FX_F_OPERATIONS, op, s[op], 1, 0);
        for (size_t k = op + 1; k < i; k++)
            if (!IS_OPCODE_CHAR(s[k]))
                return fail(err, FX_E_EPD_OPCODE, FX_F_OPERATIONS, k, s[k], 0, 0);
        while (i < end && IS_BLANK(s[i]))
            i++;
        size_t operand = i;
        int quoted = 0;
        while (i < end && (quoted || s[i] != ';')) {
            quoted ^= s[i] == '"';
            i++;
        }
        if (i == end)
            return fail(err, FX_E_EPD_OPERATION, FX_F_OPERATIONS, op, 0, 0, 0);
        size_t operand_end = i++;  /* past the ';' */
        while (operand_end > operand && IS_BLANK(s[operand_end - 1]))
            operand_end--;
        if (op_len == 4 && (memcmp(s + op, "hmvc", 4) == 0 || memcmp(s + op, "fmvn", 4) == 0)) {
            int half = s[op] == 'h';
            fx_field field = half ? FX_F_HALFMOVE : FX_F_FULLMOVE;
            if (operand == operand_end)
                return fail(err, FX_E_DIGITS, field, operand, 0, 0, 0);
            if (read_counter(s, operand, operand_end, field,
                             half ? &pos->halfmove : &pos->fullmove, err))
                return -1;
            if (pos->fullmove == 0)
                pos->fullmove = 1;
        }
    }
    return 0;
}

int fx_parse_epd(const uint8_t *s, size_t len, fx_pos *pos, fx_span *placement,
                 fx_span *operations, fx_error *err)
{
    size_t i, end;
    trim(s, len, &i, &end);
    if (read_position(s, &i, end, pos, placement, err))
        return -1;
    while (i < end && IS_BLANK(s[i]))
        i++;
    operations->start = i;
    operations->len = end - i;
    return read_operations(s, i, end, pos, err);
}
