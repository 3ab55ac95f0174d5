/* The NEON placement reader and writer: a board reader and writer
 * (readers.h) for AArch64, whose every CPU has Advanced SIMD (chosen at
 * compile time).
 *
 * The AVX2 reader's algorithm (avx2.c), two ranks to a 128-bit register:
 * the field's first 64 bytes are loaded without reading past the row, the
 * blanks and slashes become bit masks, the ranks are put one to a qword
 * (fx_split_ranks), then each pair of ranks is decoded with no per-byte
 * loop: the letters are classified by table lookups (vqtbl), a prefix sum
 * inside each qword gives every byte its first square, and one more lookup
 * moves each piece's code onto its square.  The writer takes each rank's
 * text from the occupancy table and puts the letters in with lookups. */
#include "readers.h"

#ifdef FX_NEON

/* Per qword, the sum of its bytes and of those before each byte. */
static inline uint8x16_t qword_prefix(uint8x16_t v)
{
    v = vaddq_u8(v, vreinterpretq_u8_u64(vshlq_n_u64(vreinterpretq_u64_u8(v), 8)));
    v = vaddq_u8(v, vreinterpretq_u8_u64(vshlq_n_u64(vreinterpretq_u64_u8(v), 16)));
    return vaddq_u8(v, vreinterpretq_u8_u64(vshlq_n_u64(vreinterpretq_u64_u8(v), 32)));
}

/* Two ranks, one to a qword with `slot` 0xFF over their bytes, to their
 * squares (piece codes, file a first).  Returns 0 when one of them is not
 * a valid 8-wide rank. */
static inline int decode_ranks(uint8x16_t c, uint8x16_t slot, uint8x16_t *squares)
{
    /* white piece codes by the low five bits of the letter */
    static const uint8_t CODES[32] = {
        [2] = FX_WB, [11] = FX_WK, [14] = FX_WN, [16] = FX_WP, [17] = FX_WQ, [18] = FX_WR};
    static const uint8_t LETTERS[16] = {0, 'P', 'N', 'B', 'R', 'Q', 'K', 'p', 'n', 'b', 'r',
                                        'q', 'k'};
    const uint8x16_t bits = {1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0};
    const uint8x16_t file_bits = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    const uint8x16_t spread = {0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8};
    const uint8x16_t one = vdupq_n_u8(1);

    uint8x16x2_t codes = {{vld1q_u8(CODES), vld1q_u8(CODES + 16)}};
    uint8x16_t code = vqtbl2q_u8(codes, vandq_u8(c, vdupq_n_u8(0x1F)));
    uint8x16_t found = vtstq_u8(code, code);
    code = vaddq_u8(code, vandq_u8(vtstq_u8(c, vdupq_n_u8(0x20)), vdupq_n_u8(6)));  /* black */
    uint8x16_t piece = vandq_u8(vandq_u8(found, slot),
                                vceqq_u8(vqtbl1q_u8(vld1q_u8(LETTERS), code), c));
    uint8x16_t value = vsubq_u8(c, vdupq_n_u8('0'));
    uint8x16_t digit = vandq_u8(slot, vcleq_u8(vsubq_u8(value, one), vdupq_n_u8(7)));
    uint8x16_t twice = vandq_u8(digit, vreinterpretq_u8_u64(
                                           vshlq_n_u64(vreinterpretq_u64_u8(digit), 8)));
    if (vmaxvq_u8(vorrq_u8(vbicq_u8(slot, vorrq_u8(piece, digit)), twice)))
        return 0;  /* a byte of neither kind; a digit after one */

    uint8x16_t advance = vorrq_u8(vandq_u8(piece, one), vandq_u8(digit, value));
    uint8x16_t through = qword_prefix(advance);
    uint64x2_t eight = vceqq_u64(vshrq_n_u64(vreinterpretq_u64_u8(through), 56), vdupq_n_u64(8));
    if (vminvq_u32(vreinterpretq_u32_u64(eight)) == 0)
        return 0;  /* a rank of other than eight squares */
    /* the square each byte starts on (past the rank: 8, which has no bit) */
    uint8x16_t first = vsubq_u8(through, advance);
    uint8x16_t starts = vreinterpretq_u8_u64(
        vpaddlq_u32(vpaddlq_u16(vpaddlq_u8(vqtbl1q_u8(bits, first)))));
    uint8x16_t marks = vtstq_u8(vqtbl1q_u8(starts, spread), file_bits);
    uint8x16_t byte = vsubq_u8(qword_prefix(vandq_u8(marks, one)), one);
    *squares = vqtbl1q_u8(vandq_u8(code, piece), vaddq_u8(byte, spread));
    return 1;
}

/* The first 64 bytes of p[0:avail) (avail >= 16) in v, zeros past avail,
 * with no read at or past avail: whole blocks loaded, a last partial one
 * from the 16 bytes that end at avail, moved down. */
static inline void load_field(const uint8_t *p, size_t avail, uint8x16_t v[4])
{
    const uint8x16_t iota = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    for (size_t b = 0; b < 4; b++) {
        size_t at = 16 * b;
        if (at + 16 <= avail)
            v[b] = vld1q_u8(p + at);
        else if (at < avail)  /* lanes past avail index 16 or more: zero */
            v[b] = vqtbl1q_u8(vld1q_u8(p + avail - 16),
                              vaddq_u8(iota, vdupq_n_u8((uint8_t)(at + 16 - avail))));
        else
            v[b] = vdupq_n_u8(0);
    }
}

