/* The reader: one row of text into an fx_pos. */
#include <string.h>

#include "readers/readers.h"
#include "rules.h"
#include "tail.h"

#define IS_BLANK FX_IS_BLANK

static int fail(fx_error *err, fx_code code, fx_field field, size_t column,
                uint32_t a, uint32_t b, uint32_t c)
{
    err->code = code;
    err->field = field;
    err->column = column;
    err->a = a;
    err->b = b;
    err->c = c;
    return -1;
}

/* Close a rank of cnt squares.  The first rank sets the width. */
static int close_rank(int rank, int cnt, int *width, size_t wide_col,
                      size_t col, fx_error *err)
{
    if (rank == 0) {
        if (cnt != 8 && cnt != 10)
            return fail(err, FX_E_FIRST_WIDTH, FX_F_PLACEMENT, col, cnt, 0, 0);
        *width = cnt;
        if (cnt == 8 && wide_col != (size_t)-1)
            return fail(err, FX_E_WIDE_PIECE, FX_F_PLACEMENT, wide_col, 0, 0, 0);
        return 0;
    }
    if (cnt != *width)
        return fail(err, FX_E_RANK_SHORT, FX_F_PLACEMENT, col, 8 - rank, cnt, *width);
    return 0;
}

/* The exact reader: placement field from s[i]; squares go to grid[rank * 10 + file] with rank 0
 * = rank 8.  Returns the index just past the field, or (size_t)-1. */
static size_t read_placement(const uint8_t *s, size_t i, size_t end,
                             uint8_t grid[FX_MAX_SQUARES], int *width,
                             fx_error *err)
{
    int rank = 0, cnt = 0, limit = FX_MAX_WIDTH, prev_num = 0, prev_one = 0;
    size_t wide_col = (size_t)-1;

    for (; i < end; i++) {
        uint8_t c = s[i];
        uint8_t code = fx_piece_code[c];
        if (code) {
            if (cnt >= limit) {
                fail(err, FX_E_RANK_LONG, FX_F_PLACEMENT, i, 8 - rank, cnt + 1, *width);
                return (size_t)-1;
            }
            if (code >= FX_WA) {
                if (*width == 8) {
                    fail(err, FX_E_WIDE_PIECE, FX_F_PLACEMENT, i, 0, 0, 0);
                    return (size_t)-1;
                }
                if (wide_col == (size_t)-1)
                    wide_col = i;
            }
            grid[rank * FX_MAX_WIDTH + cnt++] = code;
            prev_num = prev_one = 0;
        } else if ((uint8_t)(c - '0') <= 9) {
            int n = c - '0';
            if (prev_num) {
                if (!(prev_one && n == 0)) {
                    fail(err, FX_E_ADJACENT_NUMBERS, FX_F_PLACEMENT, i, 0, 0, 0);
                    return (size_t)-1;
                }
                n = 9;  /* "1" then "0" is ten; the one is counted already */
                prev_one = 0;
            } else if (n == 0) {
                fail(err, FX_E_ZERO, FX_F_PLACEMENT, i, 0, 0, 0);
                return (size_t)-1;
            } else {
                prev_one = n == 1;
            }
            cnt += n;
            if (cnt > limit) {
                fail(err, FX_E_RANK_LONG, FX_F_PLACEMENT, i, 8 - rank, cnt, *width);
                return (size_t)-1;
            }
            prev_num = 1;
        } else if (c == '/') {
            if (close_rank(rank, cnt, width, wide_col, i, err))
                return (size_t)-1;
            limit = *width;
            if (++rank == FX_HEIGHT) {
                fail(err, FX_E_RANK_COUNT, FX_F_PLACEMENT, i, 9, 0, 0);
                return (size_t)-1;
            }
            cnt = prev_num = prev_one = 0;
        } else if (IS_BLANK(c)) {
            break;
        } else {
            fail(err, FX_E_CHAR, FX_F_PLACEMENT, i, c, 0, 0);
            return (size_t)-1;
        }
    }
    if (close_rank(rank, cnt, width, wide_col, i, err))
        return (size_t)-1;
    if (rank != FX_HEIGHT - 1) {
        fail(err, FX_E_RANK_COUNT, FX_F_PLACEMENT, i, rank + 1, 0, 0);
        return (size_t)-1;
    }
    return i;
}

