/* The AVX2 placement reader and writer: a board reader and writer
 * (readers.h), run where the CPU has AVX2 but not the AVX-512 reader's
 * instructions.
 *
 * The reader: the ranks are put one to a qword (eight short copies guided
 * by the slash positions), then four ranks at a time are decoded in one
 * 256-bit register with no per-byte loop:
 *
 * - each byte is classified with in-lane byte shuffles: its low five bits
 *   index two 16-entry tables of white piece codes, bit 0x20 makes it
 *   black, and the code's letter, shuffled back, must be the byte itself;
 *   the other valid bytes are the digits 1 to 8;
 * - a prefix sum inside each qword of the squares each byte advances gives
 *   every byte its first square, and the rank must cover exactly eight;
 * - a bit per first square, summed across the qword, marks where each byte
 *   starts; a prefix sum of those marks over the eight squares tells, for
 *   every square, which byte covers it, and one more shuffle moves each
 *   piece's code there (a digit's code is 0: its squares stay empty).
 *
 * The writer (write_ranks) takes each rank's text from the writer's
 * occupancy table and puts the letters of its pieces in with shuffles. */
#include "readers.h"

#ifdef FX_AVX2
#include <immintrin.h>

#define TARGET FX_TARGET("avx2,popcnt,bmi")

/* Per qword, the sum of its bytes and of those before each byte. */
TARGET static inline __m256i qword_prefix(__m256i v)
{
    v = _mm256_add_epi8(v, _mm256_slli_epi64(v, 8));
    v = _mm256_add_epi8(v, _mm256_slli_epi64(v, 16));
    return _mm256_add_epi8(v, _mm256_slli_epi64(v, 32));
}

/* Four ranks, one to a qword with `slot` 0xFF over their bytes, to their
 * squares (piece codes, file a first).  Returns 0 when one of them is not
 * a valid 8-wide rank. */
