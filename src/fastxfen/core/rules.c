/* Castling repair and en-passant rules, acting on an fx_pos. */
#include <string.h>

#include "bits.h"
#include "tables.h"

static int highest_bit(uint32_t x) { return 31 - fx_clz32(x); }
static int lowest_bit(uint32_t x) { return fx_ctz64(x); }

/* Squares of the whole 80-byte board holding b: squares 0-63 in *low,
 * 64-79 in the return value (squares past the board's width hold 0). */
static uint32_t squares_of(const uint8_t *board, uint8_t b, uint64_t *low)
{
    *low = fx_equal64(board, b);
    return fx_equal8(board + 64, b) | fx_equal8(board + 72, b) << 8;
}

/* Square of the color's king if it has exactly one, standing on its back
 * rank; -1 otherwise. */
static int castling_king(const fx_pos *pos, int color)
{
    uint64_t low;
    uint32_t high = squares_of(pos->board, FX_KING_OF(color), &low);
    if (low ? (high || (low & (low - 1))) : (!high || (high & (high - 1))))
        return -1;  /* no king, or more than one */
    int sq = low ? fx_ctz64(low) : 64 + fx_ctz64(high);
    int w = pos->width;
    return (color ? sq >= (FX_HEIGHT - 1) * w : sq < w) ? sq : -1;
}

/* Keep, of the candidate rook files, the outermost one with a rook on each
 * side of the king at king_file. */
static void settle(fx_pos *pos, int color, int king_file, uint32_t rooks,
                   uint32_t candidates)
{
    uint32_t rights = candidates & rooks;
    uint32_t h_side = rights & ~((2u << king_file) - 1);
    uint32_t a_side = rights & ((1u << king_file) - 1);
    pos->castling[2 * color] = h_side ? (uint8_t)highest_bit(h_side) : FX_NONE;
    pos->castling[2 * color + 1] = a_side ? (uint8_t)lowest_bit(a_side) : FX_NONE;
}

/* The s/m prefix qualifies rights; with none left it is dropped, so equal
 * text always gives equal records. */
static void drop_lone_prefix(fx_pos *pos)
{
    uint32_t slots;
    memcpy(&slots, pos->castling, 4);
    if (slots == 0xFFFFFFFFu)
        pos->prefix = FX_PREFIX_NONE;
}

void fx_castling_from_sets(fx_pos *pos, const uint32_t sets[2])
{
    for (int color = 0; color < 2; color++) {
        uint32_t set = sets[color];
        pos->castling[2 * color] = pos->castling[2 * color + 1] = FX_NONE;
        int king = set ? castling_king(pos, color) : -1;
        if (king < 0)
            continue;
        int kf = king % pos->width;
        uint32_t rooks = fx_back_rank_rooks(pos, color);
        uint32_t above = ~((2u << kf) - 1), below = (1u << kf) - 1;
        /* K and Q name every rook on their side: settle keeps the outermost */
        uint32_t candidates = set >> FX_FLAG_FILES;
        candidates |= (uint32_t)-(set >> FX_FLAG_K & 1) & rooks & above;
        candidates |= (uint32_t)-(set >> FX_FLAG_Q & 1) & rooks & below;
        settle(pos, color, kf, rooks, candidates);
    }
    drop_lone_prefix(pos);
}

void fx_castling_from_flags(fx_pos *pos, const uint8_t *flags, size_t n)
{
    uint32_t sets[2] = {0, 0};
    for (size_t i = 0; i < n; i++)
        sets[flags[i] >= 'a'] |= fx_flag_bit(flags[i]);
    fx_castling_from_sets(pos, sets);
}

void fx_repair_castling(fx_pos *pos)
{
    uint32_t slots;
    memcpy(&slots, pos->castling, 4);
    if (slots == 0xFFFFFFFFu) {
        pos->prefix = FX_PREFIX_NONE;
        return;
    }
    for (int color = 0; color < 2; color++) {
        int king = castling_king(pos, color);
        uint32_t candidates = 0;
        for (int side = 0; side < 2; side++) {
            uint8_t f = pos->castling[2 * color + side];
            if (f < pos->width)
                candidates |= 1u << f;
        }
        if (king < 0)
            pos->castling[2 * color] = pos->castling[2 * color + 1] = FX_NONE;
        else
            settle(pos, color, king % pos->width, fx_back_rank_rooks(pos, color), candidates);
    }
    drop_lone_prefix(pos);
}