void fx_init_parse_tables(void)
{
    fx_init_tail_tables();
    fx_readers_init();
}

/* Next field: skip blanks, then [*start, *i) is the field.  0 if none. */
static int next_field(const uint8_t *s, size_t *i, size_t end, size_t *start)
{
    size_t j = *i;
    while (j < end && IS_BLANK(s[j]))
        j++;
    if (j == end) {
        *i = j;
        return 0;
    }
    *start = j;
    while (j < end && !IS_BLANK(s[j]))
        j++;
    *i = j;
    return 1;
}

static int read_castling(const uint8_t *s, size_t j, size_t e, fx_pos *pos,
                         fx_error *err)
{
    int count[2] = {0, 0};
    uint32_t seen[2] = {0, 0};
    int width = pos->width;

    if (s[j] == '-') {
        if (e - j != 1)
            return fail(err, FX_E_CASTLING_DASH, FX_F_CASTLING, j + 1, 0, 0, 0);
        return 0;
    }
    if (s[j] == 's' || s[j] == 'm') {
        pos->prefix = s[j] == 's' ? FX_PREFIX_S : FX_PREFIX_M;
        if (++j == e)
            return fail(err, FX_E_CASTLING_EMPTY_PREFIX, FX_F_CASTLING, j, s[j - 1], 0, 0);
    }
    for (; j < e; j++) {
        uint8_t c = s[j];
        uint8_t lower = c | 0x20;
        int color = c >= 'a';
        if (c == '-')
            return fail(err, FX_E_CASTLING_DASH, FX_F_CASTLING, j, 0, 0, 0);
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')))
            return fail(err, FX_E_CHAR, FX_F_CASTLING, j, c, 0, 0);
        if (lower != 'k' && lower != 'q') {
            if (lower > 'j')
                return fail(err, FX_E_CHAR, FX_F_CASTLING, j, c, 0, 0);
            if (lower - 'a' >= width)
                return fail(err, FX_E_FILE_OFF_BOARD, FX_F_CASTLING, j, c, width, 0);
        }
        if (count[color] == 2)
            return fail(err, FX_E_CASTLING_TOO_MANY, FX_F_CASTLING, j, color, 0, 0);
        uint32_t bit = fx_flag_bit(c);
        if (seen[color] & bit)
            return fail(err, FX_E_CASTLING_REPEAT, FX_F_CASTLING, j, c, 0, 0);
        seen[color] |= bit;
        count[color]++;
    }
    fx_castling_from_sets(pos, seen);
    return 0;
}

static int read_ep(const uint8_t *s, size_t j, size_t e, fx_pos *pos,
                   fx_error *err)
{
    uint8_t f = s[j];
    if (f == '-') {
        if (e - j != 1)
            return fail(err, FX_E_EP_SQUARE, FX_F_EN_PASSANT, j + 1, 0, 0, 0);
        return 0;
    }
    if (f < 'a' || f > 'j')
        return fail(err, FX_E_EP_SQUARE, FX_F_EN_PASSANT, j, 0, 0, 0);
    if (f - 'a' >= pos->width)
        return fail(err, FX_E_FILE_OFF_BOARD, FX_F_EN_PASSANT, j, f, pos->width, 0);
    if (e - j < 2 || s[j + 1] < '1' || s[j + 1] > '8')
        return fail(err, FX_E_EP_SQUARE, FX_F_EN_PASSANT, j + 1, 0, 0, 0);
    if (e - j > 2)
        return fail(err, FX_E_EP_SQUARE, FX_F_EN_PASSANT, j + 2, 0, 0, 0);
    pos->ep = fx_ep_target(pos, f - 'a', s[j + 1] - '1');
    return 0;
}

static int read_counter(const uint8_t *s, size_t j, size_t e, fx_field field,
                        uint32_t *out, fx_error *err)
{
    uint64_t v = 0;
    for (; j < e; j++) {
        unsigned d = (unsigned)s[j] - '0';
        if (d > 9)
            return fail(err, FX_E_DIGITS, field, j, 0, 0, 0);
        v = v * 10 + d;
        if (v > FX_MAX_COUNTER)
            return fail(err, FX_E_COUNTER_RANGE, field, j, 0, 0, 0);
    }
    *out = (uint32_t)v;
    return 0;
}

