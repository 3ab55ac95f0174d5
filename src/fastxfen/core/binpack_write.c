/* The .binpack writer.  An entry continues the open chain exactly when
 * Stockfish's writer would continue it: its position is the last entry's
 * position after that entry's move (same board, side to move, rights and
 * en-passant target), its ply is one more and its result the negation.
 * A block is cut before a chain's head once it holds FX_BP_BLOCK_CUT
 * bytes or more. */
#include <string.h>

#include "training.h"

void fx_bp_writer_init(fx_bp_writer *w, uint8_t *block, size_t cap)
{
    memset(w, 0, sizeof *w);
    w->block = block;
    w->cap = cap;
    fx_t_chains_init(&w->chains, 0);
}

static void close_chain(fx_bp_writer *w)
{
    w->block[w->count_at] = (uint8_t)(w->count >> 8);
    w->block[w->count_at + 1] = (uint8_t)w->count;
    w->open = 0;
}

static int refuse(fx_t_error *err, uint32_t code, uint32_t field, uint32_t a, int64_t value)
{
    err->code = code;
    err->field = field;
    err->a = a;
    err->value = value;
    return -1;
}

/* What only .binpack cannot hold: plies above 14 bits, results other than
 * -1, 0, 1, rule50 above 16 bits, rights of rooks not in a corner. */
static int check(const fx_t_entry *e, fx_t_error *err)
{
    int why = fx_sf_storable(&e->pos);
    if (why)
        return refuse(err, FX_T_E_STORE, FX_T_F_POSITION, (uint32_t)why, 0);
    if (e->ply > 0x3FFF)
        return refuse(err, FX_T_E_RANGE, FX_T_F_PLY, 0, e->ply);
    if (e->result < -1 || e->result > 1)
        return refuse(err, FX_T_E_RANGE, FX_T_F_RESULT, 0, e->result);
    if (e->pos.rule50 > 0xFFFF)
        return refuse(err, FX_T_E_RANGE, FX_T_F_RULE50, 0, e->pos.rule50);
    return 0;
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void start_chain(fx_bp_writer *w, const fx_t_entry *e)
{
    uint8_t *h = w->block + w->len;
    fx_sf_pack_position(&e->pos, h);
    put16(h + 24, fx_sf_pack_move(e->move));
    put16(h + 26, fx_fold16(e->score));
    put16(h + 28, (uint16_t)(e->ply | fx_fold16(e->result) << 14));
    put16(h + 30, (uint16_t)e->pos.rule50);
    w->open = 1;
    w->count = 0;
    w->count_at = w->len + 32;
    w->len += FX_BP_HEAD;
    w->text.data = w->block + w->len;
    w->text.cap = w->cap - w->len;
    w->text.bits = 0;
    w->last_score = (int16_t)-e->score;
}

int fx_bp_add(fx_bp_writer *w, const fx_t_entry *e, fx_t_error *err)
{
    if (check(e, err))
        return -1;
    if (w->open && fx_t_continues(&w->chains, e)) {
        fx_bit_writer text = w->text;
        int16_t last_score = w->last_score;
        if (fx_bp_encode_ply(&w->chains.after, e->move, e->score, &last_score, &text))
            return refuse(err, FX_T_E_ILLEGAL, FX_T_F_MOVE, e->move, 0);
        w->text = text;
        w->last_score = last_score;
        w->count++;
        w->len = w->count_at + 2 + (size_t)((text.bits + 7) / 8);
    } else {
        if (w->open)
            close_chain(w);
        if (w->len >= FX_BP_BLOCK_CUT)
            return 1;
        if (w->cap - w->len < FX_BP_HEAD)
            return refuse(err, FX_T_E_BLOCK_SIZE, FX_T_F_BLOCK, (uint32_t)w->cap, 0);
        start_chain(w, e);
    }
    fx_t_chain_of(&w->chains, e);
    return 0;
}

void fx_bp_finish(fx_bp_writer *w)
{
    if (w->open)
        close_chain(w);
}

void fx_bp_writer_flushed(fx_bp_writer *w)
{
    w->len = 0;
}

size_t fx_bp_write_rows(fx_bp_writer *w, const fx_t_table *t, size_t start, size_t n,
                        int *status, fx_t_error *err)
{
    for (size_t i = 0; i < n; i++) {
        fx_t_entry e;
        const fx_t_entry *entry = t->entries ? &t->entries[start + i] : &e;  /* read, checked */
        int added = !t->entries && fx_t_table_entry(t, start + i, &e, err) ? -1
                                                                            : fx_bp_add(w, entry, err);
        if (added) {
            *status = added;
            return i;
        }
    }
    *status = 0;
    return n;
}
