#include "tables.h"

const uint8_t fx_piece_code[256] = {
    ['P'] = FX_WP, ['N'] = FX_WN, ['B'] = FX_WB, ['R'] = FX_WR, ['Q'] = FX_WQ,
    ['K'] = FX_WK, ['A'] = FX_WA, ['C'] = FX_WC,
    ['p'] = FX_BP, ['n'] = FX_BN, ['b'] = FX_BB, ['r'] = FX_BR, ['q'] = FX_BQ,
    ['k'] = FX_BK, ['a'] = FX_BA, ['c'] = FX_BC,
};

const char fx_piece_letter[FX_CODE_LIMIT] = {
    [FX_EMPTY] = '?',
    [FX_WP] = 'P', [FX_WN] = 'N', [FX_WB] = 'B', [FX_WR] = 'R', [FX_WQ] = 'Q',
    [FX_WK] = 'K', [FX_BP] = 'p', [FX_BN] = 'n', [FX_BB] = 'b', [FX_BR] = 'r',
    [FX_BQ] = 'q', [FX_BK] = 'k', [FX_WA] = 'A', [FX_WC] = 'C', [FX_BA] = 'a',
    [FX_BC] = 'c',
};

#define W 0
#define B FX_A_BLACK
const uint8_t fx_attack_class[FX_CODE_LIMIT] = {
    [FX_WP] = W | FX_A_PAWN, [FX_WN] = W | FX_A_KNIGHT, [FX_WB] = W | FX_A_DIAG,
    [FX_WR] = W | FX_A_ORTHO, [FX_WQ] = W | FX_A_ORTHO | FX_A_DIAG,
    [FX_WK] = W | FX_A_KING, [FX_WA] = W | FX_A_KNIGHT | FX_A_DIAG,
    [FX_WC] = W | FX_A_KNIGHT | FX_A_ORTHO,
    [FX_BP] = B | FX_A_PAWN, [FX_BN] = B | FX_A_KNIGHT, [FX_BB] = B | FX_A_DIAG,
    [FX_BR] = B | FX_A_ORTHO, [FX_BQ] = B | FX_A_ORTHO | FX_A_DIAG,
    [FX_BK] = B | FX_A_KING, [FX_BA] = B | FX_A_KNIGHT | FX_A_DIAG,
    [FX_BC] = B | FX_A_KNIGHT | FX_A_ORTHO,
};
#undef W
#undef B
