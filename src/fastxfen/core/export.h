/* fastxfen core: training-data export.  Positions (fx_pos) to and from
 * bitboards, dense planes, the lichess binary FEN and Stockfish's 24-byte
 * compressed position.  Pure C, no Python; every batch kernel walks arrays
 * whose lengths and strides it is given and never allocates.
 *
 * The formats are described in docs/export.md; this header only fixes the
 * names the Cython glue (_export.pyx) needs. */
#ifndef FASTXFEN_EXPORT_H
#define FASTXFEN_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "batch.h"
#include "fx.h"

/* Error codes and fields of this module, numbered after those of fx.h so an
 * fx_error can carry either kind. */
enum {
    FX_X_E_WIDTH = 64,    /* row width a, the output needs width b */
    FX_X_E_OVERLAP,       /* square `column` is claimed by planes a and b */
    FX_X_E_VALUE,         /* element `column` of plane a is not 0 or 1 */
    FX_X_E_NOT_CONSTANT,  /* plane a (an extra) is not one value throughout */
    FX_X_E_COUNTER,       /* plane a holds no valid counter */
    FX_X_E_ROOK_MARK,     /* castling-rook mark on square a, off the back ranks */
    FX_X_E_EP_MARKS,      /* more than one en-passant mark (second on square a) */
    FX_X_E_PREFIX,        /* castling prefix a cannot be stored */
    FX_X_E_TOO_MANY,      /* a pieces, the format holds at most b */
    FX_X_E_NO_BLACK_KING, /* black to move without a black king */
    FX_X_E_CASTLING_ROOK, /* right with a rook on file a: only corner rooks */
    FX_X_E_NIBBLE,        /* nibble a on square b where it cannot stand */
    FX_X_E_VARINT,        /* counter longer than 5 bytes */
    FX_X_E_RANGE,         /* counter a (0 halfmove, 1 fullmove) out of range */
    FX_X_E_VARIANT,       /* variant byte a is not standard chess */
    FX_X_E_TRAILING,      /* nonzero byte a after the last field */
    FX_X_E_LENGTH,        /* element of a bytes, the format holds at most b */
    FX_X_E_LIMIT
};

enum {
    FX_X_F_BITBOARDS = 64,
    FX_X_F_PLANES,
    FX_X_F_LICHESS,
    FX_X_F_STOCKFISH
};

/* Fill the tables of the packed formats.  Call once, before any other
 * function of this module runs (the Cython glue calls it on import). */
void fx_x_init(void);

/* ------------------------------------------------------------ bitboards */

/* The 12 bitboards of an 8x8 position (white P N B R Q K, black p n b r q k;
 * bit = square index, a1 = bit 0). */
void fx_x_bitboards(const fx_pos *pos, uint64_t out[12]);

/* ------------------------------------------------------------ planes */

/* Element type of a plane tensor. */
enum { FX_X_BOOL = 0, FX_X_UINT, FX_X_INT, FX_X_FLOAT };

/* Extra planes, written after the piece planes in the order given. */
enum {
    FX_X_TURN = 0,          /* 1 plane: all 1 when black is to move */
    FX_X_CASTLING,          /* 4 planes: all 1 when the right exists */
    FX_X_CASTLING_ROOKS,    /* 1 plane: 1 on the rook of each right */
    FX_X_EN_PASSANT,        /* 1 plane: 1 on the en-passant target */
    FX_X_HALFMOVE,          /* 1 plane: the halfmove clock (saturated) */
    FX_X_HALFMOVE_SCALED,   /* 1 plane: min(clock, 100) / 100, floats only */
    FX_X_EXTRA_KINDS
};
#define FX_X_MAX_EXTRA FX_X_EXTRA_KINDS

typedef struct {
    uint8_t width;      /* 8 (12 piece planes) or 10 (16 piece planes) */
    uint8_t flip;       /* side-to-move perspective: black to move mirrors */
    uint8_t kind;       /* FX_X_BOOL .. FX_X_FLOAT */
    uint8_t size;       /* bytes per element: 1, 2, 4 or 8 */
    uint8_t ep_mode;    /* fx_ep_mode: which en-passant targets are marked */
    uint8_t n_extra;
    uint8_t extra[FX_X_MAX_EXTRA];
} fx_x_planes;

/* Number of planes and of bytes in one position's tensor. */
size_t fx_x_plane_count(const fx_x_planes *spec);
size_t fx_x_planes_bytes(const fx_x_planes *spec);
/* Write the tensor of pos (whose width is spec->width) into out. */
void fx_x_planes_write(const fx_pos *pos, const fx_x_planes *spec, uint8_t *out);
/* Read a tensor into pos: board, and whatever the extra planes give; the
 * fields no plane gives are left as they are.  `given` gets one bit per
 * FX_X_* kind read.  No repair is done here. */
int fx_x_planes_read(const uint8_t *in, const fx_x_planes *spec, fx_pos *pos,
                     unsigned *given, fx_error *err);

/* ------------------------------------------------------------ lichess */

/* Longest element fx_x_lichess_pack writes: occupancy, 32 nibble bytes, two
 * 5-byte counters. */
