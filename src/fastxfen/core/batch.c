/* The row loop (batch.h): one pass per call over the rows it is given,
 * bounded by n and by the room the caller gave. */
#include "batch.h"

#include <string.h>

#include "bits.h"

size_t fx_line_length(const uint8_t *text, size_t len)
{
    if (len && text[len - 1] == '\n') {
        len--;
        if (len && text[len - 1] == '\r')
            len--;
    }
    return len;
}

int fx_null_record(const fx_error *err, const void *record, size_t size)
{
    const uint8_t *p = record;
    if (err->code != FX_E_RECORD_VALUE || err->field != FX_F_RECORD_WIDTH || err->a != 0)
        return 0;
    for (size_t k = 0; k < size; k++)
        if (p[k])
            return 0;
    return 1;
}

/* The length of the n-byte cell p without its trailing NULs, 8 bytes at a
 * time (a FEN cell's padding is a few words; bytes are little-endian). */
static inline size_t cell_length(const uint8_t *p, size_t n)
{
    uint64_t w;
    for (; n >= 8; n -= 8) {
        memcpy(&w, p + n - 8, 8);
        if (w) /* its last nonzero byte ends the row */
            return n - 8 + (size_t)(63 - fx_clz64(w)) / 8 + 1;
    }
    while (n && p[n - 1] == 0)
        n--;
    return n;
}

/* A UCS-4 cell of `chars` code points without its trailing NULs, as one
 * byte per code point (non-ASCII as '?', never valid FEN) into out. */
static inline size_t narrow_cell(const uint8_t *p, size_t chars, uint8_t *out)
{
    size_t len = (cell_length(p, 4 * chars) + 3) / 4, i = 0;
#ifdef FX_SSE2
    /* 16 code points at a time: packed with saturation (a code point of
     * 128 or more becomes a byte of 128 or more), then those bytes '?' */
    const __m128i ask = _mm_set1_epi8('?');
    for (; len - i >= 16; i += 16) {
        const __m128i *q = (const __m128i *)(p + 4 * i);
        __m128i lo = _mm_packs_epi32(_mm_loadu_si128(q), _mm_loadu_si128(q + 1));
        __m128i hi = _mm_packs_epi32(_mm_loadu_si128(q + 2), _mm_loadu_si128(q + 3));
        __m128i bytes = _mm_packus_epi16(lo, hi);
        __m128i wide = _mm_cmplt_epi8(bytes, _mm_setzero_si128());
        bytes = _mm_or_si128(_mm_andnot_si128(wide, bytes), _mm_and_si128(wide, ask));
        _mm_storeu_si128((__m128i *)(out + i), bytes);
    }
#endif
    for (; i < len; i++) {
        uint32_t code;
        memcpy(&code, p + 4 * i, 4);
        out[i] = code < 128 ? (uint8_t)code : (uint8_t)'?';
    }
    return len;
}

/* Row k's bytes, terminator included (*full of them), and where they lie
 * in rows->data. */
static inline const uint8_t *row_bytes(const fx_rows *rows, size_t k, size_t *full,
                                       int64_t *start, int64_t *end)
{
    if (rows->itemsize) {
        const uint8_t *cell = rows->data + (size_t)(rows->first + (int64_t)k) * rows->itemsize;
        *start = (int64_t)(cell - rows->data);
        if (rows->ucs4) {
            *full = narrow_cell(cell, rows->itemsize / 4, rows->narrow);
            *end = *start + (int64_t)*full;
            return rows->narrow;
        }
        *full = cell_length(cell, rows->itemsize);
        *end = *start + (int64_t)*full;
        return cell;
    }
    if (rows->data == NULL) {
        *full = rows->lens[k];
        *start = *end = 0;
        return rows->texts[k];
    }
    *start = rows->starts[k];
    *end = rows->ends[k];
    *full = (size_t)(*end - *start);
    return rows->data + *start;
}

static inline int parse_row(const fx_batch_opts *o, const uint8_t *text, size_t len,
                            fx_pos *pos, fx_span *span, fx_span *ops, int *fields,
                            fx_error *err)
{
    if (o->epd) {
        *fields = 4;
        return fx_parse_epd(text, len, pos, span, ops, err);
    }
    ops->start = ops->len = 0;
    return fx_parse(text, len, pos, span, fields, err);
}

static inline void end_row(fx_batch_out *out, size_t k)
{
    if (out->ends == NULL)
        return;
    if (out->ends32)
        ((int32_t *)out->ends)[k] = (int32_t)out->len;
    else
        ((int64_t *)out->ends)[k] = (int64_t)out->len;
}

int fx_batch_fail(const fx_batch_opts *o, fx_batch_out *out, int64_t row, int64_t start,
                  int64_t end, const fx_error *err)
{
    if (o->drop_failures && o->errors != FX_RAISE)
        return FX_STOP_DONE;
    if (out->n_failures >= out->failures_cap)
        return FX_STOP_FAILURES;
    fx_failure *f = &out->failures[out->n_failures++];
    f->row = row;
    f->start = start;
    f->end = end;
    f->err = *err;
    return o->errors == FX_RAISE ? FX_STOP_FAILURE : FX_STOP_DONE;
}

