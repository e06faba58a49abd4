/*
 * model/csvread.c - a whole CSV input read within limits, the record's
 * buffers, and CSV tables through libcsv, one line at a time so that every
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
#include "model/csvread_fast.h"
#include "support/diag.h"
#include "support/hugemem.h"

#define CSV_OPTIONS (CSV_STRICT | CSV_STRICT_FINI)   /* as the cluster loader's */

void csvread_record_room(struct csv_record *r, size_t nfields)
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

void csvread_record_text_room(struct csv_record *r, size_t bytes)
{
    if (bytes <= r->text_cap)
        return;
    while (bytes > r->text_cap)
        r->text_cap = r->text_cap ? 2 * r->text_cap : 256;
    r->text = xrealloc(r->text, r->text_cap);
}

void csvread_record_free(struct csv_record *r)
{
    free(r->field);
    free(r->len);
    free(r->off);
    free(r->text);
    memset(r, 0, sizeof *r);
}

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
    csvread_record_room(&r->rec, (size_t)r->rec.n + 1);
    csvread_record_text_room(&r->rec, r->rec.text_len + len + 1);
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

/*
 * The records of buf[0 .. len) (a UTF-8 byte order mark skipped), in order;
 * on_comment may be NULL.  name is the file in messages.  Returns the
 * number of errors added to d.  O(len).
 */
static int csvread_buffer(const char *name, const char *buf, size_t len,
                          csvread_record_fn on_rec, csvread_comment_fn on_comment, void *ctx,
                          struct diag *d)
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
        if (n > (size_t)CLUSTER_MAX_CSV_LINE) {   /* not a table: stop here */
            diag_error(d, name, line, NULL, "line longer than %ld KiB (%zu bytes): refused "
                       "(docs/reliability.md, \"Limits\")", CLUSTER_MAX_CSV_LINE >> 10, n);
            break;
        }
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
    csvread_record_free(&r.rec);
    return d->errors - errors;
}

char *csvread_text(FILE *fp, const char *name, size_t *len, struct diag *d)
{
    struct stat st;
    size_t size_hint = 0;
    if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        size_hint = (uintmax_t)st.st_size > (uintmax_t)CLUSTER_MAX_CSV_BYTES
                        ? (size_t)CLUSTER_MAX_CSV_BYTES + 1 : (size_t)st.st_size;
    if (size_hint > (size_t)CLUSTER_MAX_CSV_BYTES) {
        diag_error(d, name, 0, NULL, "larger than %ld MiB: refused (the largest cluster a "
                   "CSV file can hold is smaller; docs/reliability.md, \"Limits\")",
                   CLUSTER_MAX_CSV_BYTES >> 20);
        return NULL;
    }
    /* + 1: the end is seen without another realloc */
    size_t n = 0, cap = size_hint ? size_hint + 1 : 1 << 16;
    size_t line_start = 0;  /* offset of the byte after the last '\n' seen */
    char *buf = xmalloc(cap);
    mem_advise_huge(buf, cap);
    for (;;) {
        if (n == cap)
            buf = xrealloc(buf, cap *= 2);
        size_t want = cap - n;
        if (want > (size_t)CLUSTER_MAX_CSV_BYTES + 1 - n)
            want = (size_t)CLUSTER_MAX_CSV_BYTES + 1 - n;
        size_t got = fread(buf + n, 1, want, fp);
        /* The last line break of the chunk, scanned from its end: cheap for text. */
        for (size_t i = n + got; i > n; i--)
            if (buf[i - 1] == '\n') {
                line_start = i;
                break;
            }
        n += got;
        if (n - line_start > (size_t)CLUSTER_MAX_CSV_LINE) {
            diag_error(d, name, 0, NULL, "a line longer than %ld KiB (from byte %zu on): refused "
                       "(is this a text file? docs/reliability.md, \"Limits\")",
                       CLUSTER_MAX_CSV_LINE >> 10, line_start);
            free(buf);
            return NULL;
        }
        if (n > (size_t)CLUSTER_MAX_CSV_BYTES) {
            diag_error(d, name, 0, NULL, "larger than %ld MiB: refused (the largest cluster a "
                       "CSV file can hold is smaller; docs/reliability.md, \"Limits\")",
                       CLUSTER_MAX_CSV_BYTES >> 20);
            free(buf);
            return NULL;
        }
        if (got == 0)
            break;
    }
    if (ferror(fp)) {
        diag_error(d, name, 0, NULL, "cannot read: %s", strerror(errno));
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int csvread_file(const char *path, csvread_record_fn on_rec, csvread_comment_fn on_comment,
                 void *ctx, struct diag *d)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        diag_error(d, path, 0, NULL, "cannot open: %s", strerror(errno));
        return -1;
    }
    size_t len = 0;
    char *buf = csvread_text(fp, path, &len, d);
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
    if (csvread_fast_decimal(s, out))   /* the short decimals, without strtod or the locale */
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
