/* Castling repair and en-passant rules, acting on an fx_pos. */
#include <string.h>

#include "rules.h"

/* The tables, written out by the preprocessor: for the sets 2^n to
 * 2^(n+1) - 1 the highest file is n; the lowest files of the sets 1 to
 * 2^n - 1 (LOWEST_n) are those of 1 to 2^(n-1) - 1, then n - 1, then the
 * same again. */
#define REPEAT1(v) v
#define REPEAT2(v) REPEAT1(v), REPEAT1(v)
#define REPEAT4(v) REPEAT2(v), REPEAT2(v)
#define REPEAT8(v) REPEAT4(v), REPEAT4(v)
#define REPEAT16(v) REPEAT8(v), REPEAT8(v)
#define REPEAT32(v) REPEAT16(v), REPEAT16(v)
#define REPEAT64(v) REPEAT32(v), REPEAT32(v)
#define REPEAT128(v) REPEAT64(v), REPEAT64(v)
#define REPEAT256(v) REPEAT128(v), REPEAT128(v)
#define REPEAT512(v) REPEAT256(v), REPEAT256(v)
const uint8_t fx_highest_file[FX_FILE_SETS] = {
    FX_NONE,      0,            REPEAT2(1),   REPEAT4(2),   REPEAT8(3),   REPEAT16(4),
    REPEAT32(5),  REPEAT64(6),  REPEAT128(7), REPEAT256(8), REPEAT512(9),
};
#define LOWEST1 0
#define LOWEST2 LOWEST1, 1, LOWEST1
#define LOWEST3 LOWEST2, 2, LOWEST2
#define LOWEST4 LOWEST3, 3, LOWEST3
#define LOWEST5 LOWEST4, 4, LOWEST4
#define LOWEST6 LOWEST5, 5, LOWEST5
#define LOWEST7 LOWEST6, 6, LOWEST6
#define LOWEST8 LOWEST7, 7, LOWEST7
#define LOWEST9 LOWEST8, 8, LOWEST8
#define LOWEST10 LOWEST9, 9, LOWEST9
const uint8_t fx_lowest_file[FX_FILE_SETS] = {FX_NONE, LOWEST10};
_Static_assert(FX_FILE_SETS == 1024, "the tables above are written for ten files");

void fx_back_ranks10(const fx_pos *pos, uint32_t kings[2], uint32_t rooks[2])
{
    int width = pos->width, last = (FX_HEIGHT - 1) * width;
    for (int color = 0; color < 2; color++) {
        uint8_t king = FX_KING_OF(color);
        uint64_t low = fx_equal64(pos->board, king);  /* squares 0-63, then 64-79 */
        uint32_t high = fx_equal8(pos->board + 64, king) | fx_equal8(pos->board + 72, king) << 8;
        int one = low ? !high && !(low & (low - 1)) : high && !(high & (high - 1));
        int sq = low ? fx_ctz64(low) : high ? 64 + fx_ctz64(high) : -1;
        int home = color ? sq >= last : sq >= 0 && sq < width;
        kings[color] = one && home ? 1u << (sq - (color ? last : 0)) : 0;
        rooks[color] = fx_back_rank_rooks(pos, color);
    }
}

uint32_t fx_castling_from_sets(fx_pos *pos, const uint32_t sets[2])
{
    return fx_castling_sets(pos, sets);
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
    uint32_t kings[2], rooks[2];
    fx_back_ranks(pos, kings, rooks);
    for (int color = 0; color < 2; color++) {
        uint32_t files = 0;
        for (int side = 0; side < 2; side++) {
            uint8_t f = pos->castling[2 * color + side];
            files |= f < pos->width ? 1u << f : 0;
        }
        slots = (slots & ~(0xFFFFu << 16 * color))
                | fx_settle(kings[color], rooks[color], files << FX_FLAG_FILES) << 16 * color;
    }
    fx_store_slots(pos, slots);
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
    int w = pos->width;
    return pos->ep < w * FX_HEIGHT
           && fx_ep_target(pos, pos->ep % w, pos->ep / w) != FX_NONE;
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