size_t fx_batch_stop(fx_batch_out *out, int why, size_t k)
{
    out->stop = why;
    return why == FX_STOP_FAILURE ? k + 1 : k;
}

/* Row k of rows failed. */
static inline int fail(const fx_batch_opts *o, const fx_rows *rows, size_t k, int64_t start,
                       int64_t end, const fx_error *err, fx_batch_out *out)
{
    return fx_batch_fail(o, out, rows->first + (int64_t)k, start, end, err);
}

/* The normalized text of a row that parsed (rc 0) or failed (rc not 0,
 * already reported) at `at`, which has FX_MAX_OUTPUT bytes of room past
 * the row's own length: its length. */
static inline size_t row_text(const fx_batch_opts *o, const uint8_t *text, size_t len,
                              size_t full, int rc, size_t kept, const fx_pos *pos,
                              const fx_span *span, const fx_span *ops, int fields, uint8_t *at)
{
    if (rc == 0 && kept && o->castling == FX_CASTLING_XFEN
        && (o->fields == FX_FIELDS_SAME || o->fields == fields)) {
        fx_copy96(at, text + span->start, kept); /* the row is its own canonical text */
        return kept;
    }
    if (rc == 0 && !o->epd)
        return fx_write(pos, o->castling, o->ep, o->fields != FX_FIELDS_SAME ? o->fields : fields,
                        text + span->start, span->len, at);
    if (rc == 0) { /* EPD: the position fields, never counters */
        size_t head = fx_write(pos, o->castling, o->ep, 4, text + span->start, span->len, at);
        if (!ops->len)
            return head;
        at[head] = ' ';
        memcpy(at + head + 1, text + ops->start, ops->len);
        return head + 1 + ops->len;
    }
    if (o->errors == FX_IGNORE) {
        /* the row as it came; with terminators, those follow */
        size_t as_is = o->terminators ? len : full;
        if (as_is)
            memcpy(at, text, as_is);
        return as_is;
    }
    return 0;
}

/* Parse row k (its bytes text, len of them without the terminator) and
 * report a failure.  Returns the parse's result (0: the row is valid);
 * *why is FX_STOP_DONE unless the call must stop there. */
static inline int parse_kept(const fx_batch_opts *o, const fx_rows *rows, size_t k,
                             const uint8_t *text, size_t len, int64_t start, int64_t end,
                             fx_pos *pos, fx_span *span, fx_span *ops, int *fields,
                             size_t *kept, fx_batch_out *out, int *why)
{
    fx_error err;
    *kept = 0;
    int rc = o->epd ? parse_row(o, text, len, pos, span, ops, fields, &err)
                    : fx_parse_kept(text, len, pos, span, fields, kept, &err);
    *why = rc != 0 ? fail(o, rows, k, start, end, &err, out) : FX_STOP_DONE;
    return rc;
}

static size_t normalize(const fx_batch_opts *o, const fx_rows *rows, size_t k, size_t n,
                        fx_batch_out *out)
{
    fx_pos pos;
    fx_span span, ops;
    int fields, why;
    int64_t start, end;
    size_t full, kept;
    for (; k < n; k++) {
        if (rows->nulls != NULL && rows->nulls[k]) {
            end_row(out, k);
            continue;
        }
        const uint8_t *text = row_bytes(rows, k, &full, &start, &end);
        if (out->cap - out->len < FX_MAX_OUTPUT + full) {
            out->need = FX_MAX_OUTPUT + full;
            return fx_batch_stop(out, FX_STOP_TEXT, k);
        }
        size_t len = fx_line_length(text, full);
        int rc = parse_kept(o, rows, k, text, len, start, end, &pos, &span, &ops, &fields, &kept,
                            out, &why);
        if (why != FX_STOP_DONE)
            return fx_batch_stop(out, why, k);
        out->len += row_text(o, text, len, full, rc, kept, &pos, &span, &ops, fields,
                             out->text + out->len);
        if (o->terminators && full > len) { /* "\n" or "\r\n": no memcpy call */
            for (size_t t = len; t < full; t++)
                out->text[out->len++] = text[t];
        } else if (o->terminators && rc != 0 && o->errors == FX_COERCE) {
            /* a coerced last row without a terminator would vanish: end it,
             * so there are as many lines out as in */
            out->text[out->len++] = '\n';
        }
        end_row(out, k);
    }
    return fx_batch_stop(out, FX_STOP_DONE, n);
}

/* normalize into fixed-width cells (FX_NORMALIZE_CELLS): row k's text at
 * out->records + k * out->cell, zero-padded to the cell's end.  A row is
 * written straight into its cell when the room it may take (FX_MAX_OUTPUT
 * past its length) stays within the call's cells: what lands past the row
 * is in the next cells, written after it.  The last rows of a call are
 * written aside first.  A row longer than a cell, or too long to be
 * written aside, stops the call (FX_STOP_WIDE), the cells from it on
 * undefined: the caller takes the text path instead. */
