/* Training-data export: positions to and from bitboards, planes, the lichess
 * binary FEN and Stockfish's 24-byte compressed position.  See export.h for
 * the interface and docs/export.md for the formats. */
#include <math.h>
#include <string.h>

/* SSE2 kernels (FX_SSE2, bits.h), each with a portable scalar twin. */
#include "bits.h"
#include "export.h"
#include "tables.h"

#define SQUARES8 64

static inline int lowest(uint64_t b) { return fx_ctz64(b); }

static inline int count(uint64_t b)
{
    b -= (b >> 1) & 0x5555555555555555ull;
    b = (b & 0x3333333333333333ull) + ((b >> 2) & 0x3333333333333333ull);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((b * 0x0101010101010101ull) >> 56);
}

static int fail(fx_error *err, uint32_t code, uint32_t field, uint64_t column,
                uint32_t a, uint32_t b)
{
    err->code = code;
    err->field = field;
    err->column = column;
    err->a = a;
    err->b = b;
    err->c = 0;
    return -1;
}

static void clear_pos(fx_pos *pos, int width)
{
    memset(pos, 0, sizeof *pos);
    pos->width = (uint8_t)width;
    pos->ep = FX_NONE;
    memset(pos->castling, FX_NONE, sizeof pos->castling);
    pos->fullmove = 1;
}

/* ------------------------------------------------------------ board words */

#define ONES8 0x0101010101010101ull

static inline uint64_t word_at(const uint8_t *at)
{
    uint64_t w;
    memcpy(&w, at, sizeof w);
    return w;
}

/* Bit k set when byte k of the (little-endian) word w is nonzero. */
static inline uint64_t nonzero_bytes(uint64_t w)
{
    w |= w >> 4;
    w |= w >> 2;
    w |= w >> 1;
    return ((w & ONES8) * 0x0102040810204080ull) >> 56;
}

/* Occupied squares of an 8x8 board, bit = square index. */
static uint64_t occupancy8(const uint8_t *board)
{
    uint64_t occ = 0;
    for (int r = 0; r < FX_HEIGHT; r++)
        occ |= nonzero_bytes(word_at(board + 8 * r)) << (8 * r);
    return occ;
}

/* How many squares of an 8x8 board hold `code`. */
static int count_code8(const uint8_t *board, uint8_t code)
{
    int n = 0;
    for (int sq = 0; sq < SQUARES8; sq++)
        n += board[sq] == code;
    return n;
}

/* Every byte of the 8x8 board is a piece code of 8x8 chess (0..12)? */
static int codes_ok8(const uint8_t *board)
{
    uint64_t bad = 0;
    for (int r = 0; r < FX_HEIGHT; r++) {
        uint64_t w = word_at(board + 8 * r);
        bad |= (w | (w + 0x7373737373737373ull)) & 0x8080808080808080ull;
    }
    return bad == 0;
}

/* Bit b of every square's code, as four bitboards (bit = square index). */
static void code_bits8(const uint8_t *board, uint64_t bits[4])
{
#ifdef FX_SSE2
    for (int b = 0; b < 4; b++)
        bits[b] = 0;
    for (int q = 0; q < 4; q++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(board + 16 * q));
        /* Shifting 16-bit lanes left by 7 - b puts bit b of each byte in
         * that byte's top bit, which movemask collects. */
        bits[0] |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_slli_epi16(v, 7)) << (16 * q);
        bits[1] |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_slli_epi16(v, 6)) << (16 * q);
        bits[2] |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_slli_epi16(v, 5)) << (16 * q);
        bits[3] |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_slli_epi16(v, 4)) << (16 * q);
    }
#else
    for (int b = 0; b < 4; b++) {
        bits[b] = 0;
        for (int sq = 0; sq < SQUARES8; sq++)
            bits[b] |= (uint64_t)((board[sq] >> b) & 1) << sq;
    }
#endif
}

/* The 12 piece bitboards of an 8x8 board whose codes are all 0..12
 * (index code - 1). */
static void board_bitboards8(const uint8_t *board, uint64_t bb[12])
{
    uint64_t b[4];
    code_bits8(board, b);
    /* Squares by the low two bits of the code, and by the high two. */
    const uint64_t low[4] = {~b[0] & ~b[1], b[0] & ~b[1], ~b[0] & b[1], b[0] & b[1]};
    const uint64_t high[4] = {~b[2] & ~b[3], b[2] & ~b[3], ~b[2] & b[3], b[2] & b[3]};
    for (int code = 1; code <= 12; code++)
        bb[code - 1] = low[code & 3] & high[code >> 2];
}

/* A bitboard seen from the other side: rank r becomes rank 7 - r. */
static inline uint64_t mirror(uint64_t b)
{
    b = ((b >> 8) & 0x00FF00FF00FF00FFull) | ((b & 0x00FF00FF00FF00FFull) << 8);
    b = ((b >> 16) & 0x0000FFFF0000FFFFull) | ((b & 0x0000FFFF0000FFFFull) << 16);
    return (b >> 32) | (b << 32);
}

/* SPREAD[x]: byte k is bit k of x (0 or 1). */
#define SPREAD_BIT(x, k) ((uint64_t)(((x) >> (k)) & 1) << (8 * (k)))
#define SPREAD_ONE(x)                                                          \
    (SPREAD_BIT(x, 0) | SPREAD_BIT(x, 1) | SPREAD_BIT(x, 2) | SPREAD_BIT(x, 3) \
     | SPREAD_BIT(x, 4) | SPREAD_BIT(x, 5) | SPREAD_BIT(x, 6) | SPREAD_BIT(x, 7))
#define SPREAD_2(x) SPREAD_ONE(x), SPREAD_ONE((x) + 1)
#define SPREAD_4(x) SPREAD_2(x), SPREAD_2((x) + 2)
#define SPREAD_8(x) SPREAD_4(x), SPREAD_4((x) + 4)
#define SPREAD_16(x) SPREAD_8(x), SPREAD_8((x) + 8)
#define SPREAD_32(x) SPREAD_16(x), SPREAD_16((x) + 16)
#define SPREAD_64(x) SPREAD_32(x), SPREAD_32((x) + 32)
#define SPREAD_128(x) SPREAD_64(x), SPREAD_64((x) + 64)
static const uint64_t SPREAD[256] = {SPREAD_128(0u), SPREAD_128(128u)};

/* Does the position hold any castling right? */
static int any_right(const fx_pos *pos)
{
    uint32_t slots;
    memcpy(&slots, pos->castling, sizeof slots);
    return slots != 0xFFFFFFFFu;
}

