/* The scalar placement reader: a grid reader in plain C, for any CPU
 * (readers.h). */
#include "readers.h"

/* One entry per placement byte: the piece code in bits 0-7, the squares it
 * advances in bits 8-15, and flags.  A zero entry is a byte this reader
 * leaves to the exact one. */
#define T_DIGIT (1u << 16)
#define T_WIDE (1u << 17)
#define T_SLASH_SHIFT 18
#define T_SLASH (1u << T_SLASH_SHIFT)
#define PIECE(code) ((uint32_t)(code) | 1u << 8)
#define DIGIT(n) ((uint32_t)(n) << 8 | T_DIGIT)
static const uint32_t PLACEMENT[256] = {
    ['P'] = PIECE(FX_WP), ['N'] = PIECE(FX_WN), ['B'] = PIECE(FX_WB),
    ['R'] = PIECE(FX_WR), ['Q'] = PIECE(FX_WQ), ['K'] = PIECE(FX_WK),
    ['A'] = PIECE(FX_WA) | T_WIDE, ['C'] = PIECE(FX_WC) | T_WIDE,
    ['p'] = PIECE(FX_BP), ['n'] = PIECE(FX_BN), ['b'] = PIECE(FX_BB),
    ['r'] = PIECE(FX_BR), ['q'] = PIECE(FX_BQ), ['k'] = PIECE(FX_BK),
    ['a'] = PIECE(FX_BA) | T_WIDE, ['c'] = PIECE(FX_BC) | T_WIDE,
    ['1'] = DIGIT(1), ['2'] = DIGIT(2), ['3'] = DIGIT(3), ['4'] = DIGIT(4),
    ['5'] = DIGIT(5), ['6'] = DIGIT(6), ['7'] = DIGIT(7), ['8'] = DIGIT(8),
    ['/'] = T_SLASH,  /* '9' and "10" (10x8 only) take the slow branch */
};

/* When every rank is valid, a byte's square index is simply the number of
 * squares before it, so there is no per-rank state: pieces and digits
 * share one path, a slash advances nothing and only notes where its rank
 * ended.  Each byte stores eight bytes at its square: its piece code (0
 * for a digit) then zeros, which empties a run of up to 8 squares; later
 * bytes overwrite the excess, so a valid placement leaves every square
 * written and the grid needs no clearing.  Rank widths, digit pairs and
 * A/C on 8-wide boards are checked once at the end.  Indexes are masked,
 * so no input writes outside the grid. */
size_t fx_read_scalar(const uint8_t *s, size_t i, size_t end, uint8_t board[80], int *width)
{
    uint8_t grid[128 + 16];  /* the squares in text order (rank 8 first) */
    static const uint8_t zeros[16] = {0};
    size_t at = 0, slashes = 0, ends[16] = {0};
    uint32_t acc = 0, prev = 0;

    for (; i < end; i++) {
        uint8_t c = s[i];
        uint32_t e = PLACEMENT[c];
        if (!e) {
            /* '9' and the '0' of "10" only occur on 10-wide boards */
            if (c == '9') {
                memcpy(grid + (at & 127), zeros, 16);
                at += 9;
                ends[slashes & 15] = at;
                acc |= prev & T_DIGIT;
                prev = T_DIGIT;
                continue;
            }
            if (c == '0' && (prev & T_DIGIT) && s[i - 1] == '1') {
                memcpy(grid + (at & 127), zeros, 16);
                at += 9;  /* the one is counted already */
                ends[slashes & 15] = at;
                continue;
            }
            if (FX_IS_BLANK(c))
                break;
            return FX_DECLINE;
        }
        uint64_t square = (uint8_t)e;
        memcpy(grid + (at & 127), &square, 8);
        at += (e >> 8) & 0xFF;
        ends[slashes & 15] = at;
        slashes += e >> T_SLASH_SHIFT;
        acc |= e & (prev | T_WIDE);  /* two digits in a row; A/C seen */
        prev = e;
    }
    size_t w = ends[0];
    if (slashes != FX_HEIGHT - 1 || (w != 8 && w != 10) || at != FX_HEIGHT * w
        || (acc & T_DIGIT) || ((acc & T_WIDE) && w == 8))
        return FX_DECLINE;
    for (size_t r = 1; r < FX_HEIGHT - 1; r++)
        if (ends[r] != (r + 1) * w)
            return FX_DECLINE;
    *width = (int)w;
    fx_board_from_grid(board, grid, (int)w);
    return i;
}