static size_t normalize_cells(const fx_batch_opts *o, const fx_rows *rows, size_t k, size_t n,
                              fx_batch_out *out)
{
    fx_pos pos;
    fx_span span, ops;
    int fields, why;
    int64_t start, end;
    size_t full, kept, cell = out->cell;
    uint8_t aside[FX_MAX_OUTPUT + 80];
    const uint8_t *limit = out->records + n * cell; /* past the call's last cell */
    for (; k < n; k++) {
        uint8_t *at = out->records + k * cell;
        const uint8_t *text = row_bytes(rows, k, &full, &start, &end);
        size_t len = fx_line_length(text, full);
        int rc = parse_kept(o, rows, k, text, len, start, end, &pos, &span, &ops, &fields, &kept,
                            out, &why);
        if (why != FX_STOP_DONE)
            return fx_batch_stop(out, why, k);
        int direct = (size_t)(limit - at) >= FX_MAX_OUTPUT + full;
        if (!direct && FX_MAX_OUTPUT + full > sizeof aside)
            return fx_batch_stop(out, FX_STOP_WIDE, k);
        uint8_t *into = direct ? at : aside;
        size_t got = row_text(o, text, len, full, rc, kept, &pos, &span, &ops, fields, into);
        if (got > cell)
            return fx_batch_stop(out, FX_STOP_WIDE, k);
        if (!direct && got)
            memcpy(at, aside, got);
        memset(at + got, 0, cell - got);
    }
    return fx_batch_stop(out, FX_STOP_DONE, n);
}

static size_t encode(const fx_batch_opts *o, const fx_rows *rows, size_t k, size_t n,
                     fx_batch_out *out)
{
    fx_pos pos;
    fx_span span, ops;
    fx_error err;
    int fields, why;
    int64_t start, end;
    size_t full, size = o->wide ? sizeof(fx_pos) : sizeof(fx_rec8);
    for (; k < n; k++) {
        uint8_t *record = out->records + k * size;
        if (rows->nulls != NULL && rows->nulls[k]) {
            memset(record, 0, size);
            continue;
        }
        const uint8_t *text = row_bytes(rows, k, &full, &start, &end);
        int rc = parse_row(o, text, fx_line_length(text, full), &pos, &span, &ops, &fields,
                           &err);
        if (rc == 0)
            rc = fx_store_record(&pos, record, o->wide, span.start, &err);
        if (rc != 0) {
            if ((why = fail(o, rows, k, start, end, &err, out)) != FX_STOP_DONE)
                return fx_batch_stop(out, why, k);
            memset(record, 0, size);
        }
    }
    return fx_batch_stop(out, FX_STOP_DONE, n);
}

static size_t validate(const fx_batch_opts *o, const fx_rows *rows, size_t k, size_t n,
                       fx_batch_out *out)
{
    fx_pos pos;
    fx_span span, ops;
    fx_error err;
    int fields, why;
    int64_t start, end;
    size_t full;
    for (; k < n; k++) {
        if (rows->nulls != NULL && rows->nulls[k])
            continue;
        const uint8_t *text = row_bytes(rows, k, &full, &start, &end);
        size_t len = fx_line_length(text, full);
        if ((o->epd ? parse_row(o, text, len, &pos, &span, &ops, &fields, &err)
                    : fx_check_row(text, len, &err))
            && (why = fail(o, rows, k, start, end, &err, out)) != FX_STOP_DONE)
            return fx_batch_stop(out, why, k);
    }
    return fx_batch_stop(out, FX_STOP_DONE, n);
}

size_t fx_batch_rows(const fx_batch_opts *opts, const fx_rows *rows, size_t from,
                     size_t n, fx_batch_out *out)
{
    switch (opts->task) {
    case FX_NORMALIZE:
        return normalize(opts, rows, from, n, out);
    case FX_ENCODE:
        return encode(opts, rows, from, n, out);
    case FX_NORMALIZE_CELLS:
        return normalize_cells(opts, rows, from, n, out);
    default:
        return validate(opts, rows, from, n, out);
    }
}

size_t fx_batch_records(const fx_batch_opts *o, const fx_rows *rows, size_t k, size_t n,
                        fx_batch_out *out)
{
    fx_pos pos;
    fx_error err;
    int why;
    size_t size = o->wide ? sizeof(fx_pos) : sizeof(fx_rec8);
    for (; k < n; k++) {
        const uint8_t *record = rows->records + k * size;
        if (out->cap - out->len < FX_MAX_OUTPUT + 1) {
            out->need = FX_MAX_OUTPUT + 1;
            return fx_batch_stop(out, FX_STOP_TEXT, k);
        }
        if (fx_load_record(record, o->wide, &pos, &err) == 0) {
            out->len += fx_write(&pos, o->castling, o->ep, o->fields, NULL, 0,
                                 out->text + out->len);
        } else if (!(o->missing && fx_null_record(&err, record, size))
                   && (why = fail(o, rows, k, 0, 0, &err, out)) != FX_STOP_DONE) {
            return fx_batch_stop(out, why, k);
        }
        if (o->terminators)
            out->text[out->len++] = '\n';
        end_row(out, k);
    }
    return fx_batch_stop(out, FX_STOP_DONE, n);
}
