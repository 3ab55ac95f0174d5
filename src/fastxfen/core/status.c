/* Position legality for data cleaning: what is wrong with a position, as
 * the flags of python-chess's Board.status() name it. */
#include <string.h>

#include "status.h"

#define BIT(sq) (1ull << (sq))
#define RANK_1 0xFFull
#define RANK_8 0xFF00000000000000ull
#define FILE_A 0x0101010101010101ull
#define FILE_H 0x8080808080808080ull

static int lsb(uint64_t x) { return x ? fx_ctz64(x) : -1; }
static int msb(uint64_t x) { return x ? 63 - fx_clz64(x) : -1; }

/* The rook squares the castling flags name, as python-chess reads them:
 * K and Q the outermost rook on the back rank beside the king (the corner
 * when there is none), a file letter that file's back-rank square. */
static uint64_t named_rooks(const fx_board *b, const uint8_t *flags, size_t n)
{
    uint64_t named = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t flag = flags[i];
        int color = flag >= 'a', lower = flag | 0x20;
        uint64_t back = color ? RANK_8 : RANK_1;
        uint64_t rooks = b->pieces[color][FX_ROOK] & back;
        int king = msb(b->pieces[color][FX_KING]);
        if (lower == 'q')
            named |= king >= 0 && lsb(rooks) < king ? rooks & (0 - rooks) : FILE_A & back;
        else if (lower == 'k')
            named |= king >= 0 && king < msb(rooks) ? BIT(msb(rooks)) : FILE_H & back;
        else if (lower >= 'a' && lower <= 'h')
            named |= (FILE_A << (lower - 'a')) & back;
    }
    return named;
}

/* The rights of `named` a position can have: a rook of the color on its
 * back rank with the king there too, one per side of the king (Chess960),
 * or only the corners with the king on e1 / e8 (standard chess). */
static uint64_t clean_rights(const fx_board *b, uint64_t named, int chess960)
{
    uint64_t rooks = b->pieces[0][FX_ROOK] | b->pieces[1][FX_ROOK], rights = 0;
    for (int color = 0; color < 2; color++) {
        uint64_t back = color ? RANK_8 : RANK_1, mine = named & rooks & back & b->pieces[color][FX_ALL];
        uint64_t kings = b->pieces[color][FX_KING] & back;
        if (!chess960) {
            uint64_t corners = color ? BIT(56) | BIT(63) : BIT(0) | BIT(7);
            rights |= kings & BIT(color ? 60 : 4) ? mine & corners : 0;
            continue;
        }
        if (!kings)
            continue;
        uint64_t a_side = mine & (0 - mine), h_side = mine ? BIT(msb(mine)) : 0;
        if (a_side && msb(a_side) > msb(kings))
            a_side = 0;
        if (h_side && msb(h_side) < msb(kings))
            h_side = 0;
        rights |= a_side | h_side;
    }
    return rights;
}

/* Can the king squares of `kings` be attacked by the side not to move? */
static int attacked(const fx_board *b, uint64_t kings, uint64_t occupied)
{
    for (; kings; kings &= kings - 1)
        if (fx_attackers(b, fx_ctz64(kings), !b->turn, occupied))
            return 1;
    return 0;
}

static uint32_t check_flags(const fx_board *b, int valid_ep)
{
    int us = b->turn, king = msb(b->pieces[us][FX_KING]);
    uint64_t checkers = king < 0 ? 0 : fx_attackers(b, king, !us, b->occupied);
    uint64_t our_kings = b->pieces[us][FX_KING];
    uint32_t flags = 0;
    int n = fx_popcount64(checkers);
    if (!checkers)
        return 0;
    if (n > 2)
        flags |= FX_STATUS_TOO_MANY_CHECKERS;
    if (valid_ep >= 0) {  /* the last move was the double step behind the target */
        int pushed_to = valid_ep ^ 8, pushed_from = valid_ep ^ 24;
        uint64_t before = (b->occupied & ~BIT(pushed_to)) | BIT(pushed_from);
        if (n > 1 || (msb(checkers) != pushed_to && attacked(b, our_kings, before)))
            flags |= FX_STATUS_IMPOSSIBLE_CHECK;
    } else if (n > 2 || (n == 2 && (fx_line[lsb(checkers)][msb(checkers)] & our_kings))) {
        flags |= FX_STATUS_IMPOSSIBLE_CHECK;
    }
    return flags;
}

