/* Castling repair and en-passant rules, acting on an fx_pos. */
#include <string.h>

#include "bits.h"
#include "tables.h"

/* The highest and lowest file of a set of files, FX_NONE for none.  The
 * code here is written so that the compiler sees no choice to branch on:
 * a flag becomes a mask (-flag), and masks select. */
static uint8_t none_if_empty(uint32_t files) { return (uint8_t)-(uint32_t)(files == 0); }

static uint8_t highest_file(uint32_t files)
{
    return (uint8_t)(31 - fx_clz32(files | 1)) | none_if_empty(files);
}

static uint8_t lowest_file(uint32_t files)
{
    return (uint8_t)fx_ctz64(files | 1u << 31) | none_if_empty(files);
}

static uint32_t one_bit(uint64_t x) { return (x != 0) & ((x & (x - 1)) == 0); }

/* An 8-wide board's back ranks: for each color, its king as its file's bit
 * when it has exactly one king, standing on its back rank (else 0), and
 * the files of its rooks there.  Four 16-byte blocks of two ranks each,
 * compared with no branch. */
static inline void back_ranks8(const uint8_t *board, uint32_t kings[2], uint32_t rooks[2])
{
    uint32_t w_home, b_home;
    uint64_t w_away, b_away;  /* kings off their back rank (any bit) */
#ifdef FX_SSE2
    const __m128i wk = _mm_set1_epi8(FX_WK), bk = _mm_set1_epi8(FX_BK);
    __m128i r12 = _mm_loadu_si128((const __m128i *)board);
    __m128i r34 = _mm_loadu_si128((const __m128i *)(board + 16));
    __m128i r56 = _mm_loadu_si128((const __m128i *)(board + 32));
    __m128i r78 = _mm_loadu_si128((const __m128i *)(board + 48));
    w_home = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(r12, wk));
    b_home = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(r78, bk));
    w_away = (uint32_t)_mm_movemask_epi8(_mm_or_si128(
        _mm_cmpeq_epi8(r34, wk), _mm_or_si128(_mm_cmpeq_epi8(r56, wk), _mm_cmpeq_epi8(r78, wk))));
    b_away = (uint32_t)_mm_movemask_epi8(_mm_or_si128(
        _mm_cmpeq_epi8(r12, bk), _mm_or_si128(_mm_cmpeq_epi8(r34, bk), _mm_cmpeq_epi8(r56, bk))));
    rooks[0] = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(r12, _mm_set1_epi8(FX_WR))) & 0xFF;
    rooks[1] = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(r78, _mm_set1_epi8(FX_BR))) >> 8;
#else
    uint64_t white = fx_equal64(board, FX_WK), black = fx_equal64(board, FX_BK);
    w_home = (uint32_t)white & 0xFFFF;
    w_away = white >> 16;
    b_home = (uint32_t)(black >> 48);
    b_away = black & 0xFFFFFFFFFFFFull;
    rooks[0] = fx_equal8(board, FX_WR);
    rooks[1] = fx_equal8(board + 56, FX_BR);
#endif
    uint32_t w = w_home & 0xFF, b = b_home >> 8;
    /* w and b are 0 or more bits: one bit, and no king elsewhere */
    kings[0] = w & (0u - (((w & (w - 1)) | w_away | w_home >> 8) == 0));
    kings[1] = b & (0u - (((b & (b - 1)) | b_away | (b_home & 0xFF)) == 0));
}

/* back_ranks8 for a 10-wide board, square by square; kept out of line,
 * so that the registers it needs are not saved for every 8-wide board. */
FX_NOINLINE static void back_ranks10(const fx_pos *pos, uint32_t kings[2], uint32_t rooks[2])
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

/* back_ranks8 for a board of either width. */
static inline void back_ranks(const fx_pos *pos, uint32_t kings[2], uint32_t rooks[2])
{
    if (pos->width == 8)
        back_ranks8(pos->board, kings, rooks);
    else
        back_ranks10(pos, kings, rooks);
}

/* Keep, of the candidate rook files, the outermost one with a rook on each
 * side of the king (a file bit; 0: no rights): the color's two slots, the
 * h-side in the low byte. */
static inline uint32_t settle(uint32_t king, uint32_t rooks, uint32_t candidates)
{
    /* the files beyond the king (none without one) */
    uint32_t rights = candidates & rooks, above = ~(2 * king - 1);
    uint32_t below = (king - 1) & (0u - (king != 0));
    return highest_file(rights & above) | (uint32_t)lowest_file(rights & below) << 8;
}

/* The four slots into the record at once (one store: a later read of them
 * takes it whole), and the s/m prefix, which qualifies rights, dropped
 * when none is left, so that equal text always gives equal records. */
static uint32_t store_slots(fx_pos *pos, uint32_t slots)
{
    memcpy(pos->castling, &slots, 4);
    if (slots == 0xFFFFFFFFu)
        pos->prefix = FX_PREFIX_NONE;
    return slots;
}

uint32_t fx_castling_from_sets(fx_pos *pos, const uint32_t sets[2])
{
    uint32_t kings[2], rooks[2], slots = 0;
    back_ranks(pos, kings, rooks);
    for (int color = 0; color < 2; color++) {
        uint32_t set = sets[color], king = kings[color];
        /* K and Q name every rook on their side: settle keeps the outermost */
        uint32_t candidates = set >> FX_FLAG_FILES;
        candidates |= -(set >> FX_FLAG_K & 1) & ~(2 * king - 1);
        candidates |= -(set >> FX_FLAG_Q & 1) & (king - 1);
        slots |= settle(king, rooks[color], candidates) << 16 * color;
    }
    return store_slots(pos, slots);
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
    back_ranks(pos, kings, rooks);
    for (int color = 0; color < 2; color++) {
        uint32_t candidates = 0;
        for (int side = 0; side < 2; side++) {
            uint8_t f = pos->castling[2 * color + side];
            candidates |= f < pos->width ? 1u << f : 0;
        }
        slots = (slots & ~(0xFFFFu << 16 * color))
                | settle(kings[color], rooks[color], candidates) << 16 * color;
    }
    store_slots(pos, slots);
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

uint8_t fx_ep_target(const fx_pos *pos, unsigned file, unsigned rank)
{
    unsigned w = pos->width, black = pos->turn != FX_WHITE;
    unsigned sq = rank * w + file;
    unsigned on_rank = -(unsigned)(rank == 5 - 3 * black);  /* rank 6 for white, 3 for black */
    /* off its rank, a middle square stands in, so that no index leaves
     * the board (and no branch is taken) */
    unsigned square = (sq & on_rank) | (3 * w & ~on_rank);
    unsigned ahead = w - 2 * w * black;  /* the next rank the mover's way */
    unsigned valid = on_rank & -(unsigned)((pos->board[square] == FX_EMPTY)
                                           & (pos->board[square + ahead] == FX_EMPTY)
                                           & (pos->board[square - ahead] == FX_BP - 6 * black));
    return (uint8_t)((sq & valid) | (FX_NONE & ~valid));
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
