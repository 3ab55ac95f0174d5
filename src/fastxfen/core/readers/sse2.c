/* The SSE2 placement readers, 16 placement bytes at a time: a board reader
 * of 8-wide fields (read8) and a grid reader of either width (read).  SSE2
 * is part of every x86-64 CPU; readers.h. */
#include "readers.h"

#ifdef FX_SSE2

#define BLOCK 16
#define MAX_BLOCKS 6  /* a valid placement has at most 87 bytes */
#define DUMP 255      /* grid slot for bytes that are not pieces */

/* Per byte: the piece code of a piece letter, 0x80 for any other letter
 * (a grid holding it is refused), anything for the rest. */
#define OTHER(c) [c] = 0x80, [(c) - 0x20] = 0x80
static const uint8_t LETTER_CODE[256] = {
    OTHER('d'), OTHER('e'), OTHER('f'), OTHER('g'), OTHER('h'), OTHER('i'),
    OTHER('j'), OTHER('l'), OTHER('m'), OTHER('o'), OTHER('s'), OTHER('t'),
    OTHER('u'), OTHER('v'), OTHER('w'), OTHER('x'), OTHER('y'), OTHER('z'),
    ['P'] = FX_WP, ['N'] = FX_WN, ['B'] = FX_WB, ['R'] = FX_WR, ['Q'] = FX_WQ,
    ['K'] = FX_WK, ['A'] = FX_WA, ['C'] = FX_WC,
    ['p'] = FX_BP, ['n'] = FX_BN, ['b'] = FX_BB, ['r'] = FX_BR, ['q'] = FX_BQ,
    ['k'] = FX_BK, ['a'] = FX_BA, ['c'] = FX_BC,
};
#undef OTHER

/* Sum of the bytes at or before each lane (saturating). */
static __m128i lane_sums(__m128i v)
{
    v = _mm_adds_epu8(v, _mm_slli_si128(v, 1));
    v = _mm_adds_epu8(v, _mm_slli_si128(v, 2));
    v = _mm_adds_epu8(v, _mm_slli_si128(v, 4));
    return _mm_adds_epu8(v, _mm_slli_si128(v, 8));
}

static unsigned last_lane(__m128i v) { return (unsigned)_mm_extract_epi16(v, 7) >> 8; }

/* Are all of the first n bytes of grid (a multiple of 16) at most limit? */
static int codes_at_most(const uint8_t *grid, size_t n, uint8_t limit)
{
    const __m128i top = _mm_set1_epi8((char)limit);
    __m128i most = top;
    for (size_t k = 0; k < n; k += 16)
        most = _mm_max_epu8(most, _mm_loadu_si128((const __m128i *)(grid + k)));
    return _mm_movemask_epi8(_mm_cmpeq_epi8(most, top)) == 0xFFFF;
}

/* fx_board_from_grid of an 8-wide grid, two ranks a move. */
static void board_from_grid8(uint8_t board[80], const uint8_t *grid)
{
    for (int k = 0; k < 4; k++) {  /* ranks 8 - 2k and 7 - 2k to board ranks 2k + 2, 2k + 1 */
        __m128i two = _mm_loadu_si128((const __m128i *)(grid + 48 - 16 * k));
        _mm_storeu_si128((__m128i *)(board + 16 * k), _mm_shuffle_epi32(two, 0x4E));
    }
    _mm_storeu_si128((__m128i *)(board + 64), _mm_setzero_si128());
}

/* The bytes are classified at once; the squares each byte advances (a
 * digit its value, the 0 of "10" nine, a piece one) are summed across the
 * lanes, so every byte learns the square it stands on; each lane then
 * stores its piece code at that square, or into a dump slot when it holds
 * no piece, without a branch.  Each slash must stand where its rank count
 * times the width puts it, which makes every rank exactly one width long.
 * Bytes of s are read only below end: a last partial block is copied. */
size_t fx_read_sse2(const uint8_t *s, size_t i, size_t end, uint8_t board[80], int *width)
{
    uint8_t grid[256];  /* the squares in text order (rank 8 first), then DUMP */
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
        unsigned blanks = (unsigned)fx_blanks16(src);
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
                return FX_DECLINE;
            w = at[fx_ctz64(slashes)];
            width_v = _mm_set1_epi16((short)w);
        }
        __m128i expected = _mm_mullo_epi16(ranks, width_v);  /* exact while ranks * w < 256 */
        bad |= slashes & ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(square, expected));

        _mm_storeu_si128((__m128i *)index, _mm_or_si128(square, _mm_andnot_si128(letter,
                                                            _mm_set1_epi8((char)DUMP))));
        for (int k = 0; k < BLOCK; k++)
            grid[index[k]] = LETTER_CODE[src[k]];

        if (n < BLOCK) {  /* the field ended in this block */
            unsigned total = at[n], rank_count = last_lane(ranks);
            if (bad || rank_count != FX_HEIGHT - 1 || (w != 8 && w != 10)
                || total != FX_HEIGHT * w
                || !codes_at_most(grid, FX_HEIGHT * w, w == 8 ? FX_BK : FX_BC))
                return FX_DECLINE;
            *width = (int)w;
            if (w == 8)
                board_from_grid8(board, grid);
            else
                fx_board_from_grid(board, grid, 10);
            return i + n;
        }
        carry = last_lane(sum);
        rank_carry = last_lane(ranks);
    }
    return FX_DECLINE;  /* longer than any valid placement */
}

/* Per byte of an 8-wide field: a piece letter's code; SKIP for '/' and the
 * digits 1 to 8; 0 for any other byte (the field is declined). */
