/*
 * support/hugemem.h - advice that a large array read at random be backed by
 * transparent huge pages, where the system has them (Linux madvise).
 *
 * The lean engine reads its per-node arrays in the order of events, which
 * is a random order of nodes: on millions of nodes most of those reads miss
 * the TLB as well as the caches.  With 2 MB pages the TLB covers gigabytes
 * instead of megabytes.  The advice changes nothing else: the memory is
 * allocated and freed as usual, and where huge pages are off or unknown the
 * call does nothing.
 */
#ifndef HETCAST_HUGEMEM_H
#define HETCAST_HUGEMEM_H

#include <stddef.h>

/* Advise [p, p + n) before it is first written; small arrays are left alone. */
void mem_advise_huge(void *p, size_t n);
/* Map [p, p + n) at once, before an array written whole is first written: one call
 * instead of a page fault a page (Linux MADV_POPULATE_WRITE); elsewhere nothing. */
void mem_populate(void *p, size_t n);

#endif
