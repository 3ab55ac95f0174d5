/* Bit helpers that compile with GCC, Clang and MSVC. */
#ifndef FASTXFEN_BITS_H
#define FASTXFEN_BITS_H

#include <stdint.h>
#include <string.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static __inline int fx_ctz64(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
static __inline int fx_clz32(uint32_t x) { unsigned long i; _BitScanReverse(&i, x); return 31 - (int)i; }
static __inline int fx_clz64(uint64_t x) { unsigned long i; _BitScanReverse64(&i, x); return 63 - (int)i; }
#else
#define fx_ctz64(x) __builtin_ctzll(x)
#define fx_clz32(x) __builtin_clz(x)
#define fx_clz64(x) __builtin_clzll(x)
#endif

/* A function inlined wherever it is called (so that constant arguments
 * specialize it). */
#if defined(_MSC_VER) && !defined(__clang__)
#define FX_ALWAYS_INLINE __forceinline
#else
#define FX_ALWAYS_INLINE inline __attribute__((always_inline))
#endif

/* A function kept out of line wherever it is called. */
#if defined(_MSC_VER) && !defined(__clang__)
#define FX_NOINLINE __declspec(noinline)
#else
#define FX_NOINLINE __attribute__((noinline))
#endif

/* n bytes from src to dst (apart): for 16 <= n <= 96, six 16-byte blocks,
 * those past n moved back to end at n, so that the length decides no
 * branch; else memcpy. */
static inline void fx_copy96(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n - 16 > 80) {
        memcpy(dst, src, n);
        return;
    }
    uint8_t block[6][16];
    for (size_t k = 0; k < 6; k++)
        memcpy(block[k], src + (16 * k < n - 16 ? 16 * k : n - 16), 16);
    for (size_t k = 0; k < 6; k++)
        memcpy(dst + (16 * k < n - 16 ? 16 * k : n - 16), block[k], 16);
}

/* Set bits of x (the builtin would be a library call without -mpopcnt). */
static inline int fx_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}

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

/* Advanced SIMD (NEON) is part of every AArch64 CPU. */
#if !defined(FASTXFEN_NO_SIMD) && (defined(__aarch64__) || defined(_M_ARM64))
#define FX_NEON 1
#include <arm_neon.h>

/* Bit k: byte k of the 64 bytes a, b, c, d is 0xFF (the others are 0). */
static inline uint64_t fx_neon_mask64(uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t d)
{
    const uint8x16_t bit = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    uint8x16_t ab = vpaddq_u8(vandq_u8(a, bit), vandq_u8(b, bit));
    uint8x16_t cd = vpaddq_u8(vandq_u8(c, bit), vandq_u8(d, bit));
    uint8x16_t all = vpaddq_u8(ab, cd);
    all = vpaddq_u8(all, all);
    return vgetq_lane_u64(vreinterpretq_u64_u8(all), 0);
}
#endif

/* Of the 8 bytes at p, those equal to b, as a bit set (byte k = bit k):
 * the exact byte-equality trick (no borrow between bytes), then the high
 * bit of each byte gathered into one byte by a multiply. */
static inline uint32_t fx_equal8(const uint8_t *p, uint8_t b)
{
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
    uint64_t x;
    memcpy(&x, p, 8);
    uint64_t y = x ^ (0x0101010101010101ull * b);
    uint64_t hits = ~(((y & low7) + low7) | y | low7);
    return (uint32_t)(((hits >> 7) * 0x0102040810204080ull) >> 56);
}

/* Of the 16 bytes at p, the spaces (bits 0-15) and the tabs (bits 16-31),
 * as bit sets. */
static inline uint32_t fx_spaces_tabs16(const uint8_t *p)
{
#ifdef FX_SSE2
    __m128i c = _mm_loadu_si128((const __m128i *)p);
    return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(c, _mm_set1_epi8(' ')))
           | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(c, _mm_set1_epi8('\t'))) << 16;
#elif defined(FX_NEON)
    uint8x16_t c = vld1q_u8(p);
    uint8x16_t sp = vceqq_u8(c, vdupq_n_u8(' ')), tab = vceqq_u8(c, vdupq_n_u8('\t'));
    return (uint32_t)(fx_neon_mask64(sp, tab, sp, tab) & 0xFFFFFFFFu);
#else
    return (fx_equal8(p, ' ') | fx_equal8(p + 8, ' ') << 8 | fx_equal8(p, '\t') << 16
            | fx_equal8(p + 8, '\t') << 24);
#endif
}

/* Of the 16 bytes at p, the blanks (' ', '\t'), as a bit set. */
static inline uint64_t fx_blanks16(const uint8_t *p)
{
#ifdef FX_SSE2
    __m128i c = _mm_loadu_si128((const __m128i *)p);
    return (uint16_t)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8(' ')),
                                                    _mm_cmpeq_epi8(c, _mm_set1_epi8('\t'))));
#else
    uint32_t both = fx_spaces_tabs16(p);
    return (both | both >> 16) & 0xFFFF;
#endif
}

/* Of the 64 bytes at p, those equal to b, as a bit set (byte k = bit k). */
static inline uint64_t fx_equal64(const uint8_t *p, uint8_t b)
{
    uint64_t m = 0;
#ifdef FX_SSE2
    const __m128i v = _mm_set1_epi8((char)b);
    for (int k = 0; k < 4; k++)
        m |= (uint64_t)(uint16_t)_mm_movemask_epi8(
                 _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * k)), v))
             << 16 * k;
#elif defined(FX_NEON)
    const uint8x16_t v = vdupq_n_u8(b);
    m = fx_neon_mask64(vceqq_u8(vld1q_u8(p), v), vceqq_u8(vld1q_u8(p + 16), v),
                       vceqq_u8(vld1q_u8(p + 32), v), vceqq_u8(vld1q_u8(p + 48), v));
#else
    for (int k = 0; k < 8; k++)
        m |= (uint64_t)fx_equal8(p + 8 * k, b) << 8 * k;
#endif
    return m;
}

#endif
