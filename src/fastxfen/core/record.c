/* Records handed in by users: conversion between the two public layouts and
 * the checks decode applies before writing text. */
#include <stddef.h>
#include <string.h>

#include "tables.h"

/* Records are read and written as bytes: a user's array may hold them at
 * any address (a field of a packed structured array, a buffer at an odd
 * offset), so no fx_rec8 member is accessed through them. */
void fx_pos_to_rec8(const fx_pos *pos, void *rec)
{
    uint8_t *dest = rec;
    memcpy(dest, pos->board, 64);
    memcpy(dest + offsetof(fx_rec8, width), &pos->width,
           sizeof(fx_rec8) - offsetof(fx_rec8, width));
}

void fx_rec8_to_pos(const void *rec, fx_pos *pos)
{
    const uint8_t *src = rec;
    memcpy(pos->board, src, 64);
    memset(pos->board + 64, 0, FX_MAX_SQUARES - 64);
    memcpy(&pos->width, src + offsetof(fx_rec8, width),
           sizeof(fx_rec8) - offsetof(fx_rec8, width));
}

static int reject(fx_error *err, fx_field field, size_t column, uint32_t value,
                  uint32_t limit)
{
    err->code = FX_E_RECORD_VALUE;
    err->field = field;
    err->column = column;
    err->a = value;
    err->b = limit;
    err->c = 0;
    return -1;
}

/* Every code of the first n squares <= limit and every byte after them 0;
 * eight squares per step (n is a multiple of 8). */
static int board_in_range(const uint8_t *board, int n, uint8_t limit)
{
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full, high = ~low7;
    const uint64_t bias = 0x0101010101010101ull * (uint8_t)(0x7F - limit);
    uint64_t over = 0;
    for (int at = 0; at < FX_MAX_SQUARES; at += 8) {
        uint64_t word;
        memcpy(&word, board + at, 8);
        over |= at < n ? (((word & low7) + bias) | word) & high : word;
    }
    return over == 0;
}

int fx_check_record(fx_pos *pos, int max_width, fx_error *err)
{
    int w = pos->width;
    if (w != 8 && !(w == 10 && max_width == 10))
        return reject(err, FX_F_RECORD_WIDTH, 0, w, max_width);
    int n = w * FX_HEIGHT;
    uint8_t limit = w == 8 ? FX_BK : FX_BC;
    if (!board_in_range(pos->board, n, limit)) {
        for (int sq = 0; sq < FX_MAX_SQUARES; sq++) {
            uint8_t code = pos->board[sq];
            if (code > (sq < n ? limit : 0))
                return reject(err, FX_F_RECORD_BOARD, sq, code, sq < n ? limit : 0);
        }
    }
    if (pos->turn > 1)
        return reject(err, FX_F_RECORD_TURN, 0, pos->turn, 1);
    if (pos->prefix > FX_PREFIX_M)
        return reject(err, FX_F_RECORD_PREFIX, 0, pos->prefix, FX_PREFIX_M);
    if (pos->ep != FX_NONE && pos->ep >= n)
        return reject(err, FX_F_RECORD_EP, 0, pos->ep, n - 1);
    for (int i = 0; i < 4; i++)
        if (pos->castling[i] != FX_NONE && pos->castling[i] >= w)
            return reject(err, FX_F_RECORD_CASTLING, i, pos->castling[i], w - 1);
    if (pos->fullmove == 0)
        return reject(err, FX_F_RECORD_FULLMOVE, 0, 0, 1);
    fx_repair_castling(pos);
    if (!fx_ep_valid(pos))
        pos->ep = FX_NONE;
    return 0;
}

int fx_store_record(const fx_pos *pos, void *dest, int wide, size_t column,
                    fx_error *err)
{
    if (wide) {
        memcpy(dest, pos, sizeof *pos);
        return 0;
    }
    if (pos->width != 8) {
        err->code = FX_E_WIDE_ROW;
        err->field = FX_F_PLACEMENT;
        err->column = column;
        err->a = err->b = err->c = 0;
        return -1;
    }
    fx_pos_to_rec8(pos, dest);
    return 0;
}

int fx_load_record(const void *src, int wide, fx_pos *pos, fx_error *err)
{
    if (wide)
        memcpy(pos, src, sizeof *pos);
    else
        fx_rec8_to_pos(src, pos);
    return fx_check_record(pos, wide ? FX_MAX_WIDTH : 8, err);
}
