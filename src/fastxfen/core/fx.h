/* fastxfen core: the position record and the kernels that read, repair and
 * write it.  Pure C, no Python: every kernel takes explicit lengths and never
 * reads or writes past them. */
#ifndef FASTXFEN_FX_H
#define FASTXFEN_FX_H

#include <stddef.h>
#include <stdint.h>

#define FX_HEIGHT 8
#define FX_MAX_WIDTH 10
#define FX_MAX_SQUARES (FX_HEIGHT * FX_MAX_WIDTH)
#define FX_NONE 255            /* no square / no castling rook */
#define FX_MAX_COUNTER 4294967295u
#define FX_MAX_OUTPUT 160      /* longest text fx_write can produce */

/* Piece codes, one byte per square.  0 is empty.  For 8x8 boards code - 1 is
 * the usual 12-plane index (white P N B R Q K, then black p n b r q k). */
enum {
    FX_EMPTY = 0,
    FX_WP = 1, FX_WN, FX_WB, FX_WR, FX_WQ, FX_WK,
    FX_BP = 7, FX_BN, FX_BB, FX_BR, FX_BQ, FX_BK,
    FX_WA = 13, FX_WC = 14, FX_BA = 15, FX_BC = 16,
    FX_CODE_LIMIT = 17
};

enum { FX_WHITE = 0, FX_BLACK = 1 };
enum { FX_PREFIX_NONE = 0, FX_PREFIX_S = 1, FX_PREFIX_M = 2 };
/* castling[] slots: per color, the h-side (king side) then the a-side. */
enum { FX_WHITE_H = 0, FX_WHITE_A = 1, FX_BLACK_H = 2, FX_BLACK_A = 3 };

/* The one position record every path shares.  Its layout is the public
 * 10x8 numpy dtype (96 bytes); the 8x8 dtype is the same fields with a
 * 64-square board (80 bytes).  Square index = rank * width + file, rank 0 is
 * rank 1, file 0 is file a. */
typedef struct {
    uint8_t board[FX_MAX_SQUARES];
    uint8_t width;        /* 8 or 10 */
    uint8_t turn;         /* FX_WHITE / FX_BLACK */
    uint8_t prefix;       /* FX_PREFIX_* of the castling field */
    uint8_t ep;           /* en-passant target square, FX_NONE if none */
    uint8_t castling[4];  /* rook file per slot, FX_NONE if no right */
    uint32_t halfmove;
    uint32_t fullmove;    /* >= 1 */
} fx_pos;

/* The public 8x8 record: the fields of fx_pos with a 64-square board. */
typedef struct {
    uint8_t board[64];
    uint8_t width, turn, prefix, ep;
    uint8_t castling[4];
    uint32_t halfmove;
    uint32_t fullmove;
} fx_rec8;

/* Fields, in reading order; FX_F_FIELDS reports a wrong number of fields. */
typedef enum {
    FX_F_PLACEMENT = 0, FX_F_SIDE, FX_F_CASTLING, FX_F_EN_PASSANT,
    FX_F_HALFMOVE, FX_F_FULLMOVE, FX_F_FIELDS, FX_F_RECORD_BOARD,
    FX_F_RECORD_WIDTH, FX_F_RECORD_TURN, FX_F_RECORD_PREFIX, FX_F_RECORD_EP,
    FX_F_RECORD_CASTLING, FX_F_RECORD_HALFMOVE, FX_F_RECORD_FULLMOVE,
    FX_F_OPERATIONS
} fx_field;

/* Why a row was rejected.  Messages are built from these by the Python glue;
 * a and b carry the numbers a message names. */
typedef enum {
    FX_OK = 0,
    FX_E_CHAR,            /* unexpected character (a = byte) */
    FX_E_ZERO,            /* '0' as an empty-square count */
    FX_E_ADJACENT_NUMBERS,/* a number directly after a number */
    FX_E_RANK_LONG,       /* rank a reaches b squares, past width c (0: rank 8) */
    FX_E_RANK_SHORT,      /* rank a covers b squares, expected width */
    FX_E_FIRST_WIDTH,     /* rank 8 covers a squares, expected 8 or 10 */
    FX_E_RANK_COUNT,      /* a ranks, expected 8 */
    FX_E_WIDE_PIECE,      /* A / C on an 8-wide board (a = byte) */
    FX_E_SIDE,            /* side is not w or b */
    FX_E_CASTLING_DASH,   /* '-' mixed with flags */
    FX_E_CASTLING_EMPTY_PREFIX, /* prefix without flags */
    FX_E_CASTLING_TOO_MANY,     /* a third flag for a color (a = color) */
    FX_E_CASTLING_REPEAT, /* flag given twice (a = byte) */
    FX_E_FILE_OFF_BOARD,  /* file letter beyond the width (a = byte, b = width) */
    FX_E_EP_SQUARE,       /* not '-' or a square name */
    FX_E_DIGITS,          /* counter is not ASCII decimal digits */
    FX_E_COUNTER_RANGE,   /* counter above FX_MAX_COUNTER */
    FX_E_TOO_FEW_FIELDS,  /* a fields, expected 4 to 6 */
    FX_E_TOO_MANY_FIELDS, /* more than 6 fields */
    FX_E_WIDE_ROW,        /* a 10-wide row for an 8x8 record */
    FX_E_RECORD_VALUE,    /* record value a out of range (b = limit) */
    FX_E_EPD_OPERATION,   /* an EPD operation without its closing ';' */
    FX_E_EPD_OPCODE,      /* opcode not a letter then letters, digits, '_' (a = byte, b = 1: first) */
    FX_E_RECORD_CODE_LIMIT
} fx_code;

