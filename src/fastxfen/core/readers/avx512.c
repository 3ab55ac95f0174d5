/* The AVX-512 placement reader and writer: a board reader and writer
 * (readers.h).  One 64-byte register holds the whole field, so there is no
 * per-byte or per-piece loop. */
#include "readers.h"

#ifdef FX_AVX512
#include <immintrin.h>

#define TARGET FX_TARGET("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi,bmi2,popcnt")

/* Per ASCII byte: the squares it advances (a piece of the 8-wide board
 * one, a digit 1 to 8 its value; 0 for '/' and for every byte this reader
 * leaves to the others) and its piece code (0 but for those pieces). */
static const uint8_t ADVANCE[128] = {
    ['P'] = 1, ['N'] = 1, ['B'] = 1, ['R'] = 1, ['Q'] = 1, ['K'] = 1,
    ['p'] = 1, ['n'] = 1, ['b'] = 1, ['r'] = 1, ['q'] = 1, ['k'] = 1,
    ['1'] = 1, ['2'] = 2, ['3'] = 3, ['4'] = 4, ['5'] = 5, ['6'] = 6, ['7'] = 7, ['8'] = 8,
};
static const uint8_t CODE[128] = {
    ['P'] = FX_WP, ['N'] = FX_WN, ['B'] = FX_WB, ['R'] = FX_WR, ['Q'] = FX_WQ, ['K'] = FX_WK,
    ['p'] = FX_BP, ['n'] = FX_BN, ['b'] = FX_BB, ['r'] = FX_BR, ['q'] = FX_BQ, ['k'] = FX_BK,
};
/* Per piece code, its letter ('?' for none). */
#define UNUSED8 '?', '?', '?', '?', '?', '?', '?', '?'
static const uint8_t LETTER[64] = {
    '?', 'P', 'N', 'B', 'R', 'Q', 'K', 'p', 'n', 'b', 'r', 'q', 'k', 'A', 'C', 'a', 'c',
    '?', '?', '?', '?', '?', '?', '?', UNUSED8, UNUSED8, UNUSED8, UNUSED8, UNUSED8,
};
#undef UNUSED8
/* Byte k is k (a table: not every compiler has _mm512_set_epi8). */
static const uint8_t IOTA[64] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
    44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};

/* The ranks are first put one to a qword: the seven slashes give each
 * rank's first byte and length (1 to 8 when the field is valid), and one
 * byte permute moves each rank's bytes to the start of its qword in board
 * order (rank 1 in qword 0).  Then each byte is classified by two
 * 128-entry table lookups, which zero the bytes past a rank.  The field
 * is valid when its bytes are pieces, digits and seven slashes, no digit
 * follows a digit within a rank, and every rank's squares add up to eight
 * (one sum of absolute differences per qword).  A prefix sum inside each
 * qword gives every piece its file (plus one); the sum of the pieces'
 * file bits is the rank's occupancy (the bits are distinct, so their sum
 * is their union); the piece codes, packed together, are expanded onto
 * the occupied squares. */