TARGET static inline int decode_ranks(__m256i c, __m256i slot, __m256i *squares)
{
#define LANES(...) _mm256_setr_epi8(__VA_ARGS__, __VA_ARGS__)
    /* white piece codes by the low five bits of the letter: B 0x02, K 0x0B,
     * N 0x0E below 16; P 0x10, Q 0x11, R 0x12 from 16 */
    const __m256i low_codes = LANES(0, 0, FX_WB, 0, 0, 0, 0, 0, 0, 0, 0, FX_WK, 0, 0, FX_WN, 0);
    const __m256i high_codes = LANES(FX_WP, FX_WQ, FX_WR, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i letters = LANES(0, 'P', 'N', 'B', 'R', 'Q', 'K', 'p', 'n', 'b', 'r', 'q', 'k',
                                  0, 0, 0);
    const __m256i bits = LANES(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i file_bits = LANES(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
    const __m256i spread = LANES(0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8);
#undef LANES
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi8(1);

    __m256i low5 = _mm256_and_si256(c, _mm256_set1_epi8(0x1F));
    __m256i high = _mm256_cmpeq_epi8(_mm256_and_si256(c, _mm256_set1_epi8(0x10)),
                                     _mm256_set1_epi8(0x10));
    __m256i code = _mm256_blendv_epi8(_mm256_shuffle_epi8(low_codes, low5),
                                      _mm256_shuffle_epi8(high_codes, low5), high);
    __m256i black = _mm256_cmpeq_epi8(_mm256_and_si256(c, _mm256_set1_epi8(0x20)),
                                      _mm256_set1_epi8(0x20));
    __m256i found = _mm256_cmpgt_epi8(code, zero);
    code = _mm256_add_epi8(code, _mm256_and_si256(black, _mm256_set1_epi8(6)));
    __m256i piece = _mm256_and_si256(
        _mm256_and_si256(found, slot), _mm256_cmpeq_epi8(_mm256_shuffle_epi8(letters, code), c));
    __m256i value = _mm256_sub_epi8(c, _mm256_set1_epi8('0'));
    __m256i digit = _mm256_and_si256(
        slot, _mm256_cmpeq_epi8(_mm256_min_epu8(_mm256_sub_epi8(value, one), _mm256_set1_epi8(7)),
                                _mm256_sub_epi8(value, one)));
    uint32_t digits = (uint32_t)_mm256_movemask_epi8(digit);
    if ((uint32_t)_mm256_movemask_epi8(_mm256_andnot_si256(_mm256_or_si256(piece, digit), slot))
        || (digits & digits << 1 & 0xFEFEFEFEu))  /* a byte of neither kind; a digit after one */
        return 0;

    __m256i advance = _mm256_or_si256(_mm256_and_si256(piece, one), _mm256_and_si256(digit, value));
    __m256i through = qword_prefix(advance);
    if (_mm256_movemask_epi8(_mm256_cmpeq_epi64(_mm256_srli_epi64(through, 56),
                                                _mm256_set1_epi64x(8)))
        != -1)
        return 0;  /* a rank of other than eight squares */
    /* the square each byte starts on (past the rank: 8, which has no bit) */
    __m256i first = _mm256_sub_epi8(through, advance);
    __m256i starts = _mm256_sad_epu8(_mm256_shuffle_epi8(bits, first), zero);
    __m256i marks = _mm256_cmpeq_epi8(
        _mm256_and_si256(_mm256_shuffle_epi8(starts, spread), file_bits), file_bits);
    __m256i byte = _mm256_sub_epi8(qword_prefix(_mm256_and_si256(marks, one)), one);
    *squares = _mm256_shuffle_epi8(_mm256_and_si256(code, piece), _mm256_add_epi8(byte, spread));
    return 1;
}

/* The first 64 bytes of s[0:avail) in two registers, zeros past avail,
 * and in text (72 bytes: 8 more zeros for the rank loads) - with no read at
 * or past avail and no branch on avail: whole dwords by masked loads, the
 * bytes of the last partial dword from the last four bytes of s (avail >=
 * 4) moved into place. */
TARGET static inline void load_field(const uint8_t *s, size_t avail, __m256i *lo, __m256i *hi,
                                     uint8_t text[72])
{
    const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    size_t capped = avail < 64 ? avail : 64;
    size_t whole = capped / 4, part = capped % 4;
    __m256i count = _mm256_set1_epi32((int)whole);
    __m256i lo_mask = _mm256_cmpgt_epi32(count, iota);
    __m256i hi_mask = _mm256_cmpgt_epi32(count, _mm256_add_epi32(iota, _mm256_set1_epi32(8)));
    uint32_t last;
    memcpy(&last, s + avail - 4, 4);
    /* the part's bytes at the bottom of a dword, zeros above (none: 0) */
    uint32_t tail = (uint32_t)((uint64_t)last >> (8 * (4 - part)) & 0xFFFFFFFFu);
    __m256i tail_v = _mm256_set1_epi32((int)tail);
    *lo = _mm256_or_si256(_mm256_maskload_epi32((const int *)s, lo_mask),
                          _mm256_and_si256(tail_v, _mm256_cmpeq_epi32(count, iota)));
    *hi = _mm256_or_si256(
        _mm256_maskload_epi32((const int *)(s + 32), hi_mask),
        _mm256_and_si256(tail_v,
                         _mm256_cmpeq_epi32(count, _mm256_add_epi32(iota, _mm256_set1_epi32(8)))));
    _mm256_storeu_si256((__m256i *)text, *lo);
    _mm256_storeu_si256((__m256i *)(text + 32), *hi);
    memset(text + 64, 0, 8);
}

TARGET size_t fx_read8_avx2(const uint8_t *s, size_t i, size_t end, uint8_t board[80])
{
    size_t avail = end - i;
    if (avail < 15)  /* "8/8/8/8/8/8/8/8" is the shortest valid field */
        return FX_DECLINE;
    const uint8_t *p = s + i;
    uint8_t text[72];
    __m256i lo, hi;
    load_field(p, avail, &lo, &hi, text);
    const __m256i space = _mm256_set1_epi8(' '), tab = _mm256_set1_epi8('\t'),
                  slash = _mm256_set1_epi8('/');
    uint64_t blank =
        (uint32_t)_mm256_movemask_epi8(
            _mm256_or_si256(_mm256_cmpeq_epi8(lo, space), _mm256_cmpeq_epi8(lo, tab)))
        | (uint64_t)(uint32_t)_mm256_movemask_epi8(
              _mm256_or_si256(_mm256_cmpeq_epi8(hi, space), _mm256_cmpeq_epi8(hi, tab)))
              << 32;
    size_t n = fx_field_length(blank, p, avail);
    if (n == FX_DECLINE)
        return FX_DECLINE;  /* longer than this reader takes */
    uint64_t field = n == 64 ? ~0ull : (1ull << n) - 1;
    uint64_t slashes = ((uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, slash))
                        | (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, slash))
                              << 32)
                       & field;
    if (_mm_popcnt_u64(slashes) != FX_HEIGHT - 1)
        return FX_DECLINE;

    /* rank r (rank 8 first) into qword r, its bytes marked in slot */
    uint64_t rank[FX_HEIGHT], slot[FX_HEIGHT];
    if (!fx_split_ranks(text, n, slashes, rank, slot))  /* n + 8 <= 72 */
        return FX_DECLINE;
    __m256i top, bottom;
    if (!decode_ranks(_mm256_setr_epi64x((long long)rank[0], (long long)rank[1],
                                         (long long)rank[2], (long long)rank[3]),
                      _mm256_setr_epi64x((long long)slot[0], (long long)slot[1],
                                         (long long)slot[2], (long long)slot[3]),
                      &top)
        || !decode_ranks(_mm256_setr_epi64x((long long)rank[4], (long long)rank[5],
                                            (long long)rank[6], (long long)rank[7]),
                         _mm256_setr_epi64x((long long)slot[4], (long long)slot[5],
                                            (long long)slot[6], (long long)slot[7]),
                         &bottom))
        return FX_DECLINE;
    /* text order is rank 8 first, the board rank 1 first */
    _mm256_storeu_si256((__m256i *)board, _mm256_permute4x64_epi64(bottom, 0x1B));
    _mm256_storeu_si256((__m256i *)(board + 32), _mm256_permute4x64_epi64(top, 0x1B));
    memset(board + 64, 0, 16);
    return i + n;
}

/* Four ranks, one to a qword of codes, to their text: each rank's text
 * from fx_rank_text by its occupancy, then every piece byte (0x80 | file)
 * replaced by the letter of the code on that file, one shuffle for all
 * four.  The ranks go to o highest first, each followed by a '/'; returns
 * the end. */
TARGET static inline uint8_t *write_ranks(__m256i codes, uint32_t occupied, uint8_t *o)
{
    const __m256i letters = _mm256_setr_epi8(
        0, 'P', 'N', 'B', 'R', 'Q', 'K', 'p', 'n', 'b', 'r', 'q', 'k', 0, 0, 0,
        0, 'P', 'N', 'B', 'R', 'Q', 'K', 'p', 'n', 'b', 'r', 'q', 'k', 0, 0, 0);
    const __m256i base = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8, 0, 0,
                                          0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8);
    uint64_t t[4];
    fx_rank_texts(occupied, t);
    __m256i text = _mm256_setr_epi64x((long long)t[0], (long long)t[1], (long long)t[2],
                                      (long long)t[3]);
    __m256i piece_letters = _mm256_shuffle_epi8(_mm256_shuffle_epi8(letters, codes),
                                                _mm256_add_epi8(_mm256_and_si256(text,
                                                                 _mm256_set1_epi8(7)), base));
    uint8_t ranks[32];
    _mm256_storeu_si256((__m256i *)ranks, _mm256_blendv_epi8(text, piece_letters, text));
    return fx_lay_ranks(ranks, occupied, o);
}

TARGET size_t fx_write8_avx2(const uint8_t board[64], uint8_t *out)
{
    __m256i low = _mm256_loadu_si256((const __m256i *)board);  /* ranks 1 to 4 */
    __m256i high = _mm256_loadu_si256((const __m256i *)(board + 32));
    const __m256i zero = _mm256_setzero_si256(), top = _mm256_set1_epi8(FX_BK);
    if (~_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(_mm256_max_epu8(low, high), top),
                                                top)))
        return 0;
    uint32_t low_occupied = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, zero));
    uint32_t high_occupied = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, zero));
    uint8_t *o = write_ranks(high, high_occupied, out);
    o = write_ranks(low, low_occupied, o);
    return (size_t)(o - out) - 1;  /* no '/' after rank 1 */
}
#endif
