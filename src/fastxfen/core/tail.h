/* The fields after the placement (side, castling, en passant, counters),
 * read from the end of the row with no branch on their bytes: fx_parse's
 * fast path, inlined into it (tail.c makes the tables).
 *
 * The commonest tails (six fields; the side, castling and en passant of
 * standard chess, "w KQkq -" and the like; short counters) are read by
 * tail_head: the blanks of the last 16 bytes find the head and the
 * counters, the head is looked up whole in a table, the counters are
 * converted at once.  The others by tail_window: the row's last 16 bytes
 * (32 for longer tails) are classified once into bit masks (bit k: byte
 * k), blanks, side letters, castling letters, dashes, digits; the runs of
 * text are the placement's last bytes, then the fields, so every field's
 * bytes are a mask too, and every check is bit arithmetic on masks, each
 * leaving bits in `bad` (none for a valid row) that the caller tests once.
 * Nothing here needs the placement reader's result: fx_parse joins the
 * two where the placement ends. */
#ifndef FASTXFEN_TAIL_H
#define FASTXFEN_TAIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bits.h"
#include "fx.h"
#include "rules.h"

/* Per byte of a castling field written with file letters: a flag's bit in
 * its color's set (fx_flag_bit), white in bits 0-15 and black in bits
 * 16-31, and one in its color's count (bits 40-43, 44-47); '-'
 * FX_TAIL_DASH; any other byte FX_TAIL_OTHER. */
#define FX_TAIL_DASH (1ull << 32)
#define FX_TAIL_OTHER (1ull << 33)
/* the bits a byte sets once: the flags, FX_TAIL_DASH and FX_TAIL_OTHER */
#define FX_TAIL_FLAGS 0x3FFFFFFFFull
#define FX_TAIL_COUNT(color) (1ull << (40 + 4 * (color)))
extern uint64_t fx_tail_castling_bits[256];

/* The heads (side, castling, en passant) of the commonest tails, looked up
 * whole: a side, the rights as a subset of K Q k q in that order or '-',
 * and '-' or a square of rank 3 or 6.  Key: the head's bytes right-aligned
 * in 16, zeros before; value: the fields, packed by head_value.  Each key
 * stands in one of its two slots (cuckoo hashing: placed when the tables
 * are made, moving others to their other slot). */
#define FX_TAIL_HEADS 2048
extern uint64_t fx_tail_head_keys[FX_TAIL_HEADS][2];
extern uint16_t fx_tail_head_values[FX_TAIL_HEADS];

static inline uint32_t fx_tail_head_slot(uint64_t lo, uint64_t hi, int which)
{
    static const uint64_t mix[2][2] = {{0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full},
                                       {0xD6E8FEB86659FD93ull, 0xA0761D6478BD642Full}};
    return (uint32_t)(((lo * mix[which][0]) ^ (hi * mix[which][1])) >> 53);
}

/* By the flags K Q k q (bits 0-3), the castling slots of an 8-wide board
 * whose rights stand as given: the h-side rook on file h, the a-side one on
 * file a (what a canonical head's K and Q name). */
extern uint32_t fx_tail_edge_slots[16];

/* The tables the tail readers use; run by fx_init_parse_tables. */
void fx_init_tail_tables(void);

/* A tail as read, before it meets the placement. */
typedef struct {
    size_t cut;          /* where the placement ends if the row is one tail_read takes */
    uint32_t ok;         /* the fields are valid and of the common forms */
    uint32_t sets[2];    /* castling flags of each color (fx_flag_bit) */
    uint32_t ep;         /* 1: an en-passant square, ep_file and ep_rank */
    uint32_t ep_file, ep_rank;
    uint32_t turn, prefix, halfmove, fullmove;
    int fields;          /* 4, 5 or 6 */
    uint32_t canonical;  /* 1: written as fx_write writes it (X-FEN, no en-passant
                            square), if the rights stand as given */
} fx_tail;

/* A castling field of n bytes at f (written with file letters, or with a
 * prefix): one to four distinct flags, at most two a color.  The bytes' entries
 * are added: the sum's flag bits must be their OR (no flag twice), its
 * counts at most 2.  The bytes read and the entries counted come from
 * tables by n, as compilers turn indexes and masks made of n > k into
 * branches on the field's length.  Sets sets; returns 0 for such a field,
 * else bits. */
