/* Attack sets of 8x8 chess on bitboards (bit i = square i, a1 = 0, h8 = 63):
 * tables for the leapers and pawns, magic bitboards for the sliders, and
 * the lines and segments between squares.  Portable C (bits.h wrappers);
 * fx_attacks_init fills the tables once, before any other call. */
#ifndef FASTXFEN_ATTACKS_H
#define FASTXFEN_ATTACKS_H

#include <stdint.h>

#include "bits.h"

typedef struct {
    const uint64_t *table;  /* this square's slice of the attack table */
    uint64_t mask;          /* squares whose occupancy matters */
    uint64_t magic;
    unsigned shift;         /* 64 - bits of mask */
} fx_magic;

extern fx_magic fx_rook_magic[64], fx_bishop_magic[64];
extern uint64_t fx_knight_attacks[64], fx_king_attacks[64];
/* Squares a pawn of the color on the square attacks. */
extern uint64_t fx_pawn_attacks[2][64];
/* The whole line (rank, file or diagonal) through two squares, both
 * included; 0 when they share none. */
extern uint64_t fx_line[64][64];
/* Squares strictly between two squares on a shared line; 0 otherwise. */
extern uint64_t fx_between[64][64];

/* Fill the tables; 0, or -1 if a magic number does not fit (a build that
 * miscompiled the table: every caller refuses to work then). */
int fx_attacks_init(void);

/* A slider's attacks from its square's magic entry. */
static inline uint64_t fx_magic_attacks(const fx_magic *m, uint64_t occupied)
{
    return m->table[((occupied & m->mask) * m->magic) >> m->shift];
}

#ifdef FX_PEXT_SLIDERS
#include <immintrin.h>

/* A file compiled for BMI2 (core/ply_bmi2.c) looks the sliders up in
 * tables a quarter the size of the magic ones, which stay in the cache:
 * the occupancy of the square's mask gathered (PEXT) as the index, the
 * attack set stored as 16 bits, one per square of the square's rays, and
 * spread back onto them (PDEP).  fx_pext_sliders_init fills them. */
typedef struct {
    uint64_t mask;    /* squares whose occupancy matters (the magic mask) */
    uint64_t rays;    /* every square the slider can reach on an empty board */
    uint32_t offset;  /* of this square's slice in fx_slider_bits */
} fx_pext_slider;

extern fx_pext_slider fx_rook_pext[64], fx_bishop_pext[64];
extern uint16_t fx_slider_bits[102400 + 5248];

static inline uint64_t fx_rook_attacks(int sq, uint64_t occupied)
{
    const fx_pext_slider *p = &fx_rook_pext[sq];
    return _pdep_u64(fx_slider_bits[p->offset + _pext_u64(occupied, p->mask)], p->rays);
}

static inline uint64_t fx_bishop_attacks(int sq, uint64_t occupied)
{
    const fx_pext_slider *p = &fx_bishop_pext[sq];
    return _pdep_u64(fx_slider_bits[p->offset + _pext_u64(occupied, p->mask)], p->rays);
}
#else
static inline uint64_t fx_rook_attacks(int sq, uint64_t occupied)
{
    return fx_magic_attacks(&fx_rook_magic[sq], occupied);
}

static inline uint64_t fx_bishop_attacks(int sq, uint64_t occupied)
{
    return fx_magic_attacks(&fx_bishop_magic[sq], occupied);
}
#endif

static inline uint64_t fx_queen_attacks(int sq, uint64_t occupied)
{
    return fx_rook_attacks(sq, occupied) | fx_bishop_attacks(sq, occupied);
}

/* fx_select8[b][n]: the index of the n-th set bit of the byte b. */
extern uint8_t fx_select8[256][8];

/* Index of the n-th (from 0) set bit of x, which has more than n: the
 * running bit count of each byte, the first byte whose count passes n,
 * then the bit inside that byte. */
static inline int fx_select64(uint64_t x, unsigned n)
{
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    uint64_t c = x - ((x >> 1) & 0x5555555555555555ull);
    c = (c & 0x3333333333333333ull) + ((c >> 2) & 0x3333333333333333ull);
    c = (c + (c >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    uint64_t running = c * ones;  /* byte k: set bits in bytes 0..k */
    uint64_t past = ((running | highs) - ones * (n + 1)) & highs;
    int byte = fx_ctz64(past) >> 3;
    unsigned before = byte ? (unsigned)(running >> (8 * byte - 8)) & 0xFF : 0;
    return 8 * byte + fx_select8[(x >> (8 * byte)) & 0xFF][n - before];
}

#endif
