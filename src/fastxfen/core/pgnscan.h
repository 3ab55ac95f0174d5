/* fastxfen core: one pass over PGN text that finds its games and the tags
 * `fastxfen pgn` edits (docs/pgn.md, "What counts as a game and as a FEN
 * tag").  Pure C, no Python: reads exactly the n bytes it is given.
 *
 * The text is read line by line from a line start; `inside` and `after_tag`
 * give the state there (a `{` comment is open; the line before was a tag
 * line) and hold the state after the last line when the scan returns.  The
 * header of a game never continues across the start of a scan. */
#ifndef FASTXFEN_PGNSCAN_H
#define FASTXFEN_PGNSCAN_H

#include <stddef.h>
#include <stdint.h>

/* A growable array of int64. */
typedef struct {
    int64_t *data;
    size_t len, cap;
} pgn_vec;

/* The columns of a FEN tag's row in pgn_scan.fens. */
enum {
    PGN_FEN_AT,          /* offset of the line's '[' */
    PGN_FEN_VALUE,       /* the value's span, both -1 if the line is not */
    PGN_FEN_VALUE_END,   /*   [FEN<blanks>"VALUE"]<blanks> */
    PGN_FEN_CONTENT_END, /* where the line ends, before "\n" or "\r\n" */
    PGN_FEN_CRLF,        /* 1 if the line ends with "\r\n" */
    PGN_FEN_GAME,        /* index of its game in this scan */
    PGN_FEN_LINE,        /* 0-based line number in this scan */
    PGN_FEN_COLUMNS
};

/* A name (lower case) of standard chess for the Variant tag. */
typedef struct {
    const uint8_t *text;
    size_t len;
} pgn_name;

typedef struct {
    /* in: the state at the first line (updated on return) */
    int inside, after_tag;
    /* in: whether to read Variant tags, and the names of standard chess */
    int variants;
    const pgn_name *standard;
    size_t nstandard;
    /* out */
    pgn_vec starts;       /* offset of each game's first line */
    pgn_vec start_lines;  /* and its line number */
    pgn_vec fens;         /* PGN_FEN_COLUMNS values per FEN tag */
    pgn_vec setups;       /* game of each SetUp tag */
    pgn_vec odd_variants; /* game of each Variant tag not naming standard chess */
    int64_t newlines;     /* '\n' bytes read */
    int64_t header_end;   /* offset of the first line not starting with '[', -1 if none */
    int64_t header_end_line;
} pgn_scan;

/* Scans text[0:n] into `s` (whose vectors start empty or are reused).
 * Returns 0, or -1 when out of memory. */
int pgn_scan_run(pgn_scan *s, const uint8_t *text, size_t n);

/* Frees the vectors of `s`. */
void pgn_scan_free(pgn_scan *s);

/* Writes text[0:limit] into `out` with `count` edits applied: the bytes
 * [start[k], end[k]) are replaced by rep[rep_start[k]:rep_end[k]].  The
 * edits are sorted and do not overlap; the caller checks the bounds and
 * sizes `out`.  Returns the number of bytes written. */
size_t pgn_assemble(uint8_t *out, const uint8_t *text, size_t limit, size_t count,
                    const int64_t *start, const int64_t *end, const uint8_t *rep,
                    const int64_t *rep_start, const int64_t *rep_end);

#endif