typedef struct {
    uint32_t code;     /* fx_code */
    uint32_t field;    /* fx_field */
    uint64_t column;   /* 0-based byte offset in the row, or index in a field */
    uint32_t a, b, c;  /* numbers the message names */
} fx_error;

typedef enum { FX_CASTLING_XFEN = 0, FX_CASTLING_SHREDDER = 1 } fx_castling_mode;
typedef enum { FX_EP_FEN = 0, FX_EP_XFEN = 1, FX_EP_LEGAL = 2 } fx_ep_mode;

/* Where the placement field lies in the text that was read, so a writer can
 * copy it verbatim (a valid placement is already canonical). */
typedef struct {
    size_t start, len;
} fx_span;

/* parse.c: read one row of text (no line terminator) into *pos, repairing
 * castling rights and dropping an invalid en-passant target; *fields is the
 * number of fields the row had (4, 5 or 6).  Returns 0, or -1 with *err
 * filled. */
int fx_parse(const uint8_t *text, size_t len, fx_pos *pos, fx_span *placement,
             int *fields, fx_error *err);

/* parse.c: fx_parse, and *kept: when the row, from its placement on (the
 * blanks around it left out), is the text fx_write writes for it in X-FEN
 * castling with its own number of fields (any en-passant mode: the row
 * has no en-passant square), that text's length; else 0.  The row loop
 * then copies the row. */
int fx_parse_kept(const uint8_t *text, size_t len, fx_pos *pos, fx_span *placement,
                  int *fields, size_t *kept, fx_error *err);
#define FX_HAS_PARSE_KEPT 1

/* parse.c: fx_parse's verdict on a row (0, or -1 with *err), without the
 * position: the common rows skip the castling and en-passant rules, which
 * never refuse a row (validate). */
int fx_check_row(const uint8_t *text, size_t len, fx_error *err);

/* parse.c: read one EPD row: the four position fields, then operations,
 * kept as text (*operations, possibly empty); hmvc / fmvn operations give
 * the counters.  An opcode is a letter, then letters, digits and '_'. */
int fx_parse_epd(const uint8_t *text, size_t len, fx_pos *pos, fx_span *placement,
                 fx_span *operations, fx_error *err);

/* A castling flag's bit in its color's set: K, Q, then file a onwards. */
enum { FX_FLAG_K = 0, FX_FLAG_Q = 1, FX_FLAG_FILES = 2 };
static inline uint32_t fx_flag_bit(uint8_t flag)
{
    uint8_t lower = flag | 0x20;
    return 1u << (lower == 'k' ? FX_FLAG_K : lower == 'q' ? FX_FLAG_Q
                                                           : FX_FLAG_FILES + (lower - 'a'));
}

/* rules.c: castling flags (the bytes of the field, prefix excluded) to
 * repaired rights; repair of rights already given as rook files; en-passant
 * target validity and the per-mode test (rules.h: the reader's inline
 * rules). */
void fx_castling_from_flags(fx_pos *pos, const uint8_t *flags, size_t n);
/* The same from each color's flags as a bit set (fx_flag_bit); returns
 * the four slots as stored (slot k in byte k). */
uint32_t fx_castling_from_sets(fx_pos *pos, const uint32_t sets[2]);
void fx_repair_castling(fx_pos *pos);
int fx_ep_valid(const fx_pos *pos);
int fx_ep_keep(const fx_pos *pos, fx_ep_mode mode);

/* record.c: check a record handed in by a user and bring it to the state the
 * reader would have left it in (repaired rights, valid en passant). */
int fx_check_record(fx_pos *pos, int max_width, fx_error *err);
void fx_pos_to_rec8(const fx_pos *pos, void *rec);
void fx_rec8_to_pos(const void *rec, fx_pos *pos);
/* Store a parsed position as a record of the wide (96-byte) or 8x8 layout;
 * a 10-wide position has no 8x8 record (FX_E_WIDE_ROW at `column`). */
int fx_store_record(const fx_pos *pos, void *dest, int wide, size_t column,
                    fx_error *err);
/* Load and check a record of either layout (fx_check_record). */
int fx_load_record(const void *src, int wide, fx_pos *pos, fx_error *err);

/* write.c: fx_init_tables must run once before the first fx_write. */
void fx_init_tables(void);

/* write.c: write the text of *pos into out (at least FX_MAX_OUTPUT bytes):
 * the four position fields, then with fields 5 the halfmove clock, with 6
 * both counters (any other value: none).  When placement is non-NULL its
 * bytes are copied instead of rebuilding the placement from the board.
 * Returns the length written. */
size_t fx_write(const fx_pos *pos, fx_castling_mode castling, fx_ep_mode ep, int fields,
                const uint8_t *placement, size_t placement_len, uint8_t *out);

_Static_assert(sizeof(fx_pos) == 96, "fx_pos is the 96-byte public record");
_Static_assert(sizeof(fx_rec8) == 80, "fx_rec8 is the 80-byte public record");

#endif