/* The exact reader's board, for a field the fast readers declined: it
 * names the error; should it accept the field after all, its board is
 * used.  Returns the index past the field, or (size_t)-1. */
static size_t exact_board(const uint8_t *s, size_t i, size_t end, fx_pos *pos, int *width,
                          fx_error *err)
{
    uint8_t grid[FX_MAX_SQUARES];
    memset(grid, 0, sizeof grid);
    *width = 0;
    size_t j = read_placement(s, i, end, grid, width, err);
    if (j == (size_t)-1)
        return j;
    memset(pos->board, 0, sizeof pos->board);
    for (int r = 0; r < FX_HEIGHT; r++)
        memcpy(pos->board + (FX_HEIGHT - 1 - r) * *width, grid + r * FX_MAX_WIDTH,
               (size_t)*width);
    return j;
}

/* The placement field from s[*at] (blanks around the row already cut off
 * at end) into pos->board and pos->width; *at ends just past the field. */
static inline int read_board(const uint8_t *s, size_t *at, size_t end, fx_pos *pos,
                             fx_span *placement, fx_error *err)
{
    size_t i = *at, j;
    int width = 8;

    if (i == end)
        return fail(err, FX_E_TOO_FEW_FIELDS, FX_F_FIELDS, end, 0, 0, 0);
    if ((!fx_reader.read8 || (j = fx_reader.read8(s, i, end, pos->board)) == FX_DECLINE)
        && (j = fx_reader.read(s, i, end, pos->board, &width)) == FX_DECLINE
        && (j = exact_board(s, i, end, pos, &width, err)) == (size_t)-1)
        return -1;
    placement->start = i;
    placement->len = j - i;
    pos->width = (uint8_t)width;
    *at = j;
    return 0;
}

/* The fields after the placement take these values when they are absent. */
static void clear_fields(fx_pos *pos)
{
    pos->turn = FX_WHITE;
    pos->prefix = FX_PREFIX_NONE;
    pos->ep = FX_NONE;
    memset(pos->castling, FX_NONE, sizeof pos->castling);
    pos->halfmove = 0;
    pos->fullmove = 1;
}

/* Side, castling and en passant from s[*at]; *at ends just past the
 * en-passant field. */
static int read_fields(const uint8_t *s, size_t *at, size_t end, fx_pos *pos,
                       fx_error *err)
{
    size_t i = *at, start;
    clear_fields(pos);
    if (!next_field(s, &i, end, &start))
        return fail(err, FX_E_TOO_FEW_FIELDS, FX_F_FIELDS, end, 1, 0, 0);
    if (s[start] != 'w' && s[start] != 'b')
        return fail(err, FX_E_SIDE, FX_F_SIDE, start, 0, 0, 0);
    if (i - start != 1)
        return fail(err, FX_E_SIDE, FX_F_SIDE, start + 1, 0, 0, 0);
    pos->turn = s[start] == 'b';

    if (!next_field(s, &i, end, &start))
        return fail(err, FX_E_TOO_FEW_FIELDS, FX_F_FIELDS, end, 2, 0, 0);
    if (read_castling(s, start, i, pos, err))
        return -1;

    if (!next_field(s, &i, end, &start))
        return fail(err, FX_E_TOO_FEW_FIELDS, FX_F_FIELDS, end, 3, 0, 0);
    if (read_ep(s, start, i, pos, err))
        return -1;
    *at = i;
    return 0;
}

/* Placement, side, castling and en passant; *at ends just past the
 * en-passant field. */
static int read_position(const uint8_t *s, size_t *at, size_t end, fx_pos *pos,
                         fx_span *placement, fx_error *err)
{
    return read_board(s, at, end, pos, placement, err) || read_fields(s, at, end, pos, err);
}

/* The row without the blanks around it: [*start, *end). */
static void trim(const uint8_t *s, size_t len, size_t *start, size_t *end)
{
    size_t i = 0, e = len;
    while (i < e && IS_BLANK(s[i]))
        i++;
    while (e > i && IS_BLANK(s[e - 1]))
        e--;
    *start = i;
    *end = e;
}

