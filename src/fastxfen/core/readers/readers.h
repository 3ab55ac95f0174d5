/* The placement readers and writers, a file per instruction set, and the
 * choice of the set this process runs (choose.c).
 *
 * A fast reader takes a row's placement field from s[i] (s readable below
 * end) into fx_pos's board (a1 first).  It only accepts: it returns the
 * index just past a valid field, or FX_DECLINE, and the exact reader in
 * parse.c then reads the field and names any error.  It may write board
 * even when it declines.
 *
 * - read8 (AVX-512, AVX2, SSE2, NEON) takes an 8-wide field of at most 64
 *   bytes; the 16 bytes past the 64 squares are zeroed.
 * - read (SSE2, scalar) takes a field of either width and sets *width.
 *
 * A placement writer, write8 (AVX-512, AVX2, NEON), writes an 8-wide
 * board's placement text at out (100 bytes of room) and returns its
 * length, or 0 (out untouched) to leave the board to the table-driven
 * writer in write.c.
 *
 * A reader set is what one instruction set runs: a read8 or none, a read
 * for the fields read8 declines (10-wide ones), and a write8 or none. */
#ifndef FASTXFEN_READERS_H
#define FASTXFEN_READERS_H

#include <stddef.h>
#include <stdint.h>

#include <string.h>

#include "tables.h"

#define FX_DECLINE ((size_t)-1)
#define FX_IS_BLANK(c) ((c) == ' ' || (c) == '\t')

typedef size_t (*fx_read8_fn)(const uint8_t *s, size_t i, size_t end, uint8_t board[80]);
typedef size_t (*fx_read_fn)(const uint8_t *s, size_t i, size_t end, uint8_t board[80],
                             int *width);
typedef size_t (*fx_write8_fn)(const uint8_t board[64], uint8_t *out);

typedef struct {
    fx_read8_fn read8;    /* NULL: every field goes to read */
    fx_read_fn read;
    fx_write8_fn write8;  /* NULL: the table-driven writer */
    int v3;               /* 1: rows are read by the build of parse.c's row reader for
                             x86-64-v3 (AVX2, BMI1, BMI2, LZCNT), which this CPU runs */
} fx_reader_set;

/* The set this process runs, installed by fx_readers_init. */
extern fx_reader_set fx_reader;

/* The instruction sets, in the order auto prefers the later ones. */
typedef enum {
    FX_READER_SCALAR,
    FX_READER_SSE2,
    FX_READER_AVX2,
    FX_READER_AVX512,
    FX_READER_NEON,
    FX_READERS
} fx_reader_id;

/* Which are built: SSE2 is part of every x86-64 CPU and Advanced SIMD of
 * every AArch64 one; AVX2 and AVX-512 are compiled for x86-64 and chosen
 * at run time (FX_SSE2 and FX_NEON come from bits.h).  FASTXFEN_NO_SIMD
 * builds the scalar reader alone (tests).
 * FASTXFEN_MSVC_STYLE compiles a GCC build as MSVC's: CPU detection by
 * the __cpuidex / _xgetbv intrinsics and no per-function targets (the
 * build then gives avx2.c and avx512.c their instruction sets). */
#if !defined(FASTXFEN_NO_SIMD) && (defined(__x86_64__) || defined(_M_X64))
#define FX_X86 1
#define FX_AVX2 1
#define FX_AVX512 1
#endif
#if (defined(_MSC_VER) && !defined(__clang__)) || defined(FASTXFEN_MSVC_STYLE)
#define FX_TARGET(isa)
#else
#define FX_TARGET(isa) __attribute__((target(isa)))
#endif

size_t fx_read_scalar(const uint8_t *s, size_t i, size_t end, uint8_t board[80], int *width);
#ifdef FX_SSE2
size_t fx_read8_sse2(const uint8_t *s, size_t i, size_t end, uint8_t board[80]);
size_t fx_read_sse2(const uint8_t *s, size_t i, size_t end, uint8_t board[80], int *width);
#endif
#ifdef FX_AVX2
size_t fx_read8_avx2(const uint8_t *s, size_t i, size_t end, uint8_t board[80]);
size_t fx_write8_avx2(const uint8_t board[64], uint8_t *out);
#endif
#ifdef FX_AVX512
size_t fx_read8_avx512(const uint8_t *s, size_t i, size_t end, uint8_t board[80]);
size_t fx_write8_avx512(const uint8_t board[64], uint8_t *out);
#endif
#ifdef FX_NEON
size_t fx_read8_neon(const uint8_t *s, size_t i, size_t end, uint8_t board[80]);
size_t fx_write8_neon(const uint8_t board[64], uint8_t *out);
#endif

/* CPU features, as seen: on x86 the OS must also save the registers. */
enum {
    FX_CPU_SSE2 = 1u << 0,
    FX_CPU_POPCNT = 1u << 1,
    FX_CPU_BMI1 = 1u << 2,
    FX_CPU_BMI2 = 1u << 3,
    FX_CPU_AVX2 = 1u << 4,
    FX_CPU_AVX512F = 1u << 5,
    FX_CPU_AVX512BW = 1u << 6,
    FX_CPU_AVX512VL = 1u << 7,
    FX_CPU_AVX512VBMI = 1u << 8,
    FX_CPU_AVX512VBMI2 = 1u << 9,
    FX_CPU_NEON = 1u << 10,
    FX_CPU_LZCNT = 1u << 11,
    FX_CPU_FEATURES = 12
};

