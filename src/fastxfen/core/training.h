/* fastxfen core: engine training data.  Stockfish's .binpack (chains of
 * positions), .bin (40-byte records) and .plain (text) formats, read into
 * columns and written from entries.  Pure C; every function works within
 * the lengths it is given (docs/training.md describes the formats). */
#ifndef FASTXFEN_TRAINING_H
#define FASTXFEN_TRAINING_H

#include <stddef.h>
#include <stdint.h>

#include "bitio.h"
#include "fx.h"
#include "movegen.h"

/* One entry: a position, the move played in it, and what the engine and
 * the game said (score and result from the side to move's view). */
typedef struct {
    fx_board pos;
    fx_move move;
    int16_t score;
    uint16_t ply;
    int8_t result;
} fx_t_entry;

/* Why an entry could not be read or written. */
enum {
    FX_T_OK = 0,
    FX_T_E_MAGIC,        /* a block does not start with "BINP" */
    FX_T_E_BLOCK_SIZE,   /* block size a is above the limit b */
    FX_T_E_TRUNCATED,    /* the data ends a bytes into a unit of b bytes */
    FX_T_E_CHAIN_HEAD,   /* a chain's 34-byte head runs off its block (a bytes left) */
    FX_T_E_RUNS_OFF,     /* the move text runs off its block */
    FX_T_E_PIECES,       /* a pieces, the format holds at most b */
    FX_T_E_NIBBLE,       /* piece code a on square b cannot stand there */
    FX_T_E_KINGS,        /* a white and b black kings, one of each (1, 1: on one square) */
    FX_T_E_PACKED_BITS,  /* a .bin position's bits end at bit a, past b */
    FX_T_E_MOVE_BITS,    /* 16 move bits a are no move */
    FX_T_E_NULL_MOVE,    /* a null move */
    FX_T_E_ILLEGAL,      /* move a (fx_move) is not legal in its position */
    FX_T_E_PIECE_INDEX,  /* piece index a, the side has b pieces */
    FX_T_E_MOVE_INDEX,   /* destination index a, the piece has b */
    FX_T_E_SCORE_CODE,   /* a score code longer than 16 bits */
    FX_T_E_RESULT_BITS,  /* result bits a are no result */
    FX_T_E_RANGE,        /* value out of the field's range (value in `value`) */
    FX_T_E_UCI,          /* not a UCI move */
    FX_T_E_FEN,          /* the position's text failed (fen_error) */
    FX_T_E_RECORD,       /* the position record failed (fen_error) */
    FX_T_E_STORE,        /* the format cannot hold the position: FX_T_S_* in a */
    FX_T_E_LINE,         /* a .plain line that is not "key value" */
    FX_T_E_KEY,          /* a .plain key other than fen, move, score, ply, result */
    FX_T_E_REPEAT,       /* a .plain entry gives a field twice */
    FX_T_E_MISSING,      /* a .plain entry lacks a field */
    FX_T_E_NUMBER,       /* not a decimal integer */
    FX_T_E_LIMIT
};

/* Fields an error names. */
enum {
    FX_T_F_BLOCK = 0, FX_T_F_CHAIN, FX_T_F_POSITION, FX_T_F_MOVE, FX_T_F_SCORE,
    FX_T_F_PLY, FX_T_F_RESULT, FX_T_F_RULE50, FX_T_F_FULLMOVE, FX_T_F_LINE, FX_T_F_LIMIT
};

/* Positions a format cannot hold (FX_T_E_STORE's a). */
enum {
    FX_T_S_WIDTH = 1,    /* a 10-wide board */
    FX_T_S_CASTLING,     /* a right of a rook the format cannot name */
    FX_T_S_PIECES,       /* more pieces than the format has room for */
    FX_T_S_KINGS         /* not one king of each color */
};

typedef struct {
    uint32_t code;       /* FX_T_E_* */
    uint32_t field;      /* FX_T_F_* */
    uint64_t offset;     /* byte offset in the data read, or row of a table */
    int64_t chain;       /* chain index (.binpack), -1 elsewhere */
    uint32_t entry;      /* entry of the chain, 0 for its head */
    uint32_t a, b;
    int64_t value;       /* an out-of-range value; a .binpack entry's ply (-1: unknown) */
    fx_error fen_error;  /* FX_T_E_FEN, FX_T_E_RECORD */
} fx_t_error;

/* ------------------------------------------------------------ columns */

