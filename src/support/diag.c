/*
 * support/diag.c - collected diagnostics and the few allocation helpers every module
 * uses.  Out of memory (and an unprotected Lua error, which never happens
 * since every call is protected) are the only conditions not reported back:
 * diag_fatal prints one line and exits, since nothing sensible can follow.
 * It is the core's only print to stderr and only exit (tests/layering.sh).
 */
#include "support/diag.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *who = "hetcast";

void diag_set_who(const char *w)
{
    who = w;
}

const char *diag_who(void)
{
    return who;
}

/* The one place in the core that prints and exits (docs/layout.md). */
_Noreturn void diag_fatal(const char *what)
{
    fputs(who, stderr);
    fputs(": ", stderr);
    fputs(what, stderr);
    fputs("\n", stderr);
    exit(1);
}

static _Noreturn void out_of_memory(void)
{
    diag_fatal("out of memory");
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

/* Edits from a to b (optimal string alignment: insert, delete, change, swap two
 * neighbours), case ignored; capped at 99 for names longer than 62. */
static int edits(const char *a, const char *b)
{
    size_t m = strlen(a), n = strlen(b);
    if (m > 62 || n > 62)
        return 99;
    int d[64][64];
    for (size_t i = 0; i <= m; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= n; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= m; i++)
        for (size_t j = 1; j <= n; j++) {
            int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            int x = d[i - 1][j - 1] + !same;
            if (d[i - 1][j] + 1 < x)
                x = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < x)
                x = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) && d[i - 2][j - 2] + 1 < x)
                x = d[i - 2][j - 2] + 1;
            d[i][j] = x;
        }
    return d[m][n];
}

const char *text_nearest(const char *s, const char *const *names, int n)
{
    const char *best = NULL;
    int bestd = 99;
    size_t len = strlen(s);
    for (int i = 0; n < 0 ? names[i] != NULL : i < n; i++) {
        int d = edits(s, names[i]);
        if (d == 0)
            return NULL;
        size_t short_len = len < strlen(names[i]) ? len : strlen(names[i]);
        bool near = d == 1 || (d == 2 && short_len >= 6) ||
                    (2 * (size_t)d <= len && short_len >= 3 && strncasecmp(s, names[i], 3) == 0);
        if (near && d < bestd) {
            best = names[i];
            bestd = d;
        }
    }
    return best;
}

const char *text_guess(const char *s, const char *list, char *buf, size_t size)
{
    char *copy = xstrdup(list ? list : "");
    const char *names[128];
    int n = 0;
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t && n < 128;
         t = strtok_r(NULL, ",", &save)) {
        t += strspn(t, " ");
        if (strncmp(t, "and ", 4) == 0 || strncmp(t, "or ", 3) == 0)
            t += strcspn(t, " ") + 1;
        t[strcspn(t, " ")] = '\0';   /* "fnf (default)": the name */
        if (*t)
            names[n++] = t;
    }
    const char *near = text_nearest(s, names, n);
    if (size)
        buf[0] = '\0';
    if (near)
        text_fit(buf, size, "did you mean \"%s\"? ", near);
    free(copy);
    return buf;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

static char *vxasprintf(const char *fmt, va_list ap)
{
    char small[256];
    if (!fmt)   /* never, but says so to GCC's -fsanitize=null analysis */
        fmt = "";
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(small, sizeof small, fmt, aq);
    va_end(aq);
    if (n < 0)
        n = 0;
    char *s = xmalloc((size_t)n + 1);
    if ((size_t)n < sizeof small)
        memcpy(s, small, (size_t)n + 1);
    else
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vxasprintf(fmt, ap);
    va_end(ap);
    return s;
}

int set_cause(char **cause, const char *fmt, ...)
{
    if (cause) {
        va_list ap;
        va_start(ap, fmt);
        free(*cause);
        *cause = vxasprintf(fmt, ap);
        va_end(ap);
    }
    return -1;
}

void diag_init(struct diag *d)
{
    memset(d, 0, sizeof *d);
}

void diag_free(struct diag *d)
{
    for (int i = 0; i < d->nlines; i++)
        free(d->lines[i]);
    free(d->lines);
    memset(d, 0, sizeof *d);
}

static void diag_add(struct diag *d, const char *kind, const char *file, int line,
                     const char *col, const char *fmt, va_list ap)
{
    if (d->nlines >= DIAG_MAX_LINES)
        return;
    char *msg = vxasprintf(fmt, ap);
    char where[64] = "";
    if (line > 0)
        snprintf(where, sizeof where, ":%d", line);
    char *s = xasprintf("%s%s%s%s%s%s%s", file ? file : "", where, file || line > 0 ? ": " : "",
                        kind, col ? col : "", col ? ": " : "", msg);
    free(msg);
    if (d->nlines == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 8;
        d->lines = xrealloc(d->lines, (size_t)d->cap * sizeof *d->lines);
    }
    d->lines[d->nlines++] = s;
}

void diag_error(struct diag *d, const char *file, int line, const char *col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    d->errors++;
    diag_add(d, "", file, line, col, fmt, ap);
    va_end(ap);
}

void diag_warn(struct diag *d, const char *file, int line, const char *col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    d->warnings++;
    diag_add(d, "warning: ", file, line, col, fmt, ap);
    va_end(ap);
}

void diag_print(const struct diag *d, FILE *fp)
{
    for (int i = 0; i < d->nlines; i++) {
        text_put(d->lines[i], fp);
        fputc('\n', fp);
    }
    int dropped = d->errors + d->warnings - d->nlines;
    if (dropped > 0)
        fprintf(fp, "(%d more problems not shown)\n", dropped);
}

