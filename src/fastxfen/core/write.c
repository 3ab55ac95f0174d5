/* The writer: an fx_pos into canonical text. */
#include <string.h>

#include "readers/readers.h"

uint8_t fx_rank_text[256][8];
uint8_t fx_rank_len[256];

void fx_init_tables(void)
{
    fx_init_parse_tables();
    for (int mask = 0; mask < 256; mask++) {
        int n = 0, run = 0;
        for (int f = 0; f < 8; f++) {
            if (mask >> f & 1) {
                if (run)
                    fx_rank_text[mask][n++] = (uint8_t)('0' + run);
                fx_rank_text[mask][n++] = (uint8_t)(0x80 | f);
                run = 0;
            } else {
                run++;
            }
        }
        if (run)
            fx_rank_text[mask][n++] = (uint8_t)('0' + run);
        fx_rank_len[mask] = (uint8_t)n;
    }
}

/* Bytes of x that are not 0, as a bit per byte (bit f = byte f). */
static unsigned occupied(uint64_t x)
{
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
    uint64_t high = ((x & low7) + low7) | x;
    return (unsigned)((((high >> 7) & 0x0101010101010101ull) * 0x0102040810204080ull) >> 56);
}

static uint8_t *write_rank8(const uint8_t *rank, uint8_t *o)
{
    uint64_t word;
    memcpy(&word, rank, 8);
    unsigned mask = occupied(word);
    const uint8_t *t = fx_rank_text[mask];
    for (int j = 0; j < 8; j++) {  /* fixed trip count; unused bytes are overwritten */
        uint8_t c = t[j];
        uint8_t piece = (uint8_t)-(c >> 7);  /* 0xFF where the byte is a piece */
        o[j] = (uint8_t)((fx_piece_letter[rank[c & 7]] & piece) | (c & ~piece));
    }
    return o + fx_rank_len[mask];
}

static uint8_t *write_rank(const uint8_t *rank, int width, uint8_t *o)
{
    int run = 0;
    for (int f = 0; f < width; f++) {
        uint8_t code = rank[f];
        if (code == FX_EMPTY) {
            run++;
            continue;
        }
        if (run == 10) {
            *o++ = '1';
            *o++ = '0';
        } else if (run) {
            *o++ = (uint8_t)('0' + run);
        }
        run = 0;
        *o++ = (uint8_t)fx_piece_letter[code];
    }
    if (run == 10) {
        *o++ = '1';
        *o++ = '0';
    } else if (run) {
        *o++ = (uint8_t)('0' + run);
    }
    return o;
}

static uint8_t *write_placement(const fx_pos *pos, uint8_t *o)
{
    int w = pos->width;
    size_t n;
    if (w == 8 && fx_reader.write8 && (n = fx_reader.write8(pos->board, o)))
        return o + n;
    for (int r = FX_HEIGHT - 1; r >= 0; r--) {
        const uint8_t *rank = pos->board + r * w;
        o = w == 8 ? write_rank8(rank, o) : write_rank(rank, w, o);
        *o = '/';
        o += r != 0;
    }
    return o;
}

/* The castling field.  Each of the four slots writes its letter and moves
 * on only when it holds a right, so the bytes of the field decide no
 * branch (a slot's letter is computed, then kept or overwritten). */
static uint8_t *write_castling(const fx_pos *pos, fx_castling_mode mode, uint8_t *o)
{
    uint8_t *start = o;
    if (pos->prefix != FX_PREFIX_NONE)
        *o++ = pos->prefix == FX_PREFIX_S ? 's' : 'm';
    uint8_t *flags = o;
    /* X-FEN names a rook by its file only when a rook of the color stands
     * further out on its side; Shredder-FEN always does */
    int files = mode != FX_CASTLING_XFEN;
    for (int color = 0; color < 2; color++) {
        uint8_t lower = color ? 0x20 : 0;
        uint8_t h = pos->castling[2 * color], a = pos->castling[2 * color + 1];
        uint32_t rooks = fx_back_rank_rooks(pos, color);
        int h_file = files | (rooks >> (h & 31) >> 1 != 0);
        int a_file = files | ((rooks & ((1u << (a & 31)) - 1)) != 0);
        *o = (uint8_t)((h_file ? 'A' + h : 'K') | lower);
        o += h != FX_NONE;
        *o = (uint8_t)((a_file ? 'A' + a : 'Q') | lower);
        o += a != FX_NONE;
    }
    int none = o == flags;
    o = none ? start : o;
    *o = '-';
    return o + none;
}

static uint8_t *write_u32(uint32_t v, uint8_t *o)
{
    if (v < 10) {  /* most counters: no loop */
        *o = (uint8_t)('0' + v);
        return o + 1;
    }
    if (v < 100) {
        o[0] = (uint8_t)('0' + v / 10);
        o[1] = (uint8_t)('0' + v % 10);
        return o + 2;
    }
    uint8_t digits[10];
    int n = 0;
    do {
        digits[n++] = (uint8_t)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *o++ = digits[--n];
    return o;
}

size_t fx_write(const fx_pos *pos, fx_castling_mode castling, fx_ep_mode ep, int fields,
                const uint8_t *placement, size_t placement_len, uint8_t *out)
{
    uint8_t *o = out;
    if (placement) {
        memcpy(o, placement, placement_len);
        o += placement_len;
    } else {
        o = write_placement(pos, o);
    }
    *o++ = ' ';
    *o++ = pos->turn ? 'b' : 'w';
    *o++ = ' ';
    o = write_castling(pos, castling, o);
    *o++ = ' ';
    if (fx_ep_keep(pos, ep)) {
        *o++ = (uint8_t)('a' + pos->ep % pos->width);
        *o++ = (uint8_t)('1' + pos->ep / pos->width);
    } else {
        *o++ = '-';
    }
    if (fields == 5 || fields == 6) {
        *o++ = ' ';
        o = write_u32(pos->halfmove, o);
    }
    if (fields == 6) {
        *o++ = ' ';
        o = write_u32(pos->fullmove, o);
    }
    return (size_t)(o - out);
}
