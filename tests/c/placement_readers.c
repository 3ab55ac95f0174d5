/* Differential check of the placement readers: the fast reader (vector, or
 * scalar with -DFASTXFEN_NO_SIMD) against the exact one, on random boards
 * of both widths written as text and then mutated, cut short and padded
 * with blanks.  The fast reader may decline a valid field (the exact
 * reader then reads it), but whenever it accepts one the exact reader must
 * accept it too, end at the same byte and give the same board.  On a CPU
 * with AVX-512 the same holds for that reader, which must moreover accept
 * every valid 8-wide field of up to 64 bytes; and the AVX-512 placement
 * writer must write every random 8-wide board as the scalar writer does.
 * On a CPU with AVX2 the AVX2 reader and writer are held to the same rules.
 *
 *     cc -O1 -std=c11 -I src/fastxfen/core tests/c/placement_readers.c \
 *        src/fastxfen/core/{avx512,avx2,rules,write,tables,record}.c -o readers
 *     ./readers ROWS SEED
 *
 * Prints "rows R accepted A declined D avx512 0|1 accepted512 V written512 W
 * avx2 0|1 accepted_avx2 X written_avx2 Y
 * mismatches M"; exits 1 on a mismatch.
 * Each row is copied to a buffer of exactly its length, so a sanitizer build
 * catches any read past it. */
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

#if defined(FX_AVX512) || defined(FX_AVX2)
/* A vector placement reader (AVX-512, AVX2) on text[start:len) against the
 * exact reader's answer (exact_end, exact_width, grid: rank 8 first): the
 * same end and board when it accepts (counted in *accepted), and it must
 * accept every valid 8-wide field of up to 64 bytes. */
static int vector_reader_agrees(size_t (*reader)(const uint8_t *, size_t, size_t, uint8_t *),
                                const uint8_t *text, size_t start, size_t len, size_t exact_end,
                                int exact_width, const uint8_t *grid, long *accepted)
{
    uint8_t board[FX_MAX_SQUARES];
    memset(board, 0xEE, sizeof board);
    size_t end = reader(text, start, len, board);
    if (end == FAST_FAIL)  /* every valid 8-wide field of up to 64 bytes is its */
        return !(exact_end != (size_t)-1 && exact_width == 8 && exact_end - start <= 64);
    ++*accepted;
    int same = exact_end == end && exact_width == 8;
    for (int k = 0; same && k < FX_HEIGHT; k++)  /* board: rank 1 first */
        same = memcmp(board + (FX_HEIGHT - 1 - k) * 8, grid + k * FX_MAX_WIDTH, 8) == 0;
    for (int k = 64; same && k < FX_MAX_SQUARES; k++)
        same = board[k] == 0;
    return same;
}
/* The vector placement writer `writer` against the table-driven one
 * (fx_vector_writer NULL) on `rows` random 8-wide boards, one in eight with
 * A and C codes (which the AVX2 writer leaves to the other); each
 * difference counted in *mismatches.  Returns the boards written. */
static long writer_agrees(fx_placement_writer writer, long rows, long *mismatches)
{
    for (long r = 0; r < rows; r++) {
        fx_pos pos;
        random_board(8, r % 8 == 0, &pos);
        uint8_t vector[FX_MAX_OUTPUT], table[FX_MAX_OUTPUT];
        fx_vector_writer = writer;
        size_t a = fx_write(&pos, FX_CASTLING_XFEN, FX_EP_FEN, 4, NULL, 0, vector);
        fx_vector_writer = NULL;
        size_t b = fx_write(&pos, FX_CASTLING_XFEN, FX_EP_FEN, 4, NULL, 0, table);
        if ((a != b || memcmp(vector, table, a) != 0) && (*mismatches)++ < 5) {
            fwrite(table, 1, b, stdout);
            printf("  <- a vector writer wrote %.*s\n", (int)a, (const char *)vector);
        }
    }
    return rows;
}
#endif

int main(int argc, char **argv)
{
    long rows = argc > 1 ? atol(argv[1]) : 1000000;
    state = argc > 2 ? strtoull(argv[2], NULL, 10) | 1 : 88172645463325252ull;
    long accepted = 0, declined = 0, mismatches = 0, accepted512 = 0, accepted_avx2 = 0;
    fx_init_tables();
#ifdef FX_AVX512
    int avx512 = fx_avx512_init();
#else
    int avx512 = 0;
#endif
#ifdef FX_AVX2
    int avx2 = fx_avx2_init();  /* tried on every row, whatever read_board would choose */
#else
    int avx2 = 0;
#endif
    for (long r = 0; r < rows; r++) {
        uint8_t row[256];
        size_t len = random_placement(next() % 3 ? 8 : 10, row);
        static const char *tails[] = {"", " w", "\t", " b KQkq - 0 1"};
        const char *tail = tails[next() % 4];
        memcpy(row + len, tail, strlen(tail));
        len += strlen(tail);
        int mutations = r % 4 == 0 ? 0 : (int)(next() % 4);
        for (int m = 0; m < mutations; m++)
            mutate(row, &len, 200);
        if (next() % 8 == 0)
            len = next() % (len + 1);
        size_t start = 0;
        while (start < len && IS_BLANK(row[start]))
            start++;
        if (start == len)
            continue;

        uint8_t *text = malloc(len);
        memcpy(text, row, len);
        uint8_t fast[GRID_BYTES], grid[FX_MAX_SQUARES];
        int fast_width = 0, exact_width = 0;
        fx_error err;
        size_t fast_end = fast_placement(text, start, len, fast, &fast_width);
        memset(grid, 0, sizeof grid);
        size_t exact_end = read_placement(text, start, len, grid, &exact_width, &err);
        int same = 1;
        if (fast_end != FAST_FAIL) {
            accepted++;
            same = exact_end == fast_end && exact_width == fast_width;
            for (int k = 0; same && k < FX_HEIGHT; k++)
                same = memcmp(fast + k * fast_width, grid + k * FX_MAX_WIDTH,
                              (size_t)fast_width) == 0;
        } else if (exact_end != (size_t)-1) {
            declined++;
        }
#ifdef FX_AVX512
        if (same && avx512)
            same = vector_reader_agrees(fx_placement512, text, start, len, exact_end,
                                        exact_width, grid, &accepted512);
#endif
#ifdef FX_AVX2
        if (same && avx2)
            same = vector_reader_agrees(fx_placement_avx2, text, start, len, exact_end,
                                        exact_width, grid, &accepted_avx2);
#endif
        if (!same) {
            if (mismatches++ < 5) {
                fwrite(text, 1, len, stdout);
                printf("  <- a fast reader accepted, exact reader %s\n",
                       exact_end == (size_t)-1 ? "rejected" : "differs");
            }
        }
        free(text);
    }
    long written512 = 0, written_avx2 = 0;
#ifdef FX_AVX512
    if (avx512)
        written512 = writer_agrees(fx_write_placement512, rows, &mismatches);
#endif
#ifdef FX_AVX2
    if (avx2)
        written_avx2 = writer_agrees(fx_write_placement_avx2, rows, &mismatches);
#endif
    fx_init_parse_tables();  /* back to this CPU's choice */
    printf("rows %ld accepted %ld declined %ld avx512 %d accepted512 %ld written512 %ld "
           "avx2 %d accepted_avx2 %ld written_avx2 %ld mismatches %ld\n",
           rows, accepted, declined, avx512, accepted512, written512, avx2, accepted_avx2,
           written_avx2, mismatches);
    return mismatches != 0;
}