TARGET size_t fx_read8_avx512(const uint8_t *s, size_t i, size_t end, uint8_t board[80])
{
    size_t avail = end - i;
    /* bzhi keeps every bit from index 64 up; a branch on the row's length
     * would follow no pattern */
    __mmask64 loaded = _bzhi_u64(~0ull, (unsigned)(avail < 64 ? avail : 64));
    __m512i c = _mm512_maskz_loadu_epi8(loaded, s + i);  /* no byte at or past end is read */
    __mmask64 blank = _mm512_cmpeq_epi8_mask(c, _mm512_set1_epi8(' '))
                      | _mm512_cmpeq_epi8_mask(c, _mm512_set1_epi8('\t'));
    size_t n = fx_field_length(blank, s + i, avail);
    if (n == FX_DECLINE || n == 0)  /* longer than this reader takes; empty */
        return FX_DECLINE;
    __mmask64 field = _bzhi_u64(~0ull, (unsigned)n);
    /* the slashes of all 64 bytes, so that their positions need not wait
     * for n: those of the field come first, and when it has seven, any
     * after them are dropped below */
    __mmask64 slashes = _mm512_cmpeq_epi8_mask(c, _mm512_set1_epi8('/'));
    if (_mm_popcnt_u64(slashes & field) != FX_HEIGHT - 1 || (field & _mm512_movepi8_mask(c)))
        return FX_DECLINE;

    /* rank r is bytes [first_r, end_r): ends are the slashes, then n */
    const __m512i iota = _mm512_loadu_si512(IOTA);
    __m128i ends = _mm_mask_set1_epi8(
        _mm512_castsi512_si128(_mm512_maskz_compress_epi8(slashes, iota)), 0x80, (char)n);
    __m128i firsts = _mm_add_epi8(_mm_bslli_si128(ends, 1),
                                  _mm_set_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0));
    __m128i lengths = _mm_sub_epi8(ends, firsts);
    if (_mm_mask_cmpgt_epu8_mask(0xFF, _mm_sub_epi8(lengths, _mm_set1_epi8(1)),
                                 _mm_set1_epi8(7)))
        return FX_DECLINE;  /* an empty rank, or one of more than eight bytes */
    /* qword q takes the rank the text gives (7 - q)th, rank 8 first */
    const __m512i text_rank = _mm512_srli_epi64(
        _mm512_andnot_si512(iota, _mm512_set1_epi8(0x38)), 3);
    const __m512i lane = _mm512_and_si512(iota, _mm512_set1_epi8(7));
    __m512i both = _mm512_castsi128_si512(_mm_unpacklo_epi64(firsts, lengths));
    __mmask64 slot = _mm512_cmplt_epu8_mask(
        lane, _mm512_permutexvar_epi8(_mm512_add_epi8(text_rank, _mm512_set1_epi8(8)), both));
    __m512i from = _mm512_add_epi8(_mm512_permutexvar_epi8(text_rank, both), lane);
    /* rank 1 in qword 0; the bytes past a rank are zeroed by the lookups
     * below, so that the permute need not wait for slot */
    __m512i ranks = _mm512_permutexvar_epi8(from, c);

    __m512i advance = _mm512_maskz_permutex2var_epi8(
        slot, _mm512_loadu_si512(ADVANCE), ranks, _mm512_loadu_si512(ADVANCE + 64));
    __m512i code = _mm512_maskz_permutex2var_epi8(slot, _mm512_loadu_si512(CODE), ranks,
                                                  _mm512_loadu_si512(CODE + 64));
    __mmask64 advancing = _mm512_test_epi8_mask(advance, advance);
    __mmask64 letters = _mm512_test_epi8_mask(code, code);
    __mmask64 digits = advancing & ~letters;
    __m512i squares = _mm512_sad_epu8(advance, _mm512_setzero_si512());
    if ((slot & ~advancing) || (digits & digits << 1 & 0xFEFEFEFEFEFEFEFEull)
        || _mm512_cmpneq_epi64_mask(squares, _mm512_set1_epi64(8)))
        return FX_DECLINE;

    __m512i through = _mm512_add_epi8(advance, _mm512_slli_epi64(advance, 8));
    through = _mm512_add_epi8(through, _mm512_slli_epi64(through, 16));
    through = _mm512_add_epi8(through, _mm512_slli_epi64(through, 32));
    /* a piece's squares through it are its file plus one (1 to 8, as
     * every rank has eight squares) */
    __m512i file_bits = _mm512_broadcast_i32x4(
        _mm_setr_epi8(0, 1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0));
    __m512i bit = _mm512_maskz_shuffle_epi8(letters, file_bits, through);
    /* each rank's occupancy (the sum in its qword's low byte) to all its
     * bytes, then tested against its bytes' file bits: the squares' mask,
     * with no trip through a general register */
    const __m512i low_byte = _mm512_broadcast_i32x4(
        _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8));
    __m512i rows = _mm512_shuffle_epi8(_mm512_sad_epu8(bit, _mm512_setzero_si512()), low_byte);
    __mmask64 occupied = _mm512_test_epi8_mask(
        rows, _mm512_set1_epi64(0x8040201008040201ll));
    __m512i pieces = _mm512_maskz_compress_epi8(letters, code);
    _mm512_storeu_si512(board, _mm512_maskz_expand_epi8(occupied, pieces));
    _mm_storeu_si128((__m128i *)(board + 64), _mm_setzero_si128());
    return i + n;
}