void diag_move(struct diag *to, struct diag *from)
{
    for (int i = 0; i < from->nlines; i++) {
        if (to->nlines >= DIAG_MAX_LINES) {
            free(from->lines[i]);
            continue;
        }
        if (to->nlines == to->cap) {
            to->cap = to->cap ? 2 * to->cap : 8;
            to->lines = xrealloc(to->lines, (size_t)to->cap * sizeof *to->lines);
        }
        to->lines[to->nlines++] = from->lines[i];
    }
    to->errors += from->errors;
    to->warnings += from->warnings;
    free(from->lines);
    memset(from, 0, sizeof *from);
}

char *diag_join_names(int n, const char *(*name_of)(int i))
{
    size_t len = 1;
    for (int i = 0; i < n; i++)
        len += strlen(name_of(i)) + 2;
    char *s = xmalloc(len), *p = s;
    *p = '\0';
    for (int i = 0; i < n; i++)
        p += sprintf(p, "%s%s", i ? ", " : "", name_of(i));
    return s;
}

char *diag_join(const struct diag *d)
{
    if (d->nlines == 0)
        return NULL;
    size_t len = 1;
    for (int i = 0; i < d->nlines; i++)
        len += strlen(d->lines[i]) + 1;
    char *s = xmalloc(len), *p = s;
    for (int i = 0; i < d->nlines; i++) {
        size_t k = strlen(d->lines[i]);
        memcpy(p, d->lines[i], k);
        p += k;
        *p++ = i + 1 < d->nlines ? '\n' : '\0';
    }
    return s;
}

const char *diag_shown(const char *s, char *buf, size_t size)
{
    size_t n = 0, max = size - 4;
    while (*s && n < max) {
        int k = text_char(s);
        if (k <= 0) {
            buf[n++] = '?';
            s++;
        } else if ((size_t)k > max - n) {
            break;   /* a character is not cut in two */
        } else {
            memcpy(buf + n, s, (size_t)k);
            n += (size_t)k;
            s += k;
        }
    }
    if (*s)
        memcpy(buf + n, "...", 3), n += 3;
    buf[n] = '\0';
    return buf;
}

/* Drop an incomplete UTF-8 character at the end of s (text cut to a buffer). */
static void text_cut_tail(char *s)
{
    size_t n = strlen(s);
    for (size_t back = 1; back <= 4 && back <= n; back++) {
        unsigned char c = (unsigned char)s[n - back];
        if ((c & 0xc0) == 0x80)
            continue;   /* a continuation byte: look further back for the lead */
        int need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
        if ((size_t)need > back)
            s[n - back] = '\0';   /* the lead of a character cut short */
        return;
    }
}

int text_char(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    if (p[0] < 0x20 || p[0] == 0x7f)
        return p[0] ? -1 : 0;
    if (p[0] < 0x80)
        return 1;
    int k;
    unsigned cp, min;
    if (p[0] >= 0xc2 && p[0] <= 0xdf)
        k = 2, cp = p[0] & 0x1fu, min = 0x80;
    else if (p[0] >= 0xe0 && p[0] <= 0xef)
        k = 3, cp = p[0] & 0x0fu, min = 0x800;
    else if (p[0] >= 0xf0 && p[0] <= 0xf4)
        k = 4, cp = p[0] & 0x07u, min = 0x10000;
    else
        return -1;
    for (int i = 1; i < k; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return -1;
        cp = cp << 6 | (p[i] & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return -1;   /* overlong, beyond Unicode, a surrogate */
    if (cp >= 0x80 && cp <= 0x9f)
        return -1;   /* a C1 control (U+0085, U+009B CSI ...) */
    if (cp == 0xfffe || cp == 0xffff)
        return -1;   /* the two noncharacters XML 1.0 cannot hold (an SVG, a platform file) */
    return k;
}

const char *text_flaw(const char *s)
{
    for (int k; *s; s += k)
        if ((k = text_char(s)) < 0) {
            unsigned char b = (unsigned char)*s;
            const unsigned char *u = (const unsigned char *)s;
            return b < 0x20 || b == 0x7f ? "a control character"
                   : b == 0xc2 && (u[1] & 0xe0) == 0x80 ? "a C1 control character"
                   : b == 0xef && u[1] == 0xbf && (u[2] == 0xbe || u[2] == 0xbf) ? "the noncharacter U+FFFE or U+FFFF"
                                                                                 : "bytes that are not UTF-8";
        }
    return NULL;
}

void text_put(const char *s, FILE *fp)
{
    while (*s) {
        int k = *s == '\n' || *s == '\t' ? 1 : text_char(s);
        if (k > 0) {
            fwrite(s, 1, (size_t)k, fp);
            s += k;
        } else {
            fprintf(fp, "\\x%02x", (unsigned char)*s);
            s++;
        }
    }
}

char *text_escape(const char *s)
{
    char *out = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&out, &len);
    if (!fp)
        out_of_memory();
    text_put(s, fp);
    if (fclose(fp) != 0 || !out)
        out_of_memory();
    return out;
}

int text_fit(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    if (n >= 0 && size > 0 && (size_t)n >= size)
        text_cut_tail(buf);
    return n;
}

size_t text_cut_len(const char *s, size_t n)
{
    while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
        n--;   /* s[n] continues a character: leave all of it out */
    return n;
}
