/* Bit helpers that compile with GCC, Clang and MSVC. */
#ifndef FASTXFEN_BITS_H
#define FASTXFEN_BITS_H

#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static __inline int fx_ctz64(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
static __inline int fx_clz32(uint32_t x) { unsigned long i; _BitScanReverse(&i, x); return 31 - (int)i; }
#else
#define fx_ctz64(x) __builtin_ctzll(x)
#define fx_clz32(x) __builtin_clz(x)
#endif

/* Words are read from byte arrays with memcpy; the byte-lane tricks assume
 * byte 0 is the low byte. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "fastxfen assumes a little-endian machine"
#endif

/* SSE2 is part of every x86-64 CPU; FASTXFEN_NO_SIMD builds the scalar code
 * paths everywhere (tests). */
#if !defined(FASTXFEN_NO_SIMD) \
    && (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2))
#define FX_SSE2 1
#include <emmintrin.h>
#endif

#endif
