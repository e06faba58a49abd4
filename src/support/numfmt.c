/*
 * support/numfmt.c - numbers as text in the C locale (support/numfmt.h).  snprintf and
 * strtod run under a C locale made once with newlocale() and put in place
 * with uselocale() around each number, so the program's own locale (the
 * view calls setlocale(LC_ALL, "")) never changes what is written.
 * hetcast is single-threaded; the locale is made by the first call.
 * The fast path (support/numfmt_fast.c, support/fastpath.h) writes the same text from the
 * double's bits, for most finite numbers, without snprintf, strtod or a
 * locale; what it does not take comes here.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "support/numfmt.h"
#include "support/numfmt_fast.h"
#include "support/fastpath.h"

#include <locale.h>
#include <stdbool.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The C locale, made once; (locale_t)0 if it cannot be (then the
 * program's locale is used, which is "C" unless it was changed). */
static locale_t c_locale(void)
{
    static locale_t loc;
    static int made;
    if (!made) {
        loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
        made = 1;
    }
    return loc;
}

/* The fewest of lo..17 significant digits that read back as x. */
static void shortest(char *buf, double x, int lo)
{
    for (int prec = lo; prec <= 17; prec++) {
        snprintf(buf, NUMFMT_SIZE, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            return;
    }
}

char *numfmt_shortest(char buf[NUMFMT_SIZE], double x)
{
    if (FAST_PATH(numfmt_fast_shortest(buf, x, 6)))
        return buf;
    if (isinf(x)) {
        strcpy(buf, x > 0 ? "inf" : "-inf");
        return buf;
    }
    locale_t loc = c_locale(), old = loc ? uselocale(loc) : (locale_t)0;
    shortest(buf, x, 6);
    if (loc)
        uselocale(old);
    return buf;
}

char *numfmt_text(char buf[NUMFMT_SIZE], double x)
{
    numfmt_shortest(buf, x);
    if (strlen(buf) > 12 && isfinite(x)) {
        if (FAST_PATH(numfmt_fast_g(buf, x, 10)))
            return buf;
        locale_t loc = c_locale(), old = loc ? uselocale(loc) : (locale_t)0;
        snprintf(buf, NUMFMT_SIZE, "%.10g", x);
        if (loc)
            uselocale(old);
    }
    return buf;
}

char *numfmt_plain(char buf[NUMFMT_SIZE], double x)
{
    if (FAST_PATH(x != 0 && !(x == floor(x) && fabs(x) < 1e15) &&
                  numfmt_fast_shortest(buf, x, 15)))
        return buf;
    locale_t loc = c_locale(), old = loc ? uselocale(loc) : (locale_t)0;
    if (x == 0)
        strcpy(buf, "0");
    else if (x == floor(x) && fabs(x) < 1e15)
        snprintf(buf, NUMFMT_SIZE, "%.0f", x);
    else
        shortest(buf, x, 15);
    if (loc)
        uselocale(old);
    return buf;
}

double numfmt_round(double x, int digits)
{
    if (FAST_PATH(x == 0))   /* "0" or "-0", read back: x itself */
        return x;
    char buf[NUMFMT_SIZE];
    locale_t loc = c_locale(), old = loc ? uselocale(loc) : (locale_t)0;
    if (!FAST_PATH(digits >= 1 && digits <= 17 && numfmt_fast_g(buf, x, digits)))   /* from the bits */
        snprintf(buf, sizeof buf, "%.*g", digits, x);
    double y = strtod(buf, NULL);
    if (loc)
        uselocale(old);
    return y;
}

/* The next of 8 rotating static buffers. */
static char *rotating(void)
{
    static char bufs[8][NUMFMT_SIZE];
    static int at;
    return bufs[at++ & 7];
}

const char *numfmt_num(double x)
{
    return numfmt_shortest(rotating(), x);
}

const char *numfmt_txt(double x)
{
    return numfmt_text(rotating(), x);
}

/* A cache of SLOTS texts keyed by a double's bits and a scale (numfmt_num_cached's and
 * numfmt_scaled_cached's): the slot of (x, scale), its text numfmt_shortest of y(x, scale)
 * (of x when y is NULL), made again when the slot held another key. */
enum { SLOTS = 4096 };
struct text_slot {
    uint64_t bits;
    double scale;
    bool used;
    unsigned char len;
    char text[NUMFMT_SIZE];
};

static const struct text_slot *cached(struct text_slot *cache, double x, double scale,
                                      double (*y)(double, double))
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    struct text_slot *s = &cache[(size_t)((b * UINT64_C(0x9e3779b97f4a7c15)) >> 52) % SLOTS];
    if (!s->used || s->bits != b || s->scale != scale) {
        numfmt_shortest(s->text, y ? y(x, scale) : x);
        s->bits = b;
        s->scale = scale;
        s->used = true;
        s->len = (unsigned char)strlen(s->text);
    }
    return s;
}

const char *numfmt_num_cached(double x, size_t *len)
{
    static struct text_slot cache[SLOTS];
    const struct text_slot *s = cached(cache, x, 1, NULL);
    *len = s->len;
    return s->text;
}

static double scaled_12(double x, double scale)
{
    return numfmt_round(x * scale, 12);
}

const char *numfmt_scaled_cached(double x, double scale, size_t *len)
{
    static struct text_slot cache[SLOTS];
    const struct text_slot *s = cached(cache, x, scale, scaled_12);
    *len = s->len;
    return s->text;
}
