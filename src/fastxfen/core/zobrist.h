/* Position keys (Zobrist hashing), and the records the key kernels read
 * (also dedupe.h's).  Pure C, no Python. */
#ifndef FASTXFEN_ZOBRIST_H
#define FASTXFEN_ZOBRIST_H

#include "fx.h"

/* zobrist_keys.c: the polyglot book format's 781 keys, in the format's
 * order (768 piece-square keys, 4 castling, 8 en-passant files, white to
 * move), and the 1313 keys of the 10x8 extension (splitmix64, seed
 * FX_WIDE_SEED; order in docs/keys.md). */
#define FX_POLYGLOT_KEYS 781
#define FX_WIDE_KEYS 1313
#define FX_WIDE_SEED 0x666173747866656Eull /* the ASCII bytes of "fastxfen" */
extern const uint64_t fx_polyglot_keys[FX_POLYGLOT_KEYS];
extern const uint64_t fx_wide_keys[FX_WIDE_KEYS];

/* Offsets of the 10x8 extension's key groups in fx_wide_keys. */
enum {
    FX_WK_PIECES = 0,       /* 80 * (code - 1) + square, codes 1..16 */
    FX_WK_CASTLING = 1280,  /* 10 * color + rook file */
    FX_WK_EP = 1300,        /* + file of the target */
    FX_WK_WHITE = 1310,     /* white to move */
    FX_WK_PREFIX = 1311     /* + prefix - 1 (s, m) */
};

/* Build the per-code square tables; once, before the first key. */
void fx_zobrist_init(void);

/* The key of a position that fx_check_record accepted (or the reader
 * produced): polyglot's for an 8-wide board, the extension's for a 10-wide
 * one.  A null record (width 0) gives 0. */
uint64_t fx_zobrist(const fx_pos *pos);

/* The records a key kernel reads, and what it does with a refused one. */
typedef struct {
    const uint8_t *base;  /* record i is at base + i * stride */
    size_t stride;
    int wide;             /* the 96-byte layout (else the 80-byte 8x8 one) */
    int trusted;          /* straight from the reader: only copied, not checked */
    int coerce;           /* a refused record holds no position and the batch
                             goes on (else the batch stops there) */
} fx_key_records;

/* Load record i of recs into *pos: trusted records are only copied, others
 * are checked (fx_load_record).  Returns 1 for a position, 0 for the null
 * record (every byte 0), -1 for a refused record (*err filled), such as a
 * record of width 0 with another byte set. */
int fx_load_any(const fx_key_records *recs, size_t i, fx_pos *pos, fx_error *err);

/* Keys of n records into out.  A null record gives 0; a refused record
 * gives 0 and, unless recs->coerce, stops the batch.  Returns -1 when every
 * row is done, else the index of the refused row. */
int64_t fx_zobrist_batch(const fx_key_records *recs, size_t n, uint64_t *out, fx_error *err);

#endif
