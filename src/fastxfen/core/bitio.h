/* Big-endian bit streams (the first bit is the top bit of the first byte),
 * as the .binpack move text stores them, and the 16-bit sign folding of
 * its scores.  Readers never read past the length they are given. */
#ifndef FASTXFEN_BITIO_H
#define FASTXFEN_BITIO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bits.h"

#if defined(_MSC_VER) && !defined(__clang__)
#include <stdlib.h>
#define fx_bswap64(x) _byteswap_uint64(x)
#else
#define fx_bswap64(x) __builtin_bswap64(x)
#endif

/* The 64 bits that start at bit `bit` of data[0..len); bytes past the end
 * read as 0 (the caller checks the bits it used against len). */
static inline uint64_t fx_peek_bits(const uint8_t *data, size_t len, uint64_t bit)
{
    size_t byte = (size_t)(bit >> 3);
    uint64_t word = 0;
    if (byte + 8 <= len) {
        memcpy(&word, data + byte, 8);
        word = fx_bswap64(word);
    } else {
        for (size_t i = 0; i < 8; i++)
            word = word << 8 | (byte + i < len ? data[byte + i] : 0);
    }
    return word << (bit & 7);
}

/* Bits needed to write an index below n (0 for n <= 1). */
static inline unsigned fx_index_bits(uint64_t n)
{
    return n <= 1 ? 0 : (unsigned)(64 - fx_clz64(n - 1));
}

/* The sign folding of scores: 0, -1, 1, -2, ... to 0, 1, 2, 3, ... with
 * the sign in bit 0 (Stockfish's signedToUnsigned). */
static inline uint16_t fx_fold16(int16_t v)
{
    uint16_t r = (uint16_t)v;
    if (r & 0x8000)
        r ^= 0x7FFF;
    return (uint16_t)(r << 1 | r >> 15);
}

static inline int16_t fx_unfold16(uint16_t u)
{
    uint16_t r = (uint16_t)(u >> 1 | u << 15);
    if (r & 0x8000)
        r ^= 0x7FFF;
    return (int16_t)r;
}

/* A growing big-endian bit stream in a buffer of `cap` bytes. */
typedef struct {
    uint8_t *data;
    size_t cap;
    uint64_t bits;   /* bits written */
} fx_bit_writer;

/* Append the low `n` (at most 32) bits of v; 0, or -1 when the buffer is
 * full (nothing written).  The bits after the last one written are 0. */
static inline int fx_put_bits(fx_bit_writer *w, uint32_t v, unsigned n)
{
    uint64_t end = w->bits + n;
    if (!n)
        return 0;
    if ((end + 7) / 8 > w->cap)
        return -1;
    unsigned used = (unsigned)(w->bits & 7), total = used + n;
    size_t byte = (size_t)(w->bits >> 3);
    uint64_t acc = used ? (uint64_t)(w->data[byte] >> (8 - used)) : 0;
    acc = (acc << n | (v & (uint32_t)((1ull << n) - 1))) << (64 - total);
    for (unsigned k = 0; 8 * k < total; k++)
        w->data[byte + k] = (uint8_t)(acc >> (56 - 8 * k));
    w->bits = end;
    return 0;
}

#endif
