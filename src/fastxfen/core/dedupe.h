/* The exact set of distinct positions behind fastxfen.unique and Deduper.
 * Pure C, no Python.
 *
 * Each distinct position is kept once, packed (below), in an arena of its
 * width's entries.  An index of 64-byte groups finds it by a hash of the
 * packed bytes: a group holds 12 slots, each a tag byte (8 bits of the
 * hash, never 0; 0 marks an empty slot) and a 4-byte reference to an entry.
 * A position's hash picks its home group; the slots whose tag matches are
 * candidates, and a candidate is the same position only if its packed bytes
 * are equal, so a hash collision never merges two positions.  A position not
 * found goes in the first group from its home with an empty slot.
 *
 * Packed position: a 4-byte word of fields (10-wide, side to move, prefix,
 * en-passant square, the four castling rook files), the board at 4 bits a
 * square on 8-wide boards (codes 0..12: 32 bytes) or 5 bits on 10-wide ones
 * (50 bytes), then the two counters (8 bytes) when they count: 36 bytes for
 * 8x8 (44 with counters), 54 for 10x8 (62). */
#ifndef FASTXFEN_DEDUPE_H
#define FASTXFEN_DEDUPE_H

#include "zobrist.h"

/* Longest packed position: a 10-wide board, the fields and the counters. */
#define FX_PACKED_MAX (4 + 50 + 8)
#define FX_GROUP_SLOTS 12

typedef struct {
    uint8_t tags[FX_GROUP_SLOTS];   /* 0: an empty slot */
    uint8_t spare[4];               /* always 0 */
    uint32_t refs[FX_GROUP_SLOTS];  /* bit 31: the 10-wide arena; the rest:
                                       the entry's number in its arena */
} fx_group;

/* One width's packed positions, `size` bytes each, in the order they came. */
typedef struct {
    uint8_t *data;
    size_t size;
    size_t count, cap;  /* entries held, and room for */
} fx_arena;

/* What makes two positions the same (fastxfen.KeyOptions): placement, side
 * to move and castling rights always, the en-passant target as ep keeps
 * it, the move counters when counters is set. */
typedef struct {
    int counters;
    fx_ep_mode ep;
} fx_same;

typedef struct {
    fx_group *groups;   /* 64-byte aligned, inside `block` */
    void *block;
    size_t mask;        /* group count - 1 (a power of two) */
    size_t count;       /* distinct positions held */
    size_t limit;       /* positions the index takes before it grows */
    fx_arena arenas[2]; /* 8-wide, 10-wide */
    uint64_t key_mask;  /* hashes are ANDed with it (all ones; tests force collisions) */
    struct {            /* the add call running: how the index grows */
        size_t rows, row, count;  /* its rows, the row at hand, count before it */
    } call;
    fx_same same;
} fx_dedupe;

/* An empty set of positions, the same as `same` says.  Returns 0, or -1 when
 * memory ran out. */
int fx_dedupe_init(fx_dedupe *d, const fx_same *same, uint64_t key_mask);
void fx_dedupe_free(fx_dedupe *d);
/* Bytes the set holds allocated. */
size_t fx_dedupe_bytes(const fx_dedupe *d);

/* Add n records; first[i] = 1 when row i is a position not seen before
 * (in this call or an earlier one), else 0; null rows, and refused rows
 * under recs->coerce, get 0.  Returns -1 when every row is done, -2 when
 * memory ran out, else the index of a refused row (!coerce).  Either way
 * the rows before the one it stopped at are in the set (fx_dedupe_rollback
 * takes them out again). */
int64_t fx_dedupe_add(fx_dedupe *d, const fx_key_records *recs, size_t n, uint8_t *first,
                      fx_error *err);

/* What the set holds at one moment, for fx_dedupe_rollback: the entries of
 * each arena. */
typedef struct {
    size_t counts[2];
} fx_dedupe_mark;

fx_dedupe_mark fx_dedupe_note(const fx_dedupe *d);
/* Take out every position added since `mark` was noted: the set is again
 * what it was then (its index may keep the room it grew by).  Allocates
 * nothing, so it cannot fail. */
void fx_dedupe_rollback(fx_dedupe *d, fx_dedupe_mark mark);

#endif
