/*
 * support/timekey.h - a time's key: its bits made monotone, an
 * order-preserving map of the doubles onto the unsigned integers (-0 and +0
 * one key), and back.  The keys the heap (support/heap.c), the radix queue
 * (support/radixq.c), the node sort (model/cluster_fast.c) and the
 * timeline's sort (engine/engine.c) compare.  NaN is not a time.  Also a
 * time's bits as they are, and back (time_bits, bits_time): the lean
 * engine's table of times, the spool's test of a time equal bit for bit.
 */
#ifndef HETCAST_TIMEKEY_H
#define HETCAST_TIMEKEY_H

#include <stdint.h>
#include <string.h>

static inline uint64_t time_bits(double t)
{
    uint64_t b;
    memcpy(&b, &t, sizeof b);
    return b;
}

static inline double bits_time(uint64_t b)
{
    double t;
    memcpy(&t, &b, sizeof t);
    return t;
}

static inline uint64_t time_key(double t)
{
    uint64_t b = time_bits(t + 0.0);   /* -0 -> +0: they are equal times */
    return b >> 63 ? ~b : b | UINT64_C(1) << 63;
}

static inline double key_time(uint64_t k)
{
    return bits_time(k >> 63 ? k & ~(UINT64_C(1) << 63) : ~k);
}

#endif
