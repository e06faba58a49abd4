/*
 * ui/cellbuf.h - the neutral screen the view draws into: a grid of cells, each
 * one wide character and one attribute (a colour role and style flags).
 *
 * Layer: drawing code (draw.c) writes here; only term.c turns it into curses
 * calls, and the tests read it back as text without any terminal.  Writes
 * outside the grid are clipped silently.  A character two columns wide
 * takes its cell and a continuation cell (ch == 0) to its right.
 */
#ifndef HETCAST_CELLBUF_H
#define HETCAST_CELLBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Colour roles: term.c maps each to a colour pair, or to plain attributes in monochrome. */
enum role {
    R_NORMAL = 0,
    R_TITLE,        /* the top bar */
    R_STATUS,       /* the bottom bar of key hints */
    R_HEAD,         /* section headings */
    R_DIM,          /* secondary text */
    R_SEND,         /* a send-port bar, up to the cursor */
    R_LINK,         /* a link bar */
    R_RECV,         /* a receive-port bar */
    R_SEND_LABEL,   /* a peer name written on a bar */
    R_LINK_LABEL,
    R_RECV_LABEL,
    R_SEND_PLAN,    /* the part of a started bar after the cursor */
    R_LINK_PLAN,
    R_RECV_PLAN,
    R_CURSOR,       /* the time cursor */
    R_CRIT,         /* the critical path */
    R_SEL,          /* the selected node */
    R_PATH,         /* the selected node's path from the source */
    R_ERROR,        /* an error message */
    R_INFO,         /* a confirmation */
    R_GOOD,         /* exercise: a choice as good as the best */
    R_BAD,          /* exercise: a choice that costs time */
    R_WAIT,         /* a sender sitting idle, waiting for a busy receiver */
    R_WAIT_PLAN,    /* the same after the cursor */
    R_COUNT
};

#define A_ROLE_MASK 0x00ffu
#define AF_BOLD 0x0100u       /* style flags, or-ed with a role */
#define AF_REVERSE 0x0200u
#define AF_UNDERLINE 0x0400u

struct cell {
    uint32_t ch;      /* a Unicode code point; 0: right half of a wide character */
    uint16_t attr;    /* role | AF_* flags */
};

struct cellbuf {
    int w, h;
    struct cell *cells;   /* h rows of w cells */
};

void cb_init(struct cellbuf *cb, int w, int h);
void cb_resize(struct cellbuf *cb, int w, int h);   /* contents are cleared */
void cb_free(struct cellbuf *cb);
void cb_clear(struct cellbuf *cb);
/* A rectangle of one character (clipped). */
void cb_fill(struct cellbuf *cb, int x, int y, int w, int h, uint32_t ch, unsigned attr);
void cb_put(struct cellbuf *cb, int x, int y, uint32_t ch, unsigned attr);
const struct cell *cb_at(const struct cellbuf *cb, int x, int y);   /* NULL outside */

/*
 * UTF-8 text at (x, y), at most maxw columns (maxw < 0: to the right edge);
 * a text cut short ends with an ellipsis ("…" or "~" when ascii).  Invalid
 * bytes and control characters show as '?'.  Returns the columns used.
 */
int cb_text(struct cellbuf *cb, int x, int y, int maxw, const char *s, unsigned attr, bool ascii);
int cb_textf(struct cellbuf *cb, int x, int y, int maxw, unsigned attr, bool ascii,
             const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* Display width of UTF-8 text in columns. */
int text_width(const char *s);
/* Decode one UTF-8 character at s (never reads past a NUL); *len gets its byte count. */
uint32_t utf8_decode(const char *s, int *len);
/* cp as UTF-8 into out (room for 4 bytes, no NUL); returns the bytes written. */
size_t utf8_encode(uint32_t cp, char *out);
/* Width of one code point: 0, 1 or 2 (unknown and control: 1). */
int cp_width(uint32_t cp);

/* For tests and captures: row y as UTF-8 with trailing blanks cut (caller frees). */
char *cb_row(const struct cellbuf *cb, int y);
/* The whole grid, rows joined by '\n' (caller frees). */
char *cb_dump(const struct cellbuf *cb);
/* Find UTF-8 text on one row; true with *x, *y of its first cell. */
bool cb_find(const struct cellbuf *cb, const char *s, int *x, int *y);

#endif
