/* Differential check of the placement readers and writers
 * (core/readers/): every reader built in that this CPU runs, against the
 * exact reader, on random boards of both widths written as text and then
 * mutated, cut short and padded with blanks.  A fast reader may decline a
 * valid field (the exact reader then reads it), but whenever it accepts one
 * the exact reader must accept it too, end at the same byte and give the
 * same board.  Each set's read8 and read are checked.  An 8-wide reader
 * (read8: AVX-512, AVX2, SSE2, NEON) must moreover accept every valid
 * 8-wide field of up to 64 bytes, and its writer must write every random
 * 8-wide board as the table-driven writer does.
 *
 *     cc -O1 -std=c11 -I src/fastxfen/core tests/c/placement_readers.c \
 *        src/fastxfen/core/readers/{choose,scalar,sse2,avx2,avx512,neon}.c \
 *        src/fastxfen/core/{tail,rules,write,tables,record}.c -o readers
 *     ./readers ROWS SEED
 *
 * Prints a line per reader, "NAME runs 0|1 accepted A declined D written W
 * mismatches M" (declined: valid fields left to the exact reader; written:
 * boards its writer wrote), then "rows R mismatches M"; exits 1 on a
 * mismatch.  Each row is copied to a buffer of exactly its length, so a
 * sanitizer build catches any read past it. */
#include "parse.c"

#include <stdio.h>
#include <stdlib.h>

static uint64_t state;

static uint64_t next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

/* A random board of the given width, of a random density; archbishops and
 * chancellors on 10-wide boards, and with `any` on 8-wide ones too. */
static void random_board(int width, int any, fx_pos *pos)
{
    static const uint8_t wide[] = {FX_WA, FX_WC, FX_BA, FX_BC};
    memset(pos, 0, sizeof *pos);
    pos->width = (uint8_t)width;
    pos->castling[0] = pos->castling[1] = pos->castling[2] = pos->castling[3] = FX_NONE;
    pos->ep = FX_NONE;
    unsigned density = (unsigned)(next() % 101);
    for (int sq = 0; sq < width * FX_HEIGHT; sq++) {
        if (next() % 100 >= density)
            continue;
        uint8_t code = (uint8_t)(1 + next() % 12);
        if ((width == 10 || any) && next() % 4 == 0)
            code = wide[next() % 4];
        pos->board[sq] = code;
    }
}

/* A random board of the given width as placement text; returns its length. */
static size_t random_placement(int width, uint8_t *out)
{
    fx_pos pos;
    random_board(width, 0, &pos);
    uint8_t text[FX_MAX_OUTPUT];
    size_t len = fx_write(&pos, FX_CASTLING_XFEN, FX_EP_FEN, 4, NULL, 0, text);
    size_t n = 0;
    while (n < len && text[n] != ' ')
        n++;
    memcpy(out, text, n);
    return n;
}

static void mutate(uint8_t *row, size_t *len, size_t cap)
{
    static const char alphabet[] = "PNBRQKACpnbrqkacxz0123456789/ \t-w\x80\xff";
    uint8_t c = (uint8_t)alphabet[next() % (sizeof alphabet - 1)];
    size_t n = *len;
    switch (next() % 3) {
    case 0:
        if (n)
            row[next() % n] = c;
        break;
    case 1:
        if (n < cap) {
            size_t at = next() % (n + 1);
            memmove(row + at + 1, row + at, n - at);
            row[at] = c;
            *len = n + 1;
        }
        break;
    default:
        if (n) {
            size_t at = next() % n;
            memmove(row + at, row + at + 1, n - at - 1);
            *len = n - 1;
        }
    }
}

/* What one reader did. */
typedef struct {
    long accepted, declined, written, mismatches;
} tally;

/* The random rows, each with the exact reader's answer. */
typedef struct {
    uint8_t *text;
    size_t start, len, exact_end;
    int exact_width;
    uint8_t grid[FX_MAX_SQUARES];  /* the exact reader's, rank 8 first */
} row;

/* A random placement (of either width) with a tail, mutated, cut short. */
static int next_row(row *r)
{
    uint8_t text[256];
    size_t len = random_placement(next() % 3 ? 8 : 10, text);
    static const char *tails[] = {"", " w", "\t", " b KQkq - 0 1"};
    const char *tail = tails[next() % 4];
    memcpy(text + len, tail, strlen(tail));
    len += strlen(tail);
    int mutations = next() % 4 == 0 ? 0 : (int)(next() % 4);
    for (int m = 0; m < mutations; m++)
        mutate(text, &len, 200);
    if (next() % 8 == 0)
        len = next() % (len + 1);
    size_t start = 0;
    while (start < len && IS_BLANK(text[start]))
        start++;
    if (start == len)
        return 0;
    r->text = malloc(len);
    memcpy(r->text, text, len);
    r->start = start;
    r->len = len;
    fx_error err;
    memset(r->grid, 0, sizeof r->grid);
    r->exact_width = 0;
    r->exact_end = read_placement(r->text, start, len, r->grid, &r->exact_width, &err);
    return 1;
}