/* Where readers write an entry's columns; any pointer may be NULL.  Text
 * columns are Arrow-style: each entry's text after the last one's, its end
 * in ends[i]; *_used counts the bytes written. */
typedef struct {
    uint8_t *records;           /* fx_rec8, 80 bytes an entry */
    uint8_t *packed;            /* Stockfish's 24-byte position */
    uint8_t *fen;               /* canonical text, fx_write's modes below */
    int32_t *fen_ends;
    size_t fen_used;
    uint8_t castling, ep_mode;  /* fx_castling_mode, fx_ep_mode */
    uint8_t *uci;               /* the move, UCI text (castling as e1g1) */
    int32_t *uci_ends;
    size_t uci_used;
    uint16_t *sfmove;           /* Stockfish's 16-bit move */
    int16_t *score;
    uint16_t *ply;
    int8_t *result;
    uint32_t *rule50;
    int64_t *chain;
    fx_t_entry *entries;        /* the entries themselves, for a writer */
    uint8_t *plain;             /* each entry as .plain text (FX_PLAIN_MAX bytes of room each) */
    int32_t *plain_ends;
    size_t plain_used;
} fx_t_columns;

/* Longest FEN text a reader writes (both counters of ten digits); the
 * longest UCI text.  An Arrow-style text buffer needs FX_MAX_OUTPUT bytes
 * of room past the last entry's text. */
#define FX_T_FEN_MAX 104
#define FX_T_UCI_MAX 5

/* Write entry i's columns.  `odd` says the position's rights or target may
 * need the repair every fastxfen record gets (a chain's head).  Returns 0,
 * or -1 (FX_T_E_STORE in err) when the packed column cannot hold the
 * position. */
int fx_t_emit(fx_t_columns *c, size_t i, const fx_t_entry *e, int64_t chain, int odd,
              fx_t_error *err);

/* Chains (games) of entries in order: an entry continues the chain when its
 * position is the last entry's after its move, its ply one more and its
 * result the negation (Stockfish's rule for .binpack chains). */
typedef struct {
    fx_board after;   /* the last entry's position after its move */
    uint16_t ply;     /* the last entry's ply and result */
    int8_t result;
    int has_last;
    int64_t chain;    /* the last entry's chain */
} fx_t_chains;

void fx_t_chains_init(fx_t_chains *t, int64_t first);
int fx_t_continues(const fx_t_chains *t, const fx_t_entry *e);
/* The chain of the next entry (and remember it). */
int64_t fx_t_chain_of(fx_t_chains *t, const fx_t_entry *e);

/* The rows of a table to write: entries a reader gave, or the position as
 * text (fen, offsets of n + 1 entries) or 80-byte records; the move as UCI
 * text or Stockfish's 16 bits; score, ply and result as 64-bit integers.  missing (may be NULL)
 * is 1 + the FX_T_F_* field of a row's missing value, 0 for none. */
typedef struct {
    const fx_t_entry *entries;  /* entries a reader gave: no text to read */
    const uint8_t *fen;
    const int64_t *fen_offsets;
    const uint8_t *records;
    const uint8_t *uci;
    const int64_t *uci_offsets;
    const uint16_t *sfmove;
    const int64_t *score, *ply, *result;
    const uint8_t *missing;
} fx_t_table;

/* Row i as an entry: the position read and its target kept only when
 * Stockfish keeps it, the move read and checked legal, the numbers checked
 * against the entry's types.  0, or -1 with *err. */
int fx_t_table_entry(const fx_t_table *t, size_t i, fx_t_entry *e, fx_t_error *err);

/* ------------------------------------------------------------ Stockfish codes */

/* The 24-byte position (docs/export.md), read as Stockfish reads it: rights
 * and target as the codes say, black to move when code 15 is there. */
int fx_sf_unpack_position(const uint8_t in[24], fx_board *b, fx_t_error *err);
/* Write it; the board's rights must be of corner rooks (fx_sf_storable). */
void fx_sf_pack_position(const fx_board *b, uint8_t out[24]);
/* 0 when the 24 bytes (and .binpack) can hold b, else FX_T_S_*. */
int fx_sf_storable(const fx_board *b);
/* The move of a .binpack chain head: type << 14 | from << 8 | to << 2 |
 * promotion (types: 0 normal, 1 promotion, 2 castling, 3 en passant). */
