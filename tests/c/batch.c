/* The C row loop (core/batch.c) on a few rows: good, bad, EPD, 10-wide, with
 * and without line terminators, as spans of one buffer and as one pointer
 * per row; its text, row ends, records and failures, and its stops for
 * room (text, failures) and under errors "raise"; and an export kernel
 * following the same conventions.
 *
 *     cc -O1 -std=c11 -I src/fastxfen/core tests/c/batch.c \
 *        src/fastxfen/core/{batch,parse,tail,rules,write,tables,record}.c \
 *        src/fastxfen/core/readers/{choose,scalar,sse2,avx2,avx512,neon}.c \
 *        src/fastxfen/core/export/{shared,bitboards,planes,packed,lichess,stockfish}.c \
 *        -lm -o batch
 *     ./batch
 *
 * Prints "checks N failed F" and exits 1 if any check failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "export.h"
#include "check.h"

static const char *const START = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3";
static const char *const WIDE =
    "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
static const char *const BAD = "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPPP/RNBQKBNR w KQkq - 0 1";
static const char *const KINGS = "8/8/8/4k3/8/8/4K3/8 w - - 0 1";

/* The rows joined into one buffer: row k is data[starts[k]:ends[k]]. */
typedef struct {
    uint8_t data[1024];
    int64_t starts[8], ends[8];
    size_t n;
} buffer;

static void add(buffer *b, const char *row)
{
    int64_t at = b->n ? b->ends[b->n - 1] : 0;
    size_t len = strlen(row);
    memcpy(b->data + at, row, len);
    b->starts[b->n] = at;
    b->ends[b->n] = at + (int64_t)len;
    b->n++;
}

static fx_batch_opts options(int task, int errors)
{
    fx_batch_opts o;
    memset(&o, 0, sizeof o);
    o.task = task;
    o.errors = errors;
    o.castling = FX_CASTLING_XFEN;
    o.ep = FX_EP_FEN;
    o.fields = 6;
    return o;
}

static fx_rows spans(const buffer *b)
{
    fx_rows rows;
    memset(&rows, 0, sizeof rows);
    rows.data = b->data;
    rows.starts = b->starts;
    rows.ends = b->ends;
    return rows;
}

/* Text of row k of out (ends are int64). */
static int text_is(const fx_batch_out *out, size_t k, const char *want)
{
    const int64_t *ends = out->ends;
    int64_t start = k ? ends[k - 1] : 0;
    return (size_t)(ends[k] - start) == strlen(want)
           && memcmp(out->text + start, want, strlen(want)) == 0;
}

