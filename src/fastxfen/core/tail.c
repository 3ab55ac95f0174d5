/* The fields after the placement, read from the end of the row (tail.h).
 *
 * The row's last 16 bytes are classified once into bit masks (bit k: byte
 * k): blanks, side letters, castling letters, dashes, digits.  The runs of
 * text are the placement's last bytes, then the fields, so every field's
 * bytes are a mask too, and every check is bit arithmetic on masks, each
 * leaving bits in `bad` (none for a valid row) that the caller tests once.
 * Nothing here waits for the placement reader, so a CPU runs the two side
 * by side. */
#include "tail.h"

#include <string.h>

#include "bits.h"

/* Per byte of a castling field written with file letters: a flag's bit in
 * its color's set (fx_flag_bit), white in bits 0-15 and black in bits
 * 16-31, and one in its color's count (bits 40-43, 44-47); '-' DASH; any
 * other byte (a prefix, an error) OTHER. */
#define DASH (1ull << 32)
#define OTHER (1ull << 33)
#define FLAGS 0x3FFFFFFFFull /* the bits a byte sets once: the flags, DASH and OTHER */
#define COUNT(color) (1ull << (40 + 4 * (color)))
static uint64_t castling_bits[256];

void fx_init_tail_tables(void)
{
    for (int c = 0; c < 256; c++) {
        int lower = c | 0x20, black = c >= 'a';
        if (lower == 'k' || lower == 'q' || (lower >= 'a' && lower <= 'j'))
            castling_bits[c] = (uint64_t)fx_flag_bit((uint8_t)c) << 16 * black | COUNT(black);
        else
            castling_bits[c] = c == '-' ? DASH : OTHER;
    }
}

/* A castling field of n bytes at f (written with file letters): '-' or
 * one to four distinct flags, at most two a color.  The bytes' entries
 * are added: the sum's flag bits must be their OR (no flag twice), its
 * counts at most 2.  The bytes read and the entries counted come from
 * tables by n, as compilers turn indexes and masks made of n > k into
 * branches on the field's length.  Sets sets; returns 0 for such a field,
 * else bits. */
static uint64_t castling_files(const uint8_t *f, size_t n, uint32_t sets[2])
{
    static const uint8_t read[5][4] = {{0}, {0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}};
    static const uint64_t counted[5][3] = {
        {0, 0, 0}, {0, 0, 0}, {~0ull, 0, 0}, {~0ull, ~0ull, 0}, {~0ull, ~0ull, ~0ull}};
    size_t row = n < 4 ? n : 4;
    uint64_t b0 = castling_bits[f[0]];
    uint64_t b1 = castling_bits[f[read[row][1]]] & counted[row][0];
    uint64_t b2 = castling_bits[f[read[row][2]]] & counted[row][1];
    uint64_t b3 = castling_bits[f[read[row][3]]] & counted[row][2];
    uint64_t sum = b0 + b1 + b2 + b3, seen = (b0 | b1 | b2 | b3) & FLAGS;
    sets[0] = (uint32_t)seen & 0xFFFFu;
    sets[1] = (uint32_t)(seen >> 16) & 0xFFFFu;
    return (n > 4) | ((sum & FLAGS) ^ seen) | (seen & (OTHER | DASH))
           | (((sum >> 40 & 0xFF) + 0x11) & 0xCC);
}

/* The masks of the 16 bytes at p that the tail reader needs. */
typedef struct {
    uint32_t blank, side, white, upper, k, q, dash, digit;
    uint64_t high; /* bytes 8 to 15 */
} classes;

