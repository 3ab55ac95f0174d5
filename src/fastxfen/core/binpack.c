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

int fx_bp_read_head(fx_bp_reader *r, fx_t_error *err)
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
    if (!fx_t_is_legal(&e->pos, e->move))
        return head_error(r, err, FX_T_E_ILLEGAL, FX_T_F_MOVE, e->move, skip);
    r->odd = (uint8_t)odd_head(&e->pos);
    r->left = count;
    r->offset += FX_BP_HEAD;
    r->bit = (uint64_t)r->offset * 8;
    r->last_score = (int16_t)-e->score;
    return 0;
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
        if (fx_bp_next_ply_generic(r, 0, err))
            broken = FX_BP_SKIP_BLOCK;
    if (broken == FX_BP_SKIP_MOVES)
        return 0;
    r->done = 1;
    return -1;
}
