#define _POSIX_C_SOURCE 199309L
/* The C kernel alone, without Python, over the rows of a text file (one
 * FEN per line), repeated.  Built and run by bench/kernel_bench.py.
 *
 *     kernel FILE [ROUNDS [CASE]]
 *
 * Cases: "placement" (the placement reader alone, on each row's first
 * field), "parse" (fx_parse), "validate" (fx_check_row: the verdict
 * alone), "normalize" (fx_parse_kept, then the row copied when it is its
 * own canonical text, else fx_write with the placement copied, as the row
 * loop does), "write" (fx_write alone, the placement written from
 * the board, as decode does), "loop" (normalize through the row loop,
 * fx_batch_rows, over the rows as spans of one buffer: what the buffer
 * path runs), a memcpy of the same bytes (in cache) and of 256 MB
 * ("bandwidth", per row of the corpus's size).  Each case prints its
 * median ns per row and the range of the rounds, in this process's CPU
 * time (FX_BENCH_CLOCK=wall: wall time).  ROUNDS 0 runs the case once and
 * prints nothing: for counting instructions (valgrind --toggle-collect on
 * the case's function: place_only, parse_only, validate_only, normalize,
 * write_only, loop).  The case "dump" prints, instead of times, each row's
 * answer: its text written from the board in Shredder-FEN with legal en
 * passant, or the error (code, field, column), so that builds for other
 * machines can be compared (one run under qemu against one here).
 *
 * It also builds against the core of an older commit (kernel_bench.py
 * --before): the placement case needs the core's readers/ folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batch.h"
#include "bits.h"
#include "fx.h"
#if __has_include("readers/readers.h")
#include "readers/readers.h"
#define HAS_READERS 1
#endif

static clockid_t clock_id = CLOCK_PROCESS_CPUTIME_ID;

static double now(void)
{
    struct timespec t;
    clock_gettime(clock_id, &t);
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
    const int64_t *spans;  /* row k is text[spans[k], spans[n + k]) with its newline */
    size_t n;
    uint8_t *out;
    fx_pos *positions; /* the rows read, for the writer alone */
} corpus;

static volatile size_t sink;

#ifdef HAS_READERS
static void place_only(const corpus *c)
{
    fx_pos pos;
    size_t ok = 0;
    for (size_t k = 0; k < c->n; k++) {
        int width;
        const uint8_t *row = c->text + c->starts[k];
        size_t j = fx_reader.read8 ? fx_reader.read8(row, 0, c->lens[k], pos.board)
                                   : FX_DECLINE;
        if (j == FX_DECLINE)
            j = fx_reader.read(row, 0, c->lens[k], pos.board, &width);
        ok += j != FX_DECLINE;
    }
    sink = ok;
}
#endif

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

/* validate: each row's verdict (older cores: fx_parse). */
static void validate_only(const corpus *c)
{
    size_t ok = 0;
    for (size_t k = 0; k < c->n; k++) {
        fx_error err;
#ifdef FX_HAS_PARSE_KEPT
        ok += fx_check_row(c->text + c->starts[k], c->lens[k], &err) == 0;
#else
        fx_pos pos;
        fx_span span;
        int fields;
        ok += fx_parse(c->text + c->starts[k], c->lens[k], &pos, &span, &fields, &err) == 0;
#endif
    }
    sink = ok;
}

#ifdef FX_HAS_PARSE_KEPT
#define COPY fx_copy96
#else
#define COPY memcpy
#endif

/* normalize as the row loop does it: a row that is its own canonical text
 * is copied, any other written (X-FEN, en passant "xfen", six fields). */
