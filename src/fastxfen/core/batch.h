/* fastxfen core: the row loop.  Every kind of bulk work on text rows
 * (normalize, encode, validate) and on records (decode) runs here, over rows
 * the caller has found: spans of one buffer, or one pointer and length per
 * row.  The caller gives the output room and an array for failures; a call
 * returns how far it got, so the caller can make room and call again. */
#ifndef FASTXFEN_BATCH_H
#define FASTXFEN_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "fx.h"

typedef enum { FX_RAISE = 0, FX_COERCE = 1, FX_IGNORE = 2 } fx_errors_mode;
typedef enum { FX_NORMALIZE = 0, FX_ENCODE, FX_VALIDATE, FX_NORMALIZE_CELLS } fx_task;
enum { FX_FIELDS_SAME = 0 }; /* fields: each row keeps the number it came with */

typedef struct {
    int task;         /* fx_task (text rows only) */
    int errors;       /* fx_errors_mode */
    int castling;     /* fx_castling_mode of the text written */
    int ep;           /* fx_ep_mode of the text written */
    int fields;       /* fields written: 4, 6 or FX_FIELDS_SAME */
    int epd;          /* rows are EPD: operations instead of counters */
    int terminators;  /* copy each row's line terminator into the text */
    int wide;         /* records are 96 bytes (else 80) */
    int missing;      /* decode: a null record is missing (no text, no failure) */
    int drop_failures;/* errors "coerce" with no one to tell: failed rows are
                         not noted (they still get a failed row's output) */
} fx_batch_opts;

/* Rows [0, n) of a call.  Row k is data[starts[k]:ends[k]]; or with
 * itemsize, the fixed-width cell of row first + k of data (a numpy S or U
 * array) without its trailing NULs; or with data NULL texts[k][0:lens[k]].
 * A line terminator ("\n" or "\r\n") ending it is not part of the row's
 * text.  A row whose nulls[k] is 1 is skipped: no text, the null record, no
 * failure. */
typedef struct {
    const uint8_t *data;
    const int64_t *starts, *ends;
    size_t itemsize;        /* bytes per cell, or 0 */
    int ucs4;               /* cells are UCS-4: each code point is read as one
                               byte (non-ASCII as '?') into narrow, which
                               holds itemsize / 4 bytes */
    uint8_t *narrow;
    const uint8_t *const *texts;
    const size_t *lens;
    const uint8_t *nulls;   /* or NULL */
    const uint8_t *records; /* decode: records of opts.wide's size */
    int64_t first;          /* the number failures give row 0 */
} fx_rows;

typedef struct {
    int64_t row;          /* rows.first + k */
    int64_t start, end;   /* the row's bytes in rows.data (0 for texts) */
    fx_error err;
} fx_failure;

/* Why a call returned. */
typedef enum {
    FX_STOP_DONE = 0,     /* every row done */
    FX_STOP_FAILURE,      /* a row failed under FX_RAISE: recorded, and the
                             returned index is just past it */
    FX_STOP_TEXT,         /* the row returned needs `need` bytes of free text room */
    FX_STOP_FAILURES,     /* the row returned failed, and failures is full */
    FX_STOP_WIDE          /* normalize into cells: the row returned does not
                             fit a cell (normalize_cells in batch.c) */
} fx_stop;

typedef struct {
    uint8_t *text;        /* normalize, decode: text written ... */
    size_t len, cap;      /* ... its length and room */
    void *ends;           /* text length after row k (int64, or int32 with
                             ends32), or NULL */
    int ends32;
    uint8_t *records;     /* encode: a record per row (null for a failure);
                             normalize into cells: a cell per row */
    size_t cell;          /* normalize into cells: bytes per cell */
    fx_failure *failures; /* failed rows, in order */
    size_t n_failures, failures_cap;
    int stop;             /* fx_stop */
    size_t need;
} fx_batch_out;

/* The length of a row without its line terminator ("\n" or "\r\n"). */
size_t fx_line_length(const uint8_t *text, size_t len);

/* Text rows [from, n) as opts.task says.  Returns the row it stopped
 * before (n when done); out->stop says why. */
size_t fx_batch_rows(const fx_batch_opts *opts, const fx_rows *rows, size_t from,
                     size_t n, fx_batch_out *out);

/* Records [from, n) of rows->records written as text (decode); a record that
 * cannot be read writes no text (with terminators, an empty line). */
size_t fx_batch_records(const fx_batch_opts *opts, const fx_rows *rows, size_t from,
                        size_t n, fx_batch_out *out);

/* For loops of their own (the export kernels): note that row `row` failed
 * (its output already written as a failed row's).  Returns FX_STOP_DONE to
 * go on, or why to stop: FX_STOP_FAILURE under FX_RAISE, FX_STOP_FAILURES
 * when out->failures is full (the row is to be done again).  Nothing is
 * noted under opts->drop_failures. */
int fx_batch_fail(const fx_batch_opts *opts, fx_batch_out *out, int64_t row, int64_t start,
                  int64_t end, const fx_error *err);

/* Set out->stop to `why` and return the row a call stopped before: k, or
 * k + 1 past a row that failed under FX_RAISE. */
size_t fx_batch_stop(fx_batch_out *out, int why, size_t k);

/* Whether a record refused with err is the null record (every byte 0, which
 * encode writes for a missing or coerced row). */
int fx_null_record(const fx_error *err, const void *record, size_t size);

#endif