/* Would fx_repair_castling leave these rights as they are?  Each right's
 * rook stands on its back rank on the right side of the color's only king,
 * which stands on that rank too. */
static int castling_canonical8(const fx_pos *pos)
{
    for (int color = 0; color < 2; color++) {
        uint8_t h = pos->castling[2 * color], a = pos->castling[2 * color + 1];
        if (h == FX_NONE && a == FX_NONE)
            continue;
        const uint8_t *rank = pos->board + (color ? 56 : 0);
        uint8_t king = FX_KING_OF(color), rook = FX_ROOK_OF(color);
        int kf = 0;
        while (kf < 8 && rank[kf] != king)
            kf++;
        if (kf == 8 || count_code8(pos->board, king) != 1)
            return 0;
        if (h != FX_NONE && (h >= 8 || h <= kf || rank[h] != rook))
            return 0;
        if (a != FX_NONE && (a >= 8 || a >= kf || rank[a] != rook))
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------ records */

int fx_x_load(const fx_x_records *recs, size_t i, fx_pos *pos, fx_error *err)
{
    const uint8_t *src = recs->base + i * recs->stride;
    if (recs->wide) {
        memcpy(pos, src, sizeof *pos);
    } else {    /* fx_rec8_to_pos, inlined: this runs once per row */
        memcpy(pos->board, src, SQUARES8);
        memset(pos->board + SQUARES8, 0, FX_MAX_SQUARES - SQUARES8);
        memcpy(&pos->width, src + SQUARES8, sizeof(fx_rec8) - SQUARES8);
    }
    if (pos->width == 0)
        return fx_check_record(pos, recs->wide ? FX_MAX_WIDTH : 8, err);
    if (recs->trusted)
        return 0;
    /* The common case, an 8-wide record already in the state the reader
     * leaves: checked here without the full repair.  Anything else takes
     * fx_check_record, which reports or repairs it. */
    if (pos->width == 8 && codes_ok8(pos->board)
        && (!recs->wide || (word_at(pos->board + 64) | word_at(pos->board + 72)) == 0)
        && pos->turn <= 1 && pos->fullmove != 0
        && (pos->prefix == FX_PREFIX_NONE || (pos->prefix <= FX_PREFIX_M && any_right(pos)))
        && (pos->ep == FX_NONE || (pos->ep < SQUARES8 && fx_ep_valid(pos)))
        && castling_canonical8(pos))
        return 0;
    return fx_check_record(pos, recs->wide ? FX_MAX_WIDTH : 8, err);
}

static void store(const fx_pos *pos, uint8_t *dest, int wide)
{
    if (wide)
        memcpy(dest, pos, sizeof *pos);
    else
        fx_pos_to_rec8(pos, dest);
}

static int need_width(const fx_pos *pos, int width, fx_error *err)
{
    if (pos->width == width)
        return 0;
    return fail(err, FX_X_E_WIDTH, FX_F_RECORD_WIDTH, 0, pos->width, (uint32_t)width);
}

/* ------------------------------------------------------------ defaults */

static void defaults_before(fx_pos *pos, const fx_x_defaults *d, size_t i)
{
    if (d->turn)
        pos->turn = d->turn[i * d->turn_step];
    if (d->ep)
        pos->ep = d->ep[i * d->ep_step];
    if (d->halfmove)
        pos->halfmove = d->halfmove[i * d->halfmove_step];
    if (d->fullmove)
        pos->fullmove = d->fullmove[i * d->fullmove_step];
}

static void default_castling(fx_pos *pos, const fx_x_defaults *d, size_t i)
{
    if (d->files)
        memcpy(pos->castling, d->files + 4 * i * d->files_step, 4);
    else
        fx_castling_from_flags(pos, d->flags, d->flags ? d->n_flags : 0);
}

/* ------------------------------------------------------------ bitboards */

void fx_x_bitboards(const fx_pos *pos, uint64_t out[12])
{
    board_bitboards8(pos->board, out);
}

int fx_x_board_from_bitboards(const uint64_t bb[12], fx_pos *pos, fx_error *err)
{
    uint64_t seen = 0;
    memset(pos->board, 0, sizeof pos->board);
    pos->width = 8;
    for (int k = 0; k < 12; k++) {
        uint64_t clash = seen & bb[k];
        if (clash) {
            int sq = lowest(clash);
            int first = 0;
            while (!((bb[first] >> sq) & 1))
                first++;
            return fail(err, FX_X_E_OVERLAP, FX_X_F_BITBOARDS, (uint64_t)sq,
                        (uint32_t)first, (uint32_t)k);
        }
        seen |= bb[k];
        for (uint64_t b = bb[k]; b; b &= b - 1)
            pos->board[lowest(b)] = (uint8_t)(k + 1);
    }
    return 0;
}

/* ------------------------------------------------------------ planes: values */

/* Bits of 1 in the element type. */
static uint64_t one_bits(const fx_x_planes *s)
{
    if (s->kind != FX_X_FLOAT)
        return 1;
    return s->size == 2 ? 0x3C00u : s->size == 4 ? 0x3F800000u : 0x3FF0000000000000ull;
}

/* IEEE half of a finite v >= 0, rounded to nearest even, saturated at the
 * largest finite half (65504). */
static uint16_t half_bits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    int exp = (int)((b >> 52) & 0x7FF) - 1023;
    uint64_t mant = (b & ((1ull << 52) - 1)) | (1ull << 52);
    if (v == 0.0)
        return 0;
    if (v >= 65504.0)
        return 0x7BFF;
    int shift = exp >= -14 ? 42 : 42 + (-14 - exp);
    if (shift > 60)
        return 0;
    uint64_t sig = mant >> shift, rest = mant & ((1ull << shift) - 1);
    uint64_t half = 1ull << (shift - 1);
    if (rest > half || (rest == half && (sig & 1)))
        sig++;
    if (exp < -14)
        return (uint16_t)sig;   /* subnormal; 1024 is the smallest normal */
    int e = exp + 15;
    if (sig == 2048) {
        sig = 1024;
        e++;
    }
    if (e >= 31)
        return 0x7BFF;
    return (uint16_t)((e << 10) | (sig & 0x3FF));
}

static double half_value(uint16_t h)
{
    int e = (h >> 10) & 0x1F, m = h & 0x3FF;
    double v;
    if (e == 0)
        v = m / 16777216.0;                 /* m * 2^-24 */
    else if (e == 31)
        v = m ? HUGE_VAL - HUGE_VAL : HUGE_VAL;
    else {
        v = (1024 + m) / 1024.0;
        for (int k = e - 15; k > 0; k--) v *= 2;
        for (int k = e - 15; k < 0; k++) v /= 2;
    }
    return (h & 0x8000) ? -v : v;
}

/* Bits of v >= 0 in the element type; integers saturate at their largest
 * value (1 for bool) and are truncated toward zero. */
static uint64_t value_bits(double v, const fx_x_planes *s)
{
    if (s->kind == FX_X_FLOAT) {
        if (s->size == 2)
            return half_bits(v);
        if (s->size == 4) {
            float f = (float)v;
            uint32_t u;
            memcpy(&u, &f, sizeof u);
            return u;
        }
        uint64_t u;
        memcpy(&u, &v, sizeof u);
        return u;
    }
    double top = s->kind == FX_X_BOOL ? 1.0
               : s->kind == FX_X_INT ? (double)((1ull << (8 * s->size - 1)) - 1)
               : s->size == 8 ? 18446744073709549568.0
               : (double)((1ull << (8 * s->size)) - 1);
    if (v >= top)
        return s->kind == FX_X_UINT && s->size == 8 ? ~0ull : (uint64_t)top;
    return (uint64_t)v;
}

/* The element at `at` as a double. */
static double element(const uint8_t *at, const fx_x_planes *s)
{
    switch (s->size) {
    case 1:
        return s->kind == FX_X_INT ? (double)(int8_t)at[0] : (double)at[0];
    case 2: {
        uint16_t u;
        memcpy(&u, at, 2);
        if (s->kind == FX_X_FLOAT)
            return half_value(u);
        return s->kind == FX_X_INT ? (double)(int16_t)u : (double)u;
    }
    case 4: {
        uint32_t u;
        memcpy(&u, at, 4);
        if (s->kind == FX_X_FLOAT) {
            float f;
            memcpy(&f, &u, 4);
            return f;
        }
        return s->kind == FX_X_INT ? (double)(int32_t)u : (double)u;
    }
    default: {
        uint64_t u;
        memcpy(&u, at, 8);
        if (s->kind == FX_X_FLOAT) {
            double d;
            memcpy(&d, &u, 8);
            return d;
        }
        return s->kind == FX_X_INT ? (double)(int64_t)u : (double)u;
    }
    }
}

static inline void put(uint8_t *out, size_t index, unsigned size, uint64_t bits)
{
    switch (size) {
    case 1:
        out[index] = (uint8_t)bits;
        break;
    case 2: {
        uint16_t v = (uint16_t)bits;
        memcpy(out + 2 * index, &v, 2);
        break;
    }
    case 4: {
        uint32_t v = (uint32_t)bits;
        memcpy(out + 4 * index, &v, 4);
        break;
    }
    default:
        memcpy(out + 8 * index, &bits, 8);
    }
}

static void fill(uint8_t *out, size_t first, size_t count, unsigned size, uint64_t bits)
{
    if (bits == 0)
        return;     /* the tensor is cleared before anything is written */
    if (size == 1) {
        memset(out + first, (int)bits, count);
        return;
    }
    for (size_t k = 0; k < count; k++)
        put(out, first + k, size, bits);
}

/* ------------------------------------------------------------ planes: layout */

/* Piece code -> plane, as seen from white and with colors swapped. */
static const uint8_t PLANE_OF[2][FX_CODE_LIMIT] = {
    {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {0, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 14, 15, 12, 13},
};
/* Plane -> piece code, the inverse of PLANE_OF. */
static const uint8_t CODE_OF[2][16] = {
    {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
    {7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6, 15, 16, 13, 14},
};

static int piece_planes(const fx_x_planes *s) { return s->width == 10 ? 16 : 12; }

static int extra_planes(uint8_t kind) { return kind == FX_X_CASTLING ? 4 : 1; }

size_t fx_x_plane_count(const fx_x_planes *s)
{
    size_t n = (size_t)piece_planes(s);
    for (int k = 0; k < s->n_extra; k++)
        n += (size_t)extra_planes(s->extra[k]);
    return n;
}

size_t fx_x_planes_bytes(const fx_x_planes *s)
{
    return fx_x_plane_count(s) * FX_HEIGHT * s->width * s->size;
}

/* One 8x8 plane from a bitboard (bit i = element i).  Bytes are written
 * whole, eight at a time; wider elements are written into a plane that the
 * caller has cleared, one store per set bit. */
static void plane_from_bits(uint8_t *dst, uint64_t bits, const fx_x_planes *s, uint64_t one)
{
    if (s->size == 1) {
        for (int r = 0; r < FX_HEIGHT; r++)
            memcpy(dst + 8 * r, &SPREAD[(bits >> (8 * r)) & 0xFF], sizeof(uint64_t));
        return;
    }
    for (; bits; bits &= bits - 1)
        put(dst, (size_t)lowest(bits), s->size, one);
}

static void plane_of_value(uint8_t *dst, size_t count, unsigned size, uint64_t bits)
{
    if (size == 1) {
        memset(dst, (int)(bits & 0xFF), count);
        return;
    }
    for (size_t k = 0; k < count; k++)
        put(dst, k, size, bits);
}

/* Bitboard of the squares of the rooks that hold castling rights. */
static uint64_t castling_rook_bits8(const fx_pos *pos)
{
    uint64_t marks = 0;
    for (int slot = 0; slot < 4; slot++)
        if (pos->castling[slot] != FX_NONE)
            marks |= 1ull << ((slot >= FX_BLACK_H ? 56 : 0) + pos->castling[slot]);
    return marks;
}

#ifdef FX_SSE2
#define FX_X_VECTOR_PLANES 1
/* The 12 uint8 piece planes of an 8x8 board, 16 bytes at a time: plane p is
 * (square == code of plane p), the board's ranks mirrored when flipped. */
static void piece_planes_u8(const uint8_t *board, int flip, uint8_t *out)
{
    const uint8_t *code_of = CODE_OF[flip];
    const __m128i one = _mm_set1_epi8(1);
    __m128i v[4];
    for (int q = 0; q < 4; q++) {
        if (flip)   /* ranks 7 - 2q and 6 - 2q */
            v[q] = _mm_unpacklo_epi64(
                _mm_loadl_epi64((const __m128i *)(const void *)(board + 8 * (7 - 2 * q))),
                _mm_loadl_epi64((const __m128i *)(const void *)(board + 8 * (6 - 2 * q))));
        else
            v[q] = _mm_loadu_si128((const __m128i *)(const void *)(board + 16 * q));
    }
    for (int p = 0; p < 12; p++) {
        const __m128i code = _mm_set1_epi8((char)code_of[p]);
        __m128i *dst = (__m128i *)(void *)(out + SQUARES8 * p);
        for (int q = 0; q < 4; q++)
            _mm_storeu_si128(dst + q, _mm_and_si128(_mm_cmpeq_epi8(v[q], code), one));
    }
}
#endif

/* 8x8 tensors: every plane is written whole from a bitboard or a value, so
 * the output is never cleared first. */
static void planes_write8(const fx_pos *pos, const fx_x_planes *s, uint8_t *out)
{
    const unsigned size = s->size;
    const size_t step = (size_t)SQUARES8 * size;
    const int flip = s->flip && pos->turn == FX_BLACK;
    const uint64_t one = one_bits(s);
#ifdef FX_X_VECTOR_PLANES
    if (size == 1) {
        piece_planes_u8(pos->board, flip, out);
    } else
#endif
    {
        uint64_t bb[12];
        board_bitboards8(pos->board, bb);
        if (size > 1)
            memset(out, 0, fx_x_planes_bytes(s));
        for (int p = 0; p < 12; p++) {
            uint64_t b = flip ? mirror(bb[(p + 6) % 12]) : bb[p];
            plane_from_bits(out + p * step, b, s, one);
        }
    }
    uint8_t *o = out + 12 * step;
    for (int k = 0; k < s->n_extra; k++) {
        uint64_t bits;
        switch (s->extra[k]) {
        case FX_X_TURN:
            plane_of_value(o, SQUARES8, size, pos->turn == FX_BLACK ? one : 0);
            break;
        case FX_X_CASTLING:
            for (int j = 0; j < 4; j++)
                plane_of_value(o + j * step, SQUARES8, size,
                               pos->castling[flip ? j ^ 2 : j] != FX_NONE ? one : 0);
            break;
        case FX_X_CASTLING_ROOKS:
            bits = castling_rook_bits8(pos);
            plane_from_bits(o, flip ? mirror(bits) : bits, s, one);
            break;
        case FX_X_EN_PASSANT:
            bits = fx_ep_keep(pos, (fx_ep_mode)s->ep_mode) ? 1ull << pos->ep : 0;
            plane_from_bits(o, flip ? mirror(bits) : bits, s, one);
            break;
        case FX_X_HALFMOVE:
            plane_of_value(o, SQUARES8, size, value_bits((double)pos->halfmove, s));
            break;
        case FX_X_HALFMOVE_SCALED: {
            uint32_t h = pos->halfmove < 100 ? pos->halfmove : 100;
            plane_of_value(o, SQUARES8, size, value_bits(h / 100.0, s));
            break;
        }
        }
        o += (size_t)extra_planes(s->extra[k]) * step;
    }
}

void fx_x_planes_write(const fx_pos *pos, const fx_x_planes *s, uint8_t *out)
{
    if (s->width == 8) {
        planes_write8(pos, s, out);
        return;
    }
    const int w = s->width;
    const size_t plane = (size_t)FX_HEIGHT * w;
    const unsigned size = s->size;
    const int flip = s->flip && pos->turn == FX_BLACK;
    const uint8_t *plane_of = PLANE_OF[flip];
    const uint64_t one = one_bits(s);
    memset(out, 0, fx_x_planes_bytes(s));

    for (int r = 0; r < FX_HEIGHT; r++) {
        const uint8_t *rank = pos->board + r * w;
        size_t row = (size_t)(flip ? FX_HEIGHT - 1 - r : r) * w;
        for (int f = 0; f < w; f++)
            if (rank[f])
                put(out, plane_of[rank[f]] * plane + row + f, size, one);
    }

    size_t p = (size_t)piece_planes(s);
    for (int k = 0; k < s->n_extra; k++) {
        switch (s->extra[k]) {
        case FX_X_TURN:
            if (pos->turn == FX_BLACK)
                fill(out, p * plane, plane, size, one);
            break;
        case FX_X_CASTLING:
            for (int j = 0; j < 4; j++)
                if (pos->castling[flip ? j ^ 2 : j] != FX_NONE)
                    fill(out, (p + j) * plane, plane, size, one);
            break;
        case FX_X_CASTLING_ROOKS:
            for (int slot = 0; slot < 4; slot++) {
                uint8_t f = pos->castling[slot];
                if (f == FX_NONE)
                    continue;
                int r = slot >= FX_BLACK_H ? FX_HEIGHT - 1 : 0;
                put(out, p * plane + (size_t)(flip ? FX_HEIGHT - 1 - r : r) * w + f, size, one);
            }
            break;
        case FX_X_EN_PASSANT:
            if (fx_ep_keep(pos, (fx_ep_mode)s->ep_mode)) {
                int r = pos->ep / w, f = pos->ep % w;
                put(out, p * plane + (size_t)(flip ? FX_HEIGHT - 1 - r : r) * w + f, size, one);
            }
            break;
        case FX_X_HALFMOVE:
            fill(out, p * plane, plane, size, value_bits((double)pos->halfmove, s));
            break;
        case FX_X_HALFMOVE_SCALED: {
            uint32_t h = pos->halfmove < 100 ? pos->halfmove : 100;
            fill(out, p * plane, plane, size, value_bits(h / 100.0, s));
            break;
        }
        }
        p += (size_t)extra_planes(s->extra[k]);
    }
}

/* One plane that must hold a single value throughout: the value, or -1 with
 * err set (column = first element that differs). */
static int constant(const uint8_t *in, size_t first, size_t count, const fx_x_planes *s,
                    int plane_index, double *value, fx_error *err)
{
    double v = element(in + first * s->size, s);
    for (size_t k = 1; k < count; k++)
        if (element(in + (first + k) * s->size, s) != v)
            return fail(err, FX_X_E_NOT_CONSTANT, FX_X_F_PLANES, first + k,
                        (uint32_t)plane_index, 0);
    if (v != v)
        return fail(err, FX_X_E_NOT_CONSTANT, FX_X_F_PLANES, first, (uint32_t)plane_index, 0);
    *value = v;
    return 0;
}

static int flag_plane(const uint8_t *in, size_t first, size_t count, const fx_x_planes *s,
                      int plane_index, int *on, fx_error *err)
{
    double v;
    if (constant(in, first, count, s, plane_index, &v, err))
        return -1;
    if (v != 0.0 && v != 1.0)
        return fail(err, FX_X_E_VALUE, FX_X_F_PLANES, first, (uint32_t)plane_index, 0);
    *on = v == 1.0;
    return 0;
}

/* Element `index` must be 0 or 1: that, or -1 with err set. */
static int bit_at(const uint8_t *in, size_t index, const fx_x_planes *s, int plane_index,
                  fx_error *err)
{
    const uint8_t *at = in + index * s->size;
    if (s->kind != FX_X_FLOAT && s->size == 1 && at[0] <= 1)
        return at[0];
    double v = element(at, s);
    if (v == 0.0)
        return 0;
    if (v == 1.0)
        return 1;
    return fail(err, FX_X_E_VALUE, FX_X_F_PLANES, index, (uint32_t)plane_index, 0);
}

int fx_x_planes_read(const uint8_t *in, const fx_x_planes *s, fx_pos *pos,
                     unsigned *given, fx_error *err)
{
    const int w = s->width;
    const size_t plane = (size_t)FX_HEIGHT * w;
    const int pieces = piece_planes(s);
    uint8_t flags[4 + 2 * FX_MAX_WIDTH];
    size_t n_flags = 0;
    int on;
    *given = 0;

    /* The turn first: it says whether the board is mirrored. */
    size_t p = (size_t)pieces;
    for (int k = 0; k < s->n_extra; p += (size_t)extra_planes(s->extra[k]), k++) {
        if (s->extra[k] != FX_X_TURN)
            continue;
        if (flag_plane(in, p * plane, plane, s, (int)p, &on, err))
            return -1;
        pos->turn = (uint8_t)on;
        *given |= 1u << FX_X_TURN;
    }
    const int flip = s->flip && pos->turn == FX_BLACK;
    const uint8_t *code_of = CODE_OF[flip];
    const uint8_t *plane_of = PLANE_OF[flip];

    memset(pos->board, 0, sizeof pos->board);
    pos->width = (uint8_t)w;
    for (int k = 0; k < pieces; k++) {
        const uint8_t *at = in + (size_t)k * plane * s->size;
        for (size_t i = 0; i < plane; i++) {
            int bit;
            if (s->size == 1 && s->kind != FX_X_FLOAT && at[i] == 0)
                continue;
            bit = bit_at(in, k * plane + i, s, k, err);
            if (bit < 0)
                return -1;
            if (!bit)
                continue;
            int r = (int)(i / w), f = (int)(i % w);
            int sq = (flip ? FX_HEIGHT - 1 - r : r) * w + f;
            if (pos->board[sq])
                return fail(err, FX_X_E_OVERLAP, FX_X_F_PLANES, k * plane + i,
                            plane_of[pos->board[sq]], (uint32_t)k);
            pos->board[sq] = code_of[k];
        }
    }

    p = (size_t)pieces;
    for (int k = 0; k < s->n_extra; p += (size_t)extra_planes(s->extra[k]), k++) {
        switch (s->extra[k]) {
        case FX_X_CASTLING:
            for (int j = 0; j < 4; j++) {
                if (flag_plane(in, (p + j) * plane, plane, s, (int)(p + j), &on, err))
                    return -1;
                if (on)
                    flags[n_flags++] = (uint8_t)"KQkq"[flip ? j ^ 2 : j];
            }
            *given |= 1u << FX_X_CASTLING;
            break;
        case FX_X_CASTLING_ROOKS:
            for (size_t i = 0; i < plane; i++) {
                int bit = bit_at(in, p * plane + i, s, (int)p, err);
                if (bit < 0)
                    return -1;
                if (!bit)
                    continue;
                int r = (int)(i / w), f = (int)(i % w);
                if (r != 0 && r != FX_HEIGHT - 1)
                    return fail(err, FX_X_E_ROOK_MARK, FX_X_F_PLANES, p * plane + i,
                                (uint32_t)p, 0);
                int black = (r == FX_HEIGHT - 1) != flip;
                if (n_flags < sizeof flags)
                    flags[n_flags++] = (uint8_t)((black ? 'a' : 'A') + f);
            }
            *given |= 1u << FX_X_CASTLING_ROOKS;
            break;
        case FX_X_EN_PASSANT:
            pos->ep = FX_NONE;
            for (size_t i = 0; i < plane; i++) {
                int bit = bit_at(in, p * plane + i, s, (int)p, err);
                if (bit < 0)
                    return -1;
                if (!bit)
                    continue;
                if (pos->ep != FX_NONE)
                    return fail(err, FX_X_E_EP_MARKS, FX_X_F_PLANES, p * plane + i,
                                (uint32_t)p, 0);
                int r = (int)(i / w), f = (int)(i % w);
                pos->ep = (uint8_t)((flip ? FX_HEIGHT - 1 - r : r) * w + f);
            }
            *given |= 1u << FX_X_EN_PASSANT;
            break;
        case FX_X_HALFMOVE:
        case FX_X_HALFMOVE_SCALED: {
            double v;
            if (constant(in, p * plane, plane, s, (int)p, &v, err))
                return -1;
            if (s->extra[k] == FX_X_HALFMOVE_SCALED) {
                if (!(v >= 0.0 && v <= 1.0))
                    return fail(err, FX_X_E_COUNTER, FX_X_F_PLANES, p * plane, (uint32_t)p, 0);
                v = (double)(uint32_t)(v * 100.0 + 0.5);
            }
            if (!(v >= 0.0 && v <= (double)FX_MAX_COUNTER) || v != (double)(uint32_t)v)
                return fail(err, FX_X_E_COUNTER, FX_X_F_PLANES, p * plane, (uint32_t)p, 0);
            pos->halfmove = (uint32_t)v;
            *given |= 1u << s->extra[k];
            break;
        }
        }
    }
    if (*given & ((1u << FX_X_CASTLING) | (1u << FX_X_CASTLING_ROOKS)))
        fx_castling_from_flags(pos, flags, n_flags);
    return 0;
}

/* ------------------------------------------------------------ packed boards */

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

static inline uint64_t byte_swap64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_bswap64(v);
#else
    v = ((v & 0x00FF00FF00FF00FFull) << 8) | ((v >> 8) & 0x00FF00FF00FF00FFull);
    v = ((v & 0x0000FFFF0000FFFFull) << 16) | ((v >> 16) & 0x0000FFFF0000FFFFull);
    return (v << 32) | (v >> 32);
#endif
}

static inline void put_be64(uint8_t *out, uint64_t v)
{
    v = byte_swap64(v);
    memcpy(out, &v, sizeof v);
}

static inline uint64_t get_be64(const uint8_t *in)
{
    return byte_swap64(word_at(in));
}

/* Square of the pawn that made the stored en-passant target, or -1. */
static int pushed_pawn(const fx_pos *pos, fx_ep_mode mode)
{
    if (pos->ep == FX_NONE || !fx_ep_keep(pos, mode))
        return -1;
    return pos->turn == FX_WHITE ? pos->ep - 8 : pos->ep + 8;
}

/* The bytes of one rank (byte j = square j of the rank) whose occupied
 * squares are the bits of m are compressed (the occupied bytes moved down to
 * bytes 0, 1, ...) in three steps that move bytes by 1, 2 and 4 places: the
 * byte of the j-th occupied square moves by its distance j - (occupied
 * squares below it), one binary digit per step, lowest first, which never
 * lands on a byte that stays (Hacker's Delight, 7-4).  step[i] has 0xFF on
 * the bytes that move in step i, where they stand before it.  Running the
 * steps backwards expands a compressed rank again.  Filled by fx_x_init. */
typedef struct {
    uint64_t step[3];
    uint64_t bytes;     /* 0xFF on the occupied squares */
} rank_moves;
static rank_moves RANK_MOVES[256];
static uint8_t RANK_COUNT[256];

void fx_x_init(void)
{
    for (int m = 0; m < 256; m++) {
        rank_moves mv = {{0, 0, 0}, 0};
        int below = 0;
        for (int j = 0; j < 8; j++) {
            if (!((m >> j) & 1))
                continue;
            int distance = j - below++, at = j;
            mv.bytes |= 0xFFull << (8 * j);
            for (int i = 0; i < 3; i++)
                if ((distance >> i) & 1) {
                    mv.step[i] |= 0xFFull << (8 * at);
                    at -= 1 << i;
                }
        }
        RANK_MOVES[m] = mv;
        RANK_COUNT[m] = (uint8_t)below;
    }
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

/* The nibble of every square of an 8x8 board whose codes are 0..12 (empty
 * squares get 0), before the special values 12..14.  Returns the
 * occupancy; *black_king is set when a black king is on the board. */
static uint64_t square_nibbles(const uint8_t *board, int black_to_move, uint8_t nib[SQUARES8],
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
        __m128i n = _mm_sub_epi8(_mm_add_epi8(v, v), _mm_add_epi8(two, _mm_and_si128(black, eleven)));
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
static void pack_nibbles(uint8_t *codes, int k, uint8_t *out)
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
static int pack_board(const fx_pos *pos, int pushed, uint64_t rooks, int max_pieces,
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
        uint64_t x = compress_rank(word_at(nib + 8 * r), &RANK_MOVES[m]);
        memcpy(codes + k, &x, sizeof x);
        k += RANK_COUNT[m];
    }
    put_be64(out, occupied);
    if (k <= max_pieces)
        pack_nibbles(codes, k, out + 8);
    return k;
}

static size_t put_leb128(uint8_t *out, uint64_t v)
{
    size_t n = 0;
    while (v > 127) {
        out[n++] = (uint8_t)(v | 128);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
}

static int check_prefix(const fx_pos *pos, fx_error *err)
{
    if (pos->prefix != FX_PREFIX_NONE && any_right(pos))
        return fail(err, FX_X_E_PREFIX, FX_F_RECORD_PREFIX, 0, pos->prefix, 0);
    return 0;
}

int fx_x_lichess_pack(const fx_pos *pos, fx_ep_mode ep, uint8_t *out, fx_error *err)
{
    int black_king;
    if (need_width(pos, 8, err) || check_prefix(pos, err))
        return -1;
    int n = pack_board(pos, pushed_pawn(pos, ep), castling_rook_bits8(pos), 64, out, &black_king);
    size_t len = 8 + (size_t)(n + 1) / 2;
    uint64_t ply = 2 * (uint64_t)(pos->fullmove - 1) + pos->turn;
    int broken_turn = pos->turn == FX_BLACK && !black_king;
    if (pos->halfmove > 0 || ply > 1 || broken_turn)
        len += put_leb128(out + len, pos->halfmove);
    if (ply > 1 || broken_turn)
        len += put_leb128(out + len, ply);
    while (len && out[len - 1] == 0)
        len--;
    return (int)len;
}

/* Read a little-endian base-128 number of at most 5 bytes at *at. */
static int get_leb128(const uint8_t *in, size_t *at, uint64_t *value, fx_error *err)
{
    uint64_t v = 0;
    size_t start = *at;
    for (int k = 0; k < 5; k++) {
        uint8_t byte = in[(*at)++];
        v |= (uint64_t)(byte & 127) << (7 * k);
        if (!(byte & 128)) {
            *value = v;
            return 0;
        }
    }
    return fail(err, FX_X_E_VARINT, FX_X_F_LICHESS, start, 0, 0);
}

/* The piece codes (NIBBLE_CODE) of the n nibbles at `in` into codes (room
 * for n rounded up to 32).  Returns the pieces (bit k: piece k) whose nibble
 * is 12..14; *fifteen gets those whose nibble is 15.  The vector version
 * reads 16 bytes per 32 nibbles. */
static uint64_t nibble_codes(const uint8_t *in, int n, uint8_t *codes, uint64_t *fifteen)
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
static uint64_t marked_squares(const uint8_t *board)
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
static int read_marks(fx_pos *pos, uint64_t occupied, int stockfish, uint8_t *flags,
                      size_t *n_flags, fx_error *err)
{
    const uint32_t field = stockfish ? FX_X_F_STOCKFISH : FX_X_F_LICHESS;
    for (uint64_t b = marked_squares(pos->board); b; b &= b - 1) {
        int sq = lowest(b), rank = sq / 8;
        uint8_t v = (uint8_t)(pos->board[sq] - MARK(0));
        size_t at = 8 + (size_t)(count(occupied & ((1ull << sq) - 1)) >> 1);
        if (v == 12) {
            if (rank != 3 && rank != 4)
                return fail(err, FX_X_E_NIBBLE, field, at, v, (uint32_t)sq);
            if (pos->ep != FX_NONE)
                return fail(err, FX_X_E_EP_MARKS, field, at, (uint32_t)sq, 0);
            pos->board[sq] = rank == 3 ? FX_WP : FX_BP;
            pos->ep = (uint8_t)(rank == 3 ? sq - 8 : sq + 8);
            continue;
        }
        int black = v == 14;
        int ok = stockfish ? (sq == (black ? 56 : 0) || sq == (black ? 63 : 7))
                           : rank == (black ? FX_HEIGHT - 1 : 0);
        if (!ok)
            return fail(err, FX_X_E_NIBBLE, field, at, v, (uint32_t)sq);
        pos->board[sq] = black ? FX_BR : FX_WR;
        flags[(*n_flags)++] = (uint8_t)((black ? 'a' : 'A') + sq % 8);
    }
    return 0;
}

/* Unpack the n pieces of the occupancy at `in` (both formats) into a cleared
 * pos (its board is written whole); castling rook files are collected as castling flags.  `in` is
 * readable up to in + 8 + 16 * ceil(n / 32). */
static int unpack_board(const uint8_t *in, uint64_t occupied, int n, fx_pos *pos,
                        int stockfish, uint8_t *flags, size_t *n_flags, fx_error *err)
{
    uint8_t codes[SQUARES8 + 32];
    uint64_t fifteen, none = 0;
    uint64_t marks = nibble_codes(in + 8, n, codes, &fifteen);
    memcpy(codes + n, &none, sizeof none);     /* expand_rank reads past n */
    int k = 0;
    for (int r = 0; r < FX_HEIGHT; r++) {
        unsigned m = (unsigned)(occupied >> (8 * r)) & 0xFF;
        uint64_t x = expand_rank(word_at(codes + k), &RANK_MOVES[m]);
        memcpy(pos->board + 8 * r, &x, sizeof x);
        k += RANK_COUNT[m];
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
static void settle_unpacked(fx_pos *pos, const uint8_t *flags, size_t n_flags)
{
    if (n_flags)
        fx_castling_from_flags(pos, flags, n_flags);
    if (pos->ep != FX_NONE && !fx_ep_valid(pos))
        pos->ep = FX_NONE;
}

int fx_x_lichess_unpack(const uint8_t *in, size_t len, fx_pos *pos, fx_error *err)
{
    /* Missing bytes at the end read as zero. */
    uint8_t buf[FX_X_LICHESS_READ_MAX + 16];
    uint8_t flags[16];
    size_t n_flags, at;
    uint64_t halfmove, ply;
    if (len > FX_X_LICHESS_READ_MAX)
        return fail(err, FX_X_E_LENGTH, FX_X_F_LICHESS, FX_X_LICHESS_READ_MAX,
                    (uint32_t)(len > 0xFFFFFFFFu ? 0xFFFFFFFFu : len), FX_X_LICHESS_READ_MAX);
    memset(buf, 0, sizeof buf);
    if (len)
        memcpy(buf, in, len);
    clear_pos(pos, 8);
    uint64_t occupied = get_be64(buf);
    int n = count(occupied);
    if (unpack_board(buf, occupied, n, pos, 0, flags, &n_flags, err))
        return -1;
    at = 8 + (size_t)(n + 1) / 2;
    size_t start = at;
    if (get_leb128(buf, &at, &halfmove, err))
        return -1;
    if (halfmove > FX_MAX_COUNTER)
        return fail(err, FX_X_E_RANGE, FX_X_F_LICHESS, start, 0, 0);
    start = at;
    if (get_leb128(buf, &at, &ply, err))
        return -1;
    if (ply / 2 + 1 > FX_MAX_COUNTER)
        return fail(err, FX_X_E_RANGE, FX_X_F_LICHESS, start, 1, 0);
    uint8_t variant = buf[at];
    if (variant != 0 && variant != 2 && variant != 3)
        return fail(err, FX_X_E_VARIANT, FX_X_F_LICHESS, at, variant, 0);
    for (at++; at < len; at++)
        if (buf[at])
            return fail(err, FX_X_E_TRAILING, FX_X_F_LICHESS, at, buf[at], 0);
    pos->halfmove = (uint32_t)halfmove;
    pos->fullmove = (uint32_t)(ply / 2 + 1);
    if (ply & 1)
        pos->turn = FX_BLACK;
    settle_unpacked(pos, flags, n_flags);
    return 0;
}

int64_t fx_x_frames(const uint8_t *data, size_t len, size_t max_n, int64_t *starts,
                    int64_t *ends, uint8_t *nulls, size_t *used)
{
    size_t at = 0, n = 0;
    while (n < max_n && at < len) {
        uint8_t size = data[at];
        if (size == FX_X_FRAME_NULL) {
            starts[n] = ends[n] = (int64_t)(at + 1);
            nulls[n++] = 1;
            at++;
            continue;
        }
        if (size > FX_X_LICHESS_READ_MAX) {
            *used = at;
            return -1;
        }
        if (len - at - 1 < size)
            break;
        starts[n] = (int64_t)(at + 1);
        ends[n] = (int64_t)(at + 1 + size);
        nulls[n++] = 0;
        at += 1 + (size_t)size;
    }
    *used = at;
    return (int64_t)n;
}

int fx_x_stockfish_pack(const fx_pos *pos, fx_ep_mode ep, uint8_t *out, fx_error *err)
{
    int black_king;
    if (need_width(pos, 8, err) || check_prefix(pos, err))
        return -1;
    for (int slot = 0; slot < 4; slot++) {
        uint8_t f = pos->castling[slot];
        if (f != FX_NONE && f != 0 && f != 7)
            return fail(err, FX_X_E_CASTLING_ROOK, FX_F_RECORD_CASTLING, (uint64_t)slot, f, 0);
    }
    memset(out, 0, FX_X_STOCKFISH_SIZE);
    int n = pack_board(pos, pushed_pawn(pos, ep), castling_rook_bits8(pos), 32, out, &black_king);
    if (n > 32)
        return fail(err, FX_X_E_TOO_MANY, FX_F_RECORD_BOARD, 0, (uint32_t)n, 32);
    if (pos->turn == FX_BLACK && !black_king)
        return fail(err, FX_X_E_NO_BLACK_KING, FX_F_RECORD_TURN, 0, 0, 0);
    return 0;
}

int fx_x_stockfish_unpack(const uint8_t *in, fx_pos *pos, fx_error *err)
{
    uint8_t flags[16];
    size_t n_flags;
    uint64_t occupied = get_be64(in);
    int n = count(occupied);
    clear_pos(pos, 8);
    if (n > 32)
        return fail(err, FX_X_E_TOO_MANY, FX_X_F_STOCKFISH, 0, (uint32_t)n, 32);
    if (unpack_board(in, occupied, n, pos, 1, flags, &n_flags, err))
        return -1;
    settle_unpacked(pos, flags, n_flags);
    return 0;
}

/* ------------------------------------------------------------ batches */

/* Row i failed (its output is already that of a failed row): note it, and
 * stop when the row loop's conventions say so (batch.h). */
#define FAILED(i)                                                        \
    do {                                                                 \
        int why_ = fx_batch_fail(opts, res, (int64_t)(i), 0, 0, &err);   \
        if (why_ != FX_STOP_DONE)                                        \
            return fx_batch_stop(res, why_, (i));                        \
    } while (0)

size_t fx_x_bitboards_batch(const fx_x_records *recs, size_t n, uint64_t *out,
                            const fx_batch_opts *opts, fx_batch_out *res)
{
    fx_pos pos;
    fx_error err;
    for (size_t i = 0; i < n; i++) {
        if (fx_x_load(recs, i, &pos, &err) || need_width(&pos, 8, &err)) {
            memset(out + 12 * i, 0, 12 * sizeof *out);
            FAILED(i);
            continue;
        }
        fx_x_bitboards(&pos, out + 12 * i);
    }
    return fx_batch_stop(res, FX_STOP_DONE, n);
}

size_t fx_x_planes_batch(const fx_x_records *recs, size_t n, const fx_x_planes *spec,
                         uint8_t *out, const fx_batch_opts *opts, fx_batch_out *res)
{
    fx_pos pos;
    fx_error err;
    size_t bytes = fx_x_planes_bytes(spec);
    for (size_t i = 0; i < n; i++) {
        if (fx_x_load(recs, i, &pos, &err) || need_width(&pos, spec->width, &err)) {
            memset(out + bytes * i, 0, bytes);
            FAILED(i);
            continue;
        }
        fx_x_planes_write(&pos, spec, out + bytes * i);
    }
    return fx_batch_stop(res, FX_STOP_DONE, n);
}

size_t fx_x_stockfish_pack_batch(const fx_x_records *recs, size_t n, uint8_t *out,
                                 const fx_batch_opts *opts, fx_batch_out *res)
{
    fx_pos pos;
    fx_error err;
    for (size_t i = 0; i < n; i++) {
        uint8_t *dest = out + FX_X_STOCKFISH_SIZE * i;
        if (fx_x_load(recs, i, &pos, &err)
            || fx_x_stockfish_pack(&pos, (fx_ep_mode)opts->ep, dest, &err)) {
            memset(dest, 0, FX_X_STOCKFISH_SIZE);
            FAILED(i);
        }
    }
    return fx_batch_stop(res, FX_STOP_DONE, n);
}

size_t fx_x_lichess_pack_batch(const fx_x_records *recs, size_t n, uint8_t *data,
                               int64_t *ends, uint8_t *valid, const fx_batch_opts *opts,
                               fx_batch_out *res)
{
    fx_pos pos;
    fx_error err;
    int64_t at = 0;
    for (size_t i = 0; i < n; i++) {
        int len = -1;
        if (fx_x_load(recs, i, &pos, &err) == 0)
            len = fx_x_lichess_pack(&pos, (fx_ep_mode)opts->ep, data + at, &err);
        valid[i] = len >= 0;
        ends[i] = at + (len > 0 ? len : 0);
        if (len < 0)
            FAILED(i);
        at = ends[i];
    }
    return fx_batch_stop(res, FX_STOP_DONE, n);
}

size_t fx_x_from_bitboards_batch(const uint64_t *bb, size_t n, const fx_x_defaults *d,
                                 uint8_t *records, const fx_batch_opts *opts,
                                 fx_batch_out *res)
{
    fx_pos pos;
    fx_error err;
    for (size_t i = 0; i < n; i++) {
        clear_pos(&pos, 8);
        defaults_before(&pos, d, i);
        if (fx_x_board_from_bitboards(bb + 12 * i, &pos, &err) == 0) {
            default_castling(&pos, d, i);
            if (fx_check_record(&pos, 8, &err) == 0) {
                store(&pos, records + sizeof(fx_rec8) * i, 0);
                continue;
            }
        }
        memset(records + sizeof(fx_rec8) * i, 0, sizeof(fx_rec8));
        FAILED(i);
    }
    return fx_batch_stop(res, FX_STOP_DONE, n);
}

size_t fx_x_from_planes_batch(const uint8_t *planes, size_t n, const fx_x_planes *spec,
                              const fx_x_defaults *d, uint8_t *records,
                              const fx_batch_opts *opts, fx_batch_out *res)
{
    fx_pos pos;
    fx_error err;
    unsigned given;
    int wide = opts->wide;
    size_t bytes = fx_x_planes_bytes(spec);
    size_t stride = wide ? sizeof(fx_pos) : sizeof(fx_rec8);
    const unsigned castling = (1u << FX_X_CASTLING) | (1u << FX_X_CASTLING_ROOKS);
    for (size_t i = 0; i < n; i++) {
        clear_pos(&pos, spec->width);
        defaults_before(&pos, d, i);
        if (fx_x_planes_read(planes + bytes * i, spec, &pos, &given, &err) == 0) {
            if (!(given & castling))
                default_castling(&pos, d, i);
            if (fx_check_record(&pos, wide ? FX_MAX_WIDTH : 8, &err) == 0) {
                store(&pos, records + stride * i, wide);
                continue;
            }
        }
        memset(records + stride * i, 0, stride);
        FAILED(i);
    }
    return fx_batch_stop(res, FX_STOP_DONE, n);
}

size_t fx_x_lichess_unpack_batch(const uint8_t *data, const int64_t *starts,
                                 const int64_t *ends, const uint8_t *nulls, size_t n,
                                 uint8_t *records, const fx_batch_opts *opts,
                                 fx_batch_out *res)
{
    fx_pos pos;
    fx_error err;
    for (size_t i = 0; i < n; i++) {
        uint8_t *dest = records + sizeof(fx_rec8) * i;
        if (nulls && nulls[i]) {
            memset(dest, 0, sizeof(fx_rec8));
            continue;
        }
        if (fx_x_lichess_unpack(data + starts[i], (size_t)(ends[i] - starts[i]), &pos, &err)) {
            memset(dest, 0, sizeof(fx_rec8));
            FAILED(i);
            continue;
        }
        store(&pos, dest, 0);
    }
    return fx_batch_stop(res, FX_STOP_DONE, n);
}

size_t fx_x_stockfish_unpack_batch(const uint8_t *data, size_t n, const fx_x_defaults *d,
                                   uint8_t *records, const fx_batch_opts *opts,
                                   fx_batch_out *res)
{
    fx_pos pos;
    fx_error err;
    for (size_t i = 0; i < n; i++) {
        uint8_t *dest = records + sizeof(fx_rec8) * i;
        if (fx_x_stockfish_unpack(data + FX_X_STOCKFISH_SIZE * i, &pos, &err) == 0) {
            if (d->halfmove)
                pos.halfmove = d->halfmove[i * d->halfmove_step];
            if (d->fullmove)
                pos.fullmove = d->fullmove[i * d->fullmove_step];
            store(&pos, dest, 0);
            continue;
        }
        memset(dest, 0, sizeof(fx_rec8));
        FAILED(i);
    }
    return fx_batch_stop(res, FX_STOP_DONE, n);
}
