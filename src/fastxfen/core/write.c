/* The writer: an fx_pos into canonical text. */
#include <string.h>

#include "readers/readers.h"

uint8_t fx_rank_text[256][8];
uint8_t fx_rank_len[256];

/* For each rank occupancy, where in the rank's text each file's piece
 * goes; 8 (past the text, which has at most eight bytes) for an empty
 * file. */
static uint8_t piece_at[256][8];

/* The two digits of each number below 100, the first '0' for one digit. */
static uint8_t digits2[100][2];

/* The castling field of each set of standard rights (bit k: slot k, in
 * the order K, Q, k, q), '-' for none, and its length. */
static uint8_t standard_rights[16][4];
static uint8_t standard_rights_len[16];

static void init_fields(void)
{
    for (int v = 0; v < 100; v++) {
        digits2[v][0] = (uint8_t)('0' + v / 10);
        digits2[v][1] = (uint8_t)('0' + v % 10);
    }
    for (int set = 0; set < 16; set++) {
        int n = 0;
        for (int k = 0; k < 4; k++)
            if (set >> k & 1)
                standard_rights[set][n++] = (uint8_t)"KQkq"[k];
        if (!n)
            standard_rights[set][n++] = '-';
        standard_rights_len[set] = (uint8_t)n;
    }
}

void fx_init_tables(void)
{
    fx_init_parse_tables();
    init_fields();
    for (int mask = 0; mask < 256; mask++) {
        int n = 0, run = 0;
        for (int f = 0; f < 8; f++) {
            piece_at[mask][f] = 8;
            if (mask >> f & 1) {
                if (run)
                    fx_rank_text[mask][n++] = (uint8_t)('0' + run);
                piece_at[mask][f] = (uint8_t)n;
                fx_rank_text[mask][n++] = (uint8_t)(0x80 | f);
                run = 0;
            } else {
                run++;
            }
        }
        if (run)
            fx_rank_text[mask][n++] = (uint8_t)('0' + run);
        fx_rank_len[mask] = (uint8_t)n;
    }
}

/* An 8-square rank, its occupancy given (bit f: file f): the text of
 * the occupancy (digits in place), then each file's letter stored where
 * the table puts its piece, eight stores and no branch (an empty file's
 * letter lands in the byte past the text, inside the writer's room: the
 * slash or the next field overwrites it, or it lies past the end). */
static inline uint8_t *write_rank8(const uint8_t *rank, unsigned mask, uint8_t *o)
{
    const uint8_t *at = piece_at[mask];
    memcpy(o, fx_rank_text[mask], 8);
    for (int f = 0; f < 8; f++)
        o[at[f]] = (uint8_t)fx_piece_letter[rank[f]];
    return o + fx_rank_len[mask];
}

/* Rank r of an 8-wide board and its slash. */
static inline uint8_t *write_rank8_slash(const uint8_t *board, uint64_t occupied, int r,
                                         uint8_t *o)
{
    o = write_rank8(board + 8 * r, (unsigned)(occupied >> 8 * r) & 0xFF, o);
    *o = '/';
    return o + 1;
}

/* An 8-wide placement, rank 8 first, from the board's occupancy; the
 * ranks are written out (a loop is a branch the row's end mispredicts). */
static uint8_t *write_placement8(const uint8_t *board, uint8_t *o)
{
    uint64_t occupied = ~fx_equal64(board, FX_EMPTY);
    o = write_rank8_slash(board, occupied, 7, o);
    o = write_rank8_slash(board, occupied, 6, o);
    o = write_rank8_slash(board, occupied, 5, o);
    o = write_rank8_slash(board, occupied, 4, o);
    o = write_rank8_slash(board, occupied, 3, o);
    o = write_rank8_slash(board, occupied, 2, o);
    o = write_rank8_slash(board, occupied, 1, o);
    return write_rank8(board, (unsigned)occupied & 0xFF, o);
}

static uint8_t *write_rank(const uint8_t *rank, int width, uint8_t *o)
{
    int run = 0;
    for (int f = 0; f < width; f++) {
        uint8_t code = rank[f];
        if (code == FX_EMPTY) {
            run++;
            continue;
        }
        if (run == 10) {
            *o++ = '1';
            *o++ = '0';
        } else if (run) {
            *o++ = (uint8_t)('0' + run);
        }
        run = 0;
        *o++ = (uint8_t)fx_piece_letter[code];
    }
    if (run == 10) {
        *o++ = '1';
        *o++ = '0';
    } else if (run) {
        *o++ = (uint8_t)('0' + run);
    }
    return o;
}

