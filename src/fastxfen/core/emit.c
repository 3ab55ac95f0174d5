/* The columns readers give for one entry. */
#include <string.h>

#include "emit.h"

/* The entry's position as every fastxfen record holds it: rights repaired,
 * only a valid en-passant target. */
static void record_of(const fx_board *b, int odd, fx_pos *pos)
{
    fx_t_text_pos(b, pos);
    memset(pos->board + 64, 0, FX_MAX_SQUARES - 64);
    if (odd) {
        fx_repair_castling(pos);
        if (pos->ep != FX_NONE && !fx_ep_valid(pos))
            pos->ep = FX_NONE;
    }
}

/* The columns that take more than a store: packed, FEN, UCI and .plain
 * text, and records that need the repair. */
static int text_columns(fx_t_columns *c, size_t i, const fx_t_entry *e, int odd,
                        fx_t_error *err)
{
    const fx_board *b = &e->pos;
    if (c->packed) {
        int why = fx_sf_storable(b);
        if (why) {
            err->code = FX_T_E_STORE;
            err->field = FX_T_F_POSITION;
            err->a = (uint32_t)why;
            return -1;
        }
        fx_sf_pack_position(b, c->packed + 24 * i);
    }
    if ((c->records && odd) || c->fen) {
        fx_pos pos;
        record_of(b, odd, &pos);
        if (c->records && odd) {
            memcpy(c->records + 80 * i, pos.board, 64);
            memcpy(c->records + 80 * i + 64, &pos.width, 16);
        }
        if (c->fen) {  /* the buffer has FX_MAX_OUTPUT bytes of room past this */
            c->fen_used += fx_write(&pos, (fx_castling_mode)c->castling,
                                    (fx_ep_mode)c->ep_mode, 6, NULL, 0, c->fen + c->fen_used);
            c->fen_ends[i] = (int32_t)c->fen_used;
        }
    }
    if (c->uci) {
        c->uci_used += (size_t)fx_move_uci(e->move, 0, c->uci + c->uci_used);
        c->uci_ends[i] = (int32_t)c->uci_used;
    }
    if (c->plain) {
        c->plain_used += fx_plain_write(e, c->plain + c->plain_used);
        c->plain_ends[i] = (int32_t)c->plain_used;
    }
    return 0;
}

int fx_t_emit(fx_t_columns *c, size_t i, const fx_t_entry *e, int64_t chain, int odd,
              fx_t_error *err)
{
    if ((!fx_t_quick_columns(c) || (c->records && odd)) && text_columns(c, i, e, odd, err))
        return -1;
    fx_t_emit_quick(c, i, e, chain, !odd);  /* text_columns wrote the repaired record */
    return 0;
}