static void normalize(const corpus *c)
{
    fx_pos pos;
    fx_span span;
    fx_error err;
    int fields;
    size_t len = 0, kept = 0;
    for (size_t k = 0; k < c->n; k++) {
        const uint8_t *row = c->text + c->starts[k];
#ifdef FX_HAS_PARSE_KEPT
        if (fx_parse_kept(row, c->lens[k], &pos, &span, &fields, &kept, &err) != 0)
            continue;
#else /* an older core */
        if (fx_parse(row, c->lens[k], &pos, &span, &fields, &err) != 0)
            continue;
#endif
        if (kept && fields == 6) {
            COPY(c->out + len, row + span.start, kept);
            len += kept;
        } else {
            len += fx_write(&pos, FX_CASTLING_XFEN, FX_EP_XFEN, 6, row + span.start, span.len,
                            c->out + len);
        }
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

/* normalize through the row loop, as the buffer path calls it: the rows as
 * spans of one buffer, terminators kept, every row's end noted. */
static void loop(const corpus *c)
{
    static int64_t *ends;
    static fx_failure failures[64];
    if (!ends)
        ends = malloc(c->n * sizeof *ends);
    fx_batch_opts opts = {.task = FX_NORMALIZE, .errors = FX_RAISE, .fields = 6,
                          .terminators = 1};
    fx_rows rows = {.data = c->text, .starts = c->spans, .ends = c->spans + c->n};
    size_t total = c->starts[c->n - 1] + c->lens[c->n - 1] + 1;
    fx_batch_out out = {.text = c->out, .cap = c->n * FX_MAX_OUTPUT + total, .ends = ends,
                        .failures = failures, .failures_cap = 64};
    size_t done = fx_batch_rows(&opts, &rows, 0, c->n, &out);
    if (done != c->n || out.stop != FX_STOP_DONE) {
        fprintf(stderr, "loop: stopped before row %zu (stop %d)\n", done, out.stop);
        exit(3);
    }
    sink = out.len;
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
    if (rounds == 0)
        return;
    for (int r = 0; r < rounds; r++) {
        double start = now();
        run(c);
        t[r] = (now() - start) * 1e9 / rows;
    }
    qsort(t, (size_t)rounds, sizeof t[0], by_value);
    printf("%-10s %7.1f ns/row (%.1f to %.1f)\n", name, t[rounds / 2], t[0], t[rounds - 1]);
}

/* The file's rows: text, and each row's start and length (newline left
 * out) and span (newline in).  Returns the number of rows, 0 on failure. */
static size_t load(const char *path, corpus *c, long *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return perror(path), 0;
    fseek(f, 0, SEEK_END);
    *size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *text = malloc((size_t)*size + 1);
    if (!text || fread(text, 1, (size_t)*size, f) != (size_t)*size)
        return perror("read"), 0;
    fclose(f);
    size_t n = 0;
    for (long i = 0; i < *size; i++)
        n += text[i] == '\n';
    size_t *starts = malloc(n * sizeof *starts), *lens = malloc(n * sizeof *lens);
    int64_t *spans = malloc(2 * n * sizeof *spans);
    size_t k = 0, start = 0;
    for (long i = 0; i < *size && k < n; i++)
        if (text[i] == '\n') {
            starts[k] = start;
            lens[k] = (size_t)i - start;
            spans[k] = (int64_t)start;
            spans[n + k++] = i + 1;
            start = (size_t)i + 1;
        }
    *c = (corpus){text, starts, lens, spans, k, malloc(k * FX_MAX_OUTPUT + (size_t)*size),
                  malloc(k * sizeof(fx_pos))};
    return k;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: kernel FILE [ROUNDS [CASE]]\n");
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 9;
    if (rounds < 0 || rounds > 64)
        rounds = 9;
    const char *clock_name = getenv("FX_BENCH_CLOCK");
    if (clock_name && !strcmp(clock_name, "wall"))
        clock_id = CLOCK_MONOTONIC;
    corpus c;
    long size;
    size_t k = load(argv[1], &c, &size);
    if (!k)
        return fprintf(stderr, "%s: no rows\n", argv[1]), 2;
    fx_init_tables();
#ifdef HAS_READERS
    if (fx_readers_refusal())
        return fprintf(stderr, "%s\n", fx_readers_refusal()), 2;
#endif
    if (argc > 3 && !strcmp(argv[3], "dump"))
        return dump(&c), 0;
#ifdef HAS_READERS
    printf("reader %s\n", fx_reader_name(fx_reader_active()));
#else
    printf("reader (chosen by FASTXFEN_NO_AVX512 and FASTXFEN_NO_AVX2)\n");
#endif
    for (size_t r = 0; r < k; r++) {
        fx_span span;
        fx_error err;
        int fields;
        if (fx_parse(c.text + c.starts[r], c.lens[r], &c.positions[r], &span, &fields, &err))
            memset(&c.positions[r], 0, sizeof(fx_pos)); /* the empty 8x8 board */
        if (!c.positions[r].width)
            c.positions[r].width = 8, c.positions[r].fullmove = 1;
    }
    printf("%zu rows, %.1f bytes each, %s time\n", k, (double)size / (double)k,
           clock_id == CLOCK_MONOTONIC ? "wall" : "cpu");
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
#ifdef HAS_READERS
    if (!*only || !strcmp(only, "placement"))
        report("placement", place_only, &c, rounds, rows);
#endif
    if (!*only || !strcmp(only, "parse"))
        report("parse", parse_only, &c, rounds, rows);
    if (!*only || !strcmp(only, "validate"))
        report("validate", validate_only, &c, rounds, rows);
    if (!*only || !strcmp(only, "normalize"))
        report("normalize", normalize, &c, rounds, rows);
    if (!*only || !strcmp(only, "write"))
        report("write", write_only, &c, rounds, rows);
    if (!*only || !strcmp(only, "loop"))
        report("loop", loop, &c, rounds, rows);
    return 0;
}
