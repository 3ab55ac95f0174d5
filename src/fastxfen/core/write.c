/* The writer: an fx_pos into canonical text. */
#include <string.h>

#include "tables.h"

static uint8_t *write_placement(const fx_pos *pos, uint8_t *o)
{
    int w = pos->width;
    for (int r = FX_HEIGHT - 1; r >= 0; r--) {
        const uint8_t *rank = pos->board + r * w;
        int run = 0;
        for (int f = 0; f < w; f++) {
            uint8_t code = rank[f];
            if (code == FX_EMPTY) {
                run++;
                continue;
            }
            if (run) {
                if (run == 10) {
                    *o++ = '1';
                    *o++ = '0';
                } else {
                    *o++ = (uint8_t)('0' + run);
                }
                run = 0;
            }
            *o++ = (uint8_t)fx_piece_letter[code];
        }
        if (run == 10) {
            *o++ = '1';
            *o++ = '0';
        } else if (run) {
            *o++ = (uint8_t)('0' + run);
        }
        if (r)
            *o++ = '/';
    }
    return o;
}

/* Is there a rook of `color` on its back rank further out than `file` on the
 * side given by `h_side`? */
static int outer_rook(const fx_pos *pos, int color, int file, int h_side)
{
    const uint8_t *rank = pos->board + (color ? FX_HEIGHT - 1 : 0) * pos->width;
    uint8_t rook = FX_ROOK_OF(color);
    int step = h_side ? 1 : -1;
    for (int f = file + step; f >= 0 && f < pos->width; f += step)
        if (rank[f] == rook)
            return 1;
    return 0;
}

static uint8_t *write_castling(const fx_pos *pos, fx_castling_mode mode, uint8_t *o)
{
    uint8_t *start = o;
    if (pos->prefix != FX_PREFIX_NONE)
        *o++ = pos->prefix == FX_PREFIX_S ? 's' : 'm';
    uint8_t *flags = o;
    for (int color = 0; color < 2; color++) {
        uint8_t lower = color ? 0x20 : 0;
        for (int side = 0; side < 2; side++) {
            uint8_t f = pos->castling[2 * color + side];
            if (f == FX_NONE)
                continue;
            uint8_t letter = (uint8_t)('A' + f);
            if (mode == FX_CASTLING_XFEN && !outer_rook(pos, color, f, side == 0))
                letter = side == 0 ? 'K' : 'Q';
            *o++ = letter | lower;
        }
    }
    if (o == flags) {
        o = start;
        *o++ = '-';
    }
    return o;
}

static uint8_t *write_u32(uint32_t v, uint8_t *o)
{
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

size_t fx_write(const fx_pos *pos, fx_castling_mode castling, fx_ep_mode ep,
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
    *o++ = ' ';
    o = write_u32(pos->halfmove, o);
    *o++ = ' ';
    o = write_u32(pos->fullmove, o);
    return (size_t)(o - out);
}
