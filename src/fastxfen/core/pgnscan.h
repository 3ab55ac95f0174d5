/* fastxfen core: one pass over PGN text that finds its games and the tags
 * `fastxfen pgn` edits (docs/pgn.md, "What counts as a game and as a FEN
 * tag"), and the output of a chunk of games once its FEN values are
 * normalized.  Pure C, no Python: reads exactly the n bytes it is given.
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

/* The games of a chunk, what becomes of them, and the output they make
 * (docs/pgn.md): pgn_edit_plan reads the chunk's tags and sizes the output,
 * pgn_edit_write writes it. */
enum { PGN_SELECT_ALL = 0, PGN_SELECT_STANDARD, PGN_SELECT_SETUP };
enum { PGN_ERRORS_RAISE = 0, PGN_ERRORS_COERCE, PGN_ERRORS_IGNORE };
/* Flags of a game. */
enum { PGN_KEEP = 1, PGN_FAILED = 2, PGN_EDITED = 4, PGN_DROPPED = 8 };

typedef struct {
    /* in */
    const uint8_t *text;
    size_t cut;               /* the chunk is text[0:cut]; its games are whole */
    const int64_t *starts;    /* first byte of each game, ascending */
    size_t games;
    const int64_t *fens;      /* PGN_FEN_COLUMNS per FEN tag of these games */
    size_t nfen;
    const int64_t *setups;    /* game of each SetUp tag, ascending */
    size_t nsetups;
    const int64_t *odd;       /* game of each Variant tag not naming standard chess */
    size_t nodd;
    const int64_t *failed;    /* games with a rejected FEN tag, ascending */
    size_t nfailed;
    /* the new value of FEN tag k is rep[rep_ends[k - 1]:rep_ends[k]] (from 0
     * for k = 0; rep_ends may be NULL when no game is edited) */
    const uint8_t *rep;
    const int64_t *rep_ends;
    size_t rep_len;
    int select, errors;       /* PGN_SELECT_*, PGN_ERRORS_* */
    size_t stop;              /* only games [0, stop) are written (and the
                                 bytes before the first game) */
    uint8_t *flags;           /* room for `games` flags (PGN_KEEP ...) */
    /* out (pgn_edit_plan) */
    size_t size;              /* bytes of the output */
    int64_t written;          /* games written */
    int64_t fen_tags;         /* FEN values written normalized */
    int64_t setups_added;     /* SetUp tags added */
} pgn_edit;

/* Fills e->flags and the outputs of `e`.  Returns 0, or -1 when an input
 * is out of range or order (a game, a FEN tag, a replacement). */
int pgn_edit_plan(pgn_edit *e);

/* Writes the output (e->size bytes) into `out`, after pgn_edit_plan. */
void pgn_edit_write(const pgn_edit *e, uint8_t *out);

#endif
