/*
 * model/cluster_csv_fast.c - the CSV loader's fast paths (model/cluster_csv_fast.h): plain lines split
 * by hand, a line's name field found ahead.  Each gives exactly what the
 * readable path (libcsv) gives.
 */
#include "model/cluster_csv_fast.h"

#include <stdlib.h>
#include <string.h>

/* ---- plain lines ---- */

/*
 * How cluster_csv_fast_split sees a byte: 0 part of a field, 1 a comma, 2 the line
 * end, 3 what only libcsv reads (a quote, a CR but for a final one, a NUL).
 */
static const unsigned char byte_class[256] = {
    [','] = 1, ['\n'] = 2, ['"'] = 3, ['\r'] = 3, ['\0'] = 3,
};

/*
 * One pass finds the commas and the line end, one copy puts the line in
 * r->text, where each field gets its NUL after its trailing blanks.
 */
size_t cluster_csv_fast_split(struct csv_record *r, const char *s, size_t avail)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + avail;
    /* A buffer that ends with a line end stops every scan by itself. */
    bool stops = s[avail - 1] == '\n';
    size_t ncomma = 0, m, n;
    for (;;) {
        if (stops)
            while (byte_class[*p] == 0)
                p++;
        else
            while (p < end && byte_class[*p] == 0)
                p++;
        if (p == end) {
            m = n = avail;
            break;
        }
        unsigned cls = byte_class[*p];
        if (cls == 1) {
            if (ncomma + 2 > (size_t)r->cap)
                csvread_record_room(r, ncomma + 2);
            r->off[ncomma++] = (size_t)(p - (const unsigned char *)s);
            p++;
            continue;
        }
        m = (size_t)(p - (const unsigned char *)s);
        if (cls == 2) {
            n = m + 1;
        } else if (*p == '\r' && (p + 1 == end || p[1] == '\n')) {
            n = m + 1 + (p + 1 < end);
        } else {
            return 0;
        }
        break;
    }
    if (ncomma + 1 > (size_t)r->cap)
        csvread_record_room(r, ncomma + 1);
    r->off[ncomma] = m;
    if (m + 1 > r->text_cap)
        csvread_record_text_room(r, m + 1);
    char *t = r->text;
    memcpy(t, s, m);
    for (size_t k = 0, a = 0; k <= ncomma; k++) {
        size_t b = r->off[k], next = b + 1;
        while (a < b && (t[a] == ' ' || t[a] == '\t'))
            a++;
        while (b > a && (t[b - 1] == ' ' || t[b - 1] == '\t'))
            b--;
        t[b] = '\0';
        r->field[k] = t + a;
        r->len[k] = b - a;
        a = next;
    }
    r->n = (int)ncomma + 1;
    return n;
}

/* ---- a field ahead ---- */

const char *cluster_csv_fast_field(const char *s, const char *end, int col, const char **a,
                           const char **b)
{
    const char *eol = memchr(s, '\n', (size_t)(end - s));
    const char *x = s, *y;
    eol = eol ? eol : end;
    for (int k = col; k > 0 && x; k--) {
        x = memchr(x, ',', (size_t)(eol - x));
        x = x ? x + 1 : NULL;
    }
    *a = *b = NULL;
    if (x) {
        y = memchr(x, ',', (size_t)(eol - x));
        y = y ? y : eol;
        while (x < y && (*x == ' ' || *x == '\t'))
            x++;
        while (y > x && (y[-1] == ' ' || y[-1] == '\t' || y[-1] == '\r'))
            y--;
        *a = x;
        *b = y;
    }
    return eol < end ? eol + 1 : end;
}