#define FX_X_LICHESS_MAX 50
/* Elements longer than this are refused by the reader. */
#define FX_X_LICHESS_READ_MAX 64

/* Returns the number of bytes written (trailing zero bytes trimmed), or -1
 * with err set.  `ep` selects which en-passant targets are stored. */
int fx_x_lichess_pack(const fx_pos *pos, fx_ep_mode ep, uint8_t *out, fx_error *err);
int fx_x_lichess_unpack(const uint8_t *in, size_t len, fx_pos *pos, fx_error *err);

/* A stream of lichess values, each framed by a length byte: 0..64 and that
 * many bytes, or FX_X_FRAME_NULL alone for a null (see docs/cli.md). */
#define FX_X_FRAME_NULL 0xFF
/* Split the first `len` bytes of such a stream into at most max_n values:
 * value i is data[starts[i]:ends[i]] and nulls[i] is 1 for a null.  Stops
 * before a value that does not end inside the buffer.  Returns the number of
 * values and sets *used to the bytes they take; or returns -1 with *used the
 * offset of a length byte that is neither 0..FX_X_LICHESS_READ_MAX nor
 * FX_X_FRAME_NULL. */
int64_t fx_x_frames(const uint8_t *data, size_t len, size_t max_n, int64_t *starts,
                    int64_t *ends, uint8_t *nulls, size_t *used);

/* ------------------------------------------------------------ stockfish */

#define FX_X_STOCKFISH_SIZE 24

int fx_x_stockfish_pack(const fx_pos *pos, fx_ep_mode ep, uint8_t *out, fx_error *err);
/* Counters are not part of the format: halfmove 0, fullmove 1. */
int fx_x_stockfish_unpack(const uint8_t *in, fx_pos *pos, fx_error *err);

/* ------------------------------------------------------------ batches */

/* Where a batch reads records: n records of `stride` bytes (80 or 96). */
typedef struct {
    const uint8_t *base;
    size_t stride;
    int wide;           /* 96-byte records */
    int trusted;        /* fresh from encode: only null records can be wrong */
} fx_x_records;

/* Every batch kernel handles rows [0, n) and follows the row loop's
 * conventions (batch.h): opts gives the errors mode (and where a kernel
 * needs them en passant and record width); a failing row gets a zero output
 * and is noted in res (its row counted from 0); the kernel returns the row
 * it stopped before, res->stop saying why: done, a failure under FX_RAISE
 * (returned index past it), or res->failures full (the row is done again
 * by the next call). */
size_t fx_x_bitboards_batch(const fx_x_records *recs, size_t n, uint64_t *out,
                            const fx_batch_opts *opts, fx_batch_out *res);
size_t fx_x_planes_batch(const fx_x_records *recs, size_t n, const fx_x_planes *spec,
                         uint8_t *out, const fx_batch_opts *opts, fx_batch_out *res);
size_t fx_x_stockfish_pack_batch(const fx_x_records *recs, size_t n, uint8_t *out,
                                 const fx_batch_opts *opts, fx_batch_out *res);
/* Lichess elements are written one after the other into data (room for
 * n * FX_X_LICHESS_MAX bytes); ends[i] is where element i ends.  A failed
 * row is empty and gets valid[i] = 0. */
size_t fx_x_lichess_pack_batch(const fx_x_records *recs, size_t n, uint8_t *data,
                               int64_t *ends, uint8_t *valid, const fx_batch_opts *opts,
                               fx_batch_out *res);

/* Position defaults for the readers (bitboards, planes, stockfish): a value
 * per row when the pointer's stride is 1 row, one shared value with stride
 * 0.  Castling is given either as rook files (4 per row) or, when `files` is
 * NULL, as castling flags applied to every row's board as the text reader
 * applies them. */
typedef struct {
    const uint8_t *turn; size_t turn_step;
    const uint8_t *files; size_t files_step;    /* 4 bytes per row */
    const uint8_t *flags; size_t n_flags;
    const uint8_t *ep; size_t ep_step;
    const uint32_t *halfmove; size_t halfmove_step;
    const uint32_t *fullmove; size_t fullmove_step;
} fx_x_defaults;

/* Readers write 80-byte or (from planes, with opts->wide) 96-byte
 * records; a failed row gets the null record (all zero). */
size_t fx_x_from_bitboards_batch(const uint64_t *bb, size_t n, const fx_x_defaults *d,
                                 uint8_t *records, const fx_batch_opts *opts,
                                 fx_batch_out *res);
size_t fx_x_from_planes_batch(const uint8_t *planes, size_t n, const fx_x_planes *spec,
                              const fx_x_defaults *d, uint8_t *records,
                              const fx_batch_opts *opts, fx_batch_out *res);
/* nulls (may be NULL): rows that are null get the null record, no error. */
size_t fx_x_lichess_unpack_batch(const uint8_t *data, const int64_t *starts,
                                 const int64_t *ends, const uint8_t *nulls, size_t n,
                                 uint8_t *records, const fx_batch_opts *opts,
                                 fx_batch_out *res);
size_t fx_x_stockfish_unpack_batch(const uint8_t *data, size_t n, const fx_x_defaults *d,
                                   uint8_t *records, const fx_batch_opts *opts,
                                   fx_batch_out *res);

#endif
