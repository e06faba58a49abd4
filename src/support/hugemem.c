/*
 * support/hugemem.c - transparent huge pages for large arrays, and arrays mapped
 * at once (support/hugemem.h).
 *
 * Only the 2 MB-aligned middle of the array is advised: madvise works on
 * whole pages, and the pages at either end may be shared with other data.
 */
#define _DEFAULT_SOURCE   /* MADV_HUGEPAGE is not POSIX */

#include "support/hugemem.h"

#include <stdint.h>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#define HUGE_PAGE ((uintptr_t)2 << 20)

void mem_advise_huge(void *p, size_t n)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (!p || n < 2 * HUGE_PAGE)
        return;
    uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t b = ((uintptr_t)p + n) & ~(HUGE_PAGE - 1);
    if (b > a)
        (void)madvise((void *)a, (size_t)(b - a), MADV_HUGEPAGE);   /* advice: may fail */
#else
    (void)p;
    (void)n;
#endif
}

void mem_populate(void *p, size_t n)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    long size = sysconf(_SC_PAGESIZE);
    uintptr_t page = size > 0 ? (uintptr_t)size : 4096;
    uintptr_t a = ((uintptr_t)p + page - 1) & ~(page - 1), b = ((uintptr_t)p + n) & ~(page - 1);
    if (p && n >= 64 * page && b > a)
        (void)madvise((void *)a, (size_t)(b - a), MADV_POPULATE_WRITE);   /* may fail: faults then */
#else
    (void)p;
    (void)n;
#endif
}
