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

#include "engine/engine.h"
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

/* The digits of u (1 for 0): the bits' length times log10(2) is the count or one short. */
static inline int line_digits(unsigned long long u)
{
    static const unsigned long long pow10[20] = {
        1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull, 100000000ull,
        1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull, 10000000000000ull,
        100000000000000ull, 1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
        1000000000000000000ull, 10000000000000000000ull};
    int t = (64 - __builtin_clzll(u | 1)) * 1233 >> 12;
    return t + ((u | 1) >= pow10[t]);
}

/* v as %lld writes it: its digits counted, then written from the last, two at a time. */
static inline char *line_int(char *at, long long v)
{
    static const char pairs[] = "0001020304050607080910111213141516171819"
                                "2021222324252627282930313233343536373839"
                                "4041424344454647484950515253545556575859"
                                "6061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    if (v < 0)
        *at++ = '-';
    char *end = at + line_digits(u);
    for (at = end; u >= 100; u /= 100) {
        at -= 2;
        memcpy(at, &pairs[2 * (u % 100)], 2);
    }
    if (u >= 10) {
        at -= 2;
        memcpy(at, &pairs[2 * u], 2);
    } else {
        *--at = (char)('0' + u);
    }
    return end;
}

/* x as %s of numfmt_num(x) writes it. */
static inline char *line_num(char *at, double x)
{
    size_t len;
    const char *text = numfmt_num_cached(x, &len);
    return line_str(at, text, len);
}

/* A transfer's six times as JSON members: ", \"send_start\": 0, ... \"recv_end\": 4"
 * (JSON's transfers and Chrome's slices' args). */
static inline char *line_times(char *at, const struct transfer *t)
{
    at = line_num(LINE_LIT(at, ", \"send_start\": "), t->start);
    at = line_num(LINE_LIT(at, ", \"send_end\": "), t->send_end);
    at = line_num(LINE_LIT(at, ", \"link_start\": "), t->link_start);
    at = line_num(LINE_LIT(at, ", \"link_end\": "), t->link_end);
    at = line_num(LINE_LIT(at, ", \"recv_start\": "), t->recv_start);
    return line_num(LINE_LIT(at, ", \"recv_end\": "), t->recv_end);
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
