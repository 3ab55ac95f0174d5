/* Plane tensors of any element type, 8x8 and 10x8, and back (export.h). */
#include <math.h>

#include "shared.h"

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
            return fx_x_fail(err, FX_X_E_NOT_CONSTANT, FX_X_F_PLANES, first + k,
                             (uint32_t)plane_index, 0);
    if (v != v)
        return fx_x_fail(err, FX_X_E_NOT_CONSTANT, FX_X_F_PLANES, first, (uint32_t)plane_index, 0);
    *value = v;
    return 0;
}

static int flag_plane(const uint8_t *in, size_t first, size_t count, const fx_x_planes *s,
                      int plane_index, int *on, fx_error *err)
{
    double v = 0;
    if (constant(in, first, count, s, plane_index, &v, err))
        return -1;
    if (v != 0.0 && v != 1.0)
        return fx_x_fail(err, FX_X_E_VALUE, FX_X_F_PLANES, first, (uint32_t)plane_index, 0);
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
    return fx_x_fail(err, FX_X_E_VALUE, FX_X_F_PLANES, index, (uint32_t)plane_index, 0);
}

/* The turn plane, read first: it says whether the board is mirrored. */
static int read_turn(const uint8_t *in, const fx_x_planes *s, fx_pos *pos, unsigned *given,
                     fx_error *err)
{
    const size_t plane = (size_t)FX_HEIGHT * s->width;
    size_t p = (size_t)piece_planes(s);
    int on = 0;
    for (int k = 0; k < s->n_extra; p += (size_t)extra_planes(s->extra[k]), k++) {
        if (s->extra[k] != FX_X_TURN)
            continue;
        if (flag_plane(in, p * plane, plane, s, (int)p, &on, err))
            return -1;
        pos->turn = (uint8_t)on;
        *given |= 1u << FX_X_TURN;
    }
    return 0;
}

/* The piece planes into pos->board (cleared first). */
static int read_pieces(const uint8_t *in, const fx_x_planes *s, int flip, fx_pos *pos,
                       fx_error *err)
{
    const int w = s->width;
    const size_t plane = (size_t)FX_HEIGHT * w;
    const uint8_t *code_of = CODE_OF[flip];
    const uint8_t *plane_of = PLANE_OF[flip];
    const int pieces = piece_planes(s);
    const int bytes = s->size == 1 && s->kind != FX_X_FLOAT;  /* a 0 byte is 0 */
    memset(pos->board, 0, sizeof pos->board);
    pos->width = (uint8_t)w;
    for (int k = 0; k < pieces; k++) {
        const uint8_t *at = in + (size_t)k * plane * s->size;
        for (size_t i = 0; i < plane; i++) {
            int bit;
            if (bytes && i % 8 == 0 && word_at(at + i) == 0) {
                i += 7;  /* eight empty squares (plane is a multiple of 8) */
                continue;
            }
            if (bytes && at[i] == 0)
                continue;
            bit = bit_at(in, k * plane + i, s, k, err);
            if (bit < 0)
                return -1;
            if (!bit)
                continue;
            int r = (int)(i / w), f = (int)(i % w);
            int sq = (flip ? FX_HEIGHT - 1 - r : r) * w + f;
            if (pos->board[sq])
                return fx_x_fail(err, FX_X_E_OVERLAP, FX_X_F_PLANES, k * plane + i,
                                 plane_of[pos->board[sq]], (uint32_t)k);
            pos->board[sq] = code_of[k];
        }
    }
    return 0;
}

/* The castling rooks' marks of plane p as castling flags. */
static int read_castling_rooks(const uint8_t *in, size_t p, const fx_x_planes *s, int flip,
                               uint8_t *flags, size_t *n_flags, size_t room, fx_error *err)
{
    const int w = s->width;
    const size_t plane = (size_t)FX_HEIGHT * w;
    for (size_t i = 0; i < plane; i++) {
        int bit = bit_at(in, p * plane + i, s, (int)p, err);
        if (bit < 0)
            return -1;
        if (!bit)
            continue;
        int r = (int)(i / w), f = (int)(i % w);
        if (r != 0 && r != FX_HEIGHT - 1)
            return fx_x_fail(err, FX_X_E_ROOK_MARK, FX_X_F_PLANES, p * plane + i, (uint32_t)p, 0);
        int black = (r == FX_HEIGHT - 1) != flip;
        if (*n_flags < room)
            flags[(*n_flags)++] = (uint8_t)((black ? 'a' : 'A') + f);
    }
    return 0;
}