/* Geometry of the en-passant target: the side to move captures towards
 * `dir` ranks; the pushed pawn stands one rank behind the target. */
typedef struct {
    int file, rank, pushed_rank, dir;
} ep_geometry;

static ep_geometry ep_geo(const fx_pos *pos)
{
    ep_geometry g;
    g.file = pos->ep % pos->width;
    g.rank = pos->ep / pos->width;
    g.dir = pos->turn == FX_WHITE ? 1 : -1;
    g.pushed_rank = g.rank - g.dir;
    return g;
}

static uint8_t at(const fx_pos *pos, int rank, int file)
{
    return pos->board[rank * pos->width + file];
}

int fx_ep_valid(const fx_pos *pos)
{
    if (pos->ep == FX_NONE || pos->ep >= pos->width * FX_HEIGHT)
        return 0;
    ep_geometry g = ep_geo(pos);
    if (g.rank != (pos->turn == FX_WHITE ? 5 : 2))
        return 0;
    return at(pos, g.rank, g.file) == FX_EMPTY
        && at(pos, g.rank + g.dir, g.file) == FX_EMPTY
        && at(pos, g.pushed_rank, g.file) == FX_PAWN_OF(!pos->turn);
}

static const int KNIGHT_STEPS[8][2] = {
    {1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
static const int KING_STEPS[8][2] = {
    {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};

/* Is the square (rank, file) of board b attacked by a piece of `by`? */
static int attacked(const uint8_t *b, int width, int rank, int file, int by)
{
    uint8_t black = by ? FX_A_BLACK : 0;
    for (int k = 0; k < 8; k++) {
        int r = rank + KNIGHT_STEPS[k][0], f = file + KNIGHT_STEPS[k][1];
        if (r >= 0 && r < FX_HEIGHT && f >= 0 && f < width) {
            uint8_t a = fx_attack_class[b[r * width + f]];
            if ((a & FX_A_KNIGHT) && (a & FX_A_BLACK) == black)
                return 1;
        }
    }
    for (int k = 0; k < 8; k++) {
        int dr = KING_STEPS[k][0], df = KING_STEPS[k][1];
        uint8_t slider = (dr && df) ? FX_A_DIAG : FX_A_ORTHO;
        for (int r = rank + dr, f = file + df, dist = 1;
             r >= 0 && r < FX_HEIGHT && f >= 0 && f < width;
             r += dr, f += df, dist++) {
            uint8_t code = b[r * width + f];
            if (code == FX_EMPTY)
                continue;
            uint8_t a = fx_attack_class[code];
            if ((a & FX_A_BLACK) == black) {
                if (a & slider)
                    return 1;
                if (dist == 1 && (a & FX_A_KING))
                    return 1;
                /* a pawn attacks diagonally forward: white up, black down */
                if (dist == 1 && (a & FX_A_PAWN) && df && dr == (by ? 1 : -1))
                    return 1;
            }
            break;
        }
    }
    return 0;
}

/* Would capturing from `from_file` leave every king of the mover safe? */
static int capture_is_legal(const fx_pos *pos, ep_geometry g, int from_file)
{
    uint8_t b[FX_MAX_SQUARES];
    int w = pos->width, n = w * FX_HEIGHT, me = pos->turn;
    memcpy(b, pos->board, (size_t)n);
    b[g.pushed_rank * w + from_file] = FX_EMPTY;
    b[g.pushed_rank * w + g.file] = FX_EMPTY;
    b[g.rank * w + g.file] = FX_PAWN_OF(me);
    uint8_t king = FX_KING_OF(me);
    for (int sq = 0; sq < n; sq++)
        if (b[sq] == king && attacked(b, w, sq / w, sq % w, !me))
            return 0;
    return 1;
}

int fx_ep_keep(const fx_pos *pos, fx_ep_mode mode)
{
    if (pos->ep == FX_NONE)
        return 0;
    if (mode == FX_EP_FEN)
        return 1;
    ep_geometry g = ep_geo(pos);
    uint8_t pawn = FX_PAWN_OF(pos->turn);
    for (int side = -1; side <= 1; side += 2) {
        int f = g.file + side;
        if (f < 0 || f >= pos->width || at(pos, g.pushed_rank, f) != pawn)
            continue;
        if (mode == FX_EP_XFEN || capture_is_legal(pos, g, f))
            return 1;
    }
    return 0;
}