/* fx_parse_kept, or fx_parse with kept NULL (what only kept needs is left
 * out); with rules 0 (a verdict, no position: validate) the common rows
 * skip the rules, which never refuse a row.  Each build of it is given
 * kept NULL or a local's address, so that it leaves out what its callers
 * do not need. */
static FX_ALWAYS_INLINE int read_row(const uint8_t *s, size_t len, fx_pos *pos,
                                     fx_span *placement, int *fields, size_t *kept,
                                     fx_error *err, int rules)
{
    size_t i, end, start;
    int same = 0;
    if (kept)
        *kept = 0;
    trim(s, len, &i, &end);
    size_t first = i;
    /* the placement first: its reader's chain of steps is the longest, and
     * the tail, which needs nothing of it, fills the time it leaves */
    if (read_board(s, &i, end, pos, placement, err))
        return -1;
    if (rules ? fx_tail_take(s, first, end, i, pos, fields, kept ? &same : NULL)
              : fx_tail_check(s, first, end, i, pos->width, fields)) {
        if (kept)
            *kept = (end - placement->start) & (0 - (size_t)same);
        return 0;
    }
    if (read_fields(s, &i, end, pos, err))
        return -1;

    *fields = 4;
    if (!next_field(s, &i, end, &start))
        return 0;
    if (read_counter(s, start, i, FX_F_HALFMOVE, &pos->halfmove, err))
        return -1;

    *fields = 5;
    if (!next_field(s, &i, end, &start))
        return 0;
    *fields = 6;
    if (read_counter(s, start, i, FX_F_FULLMOVE, &pos->fullmove, err))
        return -1;
    if (pos->fullmove == 0)
        pos->fullmove = 1;

    if (next_field(s, &i, end, &start))
        return fail(err, FX_E_TOO_MANY_FIELDS, FX_F_FIELDS, start, 0, 0, 0);
    return 0;
}

/* read_row for fx_parse_kept: kept through a local, which the compiler
 * knows is there. */
static FX_ALWAYS_INLINE int read_kept(const uint8_t *s, size_t len, fx_pos *pos,
                                      fx_span *placement, int *fields, size_t *kept,
                                      fx_error *err)
{
    size_t copy;
    int rc = read_row(s, len, pos, placement, fields, &copy, err, 1);
    *kept = copy;
    return rc;
}

/* read_row for every CPU: one function for fx_parse and fx_check_row,
 * one for fx_parse_kept.  Inlined into each caller, as the _v3 functions
 * are, they ran 6 to 18% slower with the SSE2 reader on a Zen 4 (with
 * fewer instructions). */
FX_NOINLINE static int read_row_any(const uint8_t *s, size_t len, fx_pos *pos,
                                    fx_span *placement, int *fields, fx_error *err, int rules)
{
    return read_row(s, len, pos, placement, fields, NULL, err, rules);
}

FX_NOINLINE static int read_kept_any(const uint8_t *s, size_t len, fx_pos *pos,
                                     fx_span *placement, int *fields, size_t *kept, fx_error *err)
{
    return read_kept(s, len, pos, placement, fields, kept, err);
}

#ifdef FX_X86
/* read_row with the instructions of x86-64-v3: the tail's variable shifts
 * and bit scans without the flags they otherwise wait on (shlx, lzcnt),
 * three-operand vector code (on a Zen 4 with the AVX-512 reader, a row in
 * 7% less time).  Run when the installed reader set says so. */
#define V3 FX_TARGET("avx2,bmi,bmi2,lzcnt,popcnt")
V3 static int parse_v3(const uint8_t *s, size_t len, fx_pos *pos, fx_span *placement,
                       int *fields, fx_error *err)
{
    return read_row(s, len, pos, placement, fields, NULL, err, 1);
}

V3 static int parse_kept_v3(const uint8_t *s, size_t len, fx_pos *pos, fx_span *placement,
                            int *fields, size_t *kept, fx_error *err)
{
    return read_kept(s, len, pos, placement, fields, kept, err);
}

