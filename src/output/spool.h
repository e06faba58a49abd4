/*
 * output/spool.h - a lean run's bookings kept in a temporary file, for the
 * writers that need them after the run: JSON (its header, with the makespan,
 * comes before the transfers), SVG (the lanes are chosen from the finished
 * run) and Paje (its events in time order).  hetcast run streams these
 * formats so: a lean engine (engine/engine.h) books, spool_book writes each
 * booking's nodes and times to the file, and the writer reads them back in
 * booking order, as it would read the full engine's records.  Memory stays
 * the lean engine's; the file holds at most 73 bytes a transfer (a time
 * equal to the one it follows, bit for bit, is one bit: a flag) and is removed
 * from its directory as soon as it is made (nothing is left behind, even
 * when the process is killed).  The file is read a block of SPOOL_BLOCK
 * bookings at a time, from where the block starts (kept as it is written).
 *
 * A cursor reads a run's transfers in booking order, from its records or
 * from a spool, so that one writer serves both:
 *
 *     struct spool_cursor at;
 *     spool_cursor_start(&at, &r->eng, sp);   (sp NULL: e->tr)
 *     for (const struct transfer *t; (t = spool_cursor_next(&at)); )
 *         <t->from, t->to and the times; msg 0, reason NULL from a spool>
 *     spool_cursor_end(&at);
 */
#ifndef HETCAST_SPOOL_H
#define HETCAST_SPOOL_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/engine.h"

#define SPOOL_BLOCK 4096   /* bookings read at a time, and a span of spool_least */

struct spool_rec;
struct spool {
    FILE *fp;           /* the unlinked temporary file */
    long long n;        /* bookings written */
    int err;            /* errno of the first failed write, or 0 */
    double *least;      /* least[b]: the earliest time of bookings b * SPOOL_BLOCK on, to the
                           next SPOOL_BLOCK (a start, or any time the timing rule put before it) */
    long long *start;   /* start[b]: where booking b * SPOOL_BLOCK's record starts in the file */
    long long cap;      /* least's and start's room */
    long long bytes;    /* the records' bytes, those in out included */
    unsigned char *out; /* records not yet written to fp */
    size_t nout;
    struct spool_rec *blk;   /* spool_read's block, decoded: blk_no, or -1 */
    long long blk_no;
};

/* A new empty spool in $TMPDIR (else /tmp).  0, or -1 with *cause. */
int spool_open(struct spool *sp, char **cause);
/* engine_book_fn: append a booking (ctx: struct spool).  Bookings come in
 * seq order from 0, as a lean engine makes them. */
void spool_book(void *ctx, int seq, int from, int to, const struct timing *tm);
/* The earliest time of the bookings from b * SPOOL_BLOCK to the next SPOOL_BLOCK (0 <= b,
 * b * SPOOL_BLOCK < sp->n), as spool_book saw them: what Paje's first pass would read. */
double spool_least(const struct spool *sp, long long b);
/* 0, or -1 with *cause when a write failed (a full disk). */
int spool_check(const struct spool *sp, char **cause);
void spool_close(struct spool *sp);

struct spool_cursor {
    const struct engine *e;     /* records read from e->tr when sp is NULL */
    struct spool *sp;
    long long i, n;             /* next booking, bookings */
    struct spool_rec *buf;      /* a spool's records, read a block at a time */
    unsigned char *raw;         /* the block's bytes */
    int have, at;
    struct transfer t;          /* the one handed out */
    bool names;                 /* the writer reads the nodes' names: fetched ahead (a load
                                   that stalls for a writer that reads none; true by default) */
};

/* Read e's bookings (sp NULL), or sp's (a lean run of e), from the first. */
void spool_cursor_start(struct spool_cursor *c, const struct engine *e, struct spool *sp);
/* The next booking, or NULL at the end (or on a read error: spool_check). */
const struct transfer *spool_cursor_next(struct spool_cursor *c);
void spool_cursor_end(struct spool_cursor *c);
/* Booking i (0 <= i < sp->n) into *t, without moving a cursor's place: 0, or -1
 * (sp->err set). */
int spool_read(struct spool *sp, long long i, struct transfer *t);

#endif
