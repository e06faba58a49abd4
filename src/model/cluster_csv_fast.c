/*
 * model/cluster_csv_fast.c - the CSV loader's fast paths (model/cluster_csv_fast.h): plain lines split
 * by hand, short decimals read without strtod, a line's name field found
 * ahead.  Each gives exactly what the readable path (libcsv, strtod) gives.
 */
#include "model/cluster_csv_fast.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/diag.h"

void csv_record_room(struct csv_record *r, size_t nfields)
{
    if (nfields <= (size_t)r->cap)
        return;
    size_t cap = r->cap ? (size_t)r->cap : 16;
    while (cap < nfields)
        cap *= 2;
    r->cap = (int)cap;
    r->field = xrealloc(r->field, cap * sizeof *r->field);
    r->off = xrealloc(r->off, cap * sizeof *r->off);
    r->len = xrealloc(r->len, cap * sizeof *r->len);
}

void csv_record_text_room(struct csv_record *r, size_t bytes)
{
    if (bytes <= r->text_cap)
        return;
    while (bytes > r->text_cap)
        r->text_cap = r->text_cap ? 2 * r->text_cap : 256;
    r->text = xrealloc(r->text, r->text_cap);
}

void csv_record_free(struct csv_record *r)
{
    free(r->field);
    free(r->len);
    free(r->off);
    free(r->text);
    memset(r, 0, sizeof *r);
}

static bool is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

/* ---- plain lines ---- */

/*
 * How csv_fast_split sees a byte: 0 part of a field, 1 a comma, 2 the line
 * end, 3 what only libcsv reads (a quote, a CR but for a final one, a NUL).
 */
static const unsigned char byte_class[256] = {
    [','] = 1, ['\n'] = 2, ['"'] = 3, ['\r'] = 3, ['\0'] = 3,
};

/*
 * One pass finds the commas and the line end, one copy puts the line in
 * r->text, where each field gets its NUL after its trailing blanks.
 */
size_t csv_fast_split(struct csv_record *r, const char *s, size_t avail)
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
                csv_record_room(r, ncomma + 2);
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
        csv_record_room(r, ncomma + 1);
    r->off[ncomma] = m;
    if (m + 1 > r->text_cap)
        csv_record_text_room(r, m + 1);
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

/* ---- short decimals ---- */

/*
 * At most 15 significant digits and a power of ten within 22 make the
 * digits m and 10^|e| exact doubles, so m * 10^e or m / 10^-e is one
 * correctly rounded operation, the very double strtod gives (Clinger's
 * fast path).  It checks the syntax as it goes, so a true answer means s
 * has the SPEC's syntax too.
 */
bool csv_fast_decimal(const char *s, double *out)
{
    static const double pow10[23] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
                                     1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
                                     1e20, 1e21, 1e22};
    bool neg = *s == '-';
    if (*s == '+' || *s == '-')
        s++;
    uint64_t m = 0;
    int digits = 0, seen = 0, scale = 0;   /* significant digits, all digits */
    for (; is_digit(*s); s++, seen++)
        if (digits || *s != '0') {
            m = m * 10 + (uint64_t)(*s - '0');
            if (++digits > 15)
                return false;
        }
    if (*s == '.')
        for (s++; is_digit(*s); s++, seen++) {
            scale--;
            if (digits || *s != '0') {
                m = m * 10 + (uint64_t)(*s - '0');
                if (++digits > 15)
                    return false;
            }
        }
    if (!seen)
        return false;
    if (*s == 'e' || *s == 'E') {
        s++;
        bool eneg = *s == '-';
        if (*s == '+' || *s == '-')
            s++;
        if (!is_digit(*s))
            return false;
        int x = 0;
        for (; is_digit(*s); s++)
            if ((x = x * 10 + (*s - '0')) > 1000)
                return false;
        scale += eneg ? -x : x;
    }
    if (*s != '\0' || scale < -22 || scale > 22)
        return false;
    double v = (double)m;
    v = scale < 0 ? v / pow10[-scale] : v * pow10[scale];
    *out = neg ? -v : v;
    return true;
}

/* ---- a field ahead ---- */

const char *csv_fast_field(const char *s, const char *end, int col, const char **a,
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