static inline void classify(const uint8_t *p, classes *c)
{
#ifdef FX_SSE2
#define IS(v, ch) _mm_cmpeq_epi8(v, _mm_set1_epi8(ch))
#define MASK(v) ((uint32_t)_mm_movemask_epi8(v))
    __m128i x = _mm_loadu_si128((const __m128i *)p);
    __m128i lower = _mm_or_si128(x, _mm_set1_epi8(0x20));
    c->blank = MASK(_mm_or_si128(IS(x, ' '), IS(x, '\t')));
    c->side = MASK(_mm_or_si128(IS(x, 'w'), IS(x, 'b')));
    c->white = MASK(_mm_slli_epi16(x, 3));  /* bit 4: 'w' has it, 'b' not */
    c->upper = ~MASK(_mm_slli_epi16(x, 2)); /* bit 5: clear in capitals */
    c->k = MASK(IS(lower, 'k'));
    c->q = MASK(IS(lower, 'q'));
    c->dash = MASK(IS(x, '-'));
    /* '0' to '9' (0x30 to 0x39), moved to the bottom of the signed range */
    c->digit = MASK(_mm_cmplt_epi8(_mm_xor_si128(x, _mm_set1_epi8((char)0xB0)),
                                   _mm_set1_epi8(-128 + 10)));
    c->high = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x));
#undef IS
#undef MASK
#else
    uint8_t lower[16], bit4[16], bit5[16], digit[16];
    for (int j = 0; j < 16; j++) {
        lower[j] = p[j] | 0x20;
        bit4[j] = p[j] & 0x10;
        bit5[j] = p[j] & 0x20;
        digit[j] = (uint8_t)(p[j] - '0') < 10;
    }
#define EQ(a, ch) (fx_equal8(a, ch) | fx_equal8((a) + 8, ch) << 8)
    c->blank = EQ(p, ' ') | EQ(p, '\t');
    c->side = EQ(p, 'w') | EQ(p, 'b');
    c->white = ~EQ(bit4, 0) & 0xFFFFu;
    c->upper = EQ(bit5, 0);
    c->k = EQ(lower, 'k');
    c->q = EQ(lower, 'q');
    c->dash = EQ(p, '-');
    c->digit = EQ(digit, 1);
#undef EQ
    memcpy(&c->high, p + 8, 8);
#endif
}

/* Two counters of at most four digits each (n 0: absent), right-aligned in
 * the low and high halves of x, digits checked: their values. */
static inline uint64_t two_counters(uint64_t x, size_t low_n, size_t high_n)
{
    const uint64_t zeros = 0x3030303030303030ull, low4 = 0x0F0F0F0F0F0F0F0Full;
    uint64_t before = (0xFFFFFFFFull >> 8 * low_n) | (0xFFFFFFFFull >> 8 * high_n) << 32;
    x = ((x & ~before) | (zeros & before)) & low4;
    x = (x * 10 + (x >> 8)) & 0x00FF00FF00FF00FFull;
    return (x * 100 + (x >> 16)) & 0x0000FFFF0000FFFFull;
}

/* 1 when a mask of at most 16 bits has a bit, else 0 (no compare). */
static inline uint32_t any16(uint32_t x) { return (x + 0xFFFFu) >> 16; }

/* The lowest set bit of x alone. */
static inline uint32_t lowest(uint32_t x) { return x & (0u - x); }

