/* Moves as text (UCI) and as Stockfish's 16 bits. */
#include "movegen.h"

int fx_move_uci(fx_move m, int chess960, uint8_t *out)
{
    static const char promotion[4] = {'n', 'b', 'r', 'q'};
    int from = FX_FROM(m), to = FX_TO(m), kind = FX_KIND(m);
    if (!m) {
        out[0] = out[1] = out[2] = out[3] = '0';
        return 4;
    }
    /* castling from e1 / e8 with a corner rook as the king's two-square
     * step, unless asked for Chess960's form (the king takes its rook) */
    if (kind == FX_MV_CASTLE && !chess960 && from % 8 == 4 && (to % 8 == 0 || to % 8 == 7))
        to = (to & 56) | (to > from ? 6 : 2);
    out[0] = (uint8_t)('a' + from % 8);
    out[1] = (uint8_t)('1' + from / 8);
    out[2] = (uint8_t)('a' + to % 8);
    out[3] = (uint8_t)('1' + to / 8);
    if (kind >= FX_MV_PROMO && kind < FX_MV_CASTLE) {
        out[4] = (uint8_t)promotion[kind - FX_MV_PROMO];
        return 5;
    }
    return 4;
}

static int square(const uint8_t *s)
{
    return s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8'
               ? (s[1] - '1') * 8 + (s[0] - 'a') : -1;
}

int fx_parse_uci(const fx_board *b, const uint8_t *text, size_t len, fx_move *m)
{
    if (len != 4 && len != 5)
        return -1;
    int from = square(text), to = square(text + 2), us = b->turn;
    if (from < 0 || to < 0)
        return -1;
    if (len == 5) {
        static const uint8_t kinds[256] = {['n'] = 1, ['b'] = 2, ['r'] = 3, ['q'] = 4};
        if (!kinds[text[4]])
            return -1;
        *m = FX_MOVE(from, to, kinds[text[4]]);
        return 0;
    }
    int type = FX_TYPE_OF(b->sq[from]), kind = FX_MV_NORMAL;
    if (type == FX_KING && b->sq[from] == FX_CODE(us, FX_KING)) {
        int df = to % 8 - from % 8, slot = 2 * us + (df < 0);
        if ((b->rook[2 * us] == to || b->rook[2 * us + 1] == to) && to != from) {
            kind = FX_MV_CASTLE;  /* the king onto its castling rook */
        } else if (to / 8 == from / 8 && (df > 1 || df < -1) && b->rook[slot] != FX_NONE) {
            kind = FX_MV_CASTLE;  /* the king's two-square step */
            to = b->rook[slot];
        }
    } else if (type == FX_PAWN && to == b->ep && to % 8 != from % 8) {
        kind = FX_MV_EP;
    }
    *m = FX_MOVE(from, to, kind);
    return 0;
}

uint16_t fx_move_to_sf(fx_move m)
{
    static const uint8_t type_of_kind[7] = {0, 1, 1, 1, 1, 3, 2};
    int kind = FX_KIND(m);
    unsigned promotion = kind >= FX_MV_PROMO && kind < FX_MV_CASTLE ? (unsigned)(kind - 1) : 0;
    return m ? (uint16_t)(type_of_kind[kind] << 14 | promotion << 12 | FX_FROM(m) << 6 | FX_TO(m))
             : 0;
}

int fx_move_from_sf(uint16_t v, fx_move *m)
{
    static const uint8_t kind_of_type[4] = {FX_MV_NORMAL, FX_MV_PROMO, FX_MV_EP, FX_MV_CASTLE};
    int type = v >> 14, promotion = (v >> 12) & 3, from = (v >> 6) & 63, to = v & 63;
    if (!v) {
        *m = 0;
        return 0;
    }
    if (from == to || (promotion && type != 1))
        return -1;
    *m = FX_MOVE(from, to, kind_of_type[type] + (type == 1 ? promotion : 0));
    return 0;
}