/* The text of an 8-wide placement, rank 8 first.  With the ranks in text
 * order, one to a qword, every square becomes its piece's letter or, where
 * a run of empty squares ends (the next square is a piece or past the
 * rank), the run's length: the file plus one less the file plus one of the
 * last piece before it, a running maximum inside each qword.  The other
 * empty squares become 0.  Each half of the board (four ranks) is then laid
 * out as four 9-byte slots, a rank and its slash, and its nonzero bytes
 * compressed together and stored (64 bytes each time; the text ends at
 * most 100 bytes from out). */
TARGET size_t fx_write8_avx512(const uint8_t board[64], uint8_t *out)
{
    __m512i ranks = _mm512_permutexvar_epi64(_mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7),
                                             _mm512_loadu_si512(board));
    __mmask64 pieces = _mm512_test_epi8_mask(ranks, ranks);
    __mmask64 empty = ~pieces;
    __mmask64 run_ends = empty & (~(empty >> 1) | 0x8080808080808080ull);
    const __m512i file1 = _mm512_set1_epi64(0x0807060504030201ll);  /* file + 1 */
    __m512i last = _mm512_maskz_mov_epi8(pieces, file1);
    last = _mm512_max_epu8(last, _mm512_slli_epi64(last, 8));
    last = _mm512_max_epu8(last, _mm512_slli_epi64(last, 16));
    last = _mm512_max_epu8(last, _mm512_slli_epi64(last, 32));
    __m512i digits = _mm512_add_epi8(_mm512_sub_epi8(file1, last), _mm512_set1_epi8('0'));
    __m512i text = _mm512_maskz_mov_epi8(run_ends, digits);
    text = _mm512_mask_permutexvar_epi8(text, pieces, ranks, _mm512_loadu_si512(LETTER));

    /* slot 9q + f of half h is byte 32h + 8q + f, slot 9q + 8 a slash
     * (index 64: the second table); slots from 36 on are not kept */
    static const int8_t SLOTS[64] = {
        0,  1,  2,  3,  4,  5,  6,  7,  64, 8,  9,  10, 11, 12, 13, 14,
        15, 64, 16, 17, 18, 19, 20, 21, 22, 23, 64, 24, 25, 26, 27, 28,
        29, 30, 31, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
        64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    };
    const __m512i slots = _mm512_loadu_si512(SLOTS);
    const __m512i slash = _mm512_set1_epi8('/');
    __m512i top = _mm512_permutex2var_epi8(text, slots, slash);
    __m512i bottom = _mm512_permutex2var_epi8(text, _mm512_add_epi8(slots, _mm512_set1_epi8(32)),
                                              slash);
    /* 32 + 64 is 96: bit 6 still picks the slash, whose every byte is '/' */
    __mmask64 keep_top = _mm512_test_epi8_mask(top, top) & 0xFFFFFFFFFull;
    __mmask64 keep_bottom = _mm512_test_epi8_mask(bottom, bottom) & 0x7FFFFFFFFull;
    uint8_t *o = out;
    _mm512_storeu_si512(o, _mm512_maskz_compress_epi8(keep_top, top));
    o += _mm_popcnt_u64(keep_top);
    _mm512_storeu_si512(o, _mm512_maskz_compress_epi8(keep_bottom, bottom));
    o += _mm_popcnt_u64(keep_bottom);
    return (size_t)(o - out);
}
#endif