static void normalize_buffer(void)
{
    buffer b = {.n = 0};
    add(&b, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3\r\n");
    add(&b, "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPPP/RNBQKBNR w KQkq - 0 1\n");
    add(&b, "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1\n");
    add(&b, "8/8/8/4k3/8/8/4K3/8 w - - 0 1");
    fx_rows rows = spans(&b);
    uint8_t text[4096];
    int64_t ends[8];
    fx_failure failures[8];
    fx_batch_out out = {.text = text, .cap = sizeof text, .ends = ends,
                        .failures = failures, .failures_cap = 8};

    /* coerce, terminators kept: the bad row becomes its terminator alone */
    fx_batch_opts o = options(FX_NORMALIZE, FX_COERCE);
    o.terminators = 1;
    CHECK(fx_batch_rows(&o, &rows, 0, b.n, &out) == b.n);
    CHECK(out.stop == FX_STOP_DONE);
    CHECK(text_is(&out, 0, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\r\n"));
    CHECK(text_is(&out, 1, "\n"));
    CHECK(text_is(&out, 2, "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1\n"));
    /* a coerced row without a terminator would be lost: none here, valid */
    CHECK(text_is(&out, 3, "8/8/8/4k3/8/8/4K3/8 w - - 0 1"));
    CHECK(out.n_failures == 1);
    CHECK(failures[0].row == 1 && failures[0].err.code == FX_E_RANK_LONG);
    CHECK(failures[0].err.field == FX_F_PLACEMENT && failures[0].err.column == 18);
    CHECK(failures[0].start == b.starts[1] && failures[0].end == b.ends[1]);

    /* ignore, no terminators: the bad row as it came, terminator included */
    o = options(FX_NORMALIZE, FX_IGNORE);
    o.fields = 4;
    out.len = out.n_failures = 0;
    CHECK(fx_batch_rows(&o, &rows, 0, b.n, &out) == b.n);
    CHECK(text_is(&out, 0, START));
    CHECK(text_is(&out, 1, "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPPP/RNBQKBNR w KQkq - 0 1\n"));
    CHECK(text_is(&out, 3, "8/8/8/4k3/8/8/4K3/8 w - -"));

    /* raise: the loop stops just past the first failure */
    o = options(FX_NORMALIZE, FX_RAISE);
    out.len = out.n_failures = 0;
    rows.first = 100;
    CHECK(fx_batch_rows(&o, &rows, 0, b.n, &out) == 2);
    CHECK(out.stop == FX_STOP_FAILURE && out.n_failures == 1 && failures[0].row == 101);
    rows.first = 0;

    /* a null row writes nothing and fails nothing */
    const uint8_t nulls[4] = {0, 1, 0, 0};
    rows.nulls = nulls;
    o = options(FX_NORMALIZE, FX_RAISE);
    out.len = out.n_failures = 0;
    CHECK(fx_batch_rows(&o, &rows, 0, b.n, &out) == b.n && out.n_failures == 0);
    CHECK(text_is(&out, 1, ""));
    CHECK(text_is(&out, 3, KINGS));
}

/* Text room and failure room that run out: the loop says so, and called
 * again once there is room it writes what one call with room would. */
static void room(void)
{
    buffer b = {.n = 0};
    add(&b, BAD);
    add(&b, KINGS);
    add(&b, BAD);
    add(&b, START);
    fx_rows rows = spans(&b);
    uint8_t *text = malloc(FX_MAX_OUTPUT);
    int64_t ends[8];
    fx_failure failures[8];
    fx_batch_out out = {.text = text, .cap = FX_MAX_OUTPUT, .ends = ends,
                        .failures = failures, .failures_cap = 1};
    fx_batch_opts o = options(FX_NORMALIZE, FX_COERCE);
    size_t at = 0;
    int text_stops = 0, failure_stops = 0;
    while ((at = fx_batch_rows(&o, &rows, at, b.n, &out)), out.stop != FX_STOP_DONE) {
        if (out.stop == FX_STOP_TEXT) {
            CHECK(out.need > out.cap - out.len);
            text_stops++;
            out.cap = out.len + out.need;
            text = realloc(text, out.cap);
            out.text = text;
        } else {
            CHECK(out.stop == FX_STOP_FAILURES && at == 2);
            failure_stops++;
            out.failures_cap = 8;
        }
    }
    CHECK(at == b.n && text_stops >= 1 && failure_stops == 1);
    CHECK(out.n_failures == 2 && failures[0].row == 0 && failures[1].row == 2);
    CHECK(text_is(&out, 0, "") && text_is(&out, 1, KINGS) && text_is(&out, 2, ""));
    CHECK(text_is(&out, 3, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"));
    free(text);
}

/* EPD rows, one pointer and length each (as the list glue gives them). */
static void epd_pointers(void)
{
    const char *epd[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 3; id \"x\";\n",
        "8/8/8/4k3/8/8/4K3/8 w - - 1x 2;",
        "8/8/8/4k3/8/8/4K3/8 b - -",
    };
    const uint8_t *texts[3];
    size_t lens[3];
    for (int k = 0; k < 3; k++) {
        texts[k] = (const uint8_t *)epd[k];
        lens[k] = strlen(epd[k]);
    }
    fx_rows rows;
    memset(&rows, 0, sizeof rows);
    rows.texts = texts;
    rows.lens = lens;
    uint8_t text[1024];
    int64_t ends[3];
    fx_failure failures[3];
    fx_batch_out out = {.text = text, .cap = sizeof text, .ends = ends,
                        .failures = failures, .failures_cap = 3};
    fx_batch_opts o = options(FX_NORMALIZE, FX_COERCE);
    o.epd = 1;
    CHECK(fx_batch_rows(&o, &rows, 0, 3, &out) == 3);
    CHECK(text_is(&out, 0,
                  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 3; id \"x\";"));
    CHECK(text_is(&out, 1, ""));
    CHECK(text_is(&out, 2, "8/8/8/4k3/8/8/4K3/8 b - -"));
    CHECK(out.n_failures == 1 && failures[0].row == 1);
    CHECK(failures[0].err.code == FX_E_EPD_OPCODE && failures[0].err.field == FX_F_OPERATIONS);
    CHECK(failures[0].err.column == 26 && failures[0].start == 0 && failures[0].end == 0);

    /* validate reports the same failure and writes nothing */
    o.task = FX_VALIDATE;
    out.len = out.n_failures = 0;
    CHECK(fx_batch_rows(&o, &rows, 0, 3, &out) == 3);
    CHECK(out.len == 0 && out.n_failures == 1 && failures[0].row == 1);
}

/* encode into 80- and 96-byte records, then decode them back. */
static void records(void)
{
    buffer b = {.n = 0};
    add(&b, START);
    add(&b, WIDE);
    add(&b, "8/8/8/4k3/8/8/4K3/8 x - - 0 1\n");
    fx_rows rows = spans(&b);
    fx_pos wide[3];
    fx_rec8 narrow[3];
    fx_failure failures[3];
    fx_batch_out out = {.records = (uint8_t *)narrow, .failures = failures, .failures_cap = 3};

    fx_batch_opts o = options(FX_ENCODE, FX_COERCE);
    CHECK(fx_batch_rows(&o, &rows, 0, 3, &out) == 3);
    CHECK(out.n_failures == 2);
    CHECK(failures[0].row == 1 && failures[0].err.code == FX_E_WIDE_ROW);
    CHECK(failures[1].row == 2 && failures[1].err.code == FX_E_SIDE);
    CHECK(narrow[0].width == 8 && narrow[0].turn == FX_BLACK);
    CHECK(narrow[1].width == 0 && narrow[2].width == 0); /* the null record */

    o.wide = 1;
    out.records = (uint8_t *)wide;
    out.n_failures = 0;
    CHECK(fx_batch_rows(&o, &rows, 0, 3, &out) == 3 && out.n_failures == 1);
    CHECK(wide[1].width == 10 && wide[1].board[0] == FX_WR && wide[1].board[2] == FX_WA);

    /* decode: the null record fails unless it is a missing value */
    uint8_t text[1024];
    int64_t ends[3];
    fx_batch_out back = {.text = text, .cap = sizeof text, .ends = ends,
                         .failures = failures, .failures_cap = 3};
    fx_rows recs;
    memset(&recs, 0, sizeof recs);
    recs.records = (const uint8_t *)wide;
    fx_batch_opts d = options(FX_NORMALIZE, FX_COERCE);
    d.wide = 1;
    d.terminators = 1;
    CHECK(fx_batch_records(&d, &recs, 0, 3, &back) == 3);
    CHECK(text_is(&back, 0, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n"));
    CHECK(text_is(&back, 1, "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1\n"));
    CHECK(text_is(&back, 2, "\n"));
    CHECK(back.n_failures == 1 && failures[0].row == 2);
    CHECK(failures[0].err.code == FX_E_RECORD_VALUE && failures[0].err.field == FX_F_RECORD_WIDTH);
    CHECK(fx_null_record(&failures[0].err, &wide[2], sizeof wide[2]));

    d.missing = 1;
    d.errors = FX_RAISE;
    back.len = back.n_failures = 0;
    CHECK(fx_batch_records(&d, &recs, 0, 3, &back) == 3 && back.n_failures == 0);
    CHECK(back.stop == FX_STOP_DONE && text_is(&back, 2, "\n"));
}

/* An export kernel (bitboards) keeps the row loop's conventions. */
static void export_kernel(void)
{
    buffer b = {.n = 0};
    add(&b, START);
    add(&b, WIDE);
    add(&b, KINGS);
    add(&b, WIDE);
    fx_rows rows = spans(&b);
    fx_pos recs[4];
    fx_failure failures[4];
    fx_batch_out out = {.records = (uint8_t *)recs, .failures = failures, .failures_cap = 4};
    fx_batch_opts o = options(FX_ENCODE, FX_COERCE);
    o.wide = 1;
    CHECK(fx_batch_rows(&o, &rows, 0, 4, &out) == 4 && out.n_failures == 0);

    fx_x_records r = {.base = (const uint8_t *)recs, .stride = sizeof recs[0], .wide = 1};
    uint64_t bb[4][12];
    fx_batch_out res = {.failures = failures, .failures_cap = 1};
    /* coerce, room for one failure: it stops at the second, not done yet */
    CHECK(fx_x_bitboards_batch(&r, 4, bb[0], &o, &res) == 3);
    CHECK(res.stop == FX_STOP_FAILURES && res.n_failures == 1 && failures[0].row == 1);
    /* a failed row is zero; white king bitboard (index 5) of the next */
    CHECK(failures[0].err.code == FX_X_E_WIDTH && bb[1][5] == 0 && bb[2][5] == 1u << 12);
    /* called again from the row it stopped at, with its records and output */
    res.n_failures = 0;
    r.base += 3 * sizeof recs[0];
    CHECK(fx_x_bitboards_batch(&r, 1, bb[3], &o, &res) == 1 && res.stop == FX_STOP_DONE);
    CHECK(res.n_failures == 1 && failures[0].row == 0 && bb[3][5] == 0);
    r.base = (const uint8_t *)recs;
    /* coerce with no one to tell: nothing noted, no stop */
    o.drop_failures = 1;
    res.n_failures = 0;
    CHECK(fx_x_bitboards_batch(&r, 4, bb[0], &o, &res) == 4);
    CHECK(res.stop == FX_STOP_DONE && res.n_failures == 0 && bb[3][5] == 0);
    o.drop_failures = 0;
    /* raise: stops just past the first failure */
    o.errors = FX_RAISE;
    res.n_failures = 0;
    CHECK(fx_x_bitboards_batch(&r, 4, bb[0], &o, &res) == 2);
    CHECK(res.stop == FX_STOP_FAILURE && res.n_failures == 1 && failures[0].row == 1);
}

static void line_length(void)
{
    CHECK(fx_line_length((const uint8_t *)"ab\r\n", 4) == 2);
    CHECK(fx_line_length((const uint8_t *)"ab\n", 3) == 2);
    CHECK(fx_line_length((const uint8_t *)"ab\r", 3) == 3);
    CHECK(fx_line_length((const uint8_t *)"\n", 1) == 0);
    CHECK(fx_line_length((const uint8_t *)"", 0) == 0);
}

int main(void)
{
    fx_init_tables();
    fx_x_init();
    normalize_buffer();
    room();
    epd_pointers();
    records();
    export_kernel();
    line_length();
    printf("checks %d failed %d\n", checks, failed);
    return failed != 0;
}