uint16_t fx_sf_pack_move(fx_move m);
int fx_sf_unpack_move(uint16_t v, fx_move *m);
/* Keep the en-passant target only when Stockfish would (fx_ep_possible). */
void fx_sf_settle_ep(fx_board *b);

/* One ply of a chain's move text: the move (piece index, destination
 * index) and the score (a sign-folded difference to minus the previous
 * score, in 4-bit groups).  Encoding needs m legal in b; -1 when w is
 * full.  The chain reader and this encoder are compiled for the baseline
 * CPU and, on x86-64 with GCC or Clang, for POPCNT and BMI2 (plycode.h);
 * fx_t_init points fx_bp_read and fx_bp_encode_ply at those the CPU runs. */
typedef int (*fx_bp_encode_fn)(const fx_board *b, fx_move m, int16_t score, int16_t *last_score,
                               fx_bit_writer *w);
extern fx_bp_encode_fn fx_bp_encode_ply;
int fx_bp_encode_ply_generic(const fx_board *b, fx_move m, int16_t score, int16_t *last_score,
                             fx_bit_writer *w);
int fx_bp_encode_ply_bmi2(const fx_board *b, fx_move m, int16_t score, int16_t *last_score,
                          fx_bit_writer *w);
/* 1 when the CPU runs the POPCNT and BMI2 build (and PDEP is fast on it);
 * FASTXFEN_NO_BMI2 in the environment says 0. */
int fx_ply_bmi2_usable(void);
/* Fill the BMI2 build's slider tables (attacks.h) from the magic ones. */
void fx_pext_sliders_init(void);
/* fx_is_legal of the build fx_t_init chose (the readers' and writers'
 * check of every move). */
typedef int (*fx_legal_fn)(const fx_board *b, fx_move m);
extern fx_legal_fn fx_t_is_legal;
int fx_t_is_legal_generic(const fx_board *b, fx_move m);
int fx_t_is_legal_bmi2(const fx_board *b, fx_move m);
/* Choose the builds for this CPU; once, before the readers run. */
void fx_t_init(void);

/* ------------------------------------------------------------ .binpack */

#define FX_BP_HEAD 34                 /* a chain's stem and ply count */
#define FX_BP_BLOCK_LIMIT (100u << 20) /* the largest block Stockfish reads */
#define FX_BP_BLOCK_CUT (1u << 20)    /* a writer starts a block past this */

/* Reading one block's chains (the bytes after its 8-byte header). */
typedef struct {
    const uint8_t *data;
    size_t len;
    size_t offset;        /* the next chain's head */
    int64_t chain;        /* index of the chain being read */
    fx_t_entry entry;     /* the last entry given */
    uint32_t left;        /* entries of the chain still to give */
    uint32_t index;       /* entry of the chain given last */
    uint64_t bit;         /* move text read so far (bit offset in data) */
    int16_t last_score;   /* minus the last score: the base of the next */
    uint8_t odd;          /* the chain's head needed a repair */
    uint8_t done;
    uint8_t broken;       /* after an error: FX_BP_SKIP_* */
} fx_bp_reader;

/* What an error left the reader able to do. */
enum { FX_BP_SKIP_NONE = 0, FX_BP_SKIP_HEAD, FX_BP_SKIP_MOVES, FX_BP_SKIP_BLOCK };

void fx_bp_reader_init(fx_bp_reader *r, const uint8_t *data, size_t len, int64_t first_chain);
/* Read up to max_n entries into columns c from row `row` on; returns how
 * many.  With r->done set the block is over; a return short of max_n
 * without it is an error (in *err; the reader stands after the entries
 * given and the error's chain is lost, see fx_bp_skip_chain). */
typedef size_t (*fx_bp_read_fn)(fx_bp_reader *r, fx_t_columns *c, size_t row, size_t max_n,
                                fx_t_error *err);
extern fx_bp_read_fn fx_bp_read;
size_t fx_bp_read_generic(fx_bp_reader *r, fx_t_columns *c, size_t row, size_t max_n,
                          fx_t_error *err);
size_t fx_bp_read_bmi2(fx_bp_reader *r, fx_t_columns *c, size_t row, size_t max_n,
                       fx_t_error *err);
/* Parts of the reader: the next chain's head, and the chain's next ply
 * (checked legal with `check`).  0, or -1 with *err. */