/* Does board (a1 first) hold the exact reader's squares of width w, and
 * for 8-wide boards zeros past the 64 squares? */
static int same_board(const row *r, const uint8_t *board, int w)
{
    int same = 1;
    for (int k = 0; same && k < FX_HEIGHT; k++)
        same = memcmp(board + (FX_HEIGHT - 1 - k) * w, r->grid + k * FX_MAX_WIDTH, (size_t)w) == 0;
    for (int k = 64; same && w == 8 && k < FX_MAX_SQUARES; k++)
        same = board[k] == 0;
    return same;
}

/* A reader of either width (read) on one row. */
static int read_agrees(fx_read_fn read, const row *r, tally *t)
{
    uint8_t board[FX_MAX_SQUARES];
    int width = 0;
    memset(board, 0xEE, sizeof board);
    size_t end = read(r->text, r->start, r->len, board, &width);
    if (end == FX_DECLINE) {
        t->declined += r->exact_end != (size_t)-1;
        return 1;
    }
    t->accepted++;
    return r->exact_end == end && r->exact_width == width && same_board(r, board, width);
}

/* An 8-wide reader (read8) on one row: it must also accept every valid
 * 8-wide field of up to 64 bytes. */
static int read8_agrees(fx_read8_fn read8, const row *r, tally *t)
{
    uint8_t board[FX_MAX_SQUARES];
    memset(board, 0xEE, sizeof board);
    size_t end = read8(r->text, r->start, r->len, board);
    if (end == FX_DECLINE)
        return !(r->exact_end != (size_t)-1 && r->exact_width == 8 && r->exact_end - r->start <= 64);
    t->accepted++;
    return r->exact_end == end && r->exact_width == 8 && same_board(r, board, 8);
}

/* The writer write8 against the table-driven one on `rows` random 8-wide
 * boards, one in eight with A and C codes (which a writer may leave to the
 * other). */
static void write8_agrees(fx_write8_fn write8, long rows, tally *t)
{
    for (long k = 0; k < rows; k++) {
        fx_pos pos;
        random_board(8, k % 8 == 0, &pos);
        uint8_t vector[FX_MAX_OUTPUT], table[FX_MAX_OUTPUT];
        fx_reader.write8 = write8;
        size_t a = fx_write(&pos, FX_CASTLING_XFEN, FX_EP_FEN, 4, NULL, 0, vector);
        fx_reader.write8 = NULL;
        size_t b = fx_write(&pos, FX_CASTLING_XFEN, FX_EP_FEN, 4, NULL, 0, table);
        t->written++;
        if ((a != b || memcmp(vector, table, a) != 0) && t->mismatches++ < 5) {
            fwrite(table, 1, b, stdout);
            printf("  <- a vector writer wrote %.*s\n", (int)a, (const char *)vector);
        }
    }
}

int main(int argc, char **argv)
{
    long rows = argc > 1 ? atol(argv[1]) : 1000000;
    state = argc > 2 ? strtoull(argv[2], NULL, 10) | 1 : 88172645463325252ull;
    fx_init_tables();
    uint32_t cpu = fx_cpu_features();
    fx_reader_set sets[FX_READERS];
    tally tallies[FX_READERS];
    memset(tallies, 0, sizeof tallies);
    for (int id = 0; id < FX_READERS; id++) {
        fx_use_reader((fx_reader_id)id);
        sets[id] = fx_reader_runs((fx_reader_id)id, cpu) ? fx_reader : (fx_reader_set){0};
    }
    long mismatches = 0;
    for (long k = 0; k < rows; k++) {
        row r;
        if (!next_row(&r))
            continue;
        for (int id = 0; id < FX_READERS; id++) {
            tally *t = &tallies[id];
            /* each set's read8 and its read (which reads what read8 declines) */
            int same = (!sets[id].read8 || read8_agrees(sets[id].read8, &r, t))
                       && (!sets[id].read || read_agrees(sets[id].read, &r, t));
            if (!same && t->mismatches++ < 5) {
                fwrite(r.text, 1, r.len, stdout);
                printf("  <- the %s reader accepted, exact reader %s\n", fx_reader_name(id),
                       r.exact_end == (size_t)-1 ? "rejected" : "differs");
            }
        }
        free(r.text);
    }
    for (int id = 0; id < FX_READERS; id++) {
        if (sets[id].write8)
            write8_agrees(sets[id].write8, rows, &tallies[id]);
        tally *t = &tallies[id];
        printf("%s runs %d accepted %ld declined %ld written %ld mismatches %ld\n",
               fx_reader_name(id), sets[id].read != NULL, t->accepted, t->declined, t->written,
               t->mismatches);
        mismatches += t->mismatches;
    }
    fx_readers_init();  /* back to this CPU's choice */
    printf("rows %ld mismatches %ld\n", rows, mismatches);
    return mismatches != 0;
}
