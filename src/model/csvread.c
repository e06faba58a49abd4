/*
 * model/csvread.c - CSV tables through libcsv, one line at a time so that every
 * record and every problem has its file line (model/csvread.h).  The cluster
 * loader (model/cluster_csv.c) has its own loop, with fast paths for files of
 * millions of rows; this one is the plain path, for the small tables
 * beside a cluster (measured traces).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "model/csvread.h"

#include <csv.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/cluster.h"

#define CSV_OPTIONS (CSV_STRICT | CSV_STRICT_FINI)   /* as the cluster loader's */

struct reader {
    struct csv_record rec;
    int rec_line;           /* where the record being assembled started */
    int cur_line;           /* the line being fed */
    bool pending;           /* a record is being assembled */
    csvread_record_fn on_record;
    void *ctx;
};

static bool is_blank(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\f' || ch == '\v';
}

static void drop(struct reader *r)
{
    r->rec.n = 0;
    r->rec.text_len = 0;
    r->pending = false;
}

static void on_field(void *s, size_t len, void *data)
{
    struct reader *r = data;
    if (!r->pending) {   /* a record after a bare CR on the same line */
        r->pending = true;
        r->rec_line = r->cur_line;
    }
    if (!s)
        len = 0;
    csv_record_room(&r->rec, (size_t)r->rec.n + 1);
    csv_record_text_room(&r->rec, r->rec.text_len + len + 1);
    r->rec.len[r->rec.n] = len;
    r->rec.off[r->rec.n++] = r->rec.text_len;
    if (len)
        memcpy(r->rec.text + r->rec.text_len, s, len);
    r->rec.text[r->rec.text_len + len] = '\0';
    r->rec.text_len += len + 1;
}

static void on_record(int term, void *data)
{
    struct reader *r = data;
    (void)term;
    bool empty = true;
    for (int i = 0; i < r->rec.n; i++) {   /* the text is complete: point into it */
        r->rec.field[i] = r->rec.text + r->rec.off[i];
        empty = empty && r->rec.len[i] == 0;
    }
    if (r->rec.n > 0 && !empty)   /* `,,,` rows, as spreadsheets write blank lines */
        r->on_record(r->ctx, r->rec_line, &r->rec);
    drop(r);
}

int csvread_buffer(const char *name, const char *buf, size_t len, csvread_record_fn on_rec,
                   csvread_comment_fn on_comment, void *ctx, struct diag *d)
{
    int errors = d->errors;
    struct reader r = {.on_record = on_rec, .ctx = ctx};
    struct csv_parser p;
    if (csv_init(&p, CSV_OPTIONS) != 0) {
        diag_error(d, name, 0, NULL, "cannot set up the CSV parser");
        return d->errors - errors;
    }
    size_t pos = len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    int line = 0;
    while (pos < len) {
        const char *s = buf + pos;
        const char *nl = memchr(s, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - s) + 1 : len - pos;
        pos += n;
        line++;
        if (memchr(s, '\0', n)) {
            diag_error(d, name, line, NULL, "NUL byte in the line (is this a text file?)");
        } else if (!r.pending && s[0] == '#') {
            size_t m = n;
            while (m > 1 && (s[m - 1] == '\n' || s[m - 1] == '\r'))
                m--;
            if (on_comment)
                on_comment(ctx, line, s + 1, m - 1);
            continue;
        } else {
            size_t i = 0;
            while (!r.pending && i < n && is_blank(s[i]))
                i++;
            if (i == n)
                continue;   /* a blank line between records */
            if (!r.pending) {
                r.pending = true;
                r.rec_line = line;
            }
            r.cur_line = line;
            if (csv_parse(&p, s, n, on_field, on_record, &r) == n)
                continue;
            diag_error(d, name, line, NULL,
                       "malformed quoting (a \" inside an unquoted field, or text after a "
                       "closing \"; write \"\" for a quote inside a quoted field)");
        }
        /* Start over on the next line with a fresh parser. */
        csv_free(&p);
        csv_init(&p, CSV_OPTIONS);
        drop(&r);
    }
    r.cur_line = line;
    if (csv_fini(&p, on_field, on_record, &r) != 0)
        diag_error(d, name, r.rec_line, NULL, "quoted field not closed (a \" is missing)");
    csv_free(&p);
    csv_record_free(&r.rec);
    return d->errors - errors;
}

int csvread_file(const char *path, csvread_record_fn on_rec, csvread_comment_fn on_comment,
                 void *ctx, struct diag *d)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        diag_error(d, path, 0, NULL, "cannot open: %s", strerror(errno));
        return -1;
    }
    struct stat st;
    size_t hint = 0, len = 0;
    if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        hint = (uintmax_t)st.st_size > (uintmax_t)CLUSTER_MAX_CSV_BYTES
                   ? (size_t)CLUSTER_MAX_CSV_BYTES + 1 : (size_t)st.st_size;
    char *buf = cluster_read_csv_text(fp, path, hint, &len, d);
    fclose(fp);
    if (!buf)
        return -1;
    int errors = csvread_buffer(path, buf, len, on_rec, on_comment, ctx, d);
    free(buf);
    return errors;
}

static bool is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

bool csvread_number_syntax(const char *s)
{
    int digits = 0;
    if (*s == '+' || *s == '-')
        s++;
    for (; is_digit(*s); s++)
        digits++;
    if (*s == '.')
        for (s++; is_digit(*s); s++)
            digits++;
    if (digits == 0)
        return false;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!is_digit(*s))
            return false;
        while (is_digit(*s))
            s++;
    }
    return *s == '\0';
}

bool csvread_number(const char *s, double *out)
{
    if (csv_fast_decimal(s, out))   /* the short decimals, without strtod or the locale */
        return true;
    if (!csvread_number_syntax(s))
        return false;
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    locale_t old = c ? uselocale(c) : (locale_t)0;
    errno = 0;
    double v = strtod(s, NULL);
    int err = errno;
    if (c) {
        uselocale(old);
        freelocale(c);
    }
    if (!isfinite(v) || (err == ERANGE && fabs(v) == HUGE_VAL))
        return false;
    *out = err == ERANGE ? 0 : v;   /* too small for a double (1e-400): it reads as 0 */
    return true;
}