static inline uint64_t castling_files(const uint8_t *f, size_t n, uint32_t sets[2],
                                      uint32_t *prefix)
{
    *prefix = f[0] == 's' ? FX_PREFIX_S : f[0] == 'm' ? FX_PREFIX_M : FX_PREFIX_NONE;
    f += *prefix != FX_PREFIX_NONE; /* a prefix alone: n 0, refused */
    n -= *prefix != FX_PREFIX_NONE;
    static const uint8_t read[5][4] = {{0}, {0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}};
    static const uint64_t counted[5][3] = {
        {0, 0, 0}, {0, 0, 0}, {~0ull, 0, 0}, {~0ull, ~0ull, 0}, {~0ull, ~0ull, ~0ull}};
    size_t row = n < 4 ? n : 4;
    uint64_t b0 = fx_tail_castling_bits[f[0]];
    uint64_t b1 = fx_tail_castling_bits[f[read[row][1]]] & counted[row][0];
    uint64_t b2 = fx_tail_castling_bits[f[read[row][2]]] & counted[row][1];
    uint64_t b3 = fx_tail_castling_bits[f[read[row][3]]] & counted[row][2];
    uint64_t sum = b0 + b1 + b2 + b3, seen = (b0 | b1 | b2 | b3) & FX_TAIL_FLAGS;
    sets[0] = (uint32_t)seen & 0xFFFFu;
    sets[1] = (uint32_t)(seen >> 16) & 0xFFFFu;
    return (n - 1 > 3) | ((sum & FX_TAIL_FLAGS) ^ seen)
           | (seen & (FX_TAIL_OTHER | FX_TAIL_DASH))
           | (((sum >> 40 & 0xFF) + 0x11) & 0xCC);
}

/* The masks of the w bytes at p (16 or 32) that the tail reader needs
 * (bit k: byte k). */
typedef struct {
    uint32_t blank, side, white, lower, k, q, dash, digit; /* white, lower: bits 4, 5 set */
    uint64_t high; /* the last 8 bytes */
} classes;

static inline void classify16(const uint8_t *p, classes *c, int at)
{
#ifdef FX_SSE2
#define IS(v, ch) _mm_cmpeq_epi8(v, _mm_set1_epi8(ch))
#define MASK(v) ((uint32_t)_mm_movemask_epi8(v) << at)
    __m128i x = _mm_loadu_si128((const __m128i *)p);
    __m128i lower = _mm_or_si128(x, _mm_set1_epi8(0x20));
    c->blank |= MASK(_mm_or_si128(IS(x, ' '), IS(x, '\t')));
    c->side |= MASK(_mm_or_si128(IS(x, 'w'), IS(x, 'b')));
    c->white |= MASK(_mm_slli_epi16(x, 3)); /* bit 4: 'w' has it, 'b' not */
    c->lower |= MASK(_mm_slli_epi16(x, 2)); /* bit 5: set in small letters */
    c->k |= MASK(IS(lower, 'k'));
    c->q |= MASK(IS(lower, 'q'));
    c->dash |= MASK(IS(x, '-'));
    /* '0' to '9' (0x30 to 0x39), moved to the bottom of the signed range */
    c->digit |= MASK(_mm_cmplt_epi8(_mm_xor_si128(x, _mm_set1_epi8((char)0xB0)),
                                    _mm_set1_epi8(-128 + 10)));
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
#define EQ(a, ch) ((fx_equal8(a, ch) | fx_equal8((a) + 8, ch) << 8) << at)
    c->blank |= EQ(p, ' ') | EQ(p, '\t');
    c->side |= EQ(p, 'w') | EQ(p, 'b');
    c->white |= ~EQ(bit4, 0) & (0xFFFFu << at);
    c->lower |= ~EQ(bit5, 0) & (0xFFFFu << at);
    c->k |= EQ(lower, 'k');
    c->q |= EQ(lower, 'q');
    c->dash |= EQ(p, '-');
    c->digit |= EQ(digit, 1);
#undef EQ
#endif
}