V3 static int check_row_v3(const uint8_t *s, size_t len, fx_error *err)
{
    fx_pos pos;
    fx_span placement;
    int fields;
    return read_row(s, len, &pos, &placement, &fields, NULL, err, 0);
}
#undef V3
#define IF_V3(call)         \
    if (fx_reader.v3)       \
        return call;
#else
#define IF_V3(call)
#endif

int fx_parse(const uint8_t *s, size_t len, fx_pos *pos, fx_span *placement,
             int *fields, fx_error *err)
{
    IF_V3(parse_v3(s, len, pos, placement, fields, err))
    return read_row_any(s, len, pos, placement, fields, err, 1);
}

int fx_parse_kept(const uint8_t *s, size_t len, fx_pos *pos, fx_span *placement, int *fields,
                  size_t *kept, fx_error *err)
{
    IF_V3(parse_kept_v3(s, len, pos, placement, fields, kept, err))
    return read_kept_any(s, len, pos, placement, fields, kept, err);
}

int fx_check_row(const uint8_t *s, size_t len, fx_error *err)
{
    IF_V3(check_row_v3(s, len, err))
    fx_pos pos;
    fx_span placement;
    int fields;
    return read_row_any(s, len, &pos, &placement, &fields, err, 0);
}

#define IS_LETTER(c) ((uint8_t)(((c) | 0x20) - 'a') < 26)
#define IS_OPCODE_CHAR(c) (IS_LETTER(c) || (uint8_t)((c) - '0') < 10 || (c) == '_')

/* EPD operations: `opcode {operand} ;` ... with operands that may be quoted
 * strings holding ';'.  An opcode is a letter, then letters, digits and
 * '_' (so counters written before the operations, `0 41 bm e4;`, are no
 * opcode).  The counters of hmvc / fmvn are read into pos. */
static int read_operations(const uint8_t *s, size_t i, size_t end, fx_pos *pos,
                           fx_error *err)
{
    while (i < end) {
        while (i < end && IS_BLANK(s[i]))
            i++;
        if (i == end)
            break;
        size_t op = i;
        while (i < end && !IS_BLANK(s[i]) && s[i] != ';')
            i++;
        size_t op_len = i - op;
        if (op_len == 0 || !IS_LETTER(s[op]))
            return fail(err, FX_E_EPD_OPCODE, FX_F_OPERATIONS, op, s[op], 1, 0);
        for (size_t k = op + 1; k < i; k++)
            if (!IS_OPCODE_CHAR(s[k]))
                return fail(err, FX_E_EPD_OPCODE, FX_F_OPERATIONS, k, s[k], 0, 0);
        while (i < end && IS_BLANK(s[i]))
            i++;
        size_t operand = i;
        int quoted = 0;
        while (i < end && (quoted || s[i] != ';')) {
            quoted ^= s[i] == '"';
            i++;
        }
        if (i == end)
            return fail(err, FX_E_EPD_OPERATION, FX_F_OPERATIONS, op, 0, 0, 0);
        size_t operand_end = i++;  /* past the ';' */
        while (operand_end > operand && IS_BLANK(s[operand_end - 1]))
            operand_end--;
        if (op_len == 4 && (memcmp(s + op, "hmvc", 4) == 0 || memcmp(s + op, "fmvn", 4) == 0)) {
            int half = s[op] == 'h';
            fx_field field = half ? FX_F_HALFMOVE : FX_F_FULLMOVE;
            if (operand == operand_end)
                return fail(err, FX_E_DIGITS, field, operand, 0, 0, 0);
            if (read_counter(s, operand, operand_end, field,
                             half ? &pos->halfmove : &pos->fullmove, err))
                return -1;
            if (pos->fullmove == 0)
                pos->fullmove = 1;
        }
    }
    return 0;
}

int fx_parse_epd(const uint8_t *s, size_t len, fx_pos *pos, fx_span *placement,
                 fx_span *operations, fx_error *err)
{
    size_t i, end;
    trim(s, len, &i, &end);
    if (read_position(s, &i, end, pos, placement, err))
        return -1;
    while (i < end && IS_BLANK(s[i]))
        i++;
    operations->start = i;
    operations->len = end - i;
    return read_operations(s, i, end, pos, err);
}