/* The en-passant mark of plane p (at most one) into pos->ep. */
static int read_en_passant(const uint8_t *in, size_t p, const fx_x_planes *s, int flip,
                           fx_pos *pos, fx_error *err)
{
    const int w = s->width;
    const size_t plane = (size_t)FX_HEIGHT * w;
    pos->ep = FX_NONE;
    for (size_t i = 0; i < plane; i++) {
        int bit = bit_at(in, p * plane + i, s, (int)p, err);
        if (bit < 0)
            return -1;
        if (!bit)
            continue;
        if (pos->ep != FX_NONE)
            return fx_x_fail(err, FX_X_E_EP_MARKS, FX_X_F_PLANES, p * plane + i, (uint32_t)p, 0);
        int r = (int)(i / w), f = (int)(i % w);
        pos->ep = (uint8_t)((flip ? FX_HEIGHT - 1 - r : r) * w + f);
    }
    return 0;
}

/* The halfmove clock of plane p (kind FX_X_HALFMOVE or _SCALED). */
static int read_halfmove(const uint8_t *in, size_t p, const fx_x_planes *s, uint8_t kind,
                         fx_pos *pos, fx_error *err)
{
    const size_t plane = (size_t)FX_HEIGHT * s->width;
    double v = 0;
    if (constant(in, p * plane, plane, s, (int)p, &v, err))
        return -1;
    if (kind == FX_X_HALFMOVE_SCALED) {
        if (!(v >= 0.0 && v <= 1.0))
            return fx_x_fail(err, FX_X_E_COUNTER, FX_X_F_PLANES, p * plane, (uint32_t)p, 0);
        v = (double)(uint32_t)(v * 100.0 + 0.5);
    }
    if (!(v >= 0.0 && v <= (double)FX_MAX_COUNTER) || v != (double)(uint32_t)v)
        return fx_x_fail(err, FX_X_E_COUNTER, FX_X_F_PLANES, p * plane, (uint32_t)p, 0);
    pos->halfmove = (uint32_t)v;
    return 0;
}

int fx_x_planes_read(const uint8_t *in, const fx_x_planes *s, fx_pos *pos,
                     unsigned *given, fx_error *err)
{
    const size_t plane = (size_t)FX_HEIGHT * s->width;
    uint8_t flags[4 + 2 * FX_MAX_WIDTH];
    size_t n_flags = 0;
    int on = 0;
    *given = 0;
    if (read_turn(in, s, pos, given, err))
        return -1;
    const int flip = s->flip && pos->turn == FX_BLACK;
    if (read_pieces(in, s, flip, pos, err))
        return -1;

    size_t p = (size_t)piece_planes(s);
    for (int k = 0; k < s->n_extra; p += (size_t)extra_planes(s->extra[k]), k++) {
        switch (s->extra[k]) {
        case FX_X_CASTLING:
            for (int j = 0; j < 4; j++) {
                if (flag_plane(in, (p + j) * plane, plane, s, (int)(p + j), &on, err))
                    return -1;
                if (on)
                    flags[n_flags++] = (uint8_t)"KQkq"[flip ? j ^ 2 : j];
            }
            break;
        case FX_X_CASTLING_ROOKS:
            if (read_castling_rooks(in, p, s, flip, flags, &n_flags, sizeof flags, err))
                return -1;
            break;
        case FX_X_EN_PASSANT:
            if (read_en_passant(in, p, s, flip, pos, err))
                return -1;
            break;
        case FX_X_HALFMOVE:
        case FX_X_HALFMOVE_SCALED:
            if (read_halfmove(in, p, s, s->extra[k], pos, err))
                return -1;
            break;
        default:  /* the turn, read first */
            continue;
        }
        *given |= 1u << s->extra[k];
    }
    if (*given & ((1u << FX_X_CASTLING) | (1u << FX_X_CASTLING_ROOKS)))
        fx_castling_from_flags(pos, flags, n_flags);
    return 0;
}

size_t fx_x_planes_batch(const fx_x_records *recs, size_t n, const fx_x_planes *spec,
                         uint8_t *out, const fx_batch_opts *opts, fx_batch_out *res)
{
    fx_pos pos;
    fx_error err;
    size_t bytes = fx_x_planes_bytes(spec);
    for (size_t i = 0; i < n; i++) {
        if (load_record(recs, i, &pos, &err) || need_width(&pos, spec->width, &err)) {
            memset(out + bytes * i, 0, bytes);
            FAILED(i);
            continue;
        }
        fx_x_planes_write(&pos, spec, out + bytes * i);
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
