/*
 * drawkit.h - what the screens (draw.c) and the side panes (panes.c) share:
 * the glyph sets (Unicode, or ASCII when the locale is not UTF-8), number
 * formatting and text placement.  Internal to ui/; no curses.
 */
#ifndef HETCAST_DRAWKIT_H
#define HETCAST_DRAWKIT_H

#include <stdint.h>

#include "cellbuf.h"
#include "view.h"

struct glyphs {
    uint32_t fill[3];       /* send, link, recv up to the cursor */
    uint32_t plan[3];       /* after the cursor */
    uint32_t wait, wait_plan;   /* a sender sitting idle for a busy receiver */
    uint32_t hline, vline, tick, cursor, cursor_tick, tee, elbow, pipe, crit, pointer, sep, edge;
    uint32_t heavy_tee, heavy_elbow, heavy_hline;   /* the heaviest path of a tree */
    const char *to, *from, *arrow;   /* bar labels: "→p1", "←p0"; tree edges */
    const char *left, *right, *up_down, *dot;
};

const struct glyphs *ui_glyphs(const struct view *v);

/* A number as the core prints it ("2.5", "1e+06"); one of 8 rotating buffers. */
const char *ui_num(double x);

/* Text at (x, y), at most maxw columns; returns the column after it. */
int ui_put(struct view *v, struct cellbuf *cb, int x, int y, int maxw, unsigned attr,
           const char *s);

/*
 * The side pane of run i in x..x+w, y..y+h, as far as its snapshot goes:
 * an exchange's table of sending orders, a pipelined tree with the LP's
 * n(u,v), one of Figueira's trees with positions and distances, or the
 * broadcast tree of any other scheduler.
 */
void pane_draw(struct view *v, struct cellbuf *cb, int x, int y, int w, int h, int i);

#endif
