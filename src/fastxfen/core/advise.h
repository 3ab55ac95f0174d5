/* Large output buffers: ask Linux for transparent huge pages, so that
 * filling a buffer of many megabytes takes a page fault per 2 MiB instead
 * of per 4 KiB (on virtual machines a fault costs microseconds).  numpy
 * does the same for its large arrays.  A no-op elsewhere.  And a copy into
 * such a buffer. */
#ifndef FASTXFEN_ADVISE_H
#define FASTXFEN_ADVISE_H

#include <stddef.h>
#include <stdint.h>

#include <string.h>

#include "bits.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

static inline void fx_advise_huge(void *p, size_t n)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t page = 4096;
    uintptr_t start = ((uintptr_t)p + page - 1) & ~(page - 1);
    uintptr_t end = ((uintptr_t)p + n) & ~(page - 1);
    if (n >= ((size_t)4 << 20) && end > start)
        (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}

/* Copy n bytes into a large output buffer that will not be read again
 * soon: with SSE2, streaming stores from a 16-byte aligned destination (no
 * read of the destination's cache lines; plain memcpy is several times
 * slower on some CPUs when the destination is not aligned, which a job's
 * place in the result rarely is).  Ends with a store fence. */
static inline void fx_copy_out(uint8_t *dst, const uint8_t *src, size_t n)
{
#ifdef FX_SSE2
    size_t head = (16 - ((uintptr_t)dst & 15)) & 15;
    if (n < 256 || head > n) {
        memcpy(dst, src, n);
        return;
    }
    memcpy(dst, src, head);
    dst += head, src += head, n -= head;
    for (; n >= 64; n -= 64, dst += 64, src += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)src);
        __m128i b = _mm_loadu_si128((const __m128i *)(src + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(src + 32));
        __m128i d = _mm_loadu_si128((const __m128i *)(src + 48));
        _mm_stream_si128((__m128i *)dst, a);
        _mm_stream_si128((__m128i *)(dst + 16), b);
        _mm_stream_si128((__m128i *)(dst + 32), c);
        _mm_stream_si128((__m128i *)(dst + 48), d);
    }
    memcpy(dst, src, n);
    _mm_sfence();
#else
    memcpy(dst, src, n);
#endif
}

#endif
