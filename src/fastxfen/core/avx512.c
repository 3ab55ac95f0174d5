/* The AVX-512 placement reader (avx512.h): one 64-byte register holds the
 * whole field, so there is no per-byte or per-piece loop. */
#include "avx512.h"

#ifdef FX_AVX512
#include <immintrin.h>
#include <stdlib.h>

#include "tables.h"

#define TARGET \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi,bmi2,popcnt")))
#define FAIL ((size_t)-1)

/* Per ASCII byte, built from fx_piece_code by fx_avx512_init: the squares
 * it advances (a piece of the 8-wide board one, a digit 1 to 8 its value; 0
 * for '/' and for every byte this reader leaves to the others) and its
 * piece code (0 but for those pieces). */
static uint8_t ADVANCE[128], CODE[128];

int fx_avx512_init(void)
{
    for (int c = 0; c < 128; c++) {
        uint8_t code = fx_piece_code[c] < FX_WA ? fx_piece_code[c] : 0;
        CODE[c] = code;
        ADVANCE[c] = code ? 1 : (c >= '1' && c <= '8') ? (uint8_t)(c - '0') : 0;
    }
    if (getenv("FASTXFEN_NO_AVX512"))
        return 0;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
           && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi")
           && __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("bmi2");
}

/* Running sum of the 64 bytes (each lane: itself and every lane before it),
 * saturating at 255 or wrapping modulo 256. */
TARGET static inline __m512i running_sum(__m512i v, int saturate)
{
#define ADD(a, b) (saturate ? _mm512_adds_epu8(a, b) : _mm512_add_epi8(a, b))
    v = ADD(v, _mm512_bslli_epi128(v, 1));  /* within each 16-byte lane */
    v = ADD(v, _mm512_bslli_epi128(v, 2));
    v = ADD(v, _mm512_bslli_epi128(v, 4));
    v = ADD(v, _mm512_bslli_epi128(v, 8));
    /* then each 16-byte lane adds the totals of the lanes before it */
    __m512i total = _mm512_shuffle_epi8(v, _mm512_set1_epi8(15));
    __m512i before = _mm512_maskz_shuffle_i64x2(0xFC, total, total, _MM_SHUFFLE(2, 1, 0, 0));
    before = ADD(before, _mm512_maskz_shuffle_i64x2(0xFC, before, before, _MM_SHUFFLE(2, 1, 0, 0)));
    before = ADD(before, _mm512_maskz_shuffle_i64x2(0xF0, before, before, _MM_SHUFFLE(1, 0, 0, 0)));
    return ADD(v, before);
#undef ADD
}

/* The bytes are classified by two 128-entry table lookups.  The running
 * sum of the squares each byte advances puts every byte on its square.  The
 * field is valid when every byte is a piece, a digit or a slash, no digit
 * follows a digit, and the seven slashes and the field's end stand at
 * squares 8, 16, ..., 64: then every rank is exactly eight squares long.
 * A second running sum, of each piece's file bit, gives each rank's
 * occupancy at its end; the piece codes, packed together, are expanded
 * onto the occupied squares, and the ranks put in board order. */
TARGET size_t fx_placement512(const uint8_t *s, size_t i, size_t end, uint8_t board[80])
{
    size_t avail = end - i;
    __mmask64 loaded = avail >= 64 ? ~(__mmask64)0 : _bzhi_u64(~0ull, (unsigned)avail);
    __m512i c = _mm512_maskz_loadu_epi8(loaded, s + i);  /* no byte at or past end is read */
    __mmask64 blank = _mm512_cmpeq_epi8_mask(c, _mm512_set1_epi8(' '))
                      | _mm512_cmpeq_epi8_mask(c, _mm512_set1_epi8('\t'));
    size_t n;
    if (blank)
        n = _tzcnt_u64(blank);
    else if (avail <= 64)
        n = avail;
    else if (s[i + 64] == ' ' || s[i + 64] == '\t')
        n = 64;
    else
        return FAIL;  /* longer than this reader takes */
    if (n == 0)
        return FAIL;
    __mmask64 field = _bzhi_u64(~0ull, (unsigned)n);

    __m512i advance = _mm512_maskz_permutex2var_epi8(
        field, _mm512_loadu_si512(ADVANCE), c, _mm512_loadu_si512(ADVANCE + 64));
    __m512i code = _mm512_permutex2var_epi8(_mm512_loadu_si512(CODE), c,
                                            _mm512_loadu_si512(CODE + 64));
    __mmask64 ascii = field & ~_mm512_movepi8_mask(c);
    __mmask64 slashes = _mm512_mask_cmpeq_epi8_mask(field, c, _mm512_set1_epi8('/'));
    __mmask64 advancing = _mm512_mask_test_epi8_mask(ascii, advance, advance);
    __mmask64 letters = _mm512_mask_test_epi8_mask(ascii, code, code);
    __mmask64 digits = advancing & ~letters;
    if ((field & ~(advancing | slashes)) || (digits & digits << 1)
        || _mm_popcnt_u64(slashes) != FX_HEIGHT - 1)
        return FAIL;

    __mmask64 ends = slashes | (__mmask64)1 << (n - 1);  /* where each rank ends */
    __m512i through = running_sum(advance, 1);  /* squares up to each byte's end */
    __m128i rank_ends = _mm512_castsi512_si128(_mm512_maskz_compress_epi8(ends, through));
    if ((uint64_t)_mm_cvtsi128_si64(rank_ends) != 0x4038302820181008ull)
        return FAIL;

    __m512i square = _mm512_sub_epi8(through, advance);
    __m512i file_bits = _mm512_broadcast_i32x4(
        _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0));
    __m512i bit = _mm512_maskz_shuffle_epi8(letters, file_bits,
                                            _mm512_and_si512(square, _mm512_set1_epi8(7)));
    /* a rank's file bits are distinct, so their sum is their union; the
     * wrapping sums at two rank ends differ by exactly that rank's sum */
    __m128i sums = _mm512_castsi512_si128(_mm512_maskz_compress_epi8(ends, running_sum(bit, 0)));
    uint64_t occupied = (uint64_t)_mm_cvtsi128_si64(_mm_sub_epi8(sums, _mm_slli_si128(sums, 1)));
    __m512i pieces = _mm512_maskz_compress_epi8(letters, code);
    __m512i text_order = _mm512_maskz_expand_epi8(occupied, pieces);  /* rank 8 first */
    _mm512_storeu_si512(board, _mm512_permutexvar_epi64(_mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7),
                                                        text_order));
    _mm_storeu_si128((__m128i *)(board + 64), _mm_setzero_si128());
    return i + n;
}
#endif