static uint32_t material_flags(const fx_board *b)
{
    const uint64_t *w = b->pieces[FX_WHITE], *k = b->pieces[FX_BLACK];
    uint32_t flags = 0;
    flags |= !b->occupied ? FX_STATUS_EMPTY : 0;
    flags |= !w[FX_KING] ? FX_STATUS_NO_WHITE_KING : 0;
    flags |= !k[FX_KING] ? FX_STATUS_NO_BLACK_KING : 0;
    flags |= fx_popcount64(w[FX_KING] | k[FX_KING]) > 2 ? FX_STATUS_TOO_MANY_KINGS : 0;
    flags |= fx_popcount64(w[FX_ALL]) > 16 ? FX_STATUS_TOO_MANY_WHITE_PIECES : 0;
    flags |= fx_popcount64(k[FX_ALL]) > 16 ? FX_STATUS_TOO_MANY_BLACK_PIECES : 0;
    flags |= fx_popcount64(w[FX_PAWN]) > 8 ? FX_STATUS_TOO_MANY_WHITE_PAWNS : 0;
    flags |= fx_popcount64(k[FX_PAWN]) > 8 ? FX_STATUS_TOO_MANY_BLACK_PAWNS : 0;
    flags |= (w[FX_PAWN] | k[FX_PAWN]) & (RANK_1 | RANK_8) ? FX_STATUS_PAWNS_ON_BACKRANK : 0;
    return flags;
}

uint32_t fx_status(const fx_board *b, const uint8_t *flags, size_t n_flags, int given_ep,
                   int chess960)
{
    uint32_t status = material_flags(b);
    uint64_t named = named_rooks(b, flags, n_flags);
    if (named != clean_rights(b, named, chess960))
        status |= FX_STATUS_BAD_CASTLING_RIGHTS;
    int valid_ep = b->ep < 64 ? b->ep : -1;
    if (given_ep != valid_ep)
        status |= FX_STATUS_INVALID_EP_SQUARE;
    int king = msb(b->pieces[!b->turn][FX_KING]);
    if (king >= 0 && fx_attackers(b, king, b->turn, b->occupied))
        status |= FX_STATUS_OPPOSITE_CHECK;
    return status | check_flags(b, valid_ep);
}

/* The castling and en-passant fields of a row fx_parse accepted. */
static void raw_fields(const uint8_t *s, size_t len, const uint8_t **castling, size_t *n,
                       int *ep)
{
    size_t i = 0, start[4] = {0, 0, 0, 0}, end[4] = {0, 0, 0, 0};
    for (int field = 0; field < 4; field++) {
        while (i < len && (s[i] == ' ' || s[i] == '\t'))
            i++;
        start[field] = i;
        while (i < len && s[i] != ' ' && s[i] != '\t')
            i++;
        end[field] = i;
    }
    size_t c = start[2];
    while (c < end[2] && (s[c] == 's' || s[c] == 'm'))  /* a 10x8 prefix */
        c++;
    *castling = s + c;
    *n = s[c] == '-' ? 0 : end[2] - c;
    *ep = end[3] - start[3] == 2 ? (s[start[3] + 1] - '1') * 8 + (s[start[3]] - 'a') : -1;
}

int fx_status_text(const uint8_t *text, size_t len, int chess960, int epd, uint32_t *status,
                   fx_error *err)
{
    fx_pos pos;
    fx_span span, operations;
    fx_board b;
    int fields, ep;
    const uint8_t *castling;
    size_t n;
    if (epd ? fx_parse_epd(text, len, &pos, &span, &operations, err)
            : fx_parse(text, len, &pos, &span, &fields, err))
        return -1;
    if (fx_board_from_pos(&pos, &b)) {
        err->code = FX_E_WIDE_ROW;
        err->field = FX_F_PLACEMENT;
        err->column = span.start;
        return -1;
    }
    raw_fields(text, len, &castling, &n, &ep);
    *status = fx_status(&b, castling, n, ep, chess960);
    return 0;
}
