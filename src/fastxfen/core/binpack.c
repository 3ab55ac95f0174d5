/* The .binpack reader: one block's chains, entry after entry, into
 * columns.  A chain is a 34-byte head (position, move, score, ply and
 * result, rule50, count) and the move text of its `count` next plies. */
#include <string.h>

#include "training.h"

void fx_bp_reader_init(fx_bp_reader *r, const uint8_t *data, size_t len, int64_t first_chain)
{
    memset(r, 0, sizeof *r);
    r->data = data;
    r->len = len;
    r->chain = first_chain - 1;
    r->done = len == 0;
}

int fx_pseudo_is_legal(const fx_board *b, fx_move m)
{
    if (FX_KIND(m) != FX_MV_CASTLE)
        return fx_keeps_king_safe(b, m);
    int slot = 2 * b->turn + (b->rook[2 * b->turn] != FX_TO(m));
    return fx_castle_legal(b, slot);
}

static uint16_t be16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

/* Would a fastxfen record of this head's position differ from the board
 * (rights of a rook not outermost or without its king, a target that is
 * not one)?  Then every entry of the chain goes through the repair. */
static int odd_head(const fx_board *b)
{
    fx_pos raw, fixed;
    fx_board_to_pos(b, &raw);
    fixed = raw;
    fx_repair_castling(&fixed);
    if (fixed.ep != FX_NONE && !fx_ep_valid(&fixed))
        fixed.ep = FX_NONE;
    return memcmp(raw.castling, fixed.castling, 4) != 0 || raw.ep != fixed.ep;
}

static int head_error(fx_bp_reader *r, fx_t_error *err, uint32_t code, uint32_t field,
                      uint32_t a, int skip)
{
    size_t left = r->len - r->offset;  /* the head's ply, when it is there */
    err->value = left >= 30 ? be16(r->data + r->offset + 28) & 0x3FFF : -1;
    err->code = code;
    err->field = field;
    err->a = a;
    err->offset = r->offset;
    err->chain = r->chain;
    err->entry = 0;
    r->broken = (uint8_t)skip;
    return -1;
}

static int read_head(fx_bp_reader *r, fx_t_error *err)
{
    size_t left = r->len - r->offset;
    r->chain++;
    r->index = 0;
    if (left < FX_BP_HEAD)
        return head_error(r, err, FX_T_E_CHAIN_HEAD, FX_T_F_CHAIN, (uint32_t)left,
                          FX_BP_SKIP_BLOCK);
    const uint8_t *h = r->data + r->offset;
    fx_t_entry *e = &r->entry;
    uint16_t count = be16(h + 32), move = be16(h + 24), ply = be16(h + 28);
    int skip = count ? FX_BP_SKIP_BLOCK : FX_BP_SKIP_HEAD;
    if (fx_sf_unpack_position(h, &e->pos, err))
        return head_error(r, err, err->code, FX_T_F_POSITION, err->a, skip);
    if (fx_sf_unpack_move(move, &e->move))
        return head_error(r, err, FX_T_E_MOVE_BITS, FX_T_F_MOVE, move, skip);
    if (!e->move)
        return head_error(r, err, FX_T_E_NULL_MOVE, FX_T_F_MOVE, 0, skip);
    if (ply >> 14 == 3)
        return head_error(r, err, FX_T_E_RESULT_BITS, FX_T_F_RESULT, 3, skip);
    e->score = fx_unfold16(be16(h + 26));
    e->ply = ply & 0x3FFF;
    e->result = (int8_t)fx_unfold16((uint16_t)(ply >> 14));
    e->pos.rule50 = be16(h + 30);
    e->pos.ply = e->ply;
    if (!fx_is_legal(&e->pos, e->move))
        return head_error(r, err, FX_T_E_ILLEGAL, FX_T_F_MOVE, e->move, skip);
    r->odd = (uint8_t)odd_head(&e->pos);
    r->left = count;
    r->offset += FX_BP_HEAD;
    r->bit = (uint64_t)r->offset * 8;
    r->last_score = (int16_t)-e->score;
    return 0;
}

/* The chain's next ply: play the last move, read the next. */
static int next_ply(fx_bp_reader *r, int check, fx_t_error *err)
{
    fx_t_entry *e = &r->entry;
    uint64_t at = r->bit;
    fx_make(&e->pos, e->move);
    r->index++;
    r->left--;
    e->ply++;
    e->result = (int8_t)-e->result;
    if (fx_bp_decode_ply(&e->pos, r->data, r->len, &r->bit, &r->last_score, &e->move,
                         &e->score, err)) {
        r->broken = FX_BP_SKIP_BLOCK;
    } else if (check && !fx_pseudo_is_legal(&e->pos, e->move)) {
        err->code = FX_T_E_ILLEGAL;
        err->field = FX_T_F_MOVE;
        err->a = e->move;
        r->broken = FX_BP_SKIP_MOVES;
    } else {
        if (!r->left)
            r->offset = (size_t)((r->bit + 7) / 8);
        return 0;
    }
    err->offset = (size_t)(at / 8);
    err->chain = r->chain;
    err->entry = r->index;
    err->value = e->ply;
    return -1;
}

size_t fx_bp_read(fx_bp_reader *r, fx_t_columns *c, size_t row, size_t max_n, fx_t_error *err)
{
    size_t n = 0;
    while (n < max_n && !r->done) {
        if (r->left) {
            if (next_ply(r, 1, err))
                return n;
        } else if (r->offset >= r->len) {
            r->done = 1;
            break;
        } else if (read_head(r, err)) {
            return n;
        }
        if (fx_t_emit(c, row + n, &r->entry, r->chain, r->odd, err)) {
            err->value = r->entry.ply;
            err->offset = r->offset;
            err->chain = r->chain;
            err->entry = r->index;
            r->broken = FX_BP_SKIP_MOVES;
            return n;
        }
        n++;
    }
    return n;
}

int fx_bp_skip_chain(fx_bp_reader *r, fx_t_error *err)
{
    int broken = r->broken;
    r->broken = FX_BP_SKIP_NONE;
    if (broken == FX_BP_SKIP_HEAD) {
        r->offset += FX_BP_HEAD;
        return 0;
    }
    while (broken == FX_BP_SKIP_MOVES && r->left)
        if (next_ply(r, 0, err))
            broken = FX_BP_SKIP_BLOCK;
    if (broken == FX_BP_SKIP_MOVES)
        return 0;
    r->done = 1;
    return -1;
}