static uint8_t *write_placement(const fx_pos *pos, uint8_t *o)
{
    int w = pos->width;
    size_t n;
    if (w == 8) {
        if (fx_reader.write8 && (n = fx_reader.write8(pos->board, o)))
            return o + n;
        return write_placement8(pos->board, o);
    }
    for (int r = FX_HEIGHT - 1; r >= 0; r--) {
        o = write_rank(pos->board + r * w, w, o);
        *o = '/';
        o += r != 0;
    }
    return o;
}

/* The castling field.  Rights on the edge files alone (standard chess),
 * written as X-FEN without a prefix, come from a table by the set held.
 * Otherwise each of the four slots writes its letter and moves
 * on only when it holds a right, so the bytes of the field decide no
 * branch (a slot's letter is computed, then kept or overwritten).  X-FEN
 * names a rook by its file only when a rook of the color stands further
 * out on its side, which no right on the board's edge file has: the back
 * ranks are read only for rights on inner files (Chess960). */
static uint8_t *write_castling(const fx_pos *pos, fx_castling_mode mode, uint8_t *o)
{
    uint32_t slots;
    memcpy(&slots, pos->castling, 4);
    /* 0x01 in each byte of a slot that holds a right (a file, below 0x80) */
    uint32_t held = (~slots & 0x80808080u) >> 7;
    uint32_t edges = (pos->width - 1u) * 0x00010001u;  /* K, k on the last file; Q, q on a */
    if (mode == FX_CASTLING_XFEN && pos->prefix == FX_PREFIX_NONE
        && (slots & held * 0xFF) == (edges & held * 0xFF)) {
        /* rights on edge files only: no rook stands further out */
        unsigned set = (held * 0x00204081u) >> 21 & 0xF;  /* byte k's bit to bit k */
        memcpy(o, standard_rights[set], 4);
        return o + standard_rights_len[set];
    }
    uint8_t *start = o;
    if (pos->prefix != FX_PREFIX_NONE)
        *o++ = pos->prefix == FX_PREFIX_S ? 's' : 'm';
    uint8_t *flags = o;
    int files = mode != FX_CASTLING_XFEN;
    unsigned last = pos->width - 1u;
    const uint8_t *slot = pos->castling;
    uint32_t rooks[2] = {0, 0};
    if (!files && ((slot[0] < last) | (slot[2] < last) | ((uint8_t)(slot[1] - 1) < last)
                   | ((uint8_t)(slot[3] - 1) < last))) {
        rooks[0] = fx_back_rank_rooks(pos, 0);
        rooks[1] = fx_back_rank_rooks(pos, 1);
    }
    for (int color = 0; color < 2; color++) {
        uint8_t lower = color ? 0x20 : 0;
        uint8_t h = slot[2 * color], a = slot[2 * color + 1];
        int h_file = files | (rooks[color] >> (h & 31) >> 1 != 0);
        int a_file = files | ((rooks[color] & ((1u << (a & 31)) - 1)) != 0);
        *o = (uint8_t)((h_file ? 'A' + h : 'K') | lower);
        o += h != FX_NONE;
        *o = (uint8_t)((a_file ? 'A' + a : 'Q') | lower);
        o += a != FX_NONE;
    }
    int none = o == flags;
    o = none ? start : o;
    *o = '-';
    return o + none;
}

/* A counter in decimal: below 100 (most counters) two bytes are written,
 * of which the second is kept for one digit, with no branch on the value. */
static inline uint8_t *write_u32(uint32_t v, uint8_t *o)
{
    if (v < 100) {
        int one = v < 10;
        memcpy(o, digits2[v] + one, 2);
        return o + 2 - one;
    }
    uint8_t digits[10];
    int n = 0;
    do {
        digits[n++] = (uint8_t)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *o++ = digits[--n];
    return o;
}

size_t fx_write(const fx_pos *pos, fx_castling_mode castling, fx_ep_mode ep, int fields,
                const uint8_t *placement, size_t placement_len, uint8_t *out)
{
    uint8_t *o = out + placement_len;
    if (placement)
        fx_copy96(out, placement, placement_len);
    else
        o = write_placement(pos, out);
    memcpy(o, pos->turn ? " b  " : " w  ", 4);  /* the fourth byte is overwritten */
    o = write_castling(pos, castling, o + 3);
    *o++ = ' ';
    if (pos->ep != FX_NONE && fx_ep_keep(pos, ep)) {
        *o++ = (uint8_t)('a' + pos->ep % pos->width);
        *o++ = (uint8_t)('1' + pos->ep / pos->width);
    } else {
        *o++ = '-';
    }
    if (fields == 5 || fields == 6) {
        *o++ = ' ';
        o = write_u32(pos->halfmove, o);
    }
    if (fields == 6) {
        *o++ = ' ';
        o = write_u32(pos->fullmove, o);
    }
    return (size_t)(o - out);
}
