/*
 * ui/glyphs.h - the view's alphabet, with no state: the characters it
 * draws with (a Unicode set, and an ASCII one for a locale that is not
 * UTF-8) and numbers as the screen writes them.  A leaf of ui/: it
 * includes nothing of the view, so the key table, the drawing and every
 * screen read the same glyphs.  No curses.
 */
#ifndef HETCAST_GLYPHS_H
#define HETCAST_GLYPHS_H

#include <stdbool.h>
#include <stdint.h>

struct glyphs {
    uint32_t fill[3];       /* send, link, recv up to the cursor */
    uint32_t plan[3];       /* after the cursor */
    uint32_t wait, wait_plan;   /* a sender sitting idle for a busy receiver */
    uint32_t hline, vline, tick, cursor, cursor_tick, tee, elbow, pipe, crit, pointer, sep, edge;
    uint32_t heavy_tee, heavy_elbow, heavy_hline;   /* the heaviest path of a tree */
    const char *to, *from, *arrow;   /* bar labels: "→p1", "←p0"; tree edges */
    const char *left, *right, *up_down, *dot;
    const char *up, *down;  /* the arrow keys' names */
    uint32_t target;        /* a multicast's target, before its name on its lane */
};

/* The Unicode set, or the ASCII one. */
const struct glyphs *glyphs_for(bool ascii);

/* A number rounded for reading (4 significant digits: "2.5", "0.3333"); one of 8 rotating buffers. */
const char *ui_num(double x);

#endif
