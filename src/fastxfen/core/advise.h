/* Large output buffers: ask Linux for transparent huge pages, so that
 * filling a buffer of many megabytes takes a page fault per 2 MiB instead
 * of per 4 KiB (on virtual machines a fault costs microseconds).  numpy
 * does the same for its large arrays.  A no-op elsewhere. */
#ifndef FASTXFEN_ADVISE_H
#define FASTXFEN_ADVISE_H

#include <stddef.h>
#include <stdint.h>

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

#endif