void fx_tail_read(const uint8_t *s, size_t start, size_t end, fx_tail *t)
{
    t->ok = 0;
    if (end - start < 16)
        return;
    const uint8_t *w = s + end - 16; /* byte k of the block */
    classes c;
    classify(w, &c);
    uint32_t text = ~c.blank & 0xFFFFu;
    uint32_t starts = text & ~(text << 1), ends = text & ~(text >> 1);
    /* run k ends at bit e[k] (end_k alone): the placement's last bytes, then
     * four to six fields, one blank apart; the counters lie in bytes 8 to 15
     * with at most four digits each */
    uint32_t r1 = ends & (ends - 1), r2 = r1 & (r1 - 1), r3 = r2 & (r2 - 1);
    uint32_t r4 = r3 & (r3 - 1), r5 = r4 & (r4 - 1);
    if ((((ends << 2 | 1) & 0xFFFFu) ^ starts) | (r5 & (r5 - 1)))
        return;
    if (r3 == 0)
        return;
    unsigned e3 = (unsigned)fx_ctz64(r3), e4 = r4 ? (unsigned)fx_ctz64(r4) : 15;
    size_t half_n = r4 ? e4 - e3 - 1 : 0, full_n = r5 ? 14 - e4 : 0;
    if (e3 < 6 || half_n > 4 || full_n > 4)
        return;
    uint32_t end0 = lowest(ends), end1 = lowest(r1), end2 = lowest(r2), end3 = lowest(r3);
    t->cut = end - 16 + (size_t)fx_ctz64(end0) + 1;

    uint64_t bad = (end1 ^ end0 << 2) | (end1 & ~c.side);
    t->turn = any16(end1 & ~c.white);

    uint32_t castling = (end2 << 1) - (end1 << 2);
    if (castling & ~(c.k | c.q | c.dash)) { /* file letters, or bytes to refuse */
        unsigned e1 = (unsigned)fx_ctz64(end1);
        bad |= castling_files(w + e1 + 2, (size_t)fx_popcount64(castling), t->sets);
    } else {
        uint32_t wk = castling & c.k & c.upper, wq = castling & c.q & c.upper;
        uint32_t bk = castling & c.k & ~c.upper, bq = castling & c.q & ~c.upper;
        bad |= (wk & (wk - 1)) | (wq & (wq - 1)) | (bk & (bk - 1)) | (bq & (bq - 1)); /* twice */
        bad |= (castling & (castling - 1)) & (0u - any16(castling & c.dash)); /* '-' not alone */
        t->sets[0] = any16(wk) << FX_FLAG_K | any16(wq) << FX_FLAG_Q;
        t->sets[1] = any16(bk) << FX_FLAG_K | any16(bq) << FX_FLAG_Q;
    }

    uint32_t ep = (end3 << 1) - (end2 << 2);
    t->ep = (c.dash & ep) != ep;
    if (t->ep) { /* most rows have none */
        unsigned e2 = (unsigned)fx_ctz64(end2);
        t->ep_file = (uint32_t)w[e2 + 2] - 'a';
        t->ep_rank = (uint32_t)w[e3] - '1';
        bad |= (ep ^ (end2 << 2 | end2 << 3)) | (t->ep_file >= FX_MAX_WIDTH)
               | (t->ep_rank >= FX_HEIGHT);
    } else {
        bad |= ep & (ep - 1); /* '-' alone */
    }

    bad |= text & ~((end3 << 2) - 1) & ~c.digit; /* the counters' bytes */
    /* the halfmove clock's last byte to byte 7, then each counter to the top
     * of its half */
    uint64_t lanes = ((c.high << 8 * (15 - e4)) >> 32) | (c.high & (0xFFFFFFFFull << 32));
    uint64_t values = two_counters(lanes, half_n, full_n);
    t->halfmove = (uint32_t)values;
    t->fullmove = (uint32_t)(values >> 32) + ((values >> 32) == 0);
    t->fields = 4 + (r4 != 0) + (r5 != 0);
    t->ok = bad == 0;
}

int fx_tail_apply(const fx_tail *t, fx_pos *pos)
{
    uint32_t width = pos->width, either = t->sets[0] | t->sets[1];
    /* files i and j (bits 10 and 11 of a color's set) on an 8-wide board */
    if ((either & (width == 8 ? 0x0C00u : 0)) | (t->ep & (t->ep_file >= width)))
        return 0;
    pos->turn = (uint8_t)t->turn;
    pos->prefix = FX_PREFIX_NONE;
    pos->halfmove = t->halfmove;
    pos->fullmove = t->fullmove;
    memset(pos->castling, FX_NONE, sizeof pos->castling);
    if (either)
        fx_castling_from_sets(pos, t->sets);
    pos->ep = t->ep ? fx_ep_target(pos, t->ep_file, t->ep_rank) : FX_NONE;
    return 1;
}