/* This CPU's features (detected once). */
uint32_t fx_cpu_features(void);
/* The name of feature bit k ("avx2"), of a reader ("sse2"), of its writer
 * ("table" for the table-driven one), and of the compiler of this build. */
const char *fx_cpu_feature_name(int k);
const char *fx_reader_name(fx_reader_id id);
const char *fx_writer_name(fx_reader_id id);
const char *fx_compiler(void);
/* Whether the reader is built in; whether a CPU with these features runs it. */
int fx_reader_built(fx_reader_id id);
int fx_reader_runs(fx_reader_id id, uint32_t features);

/* The reader a request names (NULL, "" or "auto": the best built-in one
 * the features run, less AVX-512 with no_avx512 and AVX2 with no_avx2);
 * or -1, with why (n bytes) saying why the request is refused. */
int fx_choose_reader(const char *request, uint32_t features, int no_avx512, int no_avx2,
                     char *why, size_t n);
/* Install a reader built in and run by this CPU as fx_reader. */
void fx_use_reader(fx_reader_id id);
/* Choose from FASTXFEN_READER, FASTXFEN_NO_AVX512 and FASTXFEN_NO_AVX2
 * and install.  A refused request installs the auto choice and returns
 * -1; fx_readers_refusal then says why (NULL after a success). */
int fx_readers_init(void);
const char *fx_readers_refusal(void);
/* The installed reader. */
fx_reader_id fx_reader_active(void);

/* Shared by the readers and writers. */

/* The board of a grid that holds the ranks in text order (rank 8 first,
 * `width` bytes a rank). */
static inline void fx_board_from_grid(uint8_t board[80], const uint8_t *grid, int width)
{
    if (width == 8) {
        for (int r = 0; r < FX_HEIGHT; r++)
            memcpy(board + (FX_HEIGHT - 1 - r) * 8, grid + r * 8, 8);
        memset(board + 64, 0, FX_MAX_SQUARES - 64);
    } else {
        for (int r = 0; r < FX_HEIGHT; r++)
            memcpy(board + (FX_HEIGHT - 1 - r) * 10, grid + r * 10, 10);
    }
}

/* The length of a placement field at p (avail bytes readable) from the
 * blanks among its first 64 bytes (bit k: byte k; none at or past avail),
 * or FX_DECLINE when it is longer than 64 bytes. */
static inline size_t fx_field_length(uint64_t blanks, const uint8_t *p, size_t avail)
{
    if (blanks)
        return (size_t)fx_ctz64(blanks);
    if (avail <= 64)
        return avail;
    return FX_IS_BLANK(p[64]) ? 64 : FX_DECLINE;
}

/* The ranks of an 8-wide field of n bytes at text (8 more bytes readable),
 * one to a qword: rank r (rank 8 first) in rank[r], slot[r] 0xFF over its
 * bytes, cut at the seven slashes (bit k: byte k).  Returns 0 when a rank
 * is empty or longer than eight bytes. */
static inline int fx_split_ranks(const uint8_t *text, size_t n, uint64_t slashes,
                                 uint64_t rank[FX_HEIGHT], uint64_t slot[FX_HEIGHT])
{
    size_t from = 0;
    for (int r = 0; r < FX_HEIGHT; r++) {
        size_t to = r < FX_HEIGHT - 1 ? (size_t)fx_ctz64(slashes) : n;
        slashes &= slashes - 1;
        size_t len = to - from;
        if (len - 1 > 7)  /* empty, or more than eight bytes */
            return 0;
        uint64_t bytes;
        memcpy(&bytes, text + from, 8);
        slot[r] = ~0ull >> (64 - 8 * len);
        rank[r] = bytes & slot[r];
        from = to + 1;
    }
    return 1;
}

/* The texts of four 8-square ranks by their occupancies (a byte each in
 * occupied, the lowest rank's in the low byte), one to a qword of t: runs
 * of empty squares as digits, each piece as 0x80 | its file. */
static inline void fx_rank_texts(uint32_t occupied, uint64_t t[4])
{
    memcpy(&t[0], fx_rank_text[occupied & 0xFF], 8);
    memcpy(&t[1], fx_rank_text[occupied >> 8 & 0xFF], 8);
    memcpy(&t[2], fx_rank_text[occupied >> 16 & 0xFF], 8);
    memcpy(&t[3], fx_rank_text[occupied >> 24], 8);
}

/* Four ranks' texts, one to a qword of ranks (the lowest rank first, its
 * occupancy in occupied's low byte), to o highest rank first, each with
 * its slash; returns the end. */
static inline uint8_t *fx_lay_ranks(const uint8_t ranks[32], uint32_t occupied, uint8_t *o)
{
    memcpy(o, ranks + 24, 8);
    o += fx_rank_len[occupied >> 24];
    *o++ = '/';
    memcpy(o, ranks + 16, 8);
    o += fx_rank_len[occupied >> 16 & 0xFF];
    *o++ = '/';
    memcpy(o, ranks + 8, 8);
    o += fx_rank_len[occupied >> 8 & 0xFF];
    *o++ = '/';
    memcpy(o, ranks, 8);
    o += fx_rank_len[occupied & 0xFF];
    *o++ = '/';
    return o;
}

#endif
