/* The columns of an entry that take a store or a copy, inline for the
 * .binpack reader's per-ply loop (plycode.h); emit.c writes the others. */
#ifndef FASTXFEN_EMIT_H
#define FASTXFEN_EMIT_H

#include <stddef.h>
#include <string.h>

#include "training.h"

_Static_assert(sizeof(fx_rec8) - offsetof(fx_rec8, width) == 16
                   && offsetof(fx_pos, fullmove) + 4 - offsetof(fx_pos, width) == 16,
               "fx_rec8 and fx_pos lay out the fields after the squares alike");

/* Each rook square of a board's rights as its file, FX_NONE (top bit
 * set) kept: the four castling bytes of a record, at once. */
static inline uint32_t fx_t_rights_files(const fx_board *b)
{
    uint32_t rights;
    memcpy(&rights, b->rook, 4);
    return (rights & 0x07070707u) | ((rights >> 7 & 0x01010101u) * 0xFF);
}

/* The fields after the squares, which an fx_rec8 and an fx_pos lay out
 * alike (width to fullmove, 16 bytes), from the board: rights and target
 * as they are. */
static inline void fx_t_fields(const fx_board *b, uint8_t *width)
{
    fx_rec8 r;
    uint32_t rights = fx_t_rights_files(b);
    r.width = 8;
    r.turn = b->turn;
    r.prefix = FX_PREFIX_NONE;
    r.ep = b->ep;
    memcpy(r.castling, &rights, 4);
    r.halfmove = b->rule50;
    r.fullmove = b->ply / 2 + 1;
    memcpy(width, &r.width, 16);
}

/* The board as an 8x8 record, when no repair is needed. */
static inline void fx_t_plain_record(const fx_board *b, fx_rec8 *rec)
{
    memcpy(rec->board, b->sq, 64);
    fx_t_fields(b, &rec->width);
}

/* The board as a position for fx_write (fx_board_to_pos less the clearing
 * of squares an 8-wide board does not use). */
static inline void fx_t_text_pos(const fx_board *b, fx_pos *pos)
{
    memcpy(pos->board, b->sq, 64);
    fx_t_fields(b, &pos->width);
}

/* Does fx_t_emit_quick write every column c asks for (no text, no
 * packed position)? */
static inline int fx_t_quick_columns(const fx_t_columns *c)
{
    return !c->packed && !c->fen && !c->uci && !c->plain;
}

/* Entry i's numbers, and with `record` its record (for a position that
 * needs no repair). */
static inline void fx_t_emit_quick(fx_t_columns *c, size_t i, const fx_t_entry *e,
                                   int64_t chain, int record)
{
    if (c->records && record)
        fx_t_plain_record(&e->pos, (fx_rec8 *)(c->records + 80 * i));
    if (c->sfmove)
        c->sfmove[i] = fx_move_to_sf(e->move);
    if (c->score)
        c->score[i] = e->score;
    if (c->ply)
        c->ply[i] = e->ply;
    if (c->result)
        c->result[i] = e->result;
    if (c->rule50)
        c->rule50[i] = e->pos.rule50;
    if (c->chain)
        c->chain[i] = chain;
    if (c->entries)
        c->entries[i] = *e;
}

#endif
