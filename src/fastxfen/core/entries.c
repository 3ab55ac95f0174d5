/* Entries: from the rows of a table, and their chains (games). */
#include <string.h>

#include "training.h"

void fx_t_chains_init(fx_t_chains *t, int64_t first)
{
    memset(t, 0, sizeof *t);
    t->chain = first - 1;
}

static int same_position(const fx_board *a, const fx_board *b)
{
    return a->turn == b->turn && a->ep == b->ep && memcmp(a->rook, b->rook, 4) == 0
           && memcmp(a->sq, b->sq, 64) == 0;
}

int fx_t_continues(const fx_t_chains *t, const fx_t_entry *e)
{
    return t->has_last && t->result == -e->result && t->ply + 1 == e->ply
           && same_position(&t->after, &e->pos);
}

int64_t fx_t_chain_of(fx_t_chains *t, const fx_t_entry *e)
{
    t->chain += !fx_t_continues(t, e);
    t->ply = e->ply;
    t->result = e->result;
    t->after = e->pos;
    fx_make(&t->after, e->move);
    t->has_last = 1;
    return t->chain;
}

static int fail(fx_t_error *err, uint32_t code, uint32_t field, int64_t value)
{
    err->code = code;
    err->field = field;
    err->value = value;
    return -1;
}

static int position_of(const fx_t_table *t, size_t i, fx_board *b, fx_t_error *err)
{
    fx_pos pos;
    if (t->fen) {
        fx_span span;
        int fields;
        int64_t start = t->fen_offsets[i], end = t->fen_offsets[i + 1];
        if (fx_parse(t->fen + start, (size_t)(end - start), &pos, &span, &fields, &err->fen_error))
            return fail(err, FX_T_E_FEN, FX_T_F_POSITION, 0);
    } else if (fx_load_record(t->records + 80 * i, 0, &pos, &err->fen_error)) {
        return fail(err, FX_T_E_RECORD, FX_T_F_POSITION, 0);
    }
    if (fx_board_from_pos(&pos, b)) {
        err->a = FX_T_S_WIDTH;
        return fail(err, FX_T_E_STORE, FX_T_F_POSITION, 0);
    }
    fx_sf_settle_ep(b);
    return 0;
}

static int move_of(const fx_t_table *t, size_t i, const fx_board *b, fx_move *m,
                   fx_t_error *err)
{
    if (t->uci) {
        int64_t start = t->uci_offsets[i], end = t->uci_offsets[i + 1];
        if (fx_parse_uci(b, t->uci + start, (size_t)(end - start), m))
            return fail(err, FX_T_E_UCI, FX_T_F_MOVE, 0);
    } else if (fx_move_from_sf(t->sfmove[i], m)) {
        err->a = t->sfmove[i];
        return fail(err, FX_T_E_MOVE_BITS, FX_T_F_MOVE, 0);
    }
    if (!*m)
        return fail(err, FX_T_E_NULL_MOVE, FX_T_F_MOVE, 0);
    if (!fx_t_is_legal(b, *m)) {
        err->a = *m;
        return fail(err, FX_T_E_ILLEGAL, FX_T_F_MOVE, 0);
    }
    return 0;
}

int fx_t_table_entry(const fx_t_table *t, size_t i, fx_t_entry *e, fx_t_error *err)
{
    if (t->entries) {  /* read and checked by a reader already */
        *e = t->entries[i];
        return 0;
    }
    if (t->missing && t->missing[i])
        return fail(err, FX_T_E_MISSING, t->missing[i] - 1, 0);
    if (position_of(t, i, &e->pos, err) || move_of(t, i, &e->pos, &e->move, err))
        return -1;
    int64_t score = t->score[i], ply = t->ply[i], result = t->result[i];
    if (score < -32768 || score > 32767)
        return fail(err, FX_T_E_RANGE, FX_T_F_SCORE, score);
    if (ply < 0 || ply > 65535)
        return fail(err, FX_T_E_RANGE, FX_T_F_PLY, ply);
    if (result < -128 || result > 127)
        return fail(err, FX_T_E_RANGE, FX_T_F_RESULT, result);
    e->score = (int16_t)score;
    e->ply = (uint16_t)ply;
    e->result = (int8_t)result;
    return 0;
}