#define SKIP 0x40
static const uint8_t PLACE8[256] = {
    ['P'] = FX_WP, ['N'] = FX_WN, ['B'] = FX_WB, ['R'] = FX_WR, ['Q'] = FX_WQ, ['K'] = FX_WK,
    ['p'] = FX_BP, ['n'] = FX_BN, ['b'] = FX_BB, ['r'] = FX_BR, ['q'] = FX_BQ, ['k'] = FX_BK,
    ['/'] = SKIP, ['1'] = SKIP, ['2'] = SKIP, ['3'] = SKIP, ['4'] = SKIP, ['5'] = SKIP,
    ['6'] = SKIP, ['7'] = SKIP, ['8'] = SKIP,
};

/* The last lane of v in every lane. */
static __m128i spread_last(__m128i v)
{
    __m128i last = _mm_srli_si128(v, 15);
    return _mm_shuffle_epi32(_mm_shufflelo_epi16(_mm_unpacklo_epi8(last, last), 0), 0);
}

/* An 8-wide field of at most 64 bytes, in four 16-byte blocks.  Each
 * block's bytes are classified at once, and the squares each byte advances
 * (a digit its value, any other byte but '/' one) summed across the lanes,
 * so every byte learns the square it stands on.  The field is valid when
 * its bytes are pieces, digits 1 to 8 and seven '/', no digit follows a
 * digit, no rank is empty, every '/' stands on a multiple of eight squares
 * and there are 64 in all (so each rank has eight).  Then each piece, one
 * set bit at a time, stores its code (from a table, which also marks the
 * bytes no field may hold) on its square.  Bytes of s are read only below
 * end: the blocks reaching past it are loaded moved back to end. */
size_t fx_read8_sse2(const uint8_t *s, size_t i, size_t end, uint8_t board[80])
{
    size_t avail = end - i;
    if (avail < 15) /* "8/8/8/8/8/8/8/8" is the shortest valid field */
        return FX_DECLINE;
    const uint8_t *p = s + i;
    uint8_t text[64], at[64]; /* at: the squares before each byte */
    if (avail < 16) {
        memcpy(text, p, avail);
    } else {
        for (size_t k = 0; k < 64; k += 16) { /* the same bytes, moved back */
            size_t from = k < avail - 16 ? k : avail - 16;
            _mm_storeu_si128((__m128i *)(text + from),
                             _mm_loadu_si128((const __m128i *)(p + from)));
        }
    }
    const __m128i one = _mm_set1_epi8(1), seven = _mm_set1_epi8(7);
    __m128i carry = _mm_setzero_si128();
    uint64_t blank = 0, slash = 0, digit = 0, astray = 0;
    uint32_t total = 0;
    for (int b = 0; b < 4; b++) {
        __m128i c = _mm_loadu_si128((const __m128i *)(text + 16 * b));
        __m128i value = _mm_sub_epi8(c, _mm_set1_epi8('0'));
        __m128i is_digit = _mm_cmplt_epi8(_mm_xor_si128(_mm_sub_epi8(value, one),
                                                        _mm_set1_epi8(-128)),
                                          _mm_set1_epi8(-128 + 8));
        __m128i is_slash = _mm_cmpeq_epi8(c, _mm_set1_epi8('/'));
        __m128i advance = _mm_or_si128(_mm_and_si128(is_digit, value),
                                       _mm_andnot_si128(_mm_or_si128(is_digit, is_slash), one));
        __m128i sum = _mm_adds_epu8(lane_sums(advance), carry);
        __m128i square = _mm_sub_epi8(sum, advance); /* squares before the byte */
        _mm_storeu_si128((__m128i *)(at + 16 * b), square);
        uint64_t shift = 16 * (uint64_t)b;
        blank |= (uint64_t)(uint16_t)_mm_movemask_epi8(
                     _mm_or_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8(' ')),
                                  _mm_cmpeq_epi8(c, _mm_set1_epi8('\t'))))
                 << shift;
        slash |= (uint64_t)(uint16_t)_mm_movemask_epi8(is_slash) << shift;
        digit |= (uint64_t)(uint16_t)_mm_movemask_epi8(is_digit) << shift;
        /* lanes off a multiple of eight squares (a '/' there is astray) */
        astray |= (uint64_t)(uint16_t)~_mm_movemask_epi8(
                      _mm_cmpeq_epi8(_mm_and_si128(square, seven), _mm_setzero_si128()))
                  << shift;
        carry = spread_last(sum);
        if (b == 3)
            total = (uint32_t)_mm_cvtsi128_si32(carry) & 0xFF;
    }
    if (avail < 64) /* text holds no byte from avail on */
        blank &= (1ull << avail) - 1;
    size_t n = fx_field_length(blank, p, avail);
    if (n == FX_DECLINE || n < 15)
        return FX_DECLINE;
    uint64_t field = n == 64 ? ~0ull : (1ull << n) - 1;
    slash &= field;
    digit &= field;
    if (n < 64) /* the squares before the byte past the field: all of them */
        total = at[n];
    if (total != 64 || fx_popcount64(slash) != FX_HEIGHT - 1
        || (slash & (astray | slash << 1 | 1 | 1ull << (n - 1))) || (digit & digit << 1))
        return FX_DECLINE;
    memset(board, 0, 80);
    uint32_t codes = 0; /* bit 8 or above: a byte that has no code */
    for (uint64_t pieces = field & ~slash & ~digit; pieces; pieces &= pieces - 1) {
        int k = fx_ctz64(pieces);
        uint32_t code = PLACE8[p[k]];
        codes |= code - 1;
        board[at[k] ^ 0x38] = (uint8_t)code; /* rank 8 first in text, rank 1 on the board */
    }
    return codes >> 8 ? FX_DECLINE : i + n;
}
#endif
