/*
 * cellbuf.c - the neutral cell grid (ui/cellbuf.h).  No curses: tests link it.
 */
#define _XOPEN_SOURCE 700   /* wcwidth */
#include "ui/cellbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "support/diag.h"

void cb_init(struct cellbuf *cb, int w, int h)
{
    memset(cb, 0, sizeof *cb);
    cb_resize(cb, w, h);
}

void cb_resize(struct cellbuf *cb, int w, int h)
{
    if (w < 0)
        w = 0;
    if (h < 0)
        h = 0;
    free(cb->cells);
    cb->w = w;
    cb->h = h;
    cb->cells = xcalloc((size_t)w * (size_t)h + 1, sizeof *cb->cells);
    cb_clear(cb);
}

void cb_free(struct cellbuf *cb)
{
    free(cb->cells);
    memset(cb, 0, sizeof *cb);
}

void cb_clear(struct cellbuf *cb)
{
    for (int i = 0; i < cb->w * cb->h; i++)
        cb->cells[i] = (struct cell){' ', R_NORMAL};
}

const struct cell *cb_at(const struct cellbuf *cb, int x, int y)
{
    if (x < 0 || y < 0 || x >= cb->w || y >= cb->h)
        return NULL;
    return &cb->cells[y * cb->w + x];
}

static struct cell *cell_at(struct cellbuf *cb, int x, int y)
{
    return (struct cell *)cb_at(cb, x, y);
}

/* Writing over half of a wide character blanks its other half. */
static void unsplit(struct cellbuf *cb, int x, int y)
{
    struct cell *c = cell_at(cb, x, y);
    if (!c)
        return;
    if (c->ch == 0) {
        struct cell *left = cell_at(cb, x - 1, y);
        if (left)
            left->ch = ' ';
    } else if (cp_width(c->ch) == 2) {
        struct cell *right = cell_at(cb, x + 1, y);
        if (right && right->ch == 0)
            right->ch = ' ';
    }
}

void cb_put(struct cellbuf *cb, int x, int y, uint32_t ch, unsigned attr)
{
    struct cell *c = cell_at(cb, x, y);
    if (!c)
        return;
    int wd = cp_width(ch);
    if (wd == 2 && x + 1 >= cb->w) {   /* no room for the right half */
        ch = ' ';
        wd = 1;
    }
    unsplit(cb, x, y);
    c->ch = ch;
    c->attr = (uint16_t)attr;
    if (wd == 2) {
        unsplit(cb, x + 1, y);
        struct cell *r = cell_at(cb, x + 1, y);
        r->ch = 0;
        r->attr = (uint16_t)attr;
    }
}

void cb_fill(struct cellbuf *cb, int x, int y, int w, int h, uint32_t ch, unsigned attr)
{
    for (int j = y; j < y + h; j++)
        for (int i = x; i < x + w; i++)
            cb_put(cb, i, j, ch, attr);
}

uint32_t utf8_decode(const char *s, int *len)
{
    const unsigned char *u = (const unsigned char *)s;
    *len = 1;
    if (u[0] < 0x80)
        return u[0];
    int n;
    uint32_t cp, min;
    if ((u[0] & 0xe0) == 0xc0) {
        n = 2;
        cp = u[0] & 0x1f;
        min = 0x80;
    } else if ((u[0] & 0xf0) == 0xe0) {
        n = 3;
        cp = u[0] & 0x0f;
        min = 0x800;
    } else if ((u[0] & 0xf8) == 0xf0) {
        n = 4;
        cp = u[0] & 0x07;
        min = 0x10000;
    } else {
        return '?';
    }
    for (int i = 1; i < n; i++) {
        if ((u[i] & 0xc0) != 0x80)
            return '?';   /* also stops at the NUL */
        cp = (cp << 6) | (u[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return '?';
    *len = n;
    return cp;
}

int cp_width(uint32_t cp)
{
    if (cp == 0)
        return 0;
    if (cp < 0x20 || cp == 0x7f)
        return 1;
    if (cp < 0x7f)
        return 1;
    int w = wcwidth((wchar_t)cp);
    return w < 0 ? 1 : w > 2 ? 2 : w;
}

int text_width(const char *s)
{
    int w = 0;
    while (s && *s) {
        int len;
        uint32_t cp = utf8_decode(s, &len);
        w += cp_width(cp);
        s += len;
    }
    return w;
}

int cb_text(struct cellbuf *cb, int x, int y, int maxw, const char *s, unsigned attr, bool ascii)
{
    if (maxw < 0)
        maxw = cb->w - x;
    if (maxw <= 0 || !s)
        return 0;
    int total = text_width(s), used = 0;
    bool cut = total > maxw;
    int room = cut ? maxw - 1 : maxw;
    while (*s) {
        int len;
        uint32_t cp = utf8_decode(s, &len);
        if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))   /* C0, DEL and C1 (0x9b is CSI) */
            cp = '?';
        if (ascii && cp > 0x7e)
            cp = '?';
        int wd = cp_width(cp);
        if (used + wd > room)
            break;
        if (wd > 0) {
            cb_put(cb, x + used, y, cp, attr);
            used += wd;
        }
        s += len;
    }
    if (cut) {
        cb_put(cb, x + used, y, ascii ? '~' : 0x2026, attr);
        used++;
    }
    return used;
}

int cb_textf(struct cellbuf *cb, int x, int y, int maxw, unsigned attr, bool ascii,
             const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return cb_text(cb, x, y, maxw, buf, attr, ascii);
}

size_t utf8_encode(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

char *cb_row(const struct cellbuf *cb, int y)
{
    char *out = xmalloc((size_t)cb->w * 4 + 1);
    size_t n = 0, keep = 0;
    for (int x = 0; y >= 0 && y < cb->h && x < cb->w; x++) {
        uint32_t ch = cb->cells[y * cb->w + x].ch;
        if (ch == 0)
            continue;
        n += utf8_encode(ch, out + n);
        if (ch != ' ')
            keep = n;
    }
    out[keep] = '\0';
    return out;
}

char *cb_dump(const struct cellbuf *cb)
{
    size_t cap = (size_t)cb->h * ((size_t)cb->w * 4 + 1) + 1, n = 0;
    char *out = xmalloc(cap);
    for (int y = 0; y < cb->h; y++) {
        char *row = cb_row(cb, y);
        size_t len = strlen(row);
        memcpy(out + n, row, len);
        n += len;
        out[n++] = '\n';
        free(row);
    }
    out[n] = '\0';
    return out;
}

bool cb_find(const struct cellbuf *cb, const char *s, int *x, int *y)
{
    for (int j = 0; j < cb->h; j++) {
        char *row = cb_row(cb, j);
        char *hit = strstr(row, s);
        if (hit) {
            /* Convert the byte offset to a column. */
            char save = *hit;
            *hit = '\0';
            int col = text_width(row);
            *hit = save;
            free(row);
            if (x)
                *x = col;
            if (y)
                *y = j;
            return true;
        }
        free(row);
    }
    return false;
}
