/*
 * output/export_line.h - a line of an export built by hand in a buffer and
 * written at once: the exporters' fast paths (support/fastpath.h) for the
 * lines they write millions of times, beside the fprintf that says the
 * same thing readably.  Each put appends at *at and returns the new end;
 * the caller's buffer holds the longest line it builds (numbers take at
 * most NUMFMT_SIZE - 1 bytes, integers 20).  Numbers go through
 * numfmt_num_cached, so they read as numfmt_num's (%s of it).
 */
#ifndef HETCAST_EXPORT_LINE_H
#define HETCAST_EXPORT_LINE_H

#include <stdio.h>
#include <string.h>

#include "support/numfmt.h"

static inline char *line_str(char *at, const char *s, size_t n)
{
    memcpy(at, s, n);
    return at + n;
}

/* A string literal, its length known at compile time. */
#define LINE_LIT(at, lit) line_str((at), (lit), sizeof(lit) - 1)

static inline char *line_char(char *at, char ch)
{
    *at = ch;
    return at + 1;
}

/* v as %lld writes it. */
static inline char *line_int(char *at, long long v)
{
    char digits[24];
    int nd = 0;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    if (v < 0)
        *at++ = '-';
    do
        digits[nd++] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    while (nd > 0)
        *at++ = digits[--nd];
    return at;
}

/* x as %s of numfmt_num(x) writes it. */
static inline char *line_num(char *at, double x)
{
    size_t len;
    const char *text = numfmt_num_cached(x, &len);
    return line_str(at, text, len);
}

/* buf[0, at) to fp. */
static inline void line_write(FILE *fp, const char *buf, const char *at)
{
    fwrite(buf, 1, (size_t)(at - buf), fp);
}

/* Lines gathered into one block and written a block at a time: line_begin gives where the next
 * line goes (room for `most` bytes), line_end takes its end.  Flush before anything else writes
 * to fp (and at the end). */
struct line_out {
    FILE *fp;
    size_t n;
    char buf[1 << 16];
};

static inline void line_flush(struct line_out *o)
{
    fwrite(o->buf, 1, o->n, o->fp);
    o->n = 0;
}

static inline char *line_begin(struct line_out *o, size_t most)
{
    if (o->n + most > sizeof o->buf)
        line_flush(o);
    return o->buf + o->n;
}

static inline void line_end(struct line_out *o, const char *at)
{
    o->n = (size_t)(at - o->buf);
}

#endif