static FX_ALWAYS_INLINE void classify(const uint8_t *p, int w, classes *c)
{
    memset(c, 0, sizeof *c);
    classify16(p, c, 0);
    if (w == 32)
        classify16(p + 16, c, 16);
    memcpy(&c->high, p + w - 8, 8);
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

/* 1 when a mask of 32 bits has a bit, else 0 (no compare). */
static inline uint32_t any(uint32_t x) { return (uint32_t)(((uint64_t)x + 0xFFFFFFFFu) >> 32); }

/* The lowest set bit of x alone. */
static inline uint32_t lowest(uint32_t x) { return x & (0u - x); }

/* The tail from the row's last w bytes (16 or 32): returns 0 when the row
 * is not one the window takes (ok stays 0), 1 when t is read (ok says
 * whether the fields are valid).  Inlined for each w, which then is a
 * constant. */
static FX_ALWAYS_INLINE int tail_window(const uint8_t *s, size_t end, int w, fx_tail *t)
{
    const uint32_t all = w == 32 ? 0xFFFFFFFFu : 0xFFFFu;
    const uint8_t *p = s + end - w; /* byte k of the window */
    classes c;
    classify(p, w, &c);
    uint32_t text = ~c.blank & all;
    uint32_t starts = text & ~(text << 1), ends = text & ~(text >> 1);
    /* run k ends at bit e[k] (end_k alone): the placement's last bytes, then
     * four to six fields, one blank apart; the counters lie in the last 8
     * bytes with at most four digits each */
    uint32_t r1 = ends & (ends - 1), r2 = r1 & (r1 - 1), r3 = r2 & (r2 - 1);
    uint32_t r4 = r3 & (r3 - 1), r5 = r4 & (r4 - 1);
    if ((((ends << 2 | 1) & all) ^ starts) | (r5 & (r5 - 1)) | (r3 == 0))
        return 0;
    unsigned e3 = (unsigned)fx_ctz64(r3), e4 = r4 ? (unsigned)fx_ctz64(r4) : (unsigned)w - 1;
    size_t half_n = r4 ? e4 - e3 - 1 : 0, full_n = r5 ? (size_t)w - 2 - e4 : 0;
    if (e3 + 10 < (unsigned)w || half_n > 4 || full_n > 4)
        return 0;
    uint32_t end0 = lowest(ends), end1 = lowest(r1), end2 = lowest(r2), end3 = lowest(r3);
    t->cut = end - (size_t)w + (size_t)fx_ctz64(end0) + 1;

    uint64_t bad = (end1 ^ end0 << 2) | (end1 & ~c.side);
    t->turn = any(end1 & ~c.white);

    uint32_t castling = (end2 << 1) - (end1 << 2);
    t->prefix = FX_PREFIX_NONE;
    if (castling & ~(c.k | c.q | c.dash)) { /* file letters or a prefix, or bytes to refuse */
        unsigned e1 = (unsigned)fx_ctz64(end1);
        bad |= castling_files(p + e1 + 2, (size_t)fx_popcount64(castling), t->sets, &t->prefix);
    } else {
        uint32_t wk = castling & c.k & ~c.lower, wq = castling & c.q & ~c.lower;
        uint32_t bk = castling & c.k & c.lower, bq = castling & c.q & c.lower;
        bad |= (wk & (wk - 1)) | (wq & (wq - 1)) | (bk & (bk - 1)) | (bq & (bq - 1)); /* twice */
        bad |= (castling & (castling - 1)) & (0u - any(castling & c.dash)); /* '-' not alone */
        t->sets[0] = any(wk) << FX_FLAG_K | any(wq) << FX_FLAG_Q;
        t->sets[1] = any(bk) << FX_FLAG_K | any(bq) << FX_FLAG_Q;
    }

    uint32_t ep = (end3 << 1) - (end2 << 2);
    t->ep = (c.dash & ep) != ep;
    t->ep_file = t->ep_rank = 0;
    if (t->ep) { /* most rows have none */
        unsigned e2 = (unsigned)fx_ctz64(end2);
        t->ep_file = (uint32_t)p[e2 + 2] - 'a';
        t->ep_rank = (uint32_t)p[e3] - '1';
        bad |= (ep ^ (end2 << 2 | end2 << 3)) | (t->ep_file >= FX_MAX_WIDTH)
               | (t->ep_rank >= FX_HEIGHT);
    } else {
        bad |= ep & (ep - 1); /* '-' alone */
    }

    bad |= text & ~((end3 << 2) - 1) & ~c.digit; /* the counters' bytes */
    /* the halfmove clock's last byte to byte 7, then each counter to the top
     * of its half */
    unsigned half_end = e4 + 8 - (unsigned)w; /* in the last 8 bytes */
    uint64_t lanes = ((c.high << 8 * (7 - half_end)) >> 32) | (c.high & (0xFFFFFFFFull << 32));
    uint64_t values = two_counters(lanes, half_n, full_n);
    t->halfmove = (uint32_t)values;
    t->fullmove = (uint32_t)(values >> 32) + ((values >> 32) == 0);
    t->fields = 4 + (r4 != 0) + (r5 != 0);
    t->ok = bad == 0;
    return 1;
}

/* The commonest tails, six fields with a head of the table: the blanks
 * of the last 16 bytes give the head (between the first blank and the one
 * before the halfmove clock) and the counters (at most four digits each,
 * in the last 8 bytes), the head is looked up whole and the counters
 * converted at once.  Returns 0 for any other row. */
static inline int tail_head(const uint8_t *s, size_t end, fx_tail *t)
{
    uint32_t spaces_tabs = fx_spaces_tabs16(s + end - 16);
    uint32_t blank = (spaces_tabs | spaces_tabs >> 16) & 0xFFFF;
    if (!blank)
        return 0;
    unsigned e0 = (unsigned)fx_ctz64(blank), last = 31 - (unsigned)fx_clz32(blank);
    uint32_t rest = blank & ~(1u << last);
    unsigned before = 31 - (unsigned)fx_clz32(rest | 1); /* the blank before the halfmove clock */
    size_t head = before - e0 - 1, half_n = last - before - 1, full_n = 15 - last;
    /* a head of 1 to 15 bytes after 16 of the row, counters in the last 8 */
    if (!rest || before <= e0 || head - 1 > 14 || before < 7 || end + before < 32
        || half_n - 1 > 3 || full_n - 1 > 3)
        return 0;
    const uint8_t *head_end = s + end - 16 + before;
    uint64_t lo, hi;
    memcpy(&lo, head_end - 16, 8);
    memcpy(&hi, head_end - 8, 8);
    /* keep the head's bytes (no branch on its length: two half shifts are
     * a shift by 64 when none of lo is kept) */
    unsigned in_hi = head < 8 ? (unsigned)head : 8, in_lo = (unsigned)head - in_hi;
    hi &= ~0ull << 8 * (8 - in_hi);
    lo &= ~0ull << 4 * (8 - in_lo) << 4 * (8 - in_lo);
    /* both slots looked at, the one holding the key chosen without a
     * branch (which of the two it is follows no pattern) */
    uint32_t slot0 = fx_tail_head_slot(lo, hi, 0), slot1 = fx_tail_head_slot(lo, hi, 1);
    uint64_t miss0 = (fx_tail_head_keys[slot0][0] ^ lo) | (fx_tail_head_keys[slot0][1] ^ hi);
    uint64_t miss1 = (fx_tail_head_keys[slot1][0] ^ lo) | (fx_tail_head_keys[slot1][1] ^ hi);
    /* the key is the head right-aligned among zeros: a head that begins
     * with NUL bytes would pass for the shorter one after them */
    if ((miss0 && miss1) || *(head_end - head) == 0)
        return 0;
    uint32_t value = miss0 ? fx_tail_head_values[slot1] : fx_tail_head_values[slot0];
    /* the last 8 bytes: the fullmove number right-aligned in the high half,
     * the halfmove clock's last byte moved to byte 3 of the low one */
    uint64_t last8;
    memcpy(&last8, s + end - 8, 8);
    uint64_t lanes = ((last8 << 8 * (16 - last)) >> 32) | (last8 & (0xFFFFFFFFull << 32));
    const uint64_t zeros = 0x3030303030303030ull, low4 = 0x0F0F0F0F0F0F0F0Full;
    uint64_t filled = (0xFFFFFFFFull >> 8 * half_n) | (0xFFFFFFFFull >> 8 * full_n) << 32;
    uint64_t x = (lanes & ~filled) | (zeros & filled); /* digits, '0' before them */
    t->ok = (((x & ~low4) ^ zeros) | (((x + 0x0606060606060606ull) & ~low4) ^ zeros)) == 0;
    uint64_t values = two_counters(x, 4, 4);
    /* the least value written with n digits (the fullmove number: and 1) */
    static const uint32_t least[2][5] = {{0, 0, 10, 100, 1000}, {0, 1, 10, 100, 1000}};
    uint32_t half = (uint32_t)values, full = (uint32_t)(values >> 32);
    t->halfmove = half;
    t->fullmove = full + (full == 0);
    /* the head's key holds spaces, so a tab can be only at its ends */
    t->canonical = (~value >> 5 & 1) & (half >= least[0][half_n]) & (full >= least[1][full_n])
                   & (spaces_tabs >> 16 == 0);
    t->cut = end - 16 + e0;
    t->turn = value & 1;
    t->sets[0] = value >> 1 & 3;
    t->sets[1] = value >> 3 & 3;
    t->ep = value >> 5 & 1;
    t->ep_file = value >> 6 & 15;
    t->ep_rank = value >> 10 & 7;
    t->prefix = FX_PREFIX_NONE;
    t->fields = 6;
    return 1;
}

/* The tail of the row s[start, end) into t (t->ok 0: not a row the
 * fast readers take). */
static FX_ALWAYS_INLINE void tail_read(const uint8_t *s, size_t start, size_t end, fx_tail *t)
{
    t->ok = 0;
    t->canonical = 0;
    if (end - start < 16)
        return;
    if (tail_head(s, end, t) && t->ok)
        return;
    t->canonical = 0;
    /* the last 16 bytes hold most rows' tails; the others (file letters,
     * counters in the hundreds), up to 31 bytes, the last 32 */
    if ((!tail_window(s, end, 16, t) || !t->ok) && end - start >= 32)
        tail_window(s, end, 32, t);
}

/* Whether the tail's files fit a board of this width. */
static inline int tail_fits(const fx_tail *t, unsigned width)
{
    /* files i and j (bits 10 and 11 of a color's set) on an 8-wide board */
    return !(((t->sets[0] | t->sets[1]) & (width == 8 ? 0x0C00u : 0))
             | (t->ep & (t->ep_file >= width)));
}

/* The fields of the row s[start, end) (no blanks around it) after its
 * placement, which ends at cut and whose board and width are in *pos, for
 * rows whose last 16 or 32 bytes hold the tail (at most 31 bytes) and
 * whose fields take the common forms: one blank apart, castling '-' or one
 * to four distinct flags (at most two a color, an X-FEN prefix allowed),
 * en passant '-' or a square, counters of one to four digits in the row's
 * last 8 bytes, files within the board's width.  Returns 1 with the
 * fields in *pos (castling rights repaired, the en-passant target tested)
 * and their count in *fields; *kept (kept NULL: not wanted) is 1 when the
 * tail is canonical and every right stands as given, on its edge file (so
 * fx_write in X-FEN would write the same text).  Returns 0 for any other
 * row, *pos's fields
 * untouched (fx_parse then reads the fields one by one and names any
 * error). */
static FX_ALWAYS_INLINE int fx_tail_take(const uint8_t *s, size_t start, size_t end, size_t cut,
                                         fx_pos *pos, int *fields, int *kept)
{
    fx_tail t;
    tail_read(s, start, end, &t);
    uint32_t width = pos->width;
    if (!t.ok || t.cut != cut || !tail_fits(&t, width))
        return 0;
    pos->turn = (uint8_t)t.turn;
    pos->prefix = (uint8_t)t.prefix;
    pos->halfmove = t.halfmove;
    pos->fullmove = t.fullmove;
    uint32_t slots = 0xFFFFFFFFu;
    /* rights or none: the branch follows no pattern, so it tests the
     * castling field's first byte (the fields are one blank apart), known
     * well before the sets, which wait on the head table */
    if (s[t.cut + 3] != '-')
        slots = fx_castling_sets(pos, t.sets);
    else
        memcpy(pos->castling, &slots, 4);
    pos->ep = t.ep ? fx_ep_target(pos, t.ep_file, t.ep_rank) : FX_NONE;
    if (kept) /* a constant where this is inlined */
        *kept = t.canonical & (width == 8)
                & (slots == fx_tail_edge_slots[(t.sets[0] & 3) | (t.sets[1] & 3) << 2]);
    *fields = t.fields;
    return 1;
}

/* fx_tail_take's verdict alone, for a board of this width (a reader that
 * needs no position: validate). */
static FX_ALWAYS_INLINE int fx_tail_check(const uint8_t *s, size_t start, size_t end, size_t cut,
                                          unsigned width, int *fields)
{
    fx_tail t;
    tail_read(s, start, end, &t);
    if (!t.ok || t.cut != cut || !tail_fits(&t, width))
        return 0;
    *fields = t.fields;
    return 1;
}

#endif