int fx_bp_read_head(fx_bp_reader *r, fx_t_error *err);
int fx_bp_next_ply_generic(fx_bp_reader *r, int check, fx_t_error *err);
int fx_bp_next_ply_bmi2(fx_bp_reader *r, int check, fx_t_error *err);
/* After an error inside a chain's move text: skip the rest of the chain
 * if its moves can still be followed (an illegal move); returns 0, or -1
 * when the block cannot be followed further (r->done is then set). */
int fx_bp_skip_chain(fx_bp_reader *r, fx_t_error *err);

/* Writing: chains formed and blocks cut as Stockfish's writer does. */
typedef struct {
    uint8_t *block;       /* the block being filled (no header) */
    size_t cap, len;      /* its room (FX_BP_WRITER_ROOM) and bytes used */
    fx_t_chains chains;   /* the entries added */
    int open;             /* a chain is open: its count sits at count_at */
    size_t count_at;
    uint32_t count;
    fx_bit_writer text;   /* the open chain's move text, after its count */
    int16_t last_score;
} fx_bp_writer;

/* Room a writer's block needs: the cut, the longest chain and its head. */
#define FX_BP_WRITER_ROOM (FX_BP_BLOCK_CUT + FX_BP_HEAD + 16384u * 4u + 64u)

void fx_bp_writer_init(fx_bp_writer *w, uint8_t *block, size_t cap);
/* Add an entry.  Returns 0, 1 when the block (w->block, w->len bytes)
 * is complete and must be written out before the entry is added again
 * (fx_bp_writer_flushed), or -1 with *err (nothing added). */
int fx_bp_add(fx_bp_writer *w, const fx_t_entry *e, fx_t_error *err);
/* Add rows [start, start + n) of t; returns the rows added.  *status: 0
 * all added, 1 the block is complete (write it out, fx_bp_writer_flushed,
 * go on from the row returned), -1 an error at that row (*err). */
size_t fx_bp_write_rows(fx_bp_writer *w, const fx_t_table *t, size_t start, size_t n,
                        int *status, fx_t_error *err);
/* Close the open chain: the block is then complete. */
void fx_bp_finish(fx_bp_writer *w);
/* The caller wrote the block out: start the next one. */
void fx_bp_writer_flushed(fx_bp_writer *w);

/* ------------------------------------------------------------ .bin */

#define FX_BIN_SIZE 40

/* One record: 0, or -1 with *err (offsets relative to the record). */
int fx_bin_read(const uint8_t in[FX_BIN_SIZE], fx_t_entry *e, fx_t_error *err);
/* Needs the entry's rights to be of the outermost rooks, rule50 below 128,
 * a fullmove number below 65536 and 256 bits for the position. */
int fx_bin_write(const fx_t_entry *e, uint8_t out[FX_BIN_SIZE], fx_t_error *err);
/* Up to n records of data into columns from row on; returns how many.  An
 * error stops it (err set, err->offset the record's byte offset). */
size_t fx_bin_read_many(const uint8_t *data, size_t n, fx_t_columns *c, fx_t_chains *chains,
                        size_t row, fx_t_error *err);
/* Rows [start, start + n) of t into out (40 bytes each); returns the rows
 * written, stopping at an error (*err). */
size_t fx_bin_write_rows(const fx_t_table *t, size_t start, size_t n, uint8_t *out,
                         fx_t_error *err);

/* ------------------------------------------------------------ .plain */

/* Longest text of one entry. */
#define FX_PLAIN_MAX (4 + FX_MAX_OUTPUT + 6 + 5 + 3 * 28 + 2)

size_t fx_plain_write(const fx_t_entry *e, uint8_t *out);
/* Rows [start, start + n) of t into out (room for n * FX_PLAIN_MAX bytes);
 * returns the rows written, stopping at an error (*err); *used gets the
 * bytes. */
size_t fx_plain_write_rows(const fx_t_table *t, size_t start, size_t n, uint8_t *out,
                           size_t *used, fx_t_error *err);
/* Read up to max_n whole entries of text[0..len) into columns from row on;
 * `final` says the text ends the file (its last line needs no newline).
 * *used gets the bytes of the entries read and blank lines after them,
 * *lines the newlines among those bytes.  An error (err->code set,
 * offsets relative to text) stops the reading with *used past the failing
 * entry. */
size_t fx_plain_read(const uint8_t *text, size_t len, int final, size_t *used, size_t *lines,
                     fx_t_columns *c, fx_t_chains *chains, size_t row, size_t max_n,
                     fx_t_error *err);

#endif