/* Bytes of the 64 in v equal to x, as a bit mask. */
static inline uint64_t equal64(const uint8x16_t v[4], uint8_t x)
{
    const uint8x16_t b = vdupq_n_u8(x);
    return fx_neon_mask64(vceqq_u8(v[0], b), vceqq_u8(v[1], b), vceqq_u8(v[2], b),
                          vceqq_u8(v[3], b));
}

size_t fx_read8_neon(const uint8_t *s, size_t i, size_t end, uint8_t board[80])
{
    size_t avail = end - i;
    if (avail < 15)  /* "8/8/8/8/8/8/8/8" is the shortest valid field */
        return FX_DECLINE;
    const uint8_t *p = s + i;
    uint8_t text[72];
    uint8x16_t v[4];
    if (avail < 16) {
        memset(text, 0, 16);
        memcpy(text, p, avail);
        load_field(text, 16, v);
    } else {
        load_field(p, avail, v);
    }
    size_t n = fx_field_length(equal64(v, ' ') | equal64(v, '\t'), p, avail);
    if (n == FX_DECLINE)
        return FX_DECLINE;  /* longer than this reader takes */
    uint64_t slashes = equal64(v, '/') & (n == 64 ? ~0ull : (1ull << n) - 1);
    if (vaddv_u8(vcnt_u8(vcreate_u8(slashes))) != FX_HEIGHT - 1)
        return FX_DECLINE;

    for (int b = 0; b < 4; b++)
        vst1q_u8(text + 16 * b, v[b]);
    memset(text + 64, 0, 8);
    uint64_t rank[FX_HEIGHT], slot[FX_HEIGHT];
    if (!fx_split_ranks(text, n, slashes, rank, slot))  /* n + 8 <= 72 */
        return FX_DECLINE;
    uint8x16_t squares[4];
    for (int k = 0; k < 4; k++)
        if (!decode_ranks(vcombine_u8(vcreate_u8(rank[2 * k]), vcreate_u8(rank[2 * k + 1])),
                          vcombine_u8(vcreate_u8(slot[2 * k]), vcreate_u8(slot[2 * k + 1])),
                          &squares[k]))
            return FX_DECLINE;
    /* text order is rank 8 first, the board rank 1 first */
    for (int k = 0; k < 4; k++)
        vst1q_u8(board + 16 * (3 - k), vextq_u8(squares[k], squares[k], 8));
    memset(board + 64, 0, 16);
    return i + n;
}

/* Four ranks of codes (low: the lower two, one to a qword) to their text:
 * each rank's text from fx_rank_text by its occupancy, then every piece
 * byte (0x80 | file) replaced by the letter of the code on that file.  The
 * ranks go to o highest first, each followed by a '/'; returns the end. */
static inline uint8_t *write_ranks(uint8x16_t low, uint8x16_t high, uint32_t occupied,
                                   uint8_t *o)
{
    static const uint8_t LETTERS[16] = {0, 'P', 'N', 'B', 'R', 'Q', 'K', 'p', 'n', 'b', 'r',
                                        'q', 'k'};
    const uint8x16_t base = {0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8};
    const uint8x16_t letters = vld1q_u8(LETTERS);
    uint64_t t[4];
    uint8_t ranks[32];
    fx_rank_texts(occupied, t);
    for (int h = 0; h < 2; h++) {
        uint8x16_t text = vcombine_u8(vcreate_u8(t[2 * h]), vcreate_u8(t[2 * h + 1]));
        uint8x16_t piece_letters = vqtbl1q_u8(vqtbl1q_u8(letters, h ? high : low),
                                              vaddq_u8(vandq_u8(text, vdupq_n_u8(7)), base));
        uint8x16_t pieces = vcltzq_s8(vreinterpretq_s8_u8(text));
        vst1q_u8(ranks + 16 * h, vbslq_u8(pieces, piece_letters, text));
    }
    return fx_lay_ranks(ranks, occupied, o);
}

size_t fx_write8_neon(const uint8_t board[64], uint8_t *out)
{
    uint8x16_t r[4] = {vld1q_u8(board), vld1q_u8(board + 16), vld1q_u8(board + 32),
                       vld1q_u8(board + 48)};  /* two ranks each, rank 1 first */
    if (vmaxvq_u8(vmaxq_u8(vmaxq_u8(r[0], r[1]), vmaxq_u8(r[2], r[3]))) > FX_BK)
        return 0;
    uint64_t occupied = fx_neon_mask64(vtstq_u8(r[0], r[0]), vtstq_u8(r[1], r[1]),
                                       vtstq_u8(r[2], r[2]), vtstq_u8(r[3], r[3]));
    uint8_t *o = write_ranks(r[2], r[3], (uint32_t)(occupied >> 32), out);
    o = write_ranks(r[0], r[1], (uint32_t)occupied, o);
    return (size_t)(o - out) - 1;  /* no '/' after rank 1 */
}
#endif
