#define _POSIX_C_SOURCE 199309L
/* The C kernel alone, without Python: fx_parse, and fx_parse + fx_write
 * (normalize), over the rows of a text file (one FEN per line), repeated.
 * Built and run by bench/kernel_bench.py; prints ns per row for each case,
 * median and range of the rounds, a memcpy of the same bytes (in cache) and
 * of 256 MB ("bandwidth", per row of the corpus's size).  "write"
 * is the writer alone with the placement written from the board, as
 * decode does.  The case "dump" prints, instead of times, each row's
 * answer: its text written from the board in Shredder-FEN with legal en
 * passant, or the error (code, field, column), so that builds for other
 * machines can be compared (scripts/check_aarch64.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fx.h"
#include "readers/readers.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct {
    const uint8_t *text;
    const size_t *starts, *lens;
    size_t n;
    uint8_t *out;
    fx_pos *positions; /* the rows read, for the writer alone */
} corpus;

static volatile size_t sink;

static void parse_only(const corpus *c)
{
    fx_pos pos;
    fx_span span;
    fx_error err;
    int fields;
    size_t ok = 0;
    for (size_t k = 0; k < c->n; k++)
        ok += fx_parse(c->text + c->starts[k], c->lens[k], &pos, &span, &fields, &err) == 0;
    sink = ok;
}

static void normalize(const corpus *c)
{
    fx_pos pos;
    fx_span span;
    fx_error err;
    int fields;
    size_t len = 0;
    for (size_t k = 0; k < c->n; k++) {
        const uint8_t *row = c->text + c->starts[k];
        if (fx_parse(row, c->lens[k], &pos, &span, &fields, &err) == 0)
            len += fx_write(&pos, FX_CASTLING_XFEN, FX_EP_XFEN, 6, row + span.start, span.len,
                            c->out + len);
    }
    sink = len;
}

/* The writer alone, the placement written from the board (as decode does). */
static void write_only(const corpus *c)
{
    size_t len = 0;
    for (size_t k = 0; k < c->n; k++)
        len += fx_write(&c->positions[k], FX_CASTLING_XFEN, FX_EP_XFEN, 6, NULL, 0, c->out + len);
    sink = len;
}

/* Each row's answer, one line each. */
static void dump(const corpus *c)
{
    for (size_t k = 0; k < c->n; k++) {
        fx_pos pos;
        fx_span span;
        fx_error err;
        int fields;
        uint8_t out[FX_MAX_OUTPUT];
        if (fx_parse(c->text + c->starts[k], c->lens[k], &pos, &span, &fields, &err) == 0) {
            size_t len = fx_write(&pos, FX_CASTLING_SHREDDER, FX_EP_LEGAL, fields, NULL, 0, out);
            printf("%.*s\n", (int)len, (const char *)out);
        } else {
            printf("error %u field %u column %llu\n", err.code, err.field,
                   (unsigned long long)err.column);
        }
    }
}

/* Memory bandwidth: a copy far larger than the caches, per row of the
 * corpus's average size. */
#define BIG (256u << 20)
static uint8_t *big_from, *big_to;

static void copy_big(const corpus *c)
{
    (void)c;
    memcpy(big_to, big_from, BIG);
    sink = big_to[BIG - 1];
}

static void copy(const corpus *c)
{
    size_t total = c->starts[c->n - 1] + c->lens[c->n - 1] + 1;
    memcpy(c->out, c->text, total);
    sink = c->out[total - 1];
}

static void report(const char *name, void (*run)(const corpus *), const corpus *c, int rounds,
                   double rows)
{
    double t[64];
    run(c);
    for (int r = 0; r < rounds; r++) {
        double start = now();
        run(c);
        t[r] = (now() - start) * 1e9 / rows;
    }
    qsort(t, (size_t)rounds, sizeof t[0], by_value);
    printf("%-10s %7.1f ns/row (%.1f to %.1f)\n", name, t[rounds / 2], t[0], t[rounds - 1]);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: kernel FILE [ROUNDS [CASE]]\n");
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 9;
    if (rounds < 1 || rounds > 64)
        rounds = 9;
    FILE *f = fopen(argv[1], "rb");
    if (!f)
        return perror(argv[1]), 2;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *text = malloc((size_t)size + 1);
    if (!text || fread(text, 1, (size_t)size, f) != (size_t)size)
        return perror("read"), 2;
    fclose(f);
    size_t n = 0;
    for (long i = 0; i < size; i++)
        n += text[i] == '\n';
    size_t *starts = malloc(n * sizeof *starts), *lens = malloc(n * sizeof *lens);
    size_t k = 0, start = 0;
    for (long i = 0; i < size && k < n; i++)
        if (text[i] == '\n') {
            starts[k] = start;
            lens[k++] = (size_t)i - start;
            start = (size_t)i + 1;
        }
    corpus c = {text, starts, lens, k, malloc(k * FX_MAX_OUTPUT + (size_t)size),
                malloc(k * sizeof(fx_pos))};
    fx_init_tables();
    if (fx_readers_refusal())
        return fprintf(stderr, "%s\n", fx_readers_refusal()), 2;
    if (argc > 3 && !strcmp(argv[3], "dump"))
        return dump(&c), 0;
    for (size_t r = 0; r < k; r++) {
        fx_span span;
        fx_error err;
        int fields;
        if (fx_parse(text + starts[r], lens[r], &c.positions[r], &span, &fields, &err))
            memset(&c.positions[r], 0, sizeof(fx_pos)); /* the empty 8x8 board */
        if (!c.positions[r].width)
            c.positions[r].width = 8, c.positions[r].fullmove = 1;
    }
    printf("reader %s\n", fx_reader_name(fx_reader_active()));
    printf("%zu rows, %.1f bytes each\n", k, (double)size / (double)k);
    const char *only = argc > 3 ? argv[3] : "";
    double rows = (double)k;
    if (!*only || !strcmp(only, "memcpy"))
        report("memcpy", copy, &c, rounds, rows);
    if (!*only || !strcmp(only, "bandwidth")) {
        big_from = malloc(BIG);
        big_to = malloc(BIG);
        if (!big_from || !big_to)
            return perror("malloc"), 2;
        memset(big_from, 1, BIG);
        memset(big_to, 2, BIG);
        report("bandwidth", copy_big, &c, rounds, BIG / ((double)size / rows));
    }
    if (!*only || !strcmp(only, "parse"))
        report("parse", parse_only, &c, rounds, rows);
    if (!*only || !strcmp(only, "normalize"))
        report("normalize", normalize, &c, rounds, rows);
    if (!*only || !strcmp(only, "write"))
        report("write", write_only, &c, rounds, rows);
    return 0;
}
